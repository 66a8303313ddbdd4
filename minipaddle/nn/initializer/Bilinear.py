"""`paddle.nn.initializer.Bilinear` (the module) of paddle 2.6: the Bilinear initializer, re-exported from
initializer/structured.py.

paddle.nn.initializer.Bilinear is the class, not this module: initializer/__init__.py binds the name from here,
after the module is imported, as paddle's does.
"""

from minipaddle.nn.initializer.structured import Bilinear

__all__ = ["Bilinear"]
