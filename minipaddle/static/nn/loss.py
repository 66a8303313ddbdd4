"""`paddle.static.nn.loss`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.static.nn.nce import nce

__all__ = ["nce"]
