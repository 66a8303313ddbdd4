"""AMP for a function that is one Paddle op made of several minipaddle ops: F.batch_norm is Paddle's `batch_norm`.

The hook on the door (cast_hook.py) sees minipaddle's ops one at a time. The normalizations are compositions
(standardize, then multiply and add with the scale and bias), while Paddle has one fused op for each, with its own
AMP rule: batch_norm and layer_norm cast only x, keep their float32 scale, bias and statistics, and give an output
of x's dtype. Deciding op by op would promote the multiply by a float32 scale to float32. So these functions
announce the Paddle op they stand for, through the settings auto_cast keeps in STATE.amp:

    with STATE.amp.composite("batch_norm", (x, mean, var, weight, bias)) as op:
        x, mean, var, weight, bias = op.inputs   # cast as paddle 2.6's rule says, for the whole op
        y = ...                                  # ops inside are not cast again (auto_cast pauses)
        return op.result(y)                      # the cast log gets one record, with y's dtype

nn/ stands below amp/ and never imports it: it finds this class as `STATE.amp.composite` (None outside auto_cast).
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.amp.cast_log import AMP_CAST_NODES, LOGS, CastRecord
from minipaddle.amp.cast_rule import CASTABLE, dest_dtype, list_of
from minipaddle.core.state import STATE
from minipaddle.ops.amp_norms import cast_inputs

__all__ = ["CompositeOp"]


class CompositeOp:
    """One Paddle op computed by a composition of minipaddle ops, under the auto_cast settings `settings`.

    Entering decides the dtype the op computes in (the rule of cast_rule.py, by the Paddle op's name and the
    inputs' dtypes), casts the inputs that rule casts (`inputs` holds them afterwards) and pauses auto_cast for
    the ops inside, which the function composes as the fused kernel computes. `result(y)` logs the record."""

    __slots__ = ("settings", "paddle_op", "inputs", "dtype", "_record")

    def __init__(self, settings, paddle_op: str, inputs: tuple) -> None:
        self.settings, self.paddle_op, self.inputs = settings, paddle_op, tuple(inputs)
        self.dtype, self._record = None, None

    def __enter__(self) -> CompositeOp:
        settings, name = self.settings, self.paddle_op
        in_dtypes = tuple(None if t is None else t.dtype for t in self.inputs)
        which = list_of(name, name, settings)
        dst = dest_dtype(which, name, in_dtypes, settings) if any(d in CASTABLE for d in in_dtypes) else None
        STATE.amp = None  # the casts below and the ops of the composition are not cast again
        casts, new = [], list(self.inputs)
        if dst is not None:
            for i in cast_inputs(name, len(new)):
                d = in_dtypes[i]
                if d is not None and d is not dst and d in CASTABLE:
                    new[i] = ops.cast(new[i], dst)
                    if not STATE.static_mode and new[i]._node is not None:
                        AMP_CAST_NODES.add(new[i]._node)
                    casts.append((i, d.name, dst.name))
        self.inputs, self.dtype = tuple(new), dst
        if LOGS.active:
            self._record = CastRecord(name, name, which, None if dst is None else dst.name,
                                      tuple(None if d is None else d.name for d in in_dtypes), casts,
                                      scope=STATE.scope, level=settings.level)  # fmt: skip
        return self

    def result(self, y):
        """Hand back the op's output `y`, after writing the op's record to the open cast logs."""
        if self._record is not None:
            self._record.output_dtypes = (y.dtype.name,)
            for log in LOGS.active:
                log.append(self._record)
            self._record = None
        return y

    def __exit__(self, *exc) -> None:
        STATE.amp = self.settings
