"""Running products, extrema and log-sums along an axis: cumprod, cummax, cummin, logcumsumexp (cumsum is in
math.py, with the other sums).

The ops are in ops/cumulative.py; cummax/cummin find the positions with an op of their own and gather the values
there, so their gradient goes back through the gather.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import (
    check_dtype,
    check_float_tensor,
    check_tensor,
    normalize_axis,
)

__all__ = [
    "cumprod",
    "cummax",
    "cummin",
    "logcumsumexp",
]


def _along(x: Tensor, axis, fn: str, scan):
    """Run `scan(x, axis)` along one axis (None: over the flattened tensor); a 0-d x is scanned as [1] and
    keeps its shape when an axis is given."""
    if axis is None:
        return scan(ops.reshape(x, (-1,)), 0)
    axis = normalize_axis(axis, x.ndim, fn)
    if x.ndim == 0:
        out = scan(ops.reshape(x, (1,)), 0)
        return tuple(ops.reshape(o, ()) for o in out) if isinstance(out, tuple) else ops.reshape(out, ())
    return scan(x, axis)


# ---- running products, extrema and log-sums -------------------------------------------------------------------


def cumprod(x, dim=None, dtype=None, name=None) -> Tensor:
    """The running product of x along `dim`: out[i] = x[0] * x[1] * ... * x[i].

    Args:
        x (Tensor): int32, int64, float or complex input. dim (int): the axis (paddle 2.6 requires it).
        dtype (str|dtype, optional): cast x to this dtype first.

    Returns:
        Tensor of x's shape and dtype. Its gradient is exact where x holds zeros.

    Example:
        >>> paddle.cumprod(paddle.to_tensor([1., 2., 3.]), dim=0)    # [1., 2., 6.]
    """
    check_tensor(x, "cumprod")
    if dim is None or isinstance(dim, bool) or not isinstance(dim, (int, np.integer, Tensor)):
        raise ValueError(f"cumprod: dim must be an int, got {type(dim).__name__}")
    if dtype is not None:
        x = ops.cast(x, check_dtype(dtype, "cumprod"))
    if x.dtype is dtypes.bool_:
        raise TypeError("cumprod: x must be int32, int64, float or complex, got bool")
    return _along(x, dim, "cumprod", ops.cumprod)


def _cum_extremum(x, axis, dtype, fn: str, largest: bool) -> tuple:
    check_tensor(x, fn)
    d = dtypes.to_dtype(dtype)
    if d not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"{fn}: dtype of the indices must be int32 or int64, got {d.name}")

    def scan(t, a):
        indices = ops.cum_extremum_indices(t, a, largest, d.np)
        return ops.gather_along_axis(t, indices, a), indices

    return _along(x, axis, fn, scan)


def cummax(x, axis=None, dtype="int64", name=None) -> tuple:
    """The running maximum of x along `axis` (None: of the flattened tensor) and where it was found.

    A later element equal to the maximum takes over its position; after a NaN the maximum stays NaN.

    Returns:
        (values, indices): values like x, with the gradient going to the positions in indices (int64 or int32).

    Example:
        >>> paddle.cummax(paddle.to_tensor([1., 3., 2., 4.]))    # ([1., 3., 3., 4.], [0, 1, 1, 3])
    """
    return _cum_extremum(x, axis, dtype, "cummax", True)


def cummin(x, axis=None, dtype="int64", name=None) -> tuple:
    """The running minimum of x along `axis` (None: of the flattened tensor) and where it was found (as cummax).

    Example:
        >>> paddle.cummin(paddle.to_tensor([3., 1., 2., 0.]))    # ([3., 1., 1., 0.], [0, 1, 1, 3])
    """
    return _cum_extremum(x, axis, dtype, "cummin", False)


def logcumsumexp(x, axis=None, dtype=None, name=None) -> Tensor:
    """The running log(sum(exp(x))) along `axis` (None: of the flattened tensor), computed without overflow.

    Args:
        x (Tensor): float32 or float64 (or cast to `dtype` first).

    Example:
        >>> paddle.logcumsumexp(paddle.to_tensor([0., 0.]))    # [0., 0.6931]
    """
    check_tensor(x, "logcumsumexp")
    if dtype is not None:
        x = ops.cast(x, check_dtype(dtype, "logcumsumexp"))
    check_float_tensor(x, "logcumsumexp")
    return _along(x, axis, "logcumsumexp", ops.logcumsumexp)
