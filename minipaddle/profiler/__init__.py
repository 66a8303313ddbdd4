"""paddle.profiler: where the time of a training step goes, per op, per Layer and per phase (paddle 2.6's API).

    with paddle.profiler.Profiler(scheduler=(2, 5)) as prof:
        for batch in loader:
            train_step(batch)
            prof.step()
    prof.summary()                      # paddle's tables: overview, model, Layer, operator, user-defined
    viz.plot_profile(prof)              # the same as bars: ops, Layers, phases

Built on the hook list of the op door (core/state.py): profiler/op_timer.py is an OpHook timing every op;
profiler/events.py holds the events and RecordEvent; the tables are in profiler/summary.py, the numbers behind them
in profiler/statistics.py, the chrome trace file in profiler/result.py.
"""

from minipaddle.profiler.events import RecordEvent, TracerEventType
from minipaddle.profiler.profiler import Profiler, ProfilerTarget, export_chrome_tracing
from minipaddle.profiler.result import ProfilerResult, load_profiler_result
from minipaddle.profiler.scheduler import ProfilerState, make_scheduler
from minipaddle.profiler.summary import SortedKeys, SummaryView

__all__ = [
    "Profiler", "ProfilerResult", "ProfilerState", "ProfilerTarget", "RecordEvent", "SortedKeys", "SummaryView",
    "TracerEventType", "export_chrome_tracing", "load_profiler_result", "make_scheduler",
]  # fmt: skip
