"""What a profiler records: timed events, and the one recorder that collects them while a Profiler records.

An event is a named interval of wall time on one thread, of one of Paddle's TracerEventTypes: an op run
(`Operator`, timed by the op hook in profiler/op_timer.py), a Layer's forward (`Forward`, timed by Layer.__call__),
`Tensor.backward` (`Backward`), an optimizer step (`Optimization`), a training step (`ProfileStep`) or a block the
user marked with `RecordEvent` (`PythonUserDefined`).

Recording is per thread, like the hook list on the op door (core/state.py): a Profiler records the thread that
started it. The places that time themselves (Layer.__call__, Tensor.backward, Optimizer.step) test one attribute,
`RECORDING.recorder`, which is None unless a Profiler is recording.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from enum import Enum

from minipaddle.core.state import STATE


class TracerEventType(Enum):
    """The kinds of event, with paddle 2.6's names and numbers (`paddle.profiler.TracerEventType`)."""

    Operator = 0
    Dataloader = 1
    ProfileStep = 2
    CudaRuntime = 3
    Kernel = 4
    Memcpy = 5
    Memset = 6
    UserDefined = 7
    OperatorInner = 8
    Forward = 9
    Backward = 10
    Optimization = 11
    Communication = 12
    PythonOp = 13
    PythonUserDefined = 14


# The kinds that split a step into phases; an op run inside one of them is counted in that phase.
PHASES = (TracerEventType.Forward, TracerEventType.Backward, TracerEventType.Optimization)


class Event:
    """One timed interval: `name`, `type` (a TracerEventType), `start` and `end` in nanoseconds of
    `time.perf_counter_ns`, the thread, the Layer path it ran under (`layer`, "" outside any Layer), the phase
    it ran in ("Forward", "Backward", "Optimization" or "" outside them) and `args` (e.g. input shapes)."""

    __slots__ = ("name", "type", "start", "end", "thread", "layer", "phase", "args")

    def __init__(self, name, type, start, end, thread, layer="", phase="", args=None) -> None:
        self.name = name
        self.type = type
        self.start = start
        self.end = end
        self.thread = thread
        self.layer = layer
        self.phase = phase
        self.args = args or {}

    @property
    def duration(self) -> int:
        """The event's length in nanoseconds."""
        return self.end - self.start

    def __repr__(self) -> str:
        where = f" in {self.layer!r}" if self.layer else ""
        return f"Event({self.type.name} {self.name!r}{where}, {self.duration / 1e3:.1f} us)"


class Recorder:
    """Collects the events of one recording span of a Profiler (between its scheduler's RECORD states)."""

    def __init__(self, record_shapes: bool = False) -> None:
        self.events: list[Event] = []
        self.record_shapes = record_shapes
        self.thread = threading.get_ident()
        self.phases: list[str] = []  # the open Forward/Backward/Optimization spans, innermost last
        self.started = time.perf_counter_ns()
        self.wall_started = time.time_ns()  # to place the trace on the clock (chrome tracing's timestamps)
        self.cpu_started = time.process_time_ns()
        self.system_started = proc_stat()
        self.stopped = None
        self.cpu_stopped = None
        self.system_stopped = None

    def add(self, name: str, type: TracerEventType, start: int, end: int, args=None) -> Event:
        phase = self.phases[-1] if self.phases else ""
        event = Event(name, type, start, end, self.thread, STATE.scope, phase, args)
        self.events.append(event)
        return event

    @contextlib.contextmanager
    def span(self, name: str, type: TracerEventType, layer: str | None = None):
        """Time the block as one event of `type` (a phase type opens that phase for the ops inside)."""
        is_phase = type in PHASES
        if is_phase:
            self.phases.append(type.name)
        start = time.perf_counter_ns()
        try:
            yield
        finally:
            end = time.perf_counter_ns()
            if is_phase:
                self.phases.pop()
            event = self.add(name, type, start, end)
            if layer is not None:
                event.layer = layer

    def finish(self) -> None:
        self.stopped = time.perf_counter_ns()
        self.cpu_stopped = time.process_time_ns()
        self.system_stopped = proc_stat()


def proc_stat() -> tuple[int, int] | None:
    """(busy, total) CPU ticks of the whole machine from /proc/stat (Linux), or None elsewhere."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:8]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + fields[4]  # idle and iowait
    return sum(fields) - idle, sum(fields)


class _Recording(threading.local):
    """This thread's active Recorder, or None (a threading.local: each thread starts with none)."""

    def __init__(self) -> None:
        self.recorder: Recorder | None = None


RECORDING = _Recording()


def layer_span(layer):
    """The span Layer.__call__ runs in while a Profiler records: a Forward event named by the Layer's class."""
    return RECORDING.recorder.span(type(layer).__name__, TracerEventType.Forward, layer=layer._scope_path())


def backward_span():
    return RECORDING.recorder.span("Gradient Backward", TracerEventType.Backward)


def optimizer_span():
    return RECORDING.recorder.span("Optimization Step", TracerEventType.Optimization)


class RecordEvent(contextlib.ContextDecorator):
    """Mark a block of code as one event in the profile: a context manager, a decorator, or `begin()`/`end()`.

    It records only while a Profiler records (on this thread); otherwise it costs nothing. Its time shows in the
    "UserDefined Summary" of `Profiler.summary()` and as a bar in the chrome trace.

    Args:
        name (str): the event's name.
        event_type (TracerEventType, optional): default `TracerEventType.PythonUserDefined`.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> import minipaddle.profiler as profiler
            >>> with profiler.Profiler(on_trace_ready=lambda prof: None) as prof:
            ...     with profiler.RecordEvent("make data"):
            ...         x = paddle.randn([4, 4])
            >>> @profiler.RecordEvent("loss")
            ... def loss_fn(x):
            ...     return (x * x).mean()
    """

    def __init__(self, name: str, event_type: TracerEventType = TracerEventType.PythonUserDefined) -> None:
        if not isinstance(name, str):
            raise TypeError(f"RecordEvent: name must be a str, got {type(name).__name__}")
        if not isinstance(event_type, TracerEventType):
            raise TypeError(f"RecordEvent: event_type must be a TracerEventType, got {type(event_type).__name__}")
        self.name = name
        self.event_type = event_type
        self._open: list = []  # (recorder, start) of each begin() not yet ended: a decorated function may recurse

    def begin(self) -> None:
        """Start the event (it records only if a Profiler records now)."""
        recorder = RECORDING.recorder
        if recorder is not None and self.event_type in PHASES:
            recorder.phases.append(self.event_type.name)
        self._open.append((recorder, time.perf_counter_ns()))

    def end(self) -> None:
        """End the event begun last."""
        if not self._open:
            return
        recorder, start = self._open.pop()
        if recorder is None:
            return
        if self.event_type in PHASES and recorder.phases:
            recorder.phases.pop()
        recorder.add(self.name, self.event_type, start, time.perf_counter_ns())

    def __enter__(self):
        self.begin()
        return self

    def __exit__(self, *exc) -> None:
        self.end()

    def __call__(self, fn):
        # ContextDecorator's wrapper reuses this one object for every call; begin/end keep a stack, so that is safe.
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)

        return wrapper
