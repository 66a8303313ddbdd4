"""paddle.static.nn: control flow and the static-graph layer functions."""

from minipaddle.static.control_flow import case, cond, switch_case, while_loop
from minipaddle.static.debug import py_func
from minipaddle.static.nn.common import *  # noqa: F403
from minipaddle.static.nn.common import __all__ as _layer_functions
from minipaddle.static.nn.data_norm import data_norm
from minipaddle.static.nn.fluid_layers import *  # noqa: F403
from minipaddle.static.nn.fluid_layers import __all__ as _fluid_layer_functions
from minipaddle.static.nn.nce import nce
from minipaddle.static.nn.static_pylayer import static_pylayer  # (the module first, then the function under its name)

__all__ = ["case", "cond", "py_func", "switch_case", "while_loop", *_layer_functions]
__all__ += [*_fluid_layer_functions, "data_norm", "nce", "static_pylayer"]
