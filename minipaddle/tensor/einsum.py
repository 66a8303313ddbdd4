"""`paddle.tensor.einsum`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.tensor.manipulation_extra import einsum

__all__ = ["einsum"]
