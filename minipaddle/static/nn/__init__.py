"""paddle.static.nn: control flow and the static-graph layer functions."""

from minipaddle.static.control_flow import case, cond, switch_case, while_loop
from minipaddle.static.debug import py_func
from minipaddle.static.nn.common import *  # noqa: F403
from minipaddle.static.nn.common import __all__ as _layer_functions
from minipaddle.static.nn.extra import *  # noqa: F403
from minipaddle.static.nn.extra import __all__ as _extra_layer_functions
from minipaddle.static.nn.extra2 import *  # noqa: F403
from minipaddle.static.nn.extra2 import __all__ as _extra2_layer_functions
from minipaddle.static.nn.extra3 import *  # noqa: F403
from minipaddle.static.nn.extra3 import __all__ as _extra3_layer_functions

__all__ = ["case", "cond", "py_func", "switch_case", "while_loop", *_layer_functions]
__all__ += _extra_layer_functions
__all__ += _extra2_layer_functions
__all__ += _extra3_layer_functions
