"""`paddle.sparse.multiary`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.sparse.binary import addmm

__all__ = ["addmm"]
