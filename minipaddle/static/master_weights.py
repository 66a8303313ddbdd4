"""multi_precision's float32 master weights in a static Program, and what a load does to them.

The startup Program starts each master from its float16/bfloat16 parameter's initial value, and then the optimizer
reads and writes only the master, rounding it into the parameter at every step (ops/optimizer_ops.ParamUpdateOp).
So a load that writes a parameter (static.load, Program.set_state_dict, set_program_state,
deserialize_persistables) would be undone by the next step, which rounds the old master back into it. The loads
therefore restart the master from the parameter where the two no longer agree: an element of the master that still
rounds to the parameter's value keeps its extra bits (a checkpoint that holds both, or a load of the same values,
changes nothing), any other element becomes the parameter's value. (paddle 2.6's loads write only the variables
they load, so there a parameter loaded without its master is overwritten from the old master at the next step.)
"""

from __future__ import annotations

import numpy as np

__all__ = ["master_weights_of", "restart_master_weights"]


def master_weights_of(program) -> dict:
    """{parameter name: master weight name} of `program`'s multi_precision updates: each ParamUpdateOp with a
    `param_dtype` updates input 0, the master, and writes `Out` = [master, parameter]."""
    masters = {}
    for block in program.blocks:
        for op in block.ops:
            if "param_dtype" in op.attrs and op.attrs["param_dtype"] is not None:
                master, param = op.outputs["Out"]
                masters[param] = master
    return masters


def restart_master_weights(program, scope, written) -> None:
    """After a load wrote the variables named in `written` into `scope`: restart the master weight of each such
    parameter where the master no longer rounds to the parameter (the module docstring says why)."""
    written = set(written)
    for param, master in master_weights_of(program).items():
        if param not in written or master not in scope.vars or param not in scope.vars:
            continue
        low, high = np.asarray(scope.vars[param]), np.asarray(scope.vars[master])
        with np.errstate(over="ignore", invalid="ignore"):  # a master beyond float16's range rounds to Inf
            same = high.astype(low.dtype) == low
        if not same.all():
            scope.vars[master] = np.where(same, high, low.astype(np.float32))
