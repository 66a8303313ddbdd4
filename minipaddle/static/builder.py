"""The static branch of the op door: in static mode, `dispatch.apply(op, inputs, attrs)` lands here and appends
an OpDesc to the current Block instead of running the kernel.

The output Variables get their shape and dtype from the op's `infer_meta`, and their names from Paddle's
pattern (`matmul_0.tmp_0`). A Tensor with values used as an input (a constant made in Python, or a tensor made
in dynamic mode) becomes an `assign_value` op, so the Program carries its own constants.
"""

from __future__ import annotations

import functools
import inspect

from minipaddle.core import dispatch
from minipaddle.core.op import Meta, get_op
from minipaddle.core.state import STATE, set_static_mode, unique_name
from minipaddle.core.tensor import Tensor
from minipaddle.ops.constant import assign_value
from minipaddle.static.program import Variable, default_main_program


@functools.cache
def input_slots(op) -> tuple:
    """Slot names of an op's inputs: its kernel's positional parameters (`x`, `y`; `*xs` takes the rest)."""
    slots = []
    for p in inspect.signature(op.kernel).parameters.values():
        if p.kind == p.VAR_POSITIONAL:
            slots.append("*" + p.name)
        elif p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty:
            slots.append(p.name)
    return tuple(slots)


def slot_inputs(op, names: list) -> dict:
    """Positional input names -> {slot: [names]} (a variadic slot takes all that remain)."""
    out, i = {}, 0
    for slot in input_slots(op):
        if slot.startswith("*"):
            out[slot[1:]] = list(names[i:])
            i = len(names)
        elif i < len(names):
            out[slot] = [names[i]]
            i += 1
    return out


def flat_inputs(desc) -> list:
    """The inverse: {slot: [names]} -> positional names, in slot order (JSON keeps the order)."""
    return [n for names in desc.inputs.values() for n in names]


def _as_variable(t, block) -> Variable | None:
    if t is None or isinstance(t, Variable):
        return t
    if isinstance(t, Tensor):  # a constant from Python: its values become part of the Program
        return assign_value(t._data)
    raise TypeError(f"static mode: an op input must be a Variable or Tensor, got {type(t).__name__}")


def append_op(op, inputs: tuple, attrs: dict, inplace_target=None):
    """Append `op` to the current block; return its output Variable(s). With `inplace_target` (a Variable, or a
    tuple of them for an op with several outputs: core/inplace.apply_inplace_pair) the outputs are written into
    those variables instead of new ones."""
    program = default_main_program()
    block = program.current_block()
    in_vars = [_as_variable(t, block) for t in inputs]
    metas = [None if v is None else Meta(tuple(v.shape), v.dtype) for v in in_vars]
    try:
        out_meta = op.infer_meta(*metas, **attrs)
    except (ValueError, TypeError, IndexError) as e:
        if str(e).startswith(op.name):
            raise
        raise type(e)(f"{op.name}: {e} (input shapes {[None if m is None else list(m.shape) for m in metas]})") from e
    multi = not isinstance(out_meta, Meta)
    metas_out = out_meta if multi else (out_meta,)

    stop = not op.differentiable or all(v is None or v.stop_gradient for v in in_vars)
    if inplace_target is not None:  # the result is written back into the target variable (one per output)
        targets = inplace_target if type(inplace_target) is tuple else (inplace_target,)
        if len(targets) != len(metas_out):
            raise ValueError(f"{op.name}_: the op gives {len(metas_out)} output(s) for {len(targets)} targets")
        outs = [t if isinstance(t, Variable) else _as_variable(t, block) for t in targets]
    else:
        base = unique_name(op.name)
        outs = [
            block.create_var(f"{base}.tmp_{i}", m.shape, m.dtype, stop_gradient=stop) for i, m in enumerate(metas_out)
        ]
    block.append_op(
        op.name,
        slot_inputs(op, [None if v is None else v.name for v in in_vars]),
        {"Out": [o.name for o in outs]},
        dict(attrs),
        scope=STATE.scope,
    )
    return tuple(outs) if multi else outs[0]


def enable_static() -> None:
    """Switch to static mode: from now on ops build a Program (paddle.static.default_main_program())."""
    dispatch.set_static_builder(append_op)
    set_static_mode(True)


def disable_static(place=None) -> None:
    """Back to dynamic mode (the default): ops run as they are called."""
    set_static_mode(False)


def in_static_mode() -> bool:
    return STATE.static_mode


def op_of(desc):
    """The OpDef of an OpDesc (a KeyError naming the op type if this minipaddle does not know it)."""
    return get_op(desc.type)
