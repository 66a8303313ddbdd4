"""Elementwise math and reductions of the public API (paddle.tensor.math).

Each function checks its arguments, applies Paddle's dtype promotion, and calls the op. The ops themselves
live in minipaddle/ops/.
"""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_bool, check_number, check_tensor, normalize_axes

__all__ = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "pow",
    "scale",
    "sum",
    "mean",
    "neg",
    "conj",
    "abs",
    "sign",
    "exp",
    "log",
    "sqrt",
    "tanh",
    "max",
    "min",
]


def binary_operands(x, y, fn: str) -> tuple[Tensor, Tensor]:
    """x and y as Tensors of one dtype, promoted as paddle 2.6 promotes (see core/dtype.py)."""
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        dx, dy = x._data.dtype, y._data.dtype
        if dx is dy or dx == dy:  # the common case, kept cheap
            return x, y
        d = dtypes.promote_types(x.dtype, y.dtype)
        return (x if x.dtype is d else ops.cast(x, d)), (y if y.dtype is d else ops.cast(y, d))
    if isinstance(x, Tensor):
        return _with_scalar(x, y, fn, scalar_first=False)
    if isinstance(y, Tensor):
        y, x = _with_scalar(y, x, fn, scalar_first=True)
        return x, y
    raise TypeError(f"{fn}: x must be a Tensor, got {type(x).__name__}")


def _with_scalar(t: Tensor, v, fn: str, scalar_first: bool) -> tuple[Tensor, Tensor]:
    """A tensor with a Python number or numpy array on one side."""
    if isinstance(v, (np.ndarray, list, tuple)):
        from minipaddle.tensor.creation import to_tensor

        other = to_tensor(np.asarray(v))
        return binary_operands(other, t, fn)[::-1] if scalar_first else binary_operands(t, other, fn)
    if not isinstance(v, (numbers.Number, np.generic)):
        side = "x" if scalar_first else "y"
        raise TypeError(f"{fn}: {side} must be a Tensor or a number, got {type(v).__name__}")
    d = dtypes.scalar_result_dtype(t.dtype, v)
    if d is not t.dtype:
        t = ops.cast(t, d)
    return t, Tensor(np.asarray(v, dtype=d.np))


def _binary(op_fn, x, y, fn: str) -> Tensor:
    x, y = binary_operands(x, y, fn)
    return op_fn(x, y)


def add(x, y, name=None) -> Tensor:
    """x + y, elementwise, with broadcasting."""
    return _binary(ops.add, x, y, "add")


def subtract(x, y, name=None) -> Tensor:
    """x - y, elementwise, with broadcasting."""
    return _binary(ops.subtract, x, y, "subtract")


def multiply(x, y, name=None) -> Tensor:
    """x * y, elementwise, with broadcasting."""
    return _binary(ops.multiply, x, y, "multiply")


def divide(x, y, name=None) -> Tensor:
    """x / y, elementwise, with broadcasting. Integer tensors give integers (truncated), as in Paddle."""
    return _binary(ops.divide, x, y, "divide")


def true_divide(x, y) -> Tensor:
    """The `/` operator: integers are divided as floats (Paddle casts them to float32 first)."""
    x, y = binary_operands(x, y, "divide")
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x, y = ops.cast(x, dtypes.default_float()), ops.cast(y, dtypes.default_float())
    return ops.divide(x, y)


def maximum(x, y, name=None) -> Tensor:
    """The larger of x and y, elementwise (ties send the gradient to y, as Paddle does)."""
    return _binary(ops.maximum, x, y, "maximum")


def minimum(x, y, name=None) -> Tensor:
    """The smaller of x and y, elementwise."""
    return _binary(ops.minimum, x, y, "minimum")


def pow(x, y, name=None) -> Tensor:  # noqa: A001 (Paddle's name)
    """x ** y, where y is a Python number or a Tensor."""
    check_tensor(x, "pow")
    if isinstance(y, Tensor):
        return _binary(ops.elementwise_pow, x, y, "pow")
    y = check_number(y, "pow", "y")
    if isinstance(y, float) and not (x.dtype.is_floating or x.dtype.is_complex):
        x = ops.cast(x, dtypes.default_float())
    return ops.pow(x, y)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None) -> Tensor:
    """scale * x + bias (or scale * (x + bias) when bias_after_scale is False)."""
    check_tensor(x, "scale")
    s, b = check_number(scale, "scale", "scale"), check_number(bias, "scale", "bias")
    out = ops.scale(x, s, b if bias_after_scale else b * s)
    if act is not None:
        out = getattr(ops, act)(out)
    return out


def _unary(op_fn, fn: str):
    def public(x, name=None) -> Tensor:
        check_tensor(x, fn)
        return op_fn(x)

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = f"Elementwise {fn} of x."
    return public


def _float_unary(op_fn, fn: str):
    """Like _unary, but integer inputs are first cast to the default float dtype (exp of an int tensor)."""

    def public(x, name=None) -> Tensor:
        check_tensor(x, fn)
        if not (x.dtype.is_floating or x.dtype.is_complex):
            x = ops.cast(x, dtypes.default_float())
        return op_fn(x)

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = f"Elementwise {fn} of x."
    return public


neg = _unary(ops.neg, "neg")
conj = _unary(ops.conj, "conj")
abs = _unary(ops.abs, "abs")  # noqa: A001
sign = _unary(ops.sign, "sign")
exp = _float_unary(ops.exp, "exp")
log = _float_unary(ops.log, "log")
sqrt = _float_unary(ops.sqrt, "sqrt")
tanh = _float_unary(ops.tanh, "tanh")


# ---- reductions --------------------------------------------------------------------------------------------


def _reduction(op_fn, fn: str, doc: str):
    def public(x, axis=None, keepdim=False, name=None) -> Tensor:
        check_tensor(x, fn)
        return op_fn(x, normalize_axes(axis, x.ndim, fn), check_bool(keepdim, fn, "keepdim"))

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = doc
    return public


def sum(x, axis=None, dtype=None, keepdim=False, name=None) -> Tensor:  # noqa: A001
    """Sum over `axis` (None: all axes, giving a 0-d tensor). bool and int32 inputs sum to int64."""
    check_tensor(x, "sum")
    if dtype is not None:
        x = ops.cast(x, dtype)
    return ops.sum(x, normalize_axes(axis, x.ndim, "sum"), check_bool(keepdim, "sum", "keepdim"))


def mean(x, axis=None, keepdim=False, name=None) -> Tensor:
    """Mean over `axis` (None: all axes, giving a 0-d tensor). Integer tensors give a truncated integer, as Paddle."""
    check_tensor(x, "mean")
    return ops.mean(x, normalize_axes(axis, x.ndim, "mean"), check_bool(keepdim, "mean", "keepdim"))


max = _reduction(ops.max, "max", "Largest element over `axis`; the gradient goes to every maximal element.")  # noqa: A001
min = _reduction(ops.min, "min", "Smallest element over `axis`; the gradient goes to every minimal element.")  # noqa: A001
