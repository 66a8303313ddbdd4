"""paddle.static.nn.static_pylayer: a forward and a hand-written backward, each built as a sub-block of the Program.

static_pylayer is control flow like cond and while_loop (static/control_flow.py): it appends a `pylayer` op that
runs its forward block, and its gradient is a `pylayer_grad` op that runs the block built from `backward_fn`.
Both are added to control flow's tables of executor steps and gradient builders at the end of this module.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.state import STATE, unique_name
from minipaddle.core.tensor import Tensor
from minipaddle.static.block_ops import register_block_op
from minipaddle.static.control_flow import (
    _as_var,
    _flatten,
    _pack,
    external_reads,
)
from minipaddle.static.executor import run_plan
from minipaddle.static.program import ROLE_BACKWARD, Variable, default_main_program

__all__ = ["static_pylayer"]


# ---- static_pylayer ---------------------------------------------------------------------------------------------


def static_pylayer(forward_fn, inputs, backward_fn=None, name=None):
    """Return `forward_fn(*inputs)`, computed in a sub-block of the Program, whose gradient is `backward_fn`.

    `backward_fn` gets the gradient of each Variable that forward_fn returned (zeros for the ones the loss does not
    use) and returns one gradient (or None) per Variable of `inputs`. Without backward_fn no gradient goes through,
    and every input must have stop_gradient=True. Static mode only (in dynamic mode use paddle.autograd.PyLayer).

    Args:
        forward_fn (callable): called with the inputs; returns a Variable, a (nested) list/tuple of them, or None.
        inputs (list): the arguments of forward_fn (Variables, or other values passed through as they are).
        backward_fn (callable, optional): the gradient rule, or None for no backward.
        name (str, optional): unused, as in Paddle.

    Returns:
        What forward_fn returned, with each Variable replaced by the pylayer op's output.

    Example:
        >>> data = paddle.static.data("X", [-1, 5], "float32")
        >>> data.stop_gradient = False
        >>> ret = paddle.static.nn.static_pylayer(paddle.exp, [data], lambda dy: 2 * paddle.exp(dy))
        >>> data_grad = paddle.static.gradients([ret], data)[0]
    """
    fn = "static_pylayer"
    if not STATE.static_mode:
        raise RuntimeError(f"{fn}: works in static mode only; in dynamic mode use paddle.autograd.PyLayer")
    if not isinstance(inputs, list):
        raise TypeError(f"{fn}: inputs must be a list, got {type(inputs).__name__}")
    if not callable(forward_fn):
        raise TypeError(f"{fn}: forward_fn must be callable, got {type(forward_fn).__name__}")
    if backward_fn is not None and not callable(backward_fn):
        raise TypeError(f"{fn}: backward_fn must be callable or None, got {type(backward_fn).__name__}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"{fn}: name must be a str or None, got {type(name).__name__}")
    var_inputs = [v for v in inputs if isinstance(v, Variable)]
    if backward_fn is None:
        for v in var_inputs:
            if not v.stop_gradient:
                raise ValueError(f"{fn}: with backward_fn=None every input must have stop_gradient=True, but "
                                 f"{v.name}.stop_gradient is False")  # fmt: skip

    program = default_main_program()
    parent = program.current_block()
    with program.sub_block() as fwd_block:
        result = forward_fn(*inputs)
        inner = [_as_var(x, fn) for x in _flatten(result)] if result is not None else []
    no_grad = backward_fn is None or all(v.stop_gradient for v in var_inputs)
    outs = [parent.create_var(unique_name("_generated_var"), v.shape, v.dtype, stop_gradient=no_grad) for v in inner]
    attrs = {"forward_block": fwd_block.idx, "forward_outs": [v.name for v in inner], "backward_block_idx": -1,
             "backward_seeds": [], "backward_results": []}  # fmt: skip
    if backward_fn is not None:
        _build_backward(program, backward_fn, var_inputs, outs, attrs, fn)
    reads = [n for n in external_reads(program, fwd_block.idx) if n not in {v.name for v in var_inputs}]
    parent.append_op("pylayer", {"Input": [v.name for v in var_inputs], "inputs": reads},
                     {"Out": [o.name for o in outs]}, attrs, scope=STATE.scope)  # fmt: skip
    return None if result is None else _pack(result, outs)


def _build_backward(program, backward_fn, var_inputs: list, outs: list, attrs: dict, fn: str) -> None:
    """Build `backward_fn` into its own block now (the Program holds no callables): it reads placeholders that the
    `pylayer_grad` step fills with the outputs' gradients, and its results are recorded by name."""
    with program.role(ROLE_BACKWARD), program.sub_block() as bwd_block:
        seeds = [bwd_block.create_var(f"{o.name}@GRAD@PYLAYER", o.shape, o.dtype, stop_gradient=False) for o in outs]
        grads = backward_fn(*seeds)
        flat = _flatten(grads) if grads is not None else []
        if len(flat) != len(var_inputs):
            raise ValueError(f"{fn}: backward_fn must return one gradient per Variable input of forward_fn "
                             f"({len(var_inputs)}), got {len(flat)}")  # fmt: skip
        results = []
        for g in flat:
            if g is not None and not isinstance(g, (Variable, Tensor)):
                raise TypeError(f"{fn}: backward_fn must return Variables or None, got {type(g).__name__}")
            results.append(None if g is None else _as_var(g, fn).name)
    attrs.update(backward_block_idx=bwd_block.idx, backward_seeds=[s.name for s in seeds], backward_results=results)


class PyLayerStep:
    """Executor step for `pylayer`: run the forward block, copy its results to the op's outputs."""

    def __init__(self, desc, sub_plans: dict) -> None:
        self.desc = desc
        self.sub_plans = sub_plans

    def run(self, env: dict) -> None:
        run_plan(self.sub_plans["forward_block"], env)
        for out, src in zip(self.desc.outputs["Out"], self.desc.attrs["forward_outs"]):
            env[out] = env[src]


class PyLayerGradStep:
    """Executor step for `pylayer_grad`: feed the outputs' gradients to the backward block, run it, copy out."""

    def __init__(self, desc, sub_plans: dict) -> None:
        self.desc = desc
        self.sub_plans = sub_plans

    def run(self, env: dict) -> None:
        for seed, g in zip(self.desc.attrs["seeds"], self.desc.inputs["out_grads"]):
            env[seed] = env[g]
        run_plan(self.sub_plans["backward_block"], env)
        for out, src in zip(self.desc.outputs["Out"], self.desc.attrs["backward_outs"]):
            env[out] = env[src]


def pylayer_grad(desc, block, out_grads: dict, wanted: set, no_grad: set) -> dict:
    """Gradients of a `pylayer` op's inputs: one `pylayer_grad` op running the block built from backward_fn."""
    a = desc.attrs
    if a["backward_block_idx"] < 0:
        return {}
    pairs = [(n, r) for n, r in zip(desc.inputs["Input"], a["backward_results"]) if r is not None and n in wanted]
    if not pairs:
        return {}
    program = block.program
    parent = program.current_block()
    seeds = [out_grads.get(o) for o in desc.outputs["Out"]]
    seeds = [g if g is not None else ops.full_like(block.var(o), 0.0) for g, o in zip(seeds, desc.outputs["Out"])]
    base = unique_name("pylayer_grad")
    outs = [parent.create_var(f"{base}.tmp_{i}", block.var(n).shape, block.var(n).dtype, stop_gradient=False)
            for i, (n, _) in enumerate(pairs)]  # fmt: skip
    reads = [n for n in external_reads(program, a["backward_block_idx"]) if n not in a["backward_seeds"]]
    parent.append_op("pylayer_grad", {"out_grads": [g.name for g in seeds], "inputs": reads},
                     {"Out": [o.name for o in outs]},
                     {"backward_block": a["backward_block_idx"], "seeds": list(a["backward_seeds"]),
                      "backward_outs": [r for _, r in pairs]})  # fmt: skip
    result: dict = {}
    for (n, _), o in zip(pairs, outs):  # an input given twice gets both gradients
        result[n] = o if n not in result else ops.add(result[n], o)
    return result


# Registered beside cond and while: the Executor runs, and static backward differentiates, ops that run sub-blocks
# by looking their type up in static/block_ops.py.
register_block_op("pylayer", PyLayerStep, pylayer_grad)
register_block_op("pylayer_grad", PyLayerGradStep)
