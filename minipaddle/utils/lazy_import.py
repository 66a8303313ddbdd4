"""`paddle.utils.lazy_import` of paddle 2.6: try_import, re-exported from utils/versions.py."""

from minipaddle.utils.versions import try_import

__all__ = ["try_import"]
