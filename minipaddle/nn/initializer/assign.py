"""`paddle.nn.initializer.assign`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.nn.initializer.aliases import NumpyArrayInitializer
from minipaddle.nn.initializer.constant import Assign

__all__ = ["Assign", "NumpyArrayInitializer"]
