"""`paddle.framework.framework`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.core.dtype import get_default_dtype, set_default_dtype

__all__ = ["get_default_dtype", "set_default_dtype"]
