"""`paddle.profiler.Profiler`: which steps to record, and what to do with a recording.

The Profiler moves through the ProfilerStates its scheduler gives for each step (profiler/scheduler.py), as
paddle 2.6's does: entering RECORD it installs the op timer on this thread's op door (profiler/op_timer.py) and
makes its Recorder the thread's active one (Layer.__call__, Tensor.backward and Optimizer.step then time
themselves); leaving RECORD_AND_RETURN it stops, keeps the events as a ProfilerResult and calls `on_trace_ready`.
"""

from __future__ import annotations

import datetime
import os
import warnings
from enum import Enum

from minipaddle.core.state import add_op_hook
from minipaddle.profiler.events import RECORDING, Recorder, RecordEvent, TracerEventType
from minipaddle.profiler.op_timer import OpTimer
from minipaddle.profiler.result import ProfilerResult, default_worker_name
from minipaddle.profiler.scheduler import ProfilerState, make_scheduler, record_always, scheduler_from_range
from minipaddle.profiler.summary import SortedKeys, build_table
from minipaddle.profiler.timer import benchmark

_RECORDING_STATES = (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)


class ProfilerTarget(Enum):
    """The devices to profile. minipaddle runs on the CPU only: the others are accepted with a warning, as
    paddle's CPU build does."""

    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


def export_chrome_tracing(dir_name: str, worker_name: str | None = None):
    """An `on_trace_ready` callback writing each recording to `dir_name` as a chrome tracing JSON file
    (`<worker_name>_time_<date>.paddle_trace.json`), which chrome://tracing and https://ui.perfetto.dev open.

    Args:
        dir_name (str): the folder (made if missing).
        worker_name (str, optional): the file-name prefix; default `host_<hostname>pid_<pid>`.
    """
    if not isinstance(dir_name, (str, os.PathLike)):
        raise TypeError(f"export_chrome_tracing: dir_name must be a str, got {type(dir_name).__name__}")
    try:
        os.makedirs(dir_name, exist_ok=True)
    except OSError as err:
        raise RuntimeError(f"export_chrome_tracing: cannot create directory {dir_name!r}: {err}") from None

    def handle_fn(prof: Profiler) -> None:
        stamp = datetime.datetime.now().strftime("%Y_%m_%d_%H_%M_%S_%f")
        prof.export(os.path.join(dir_name, f"{worker_name or default_worker_name()}_time_{stamp}.paddle_trace.json"))

    return handle_fn


class Profiler:
    """Record where a program's time goes: every op, Layer forward, backward, optimizer step and RecordEvent block.

    Args:
        targets (list[ProfilerTarget], optional): devices to profile; only CPU exists here. Default: CPU.
        scheduler (callable|tuple, optional): a function `step -> ProfilerState` (see `make_scheduler`), or
            `(start_batch, end_batch)` to record steps [start_batch, end_batch) once. Default: record every step.
        on_trace_ready (callable, optional): called with the Profiler when a recording ends. Default:
            `export_chrome_tracing('./profiler_log/')`, as paddle.
        record_shapes (bool, optional): keep each op's input shapes and dtypes in the trace. Default False.
        profile_memory (bool, optional): accepted; memory is not profiled here (a warning says so).
        timer_only (bool, optional): only time the steps (`step_info`), recording no events. Default False.
        emit_nvtx, custom_device_types, with_flops: accepted for paddle's signature; no effect on the CPU
            (with_flops=True warns: FLOPs are not counted).

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> import minipaddle.profiler as profiler
            >>> net = paddle.nn.Linear(4, 2)
            >>> with profiler.Profiler(scheduler=(1, 3), on_trace_ready=lambda p: None) as prof:
            ...     for step in range(4):
            ...         net(paddle.randn([8, 4])).mean().backward()
            ...         prof.step()
            >>> prof.summary(op_detail=False)  # doctest: +SKIP
    """

    def __init__(self, *, targets=None, scheduler=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, timer_only=False, emit_nvtx=False, custom_device_types=(),
                 with_flops=False) -> None:  # fmt: skip
        self.targets = {ProfilerTarget.CPU}
        for target in targets or ():
            if not isinstance(target, ProfilerTarget):
                raise TypeError(f"Profiler: targets must hold ProfilerTarget values, got {target!r}")
            if target is not ProfilerTarget.CPU:
                warnings.warn(f"Profiling {target} is not supported in current context.", stacklevel=2)
        if callable(scheduler):
            self.scheduler = scheduler
        elif isinstance(scheduler, (tuple, list)):
            if len(scheduler) != 2:
                raise ValueError(f"Profiler: scheduler as a tuple is (start_batch, end_batch), got {scheduler!r}")
            self.scheduler = scheduler_from_range(*scheduler)
        elif scheduler is None:
            self.scheduler = record_always
        else:
            raise TypeError(f"Profiler: scheduler must be callable, a (start, end) tuple or None, got {scheduler!r}")
        if on_trace_ready is not None and not callable(on_trace_ready):
            raise TypeError(f"Profiler: on_trace_ready must be callable, got {type(on_trace_ready).__name__}")
        self.on_trace_ready = export_chrome_tracing("./profiler_log/") if on_trace_ready is None else on_trace_ready
        if profile_memory:
            warnings.warn("Profiler: minipaddle does not profile memory (profile_memory)", stacklevel=2)
        if with_flops:
            warnings.warn("Profiler: with_flops is not supported by minipaddle; FLOPs are not counted", stacklevel=2)
        self.record_shapes = bool(record_shapes)
        self.profile_memory = profile_memory
        self.timer_only = bool(timer_only)
        self.with_flops = with_flops
        self.emit_nvtx = emit_nvtx
        self.step_num = 0
        self.previous_state = ProfilerState.CLOSED
        self.current_state = self.scheduler(self.step_num)
        self.profiler_result: ProfilerResult | None = None
        self.record_event: RecordEvent | None = None
        self._recorder: Recorder | None = None
        self._hook = None

    # ---- the life of a recording --------------------------------------------------------------------------------

    def __enter__(self) -> Profiler:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        """Start profiling at step 0 (in the state the scheduler gives for it)."""
        benchmark().begin()
        if self.timer_only:
            return
        if self.current_state in _RECORDING_STATES:
            self._start_recording()
        self._begin_step_event()

    def stop(self) -> None:
        """Stop profiling; a recording still open ends here (and `on_trace_ready` is called)."""
        benchmark().end()  # prints the Perf Summary after more than 10 steps
        if self.timer_only:
            return
        if self.record_event is not None:
            self.record_event.end()
            self.record_event = None
        if self.current_state is ProfilerState.READY:
            warnings.warn("Inproper Profiler state transform: READY->CLOSED, profiler will start and stop without "
                          "saving data", stacklevel=2)  # fmt: skip
        if self.current_state in _RECORDING_STATES:
            self._stop_recording()
            self.on_trace_ready(self)
        self.current_state = ProfilerState.CLOSED

    def step(self, num_samples: int | None = None) -> None:
        """Mark the end of a step (a batch): the scheduler's next state takes effect.

        Args:
            num_samples (int, optional): the batch size, for the throughput `step_info` reports.
        """
        if num_samples is not None and (isinstance(num_samples, bool) or not isinstance(num_samples, int)):
            raise TypeError(f"Profiler.step: num_samples must be an int or None, got {type(num_samples).__name__}")
        benchmark().step(num_samples)
        if self.timer_only:
            return
        if self.record_event is not None:
            self.record_event.end()
            self.record_event = None
        self.previous_state = self.current_state
        self.step_num += 1
        self.current_state = self.scheduler(self.step_num)
        self._trigger_action()
        self._begin_step_event()

    def step_info(self, unit: str | None = None) -> str:
        """The average step time and throughput since the last call, e.g. ' batch_cost: 0.00132 s ips: 2.3 steps/s'.

        Args:
            unit (str, optional): what num_samples counts (e.g. 'images'); default 'samples'.
        """
        return benchmark().step_info("samples" if unit is None else str(unit))

    def _trigger_action(self) -> None:
        before, now = self.previous_state, self.current_state
        if before in _RECORDING_STATES and now is ProfilerState.CLOSED and before is ProfilerState.RECORD:
            warnings.warn("Improper schedule: RECORD->CLOSED, profiler will not saving data", stacklevel=3)
        if before is ProfilerState.READY and now is ProfilerState.CLOSED:
            warnings.warn("Improper schedule: READY->CLOSED, profiler will start and stop without saving data",
                          stacklevel=3)  # fmt: skip
        if before is ProfilerState.RECORD_AND_RETURN:  # a recording span is complete: hand it over
            self._stop_recording()
            if now in _RECORDING_STATES:
                self._start_recording()
            self.on_trace_ready(self)
        elif before is ProfilerState.RECORD and now not in _RECORDING_STATES:
            self._stop_recording(keep=False)
        elif before not in _RECORDING_STATES and now in _RECORDING_STATES:
            self._start_recording()

    def _start_recording(self) -> None:
        self._recorder = Recorder(self.record_shapes)
        RECORDING.recorder = self._recorder
        self._hook = add_op_hook(OpTimer(self._recorder))

    def _stop_recording(self, keep: bool = True) -> None:
        if self._recorder is None:
            return
        self._hook.remove()
        RECORDING.recorder = None
        self._recorder.finish()
        if keep:
            self.profiler_result = ProfilerResult.from_recorder(self._recorder)
        self._recorder = self._hook = None

    def _begin_step_event(self) -> None:
        self.record_event = RecordEvent(f"ProfileStep#{self.step_num}", TracerEventType.ProfileStep)
        self.record_event.begin()

    # ---- what was recorded --------------------------------------------------------------------------------------

    def export(self, path: str = "", format: str = "json") -> None:
        """Write the last recording to `path` as chrome tracing JSON (format 'json')."""
        if self.profiler_result is not None:
            self.profiler_result.save(path, format)

    def summary(self, sorted_by=SortedKeys.CPUTotal, op_detail=True, thread_sep=False, time_unit="ms", views=None):
        """Print the last recording's tables (see profiler/summary.py): device, overview, model (per phase), Layer,
        operator (per op; with op_detail a row per phase under each op) and user-defined.

        Args:
            sorted_by (SortedKeys, optional): the order of the operator and user-defined rows. Default CPUTotal.
            op_detail (bool, optional): show the per-phase rows under each op. Default True.
            thread_sep (bool, optional): one table part per thread. Default False.
            time_unit (str, optional): 's', 'ms', 'us' or 'ns'. Default 'ms'.
            views (SummaryView|list, optional): the tables to print; default all.
        """
        if self.profiler_result is not None:
            print(build_table(self.profiler_result, sorted_by, op_detail, thread_sep, time_unit, views))


__all__ = ["Profiler", "ProfilerTarget", "export_chrome_tracing", "make_scheduler"]
