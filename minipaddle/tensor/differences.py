"""Differences and integrals along an axis: diff, trapezoid, cumulative_trapezoid.

All are compositions of ops (slicing, subtract, multiply, sum, cumsum), so their gradients come from those ops.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor import math
from minipaddle.tensor.checks import (
    PreconditionNotMetError,
    _int_scalar,
    check_broadcast,
    check_float_tensor,
    check_min_rank,
    check_number,
    check_tensor,
    normalize_axis,
)

__all__ = [
    "diff",
    "trapezoid",
    "cumulative_trapezoid",
]


# ---- differences and integrals -----------------------------------------------------------------------------------


def _check_same_but_axis(t, x: Tensor, axis: int, fn: str, arg: str) -> Tensor:
    check_tensor(t, fn, arg)
    if t.dtype is not x.dtype:
        raise TypeError(f"{fn}: {arg} must have x's dtype {x.dtype.name}, got {t.dtype.name}")
    if t.ndim != x.ndim or any(a != b for i, (a, b) in enumerate(zip(t.shape, x.shape)) if i != axis):
        raise ValueError(f"{fn}: {arg} must have x's shape {x.shape} except along axis {axis}, got shape {t.shape}")
    return t


def diff(x, n=1, axis=-1, prepend=None, append=None, name=None) -> Tensor:
    """The n-th forward difference along `axis`: out[i] = x[i + 1] - x[i], applied n times (for bool tensors,
    x[i + 1] xor x[i]). `prepend` / `append` are joined to x along `axis` first.

    Example:
        >>> paddle.diff(paddle.to_tensor([1, 4, 9, 16]))    # [3, 5, 7]
    """
    check_tensor(x, "diff")
    n = _int_scalar(n, "diff", "n")
    if n > 2**63 - 1:  # (paddle 2.6 loops n times and hangs; minipaddle refuses what is not an int64)
        raise ValueError(f"diff: n must be within int64's range, got {n}")
    if n < 1:
        raise ValueError(f"diff: n must be >= 1, got {n}")
    if x.ndim == 0:
        raise ValueError("diff: x must have at least 1 dimension, got a 0-d tensor")
    axis = normalize_axis(axis, x.ndim, "diff")
    parts = [x]
    if prepend is not None:
        parts.insert(0, _check_same_but_axis(prepend, x, axis, "diff", "prepend"))
    if append is not None:
        parts.append(_check_same_but_axis(append, x, axis, "diff", "append"))
    if len(parts) > 1:
        x = ops.concat(parts, axis)
    step = ops.logical_xor if x.dtype is dtypes.bool_ else ops.subtract
    for _ in range(n):
        length = x.shape[axis]
        if length == 0:
            break
        x = step(ops.split(x, (1, length - 1), axis)[1], ops.split(x, (length - 1, 1), axis)[0])
    return x


def _trapezoid(y, x, dx, axis, fn: str, running: bool) -> Tensor:
    check_float_tensor(y, fn, "y")
    check_min_rank(y, 1, fn, "y")  # a 0-D y has no axis to integrate along
    if x is not None and dx is not None:
        raise ValueError(f"{fn}: give x or dx, not both")
    axis = normalize_axis(axis, y.ndim, fn)
    length = y.shape[axis]
    if length < 2:  # (paddle 2.6: PreconditionNotMet)
        raise PreconditionNotMetError(f"{fn}: y needs at least 2 values along axis {axis}, got shape {y.shape}")
    pair_sums = ops.add(ops.split(y, (1, length - 1), axis)[1], ops.split(y, (length - 1, 1), axis)[0])
    total = ops.cumsum if running else (lambda t, a: ops.sum(t, (a,), False))
    if x is None:
        if dx is None or not isinstance(dx, Tensor):
            return ops.scale(total(pair_sums, axis), 0.5 * float(check_number(1.0 if dx is None else dx, fn, "dx")))
        if dx.ndim > 1:
            raise ValueError(f"{fn}: dx must be a scalar, got shape {dx.shape}")
        check_float_tensor(dx, fn, "dx")
        return ops.scale(math.multiply(total(pair_sums, axis), ops.reshape(dx, ())), 0.5)
    check_float_tensor(x, fn, "x")
    if x.ndim == 1:
        if x.shape[0] != length:
            raise ValueError(f"{fn}: a 1-D x must have y.shape[{axis}] = {length} values, got {x.shape[0]}")
        widths = ops.reshape(diff(x), tuple(length - 1 if i == axis else 1 for i in range(y.ndim)))
    else:
        widths = diff(x, axis=axis)
    check_broadcast(pair_sums, widths, fn)
    return ops.scale(total(math.multiply(pair_sums, widths), axis), 0.5)


def trapezoid(y, x=None, dx=None, axis=-1, name=None) -> Tensor:
    """The integral of y along `axis` by the trapezoidal rule, with sample points x (1-D, or shaped like y) or
    a constant spacing dx (default 1).

    Example:
        >>> paddle.trapezoid(paddle.to_tensor([1., 2., 3.]))    # 4.
    """
    return _trapezoid(y, x, dx, axis, "trapezoid", running=False)


def cumulative_trapezoid(y, x=None, dx=None, axis=-1, name=None) -> Tensor:
    """The running integral of y along `axis` by the trapezoidal rule (one value fewer than y along `axis`).

    Example:
        >>> paddle.cumulative_trapezoid(paddle.to_tensor([1., 2., 3.]))    # [1.5, 4.]
    """
    return _trapezoid(y, x, dx, axis, "cumulative_trapezoid", running=True)
