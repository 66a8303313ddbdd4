"""`paddle.static.nn.sequence_lod`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.nn.functional.sequence import sequence_mask

__all__ = ["sequence_mask"]
