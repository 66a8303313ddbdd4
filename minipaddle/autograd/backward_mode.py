"""`paddle.autograd.backward_mode`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.core.autograd import backward

__all__ = ["backward"]
