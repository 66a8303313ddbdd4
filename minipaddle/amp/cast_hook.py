"""auto_cast's hook on the op door: before each op, cast its floating inputs to the dtype paddle 2.6's rule picks.

The hook (an OpHook, core/state.py) is called in dynamic mode and when static mode builds an op; the casts it
makes are ordinary `cast` ops, so autograd records them (gradients flow back through them, in the dtype each
input came in) and a Program holds them as cast OpDescs. Kernels know nothing of AMP. Grad rules that run during
backward are not cast again: they compute in the dtypes the forward pass chose, as Paddle's backward does.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.amp.cast_log import AMP_CAST_NODES, LOGS, CastRecord
from minipaddle.amp.cast_rule import CASTABLE, dest_dtype, list_of
from minipaddle.core.state import STATE, OpHook
from minipaddle.ops.amp_names import paddle_op_name

__all__ = ["AutoCastHook"]


class AutoCastHook(OpHook):
    """Casts each op's float32/float16/bfloat16 inputs to the dtype the active auto_cast settings (STATE.amp)
    pick for the op, and writes a CastRecord to the open cast logs. One per thread, installed by auto_cast."""

    phases = ("dynamic", "build")

    def __init__(self) -> None:
        self._pending = []  # (op, record) between before() and after(); a stack, as an op's kernel may run ops

    def before(self, op, inputs: tuple, attrs: dict) -> tuple:
        settings = STATE.amp
        if settings is None or settings.level == "O0":
            return inputs
        if STATE.in_backward:  # a grad rule (set by core/autograd.run_backward): runs in the forward's dtypes
            return inputs
        in_dtypes = tuple(None if t is None else t.dtype for t in inputs)
        paddle_name = paddle_op_name(op.name, attrs)
        if op.amp == "keep":
            which, dst = "keep", None
        elif not any(d in CASTABLE for d in in_dtypes):
            which, dst = "gray", None
        else:
            which = list_of(op.name, paddle_name, settings)
            dst = dest_dtype(which, paddle_name, in_dtypes, settings)
        casts = []
        if dst is not None:
            new = list(inputs)
            for i, (t, d) in enumerate(zip(inputs, in_dtypes)):
                if d is not None and d is not dst and d in CASTABLE:
                    new[i] = ops.cast(t, dst)
                    if not STATE.static_mode and new[i]._node is not None:
                        AMP_CAST_NODES.add(new[i]._node)
                    casts.append((i, d.name, dst.name))
            if casts:
                inputs = tuple(new)
        if LOGS.active:
            record = CastRecord(op.name, paddle_name, which, None if dst is None else dst.name,
                                       tuple(None if d is None else d.name for d in in_dtypes), casts,
                                       scope=STATE.scope, level=settings.level)  # fmt: skip
            self._pending.append((op, record))
        return inputs

    def after(self, op, inputs: tuple, attrs: dict, outputs: tuple) -> tuple:
        if self._pending and self._pending[-1][0] is op:
            record = self._pending.pop()[1]
            record.output_dtypes = tuple(o.dtype.name for o in outputs)
            for log in LOGS.active:
                log.append(record)
        return outputs
