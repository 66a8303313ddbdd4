"""`paddle.static.nn.control_flow`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.static.control_flow import case, cond, switch_case, while_loop
from minipaddle.static.debug import Print

__all__ = ["Print", "case", "cond", "switch_case", "while_loop"]
