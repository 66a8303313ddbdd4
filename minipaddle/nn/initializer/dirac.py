"""`paddle.nn.initializer.dirac`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.nn.initializer.structured import Dirac

__all__ = ["Dirac"]
