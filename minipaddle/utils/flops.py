"""`paddle.utils.flops`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.hapi.flops import flops
from minipaddle.tensor.math import prod

__all__ = ["flops", "prod"]
