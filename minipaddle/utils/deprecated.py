"""`paddle.utils.deprecated` of paddle 2.6: the deprecated decorator, re-exported from utils/versions.py.

paddle.utils.deprecated is the decorator itself, not this module: utils/__init__.py binds the name from here, after
the module is imported, as paddle's does.
"""

from minipaddle.utils.versions import deprecated

__all__ = ["deprecated"]
