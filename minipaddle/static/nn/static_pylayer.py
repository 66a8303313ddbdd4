"""`paddle.static.nn.static_pylayer` (the module) of paddle 2.6: static_pylayer, re-exported from static/nn/pylayer.py.

paddle.static.nn.static_pylayer is the function, not this module: static/nn/__init__.py binds the name from here,
after the module is imported, as paddle's does.
"""

from minipaddle.static.nn.pylayer import static_pylayer

__all__ = ["static_pylayer"]
