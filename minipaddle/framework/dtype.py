"""`paddle.framework.dtype`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.tensor.dtype_info import finfo, iinfo

__all__ = ["finfo", "iinfo"]
