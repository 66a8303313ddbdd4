"""`paddle.batch` (the module) of paddle 2.6: the batch reader decorator, re-exported from reader.py.

paddle.batch is the function, not this module: minipaddle/__init__.py binds the name from here, after the module is
imported, as paddle's does.
"""

from minipaddle.reader import batch

__all__ = ["batch"]
