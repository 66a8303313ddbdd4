"""Which steps a Profiler records: ProfilerState and make_scheduler, as in paddle 2.6.

A scheduler is a function of the step number returning a ProfilerState. Skipping the first steps and warming up
(READY) keeps start-up costs (first calls, caches) out of the numbers.
"""

from __future__ import annotations

import warnings
from enum import Enum


class ProfilerState(Enum):
    """The state of a Profiler at a step.

    - CLOSED: nothing is recorded.
    - READY: the profiler is open but records nothing yet (a warm-up step).
    - RECORD: events are recorded.
    - RECORD_AND_RETURN: the last recorded step of a span; after it the result is handed to `on_trace_ready`.
    """

    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3


def make_scheduler(*, closed: int, ready: int, record: int, repeat: int = 0, skip_first: int = 0):
    """A scheduler: after `skip_first` steps, cycles of `closed` CLOSED steps, `ready` READY steps and `record`
    recorded steps (the last one RECORD_AND_RETURN), `repeat` times (0: until the profiler stops).

    Args:
        closed (int): steps in CLOSED per cycle.
        ready (int): steps in READY per cycle.
        record (int): steps recorded per cycle (> 0).
        repeat (int, optional): cycles; 0 repeats until the profiler stops. Default 0.
        skip_first (int, optional): steps to skip (CLOSED) before the first cycle. Default 0.

    Returns:
        A function `step -> ProfilerState`.

    Examples:
        .. code-block:: python

            >>> import minipaddle.profiler as profiler
            >>> sched = profiler.make_scheduler(closed=1, ready=1, record=2, repeat=1)
            >>> [sched(i).name for i in range(5)]
            ['CLOSED', 'READY', 'RECORD', 'RECORD_AND_RETURN', 'CLOSED']
    """
    for name, value, low in (("closed", closed, 0), ("ready", ready, 0), ("record", record, 1),
                             ("repeat", repeat, 0), ("skip_first", skip_first, 0)):  # fmt: skip
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"make_scheduler: {name} must be an int, got {type(value).__name__}")
        if value < low:
            raise ValueError(f"make_scheduler: {name} must be >= {low}, got {value}")
    if ready == 0:
        warnings.warn(
            "make_scheduler: with ready=0 the profiler records right after it is enabled, so the first recorded "
            "step may be 'noisy' with the profiler's own start-up",
            stacklevel=2,
        )
    period = closed + ready + record

    def scheduler(step: int) -> ProfilerState:
        if step < 0:
            raise ValueError(f"scheduler: the step must be >= 0, got {step}")
        if step < skip_first:
            return ProfilerState.CLOSED
        step -= skip_first
        if repeat > 0 and step // period >= repeat:
            return ProfilerState.CLOSED
        k = step % period
        if k < closed:
            return ProfilerState.CLOSED
        if k < closed + ready:
            return ProfilerState.READY
        return ProfilerState.RECORD if k < period - 1 else ProfilerState.RECORD_AND_RETURN

    return scheduler


def record_always(step: int) -> ProfilerState:
    """The default scheduler: record every step from start to stop."""
    return ProfilerState.RECORD


def scheduler_from_range(start_batch: int, end_batch: int):
    """`scheduler=(start, end)`: record steps [start, end), once, warming up for one step first when there is one."""
    if not (isinstance(start_batch, int) and isinstance(end_batch, int)) or end_batch <= start_batch:
        raise ValueError(
            f"Profiler: scheduler=(start_batch, end_batch) needs two ints with end_batch > start_batch, "
            f"got ({start_batch!r}, {end_batch!r})"
        )
    start_batch = max(start_batch, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the ready=0 warning: the user asked for that range
        if start_batch >= 1:
            return make_scheduler(closed=start_batch - 1, ready=1, record=end_batch - start_batch, repeat=1)
        return make_scheduler(closed=0, ready=0, record=end_batch - start_batch, repeat=1)
