"""Comparisons: elementwise, broadcasting, bool results, no gradient."""

from __future__ import annotations

import numpy as np

from minipaddle.core.op import register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.elementwise import _binary
from minipaddle.ops.kinds import BinaryUfuncOp

__all__ = [
    "equal",
    "not_equal",
    "less_than",
    "less_equal",
    "greater_than",
    "greater_equal",
]  # the raw op functions; ops/__init__.py gathers them


@register
class Equal(BinaryUfuncOp):
    name = "equal"
    ufunc = staticmethod(np.equal)


@register
class NotEqual(BinaryUfuncOp):
    name = "not_equal"
    ufunc = staticmethod(np.not_equal)


@register
class LessThan(BinaryUfuncOp):
    name = "less_than"
    ufunc = staticmethod(np.less)


@register
class LessEqual(BinaryUfuncOp):
    name = "less_equal"
    ufunc = staticmethod(np.less_equal)


@register
class GreaterThan(BinaryUfuncOp):
    name = "greater_than"
    ufunc = staticmethod(np.greater)


@register
class GreaterEqual(BinaryUfuncOp):
    name = "greater_equal"
    ufunc = staticmethod(np.greater_equal)


def equal(x, y) -> Tensor:
    return _binary(Equal, x, y)


def not_equal(x, y) -> Tensor:
    return _binary(NotEqual, x, y)


def less_than(x, y) -> Tensor:
    return _binary(LessThan, x, y)


def less_equal(x, y) -> Tensor:
    return _binary(LessEqual, x, y)


def greater_than(x, y) -> Tensor:
    return _binary(GreaterThan, x, y)


def greater_equal(x, y) -> Tensor:
    return _binary(GreaterEqual, x, y)
