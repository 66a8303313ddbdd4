"""`paddle.profiler.utils`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.profiler.events import RecordEvent
from minipaddle.profiler.result import load_profiler_result

__all__ = ["RecordEvent", "load_profiler_result"]
