"""Comparisons of the public API (paddle.tensor.logic): elementwise, broadcasting, bool results."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.tensor.math import binary_operands

__all__ = ["equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal"]


def _compare(op_fn, fn: str):
    def public(x, y, name=None):
        x, y = binary_operands(x, y, fn)
        return op_fn(x, y)

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = f"Elementwise `{fn}` of x and y, as a bool tensor."
    return public


equal = _compare(ops.equal, "equal")
not_equal = _compare(ops.not_equal, "not_equal")
less_than = _compare(ops.less_than, "less_than")
less_equal = _compare(ops.less_equal, "less_equal")
greater_than = _compare(ops.greater_than, "greater_than")
greater_equal = _compare(ops.greater_equal, "greater_equal")
