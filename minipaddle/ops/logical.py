"""Logic ops: logical and/or/xor/not, bitwise and/or/xor/not, isnan/isinf/isfinite and isclose.

Logical ops read any dtype as truth values (nonzero is True) and give bool; bitwise ops work on the bits of
integer and bool tensors and keep their dtype. None of them has a gradient.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.elementwise import _binary
from minipaddle.ops.kinds import BinaryOp, BinaryUfuncOp, UnaryOp

__all__ = [
    "logical_and",
    "logical_or",
    "logical_xor",
    "logical_not",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_not",
    "isnan",
    "isinf",
    "isfinite",
    "isclose",
]  # the raw op functions; ops/__init__.py gathers them


@register
class LogicalAnd(BinaryUfuncOp):
    name = "logical_and"
    ufunc = staticmethod(np.logical_and)


@register
class LogicalOr(BinaryUfuncOp):
    name = "logical_or"
    ufunc = staticmethod(np.logical_or)


@register
class LogicalXor(BinaryUfuncOp):
    name = "logical_xor"
    ufunc = staticmethod(np.logical_xor)


@register
class BitwiseAnd(BinaryUfuncOp):
    name = "bitwise_and"
    out_dtype = None  # the inputs' dtype (likewise below)
    ufunc = staticmethod(np.bitwise_and)


@register
class BitwiseOr(BinaryUfuncOp):
    name = "bitwise_or"
    out_dtype = None
    ufunc = staticmethod(np.bitwise_or)


@register
class BitwiseXor(BinaryUfuncOp):
    name = "bitwise_xor"
    out_dtype = None
    ufunc = staticmethod(np.bitwise_xor)


class _Predicate(UnaryOp):
    """An elementwise test with a bool result."""

    differentiable = False
    saves_inputs = False
    ufunc = None

    def kernel(self, x):
        return self.ufunc(x)

    def infer_meta(self, x: Meta) -> Meta:
        return Meta(x.shape, dtypes.bool_)


@register
class LogicalNot(_Predicate):
    name = "logical_not"
    ufunc = staticmethod(np.logical_not)


@register
class BitwiseNot(UnaryOp):
    name = "bitwise_not"
    differentiable = False
    saves_inputs = False

    def kernel(self, x):
        return np.invert(x)


@register
class IsNan(_Predicate):
    name = "isnan"
    ufunc = staticmethod(np.isnan)


@register
class IsInf(_Predicate):
    name = "isinf"
    ufunc = staticmethod(np.isinf)


@register
class IsFinite(_Predicate):
    name = "isfinite"
    ufunc = staticmethod(np.isfinite)


@register
class IsClose(BinaryOp):
    """|x - y| <= atol + rtol * |y|, elementwise (NaNs equal each other only with equal_nan)."""

    name = "isclose"
    differentiable = False
    saves_inputs = False
    out_dtype = dtypes.bool_

    def kernel(self, x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
        return np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


def logical_and(x, y) -> Tensor:
    return _binary(LogicalAnd, x, y)


def logical_or(x, y) -> Tensor:
    return _binary(LogicalOr, x, y)


def logical_xor(x, y) -> Tensor:
    return _binary(LogicalXor, x, y)


def logical_not(x: Tensor) -> Tensor:
    return apply(LogicalNot, (x,))


def bitwise_and(x, y) -> Tensor:
    return _binary(BitwiseAnd, x, y)


def bitwise_or(x, y) -> Tensor:
    return _binary(BitwiseOr, x, y)


def bitwise_xor(x, y) -> Tensor:
    return _binary(BitwiseXor, x, y)


def bitwise_not(x: Tensor) -> Tensor:
    return apply(BitwiseNot, (x,))


def isnan(x: Tensor) -> Tensor:
    return apply(IsNan, (x,))


def isinf(x: Tensor) -> Tensor:
    return apply(IsInf, (x,))


def isfinite(x: Tensor) -> Tensor:
    return apply(IsFinite, (x,))


def isclose(x: Tensor, y: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    return apply(IsClose, (x, y), {"rtol": rtol, "atol": atol, "equal_nan": equal_nan})
