"""The profiler's hook on the op door: time every op, in dynamic mode and in the Executor's runs.

`before` notes the clock, `after` records an `Operator` event with the op's name, the Layer it ran under and the
phase (Forward, Backward, Optimization) it ran in. A stack, not one slot: an op may run inside another's door call
(a view brought up to date before its op runs). Hooks are suspended while a hook runs, so this costs nothing extra
per op beyond the two calls.
"""

from __future__ import annotations

import time

from minipaddle.core.state import OpHook
from minipaddle.profiler.events import Recorder, TracerEventType


class OpClock(OpHook):
    """An OpHook that reads the clock around each op and hands the times to the subclass's
    `timed(op, inputs, start_ns, end_ns)`. The profiler's OpTimer and the inference predictor's profile
    (inference/profile.py) are two of them."""

    def __init__(self) -> None:
        self.starts: list[int] = []

    def before(self, op, inputs, attrs):
        self.starts.append(time.perf_counter_ns())
        return inputs

    def after(self, op, inputs, attrs, outputs):
        end = time.perf_counter_ns()
        self.timed(op, inputs, self.starts.pop() if self.starts else end, end)
        return outputs


class OpTimer(OpClock):
    """An OpHook recording one `Operator` event per op run into `recorder`."""

    phases = ("dynamic", "run")  # ops that run; building a Program (phase "build") computes nothing

    def __init__(self, recorder: Recorder) -> None:
        super().__init__()
        self.recorder = recorder

    def timed(self, op, inputs, start, end):
        args = None
        if self.recorder.record_shapes:
            args = {
                "input_shapes": [None if t is None else list(t.shape) for t in inputs],
                "input_dtypes": [None if t is None else str(t.dtype).replace("paddle.", "") for t in inputs],
            }
        self.recorder.add(op.name, TracerEventType.Operator, start, end, args)
