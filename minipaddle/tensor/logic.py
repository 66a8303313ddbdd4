"""Comparisons and logic of the public API (paddle.tensor.logic): comparisons, logical and bitwise ops,
isnan/isinf/isfinite, isclose/allclose, equal_all, is_empty, is_tensor. Results are bool tensors (bitwise ops
keep the integer dtype) and carry no gradient."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import (
    PreconditionNotMetError,
    check_bool,
    check_broadcast,
    check_number,
    check_same_shape,
    check_tensor,
)
from minipaddle.tensor.math import binary_operands, broadcast_binary

__all__ = [
    "equal",
    "not_equal",
    "less_than",
    "less_equal",
    "greater_than",
    "greater_equal",
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
    "allclose",
    "equal_all",
    "is_empty",
    "is_tensor",
]


def _compare(op_fn, fn: str):
    def public(x, y, name=None):
        return broadcast_binary(op_fn, x, y, fn)

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = f"Elementwise `{fn}` of x and y, as a bool tensor."
    return public


equal = _compare(ops.equal, "equal")
not_equal = _compare(ops.not_equal, "not_equal")
less_than = _compare(ops.less_than, "less_than")
less_equal = _compare(ops.less_equal, "less_equal")
greater_than = _compare(ops.greater_than, "greater_than")
greater_equal = _compare(ops.greater_equal, "greater_equal")


def _into(result: Tensor, out, fn: str) -> Tensor:
    """Paddle's `out=` argument: write the result into the given tensor and return it."""
    if out is None:
        return result
    check_tensor(out, fn, "out")
    if out.shape != result.shape:
        raise ValueError(f"{fn}: out has shape {out.shape} but the result has shape {result.shape}")
    return apply_inplace(get_op("assign"), out, (result,))


def _two_tensors(x, y, fn: str) -> None:
    check_tensor(x, fn, "x")
    check_tensor(y, fn, "y")
    check_broadcast(x, y, fn)


def _logical(op_fn, fn: str, word: str):
    def public(x, y, out=None, name=None) -> Tensor:
        _two_tensors(x, y, fn)
        return _into(op_fn(x, y), out, fn)

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = f"""Elementwise logical {word} of x and y (nonzero counts as True), broadcasting, as a bool tensor.

    Args:
        x, y (Tensor): any dtypes. out (Tensor|None): a bool tensor to write the result into.

    Example:
        >>> paddle.{fn}(paddle.to_tensor([True, False]), paddle.to_tensor([True, True]))
    """
    return public


logical_and = _logical(ops.logical_and, "logical_and", "AND")
logical_or = _logical(ops.logical_or, "logical_or", "OR")
logical_xor = _logical(ops.logical_xor, "logical_xor", "XOR")


def logical_not(x, out=None, name=None) -> Tensor:
    """Elementwise logical NOT of x (nonzero counts as True), as a bool tensor.

    Example:
        >>> paddle.logical_not(paddle.to_tensor([True, False]))    # [False, True]
    """
    check_tensor(x, "logical_not")
    return _into(ops.logical_not(x), out, "logical_not")


def _integer(x: Tensor, fn: str, arg: str = "x") -> None:
    if not (x.dtype.is_integer or x.dtype is dtypes.bool_):
        raise TypeError(f"{fn}: {arg} must be an integer or bool tensor, got {x.dtype.name}")


def _bitwise(op_fn, fn: str, word: str):
    def public(x, y, out=None, name=None) -> Tensor:
        _two_tensors(x, y, fn)
        _integer(x, fn, "x")
        _integer(y, fn, "y")
        x, y = binary_operands(x, y, fn)
        return _into(op_fn(x, y), out, fn)

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = f"""Elementwise bitwise {word} of integer (or bool) tensors x and y, broadcasting; x's dtype.

    Example:
        >>> paddle.{fn}(paddle.to_tensor([12, 10]), paddle.to_tensor([10, 6]))
    """
    return public


bitwise_and = _bitwise(ops.bitwise_and, "bitwise_and", "AND")
bitwise_or = _bitwise(ops.bitwise_or, "bitwise_or", "OR")
bitwise_xor = _bitwise(ops.bitwise_xor, "bitwise_xor", "XOR")


def bitwise_not(x, out=None, name=None) -> Tensor:
    """Elementwise bitwise NOT (~x) of an integer or bool tensor.

    Example:
        >>> paddle.bitwise_not(paddle.to_tensor([1, 0]))    # [-2, -1]
    """
    check_tensor(x, "bitwise_not")
    _integer(x, "bitwise_not")
    return _into(ops.bitwise_not(x), out, "bitwise_not")


def _predicate(op_fn, fn: str, what: str):
    def public(x, name=None) -> Tensor:
        check_tensor(x, fn)
        return op_fn(x)

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = f"""Whether each element of x {what}, as a bool tensor (integers are always finite).

    Example:
        >>> paddle.{fn}(paddle.to_tensor([float('nan'), 1.0, float('inf')]))
    """
    return public


isnan = _predicate(ops.isnan, "isnan", "is NaN")
isinf = _predicate(ops.isinf, "isinf", "is +inf or -inf")
isfinite = _predicate(ops.isfinite, "isfinite", "is finite (neither NaN nor infinite)")


def _close_args(x, y, rtol, atol, equal_nan, fn: str) -> tuple:
    check_tensor(x, fn, "x")
    check_tensor(y, fn, "y")
    if x.dtype != y.dtype:
        # paddle 2.6 refuses to compare tensors of two dtypes here (no promotion, unlike the arithmetic functions)
        raise TypeError(f"{fn}: x and y must have the same dtype, got {x.dtype.name} and {y.dtype.name}")
    check_same_shape(x, y, fn, error=PreconditionNotMetError)  # paddle 2.6 compares without broadcasting
    x, y = binary_operands(x, y, fn)
    rtol, atol = check_number(rtol, fn, "rtol"), check_number(atol, fn, "atol")
    return x, y, float(rtol), float(atol), check_bool(equal_nan, fn, "equal_nan")


def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None) -> Tensor:
    """Elementwise |x - y| <= atol + rtol * |y|, as a bool tensor; NaNs are equal only with equal_nan=True.

    Example:
        >>> paddle.isclose(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0 + 1e-9, 2.1]))    # [True, False]
    """
    return ops.isclose(*_close_args(x, y, rtol, atol, equal_nan, "isclose"))


def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None) -> Tensor:
    """Whether every element satisfies paddle.isclose, as a 0-d bool tensor.

    Example:
        >>> paddle.allclose(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0, 2.0]))    # True
    """
    return ops.all(ops.isclose(*_close_args(x, y, rtol, atol, equal_nan, "allclose")))


def equal_all(x, y, name=None) -> Tensor:
    """Whether x and y have the same shape and equal elements, as a 0-d bool tensor.

    Example:
        >>> paddle.equal_all(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 2]))    # True
    """
    check_tensor(x, "equal_all", "x")
    check_tensor(y, "equal_all", "y")
    if y.ndim > x.ndim:  # (paddle 2.6 answers False for other shapes, but refuses a y of more dimensions)
        raise ValueError(f"equal_all: y must not have more dimensions than x, got shapes {x.shape} and {y.shape}")
    if x.shape != y.shape:
        return ops.assign_value(np.asarray(False))
    x, y = binary_operands(x, y, "equal_all")
    return ops.all(ops.equal(x, y))


def is_empty(x, name=None) -> Tensor:
    """Whether x has no elements (some dimension is 0), as a 0-d bool tensor.

    Example:
        >>> paddle.is_empty(paddle.zeros([0, 3]))    # True
    """
    check_tensor(x, "is_empty")
    return ops.assign_value(np.asarray(x.size == 0))


def is_tensor(x) -> bool:
    """Whether x is a paddle Tensor (a Python bool).

    Example:
        >>> paddle.is_tensor(paddle.ones([1])), paddle.is_tensor([1.0])    # (True, False)
    """
    return isinstance(x, Tensor)
