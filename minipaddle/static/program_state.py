"""Program.state_dict / set_state_dict: a static Program's persistable values as paddle 2.6 hands them out.

    state = main_program.state_dict()            # {name: Tensor}, from the global scope (or `scope`)
    main_program.set_state_dict(state)           # written back; a value its variable cannot take is skipped, warned

mode 'param' gives the parameters, 'opt' the other persistable variables (optimizer moments, learning rates,
statistics), 'all' both, as paddle's.
"""

from __future__ import annotations

import warnings

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.static.executor import Scope, global_scope
from minipaddle.static.master_weights import restart_master_weights

MODES = ("all", "param", "opt")


def _scope(scope, fn: str):

    if scope is None:
        return global_scope()
    if not isinstance(scope, Scope):
        raise TypeError(f"{fn}: scope must be a paddle.static.Scope or None, got {type(scope).__name__}")
    return scope


def state_dict(program, mode: str = "all", scope=None) -> dict:
    """{name: Tensor} of the program's persistable variables that have a value in the scope."""
    fn = "Program.state_dict"
    if mode not in MODES:
        raise ValueError(f"{fn}: mode must be one of {list(MODES)}, got {mode!r}")
    scope = _scope(scope, fn)
    params = {v.name for v in program.all_parameters()}
    out = {}
    for v in program.list_vars():
        if not v.persistable or v.name not in scope.vars or v.name in out:
            continue
        is_param = v.name in params
        if mode == "all" or (mode == "param") == is_param:
            t = Tensor(np.asarray(scope.vars[v.name]))
            t.name, t.persistable = v.name, True
            out[v.name] = t
    return out


def set_state_dict(program, state_dict: dict, scope=None) -> None:
    """Write `state_dict`'s values (Tensors or numpy arrays) into the scope for the program's persistable variables
    of those names. As paddle 2.6, a name the program lacks, a value of another shape and a value that is not an
    array or Tensor are each warned about and skipped, and the others are set. A value is cast to its variable's
    dtype (paddle stores the array's own dtype, so a float64 array would turn a float32 parameter float64)."""
    fn = "Program.set_state_dict"
    if not isinstance(state_dict, dict):
        raise TypeError(f"{fn}: state_dict must be a dict, got {type(state_dict).__name__}")
    scope = _scope(scope, fn)
    variables = {v.name: v for v in program.list_vars() if v.persistable}
    checked = {}
    for name, value in state_dict.items():
        if name not in variables:
            warnings.warn(f"Skip loading for '{name}'. Because '{name}' not in the program.", stacklevel=2)
            continue
        if not isinstance(value, (Tensor, np.ndarray)):
            warnings.warn(
                f"Skip loading for '{name}'. The value should be a numpy.ndarray or a Tensor, but received "
                f"{type(value).__name__}.",
                stacklevel=2,
            )
            continue
        arr = value.numpy() if isinstance(value, Tensor) else value
        var = variables[name]
        if len(var.shape) != arr.ndim or any(s not in (-1, d) for s, d in zip(var.shape, arr.shape)):
            warnings.warn(
                f"Skip loading for '{name}'. {name} expected a shape {list(var.shape)}, but the received shape is "
                f"{list(arr.shape)}.",
                stacklevel=2,
            )
            continue
        checked[name] = arr.astype(var.dtype.np, copy=False)
    for name, arr in checked.items():
        scope.vars[name] = np.array(arr)
    restart_master_weights(program, scope, checked)
