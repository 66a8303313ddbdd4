"""`paddle.nn.initializer.orthogonal`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.nn.initializer.structured import Orthogonal

__all__ = ["Orthogonal"]
