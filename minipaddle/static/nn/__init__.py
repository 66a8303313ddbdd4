"""paddle.static.nn: control flow and the static-graph layer functions."""

from minipaddle.static.control_flow import case, cond, switch_case, while_loop

__all__ = ["case", "cond", "switch_case", "while_loop"]
