"""`paddle.profiler.profiler_statistic`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.profiler.summary import SortedKeys

__all__ = ["SortedKeys"]
