"""Statistics of the public API (paddle.tensor.stat): var, std, median, numel; the reductions that skip zeros or
NaN (count_nonzero, nansum, nanmean, nanmedian) and quantile, nanquantile.

They are compositions of ops (mean, subtract, sum, sqrt; argsort, gather, split), so their gradients come from
the ops' grad rules. (paddle.mean lives with the other reductions in tensor/math.py.)
"""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor import math
from minipaddle.tensor.checks import check_bool, check_not_empty, check_tensor, normalize_axes, normalize_axis

__all__ = [
    "var",
    "std",
    "median",
    "numel",
    "count_nonzero",
    "nansum",
    "nanmean",
    "nanmedian",
    "quantile",
    "nanquantile",
]


def _as_float(x: Tensor) -> Tensor:
    return x if (x.dtype.is_floating or x.dtype.is_complex) else ops.cast(x, dtypes.default_float())


def var(x, axis=None, unbiased=True, keepdim=False, name=None) -> Tensor:
    """The variance over `axis` (None: all axes): the mean squared distance from the mean.

    Args:
        x (Tensor): the input (integers are computed in the default float dtype).
        axis (int|list|None): the axes to reduce. keepdim (bool): keep them as size 1.
        unbiased (bool): divide by n - 1 (Bessel's correction; by 1 when n is 1, as Paddle) instead of n.

    Example:
        >>> paddle.var(paddle.to_tensor([1.0, 2.0, 4.0]))    # 2.3333
    """
    check_tensor(x, "var")
    unbiased = check_bool(unbiased, "var", "unbiased")
    keepdim = check_bool(keepdim, "var", "keepdim")
    x = _as_float(x)
    axes = normalize_axes(axis, x.ndim, "var")
    dims = [x.shape[i] for i in (range(x.ndim) if axes is None else axes)]
    if any(d < 0 for d in dims):
        raise ValueError(f"var: the reduced dimensions must be known, got shape {list(x.shape)} (-1 is unknown)")
    count = int(np.prod(dims))
    if count == 0:
        raise ValueError(f"var: there are no elements to reduce (x has shape {x.shape}, axis {axis})")
    centered = ops.subtract(x, ops.mean(x, axes, True))
    squares = ops.multiply(centered, ops.conj(centered))
    return ops.scale(ops.sum(squares, axes, keepdim), 1.0 / (max(count - 1, 1) if unbiased else count))


def std(x, axis=None, unbiased=True, keepdim=False, name=None) -> Tensor:
    """The standard deviation over `axis`: the square root of paddle.var (same arguments).

    Example:
        >>> paddle.std(paddle.to_tensor([1.0, 2.0, 4.0]), unbiased=False)    # 1.2472
    """
    check_tensor(x, "std")
    return ops.sqrt(var(x, axis, unbiased, keepdim))


def median(x, axis=None, keepdim=False, name=None) -> Tensor:
    """The median along `axis` (None: of all elements). With an even count it is the mean of the two middle
    values, which then share the gradient. Integers give the default float dtype.

    Example:
        >>> paddle.median(paddle.to_tensor([1, 3, 2, 4]))    # 2.5
    """
    check_tensor(x, "median")
    keepdim = check_bool(keepdim, "median", "keepdim")
    if x.size == 0:
        raise ValueError(f"median: x is empty (shape {x.shape}); the median needs at least one element")
    x = _as_float(x)
    out_shape = [1] * x.ndim if keepdim else []
    if axis is None:
        x, axis = ops.reshape(x, (-1,)), 0
    else:
        axis = normalize_axis(axis, x.ndim, "median")
        out_shape = [1 if i == axis else d for i, d in enumerate(x.shape) if keepdim or i != axis]
    n = x.shape[axis]
    if n < 0:
        raise ValueError(f"median: the size of axis {axis} must be known, got shape {list(x.shape)} (-1 is unknown)")
    ordered = ops.gather_along_axis(x, ops.argsort(x, axis, False), axis)
    k = (n - 1) // 2
    middle = ops.split(ordered, (k, 2 - n % 2, n - k - 2 + n % 2), axis)[1]  # one middle value, or two
    return ops.reshape(ops.mean(middle, (axis,), True), tuple(out_shape))


def numel(x, name=None) -> Tensor:
    """The number of elements of x, as an int64 0-d tensor.

    Example:
        >>> paddle.numel(paddle.ones([2, 3]))    # 6
    """
    check_tensor(x, "numel")
    return ops.count_elements(x)  # an op, so it also works on static Variables whose batch size is -1


def _lines(x: Tensor, axis, fn: str) -> tuple:
    """x with the reduced axes (None: all) moved last and merged into one, so a reduction runs along axis -1.

    Returns (lines, kept, with_ones): the result's shape without keepdim and with it."""
    axes = normalize_axes(axis, x.ndim, fn) if axis is not None and x.ndim else None
    axes = tuple(range(x.ndim)) if axes is None else axes
    kept = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    with_ones = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    size = int(np.prod([x.shape[i] for i in axes]))
    perm = tuple(i for i in range(x.ndim) if i not in axes) + axes
    if perm != tuple(range(x.ndim)):
        x = ops.transpose(x, perm)
    return ops.reshape(x, kept + (size,)), kept, with_ones


def _has_elements(x: Tensor, fn: str) -> None:
    if x.size == 0:
        raise ValueError(f"{fn}: x is empty (shape {x.shape}); it needs at least one element")


# ---- reductions that skip zeros or NaN ---------------------------------------------------------------------------


def count_nonzero(x, axis=None, keepdim=False, name=None) -> Tensor:
    """How many elements of x along `axis` (None: all) are not zero (NaN counts), as int64.

    Example:
        >>> paddle.count_nonzero(paddle.to_tensor([[0, 1], [2, 3]]), axis=1)    # [1, 2]
    """
    check_not_empty(check_tensor(x, "count_nonzero"), "count_nonzero")
    axes = normalize_axes(axis, x.ndim, "count_nonzero")
    return ops.sum(ops.cast(x, dtypes.bool_), axes, check_bool(keepdim, "count_nonzero", "keepdim"))


def _nan_to_zero(x: Tensor) -> Tensor:
    if not x.dtype.is_floating:
        return x
    return ops.where(ops.isnan(x), ops.full_like(x, 0), x)


def nansum(x, axis=None, dtype=None, keepdim=False, name=None) -> Tensor:
    """paddle.sum with NaN read as 0 (they get no gradient). bool and int32 sum to int64, as paddle.sum.

    Example:
        >>> paddle.nansum(paddle.to_tensor([1., float('nan'), 2.]))    # 3.
    """
    check_not_empty(check_tensor(x, "nansum"), "nansum")
    return math.sum(_nan_to_zero(x), axis, dtype, keepdim)


def nanmean(x, axis=None, keepdim=False, name=None) -> Tensor:
    """The mean over `axis` of the elements that are not NaN (NaN where there are none). Integers give a
    truncated integer (int64), as paddle 2.6.

    Example:
        >>> paddle.nanmean(paddle.to_tensor([1., float('nan'), 2.]))    # 1.5
    """
    check_not_empty(check_tensor(x, "nanmean"), "nanmean")
    total = nansum(x, axis, None, keepdim)
    axes = normalize_axes(axis, x.ndim, "nanmean")
    present = ops.logical_not(ops.isnan(x)) if x.dtype.is_floating else ops.full_like(x, True, np.bool_)
    count = ops.sum(present, axes, check_bool(keepdim, "nanmean", "keepdim"))
    return ops.divide(total, ops.cast(count, total.dtype))


def nanmedian(x, axis=None, keepdim=False, name=None) -> Tensor:
    """The median over `axis` (None: all; an int, list or tuple of axes) ignoring NaN; with an even count, the
    mean of the two middle values (truncated for integers). x's dtype is kept.

    The gradient goes to the middle value, or half to each of the two; ties are broken by position (paddle's
    kernel may pick another of equal values). A line of only NaN gives NaN.

    Example:
        >>> paddle.nanmedian(paddle.to_tensor([1., float('nan'), 3., 2.]))    # 2.
    """
    check_tensor(x, "nanmedian")
    if x.dtype not in (dtypes.int32, dtypes.int64, dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64):
        raise TypeError(f"nanmedian: x must be int32, int64 or float, got {x.dtype.name}")
    if isinstance(axis, (list, tuple)) and len(axis) == 0:
        raise ValueError("nanmedian: axis must not be an empty list")
    _has_elements(x, "nanmedian")
    lines, kept, with_ones = _lines(x, axis, "nanmedian")
    median, _ = ops.nanmedian(lines)
    return ops.reshape(median, with_ones) if check_bool(keepdim, "nanmedian", "keepdim") else median


# ---- quantiles and the k-th value --------------------------------------------------------------------------------


def _quantile(x, q, axis, keepdim, fn: str, ignore_nan: bool) -> Tensor:
    """Paddle 2.6's quantile: sort each line, find position q * (count - 1), interpolate linearly between the
    values on either side (in float64), whose weights carry the gradient back to those two elements."""
    check_tensor(x, fn)
    if x.dtype not in (dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64):
        raise TypeError(f"{fn}: x must be int32, int64 or float, got {x.dtype.name}")
    if isinstance(q, numbers.Real) and not isinstance(q, bool):
        qs = [q]
    elif isinstance(q, (list, tuple)):
        if len(q) == 0:
            raise ValueError(f"{fn}: q must not be empty")
        qs = list(q)
    else:
        raise TypeError(f"{fn}: q must be an int, float, list or tuple, got {type(q).__name__}")
    for v in qs:
        if not isinstance(v, numbers.Real) or isinstance(v, bool) or not 0 <= v <= 1:
            raise ValueError(f"{fn}: every q must be a number in [0, 1], got {v!r}")
    keepdim = check_bool(keepdim, fn, "keepdim")
    if x.ndim == 0 and axis is not None:
        raise ValueError(f"{fn}: a 0-d x has no axis to reduce; give axis=None, got {axis}")
    _has_elements(x, fn)
    lines, kept, with_ones = _lines(x, axis, fn)
    n = lines.shape[-1]
    ordered = ops.gather_along_axis(lines, ops.argsort(lines, -1, False), -1)  # NaN sorts last
    if x.dtype.is_floating:
        is_nan = ops.isnan(lines)
        valid = ops.cast(ops.sum(ops.logical_not(is_nan), (-1 % lines.ndim,), True), np.float64)
    else:
        valid = ops.full_like(ops.split(lines, (1, n - 1), -1)[0], n, np.float64)
    outputs = []
    for v in qs:
        position = ops.scale(valid, float(v), -float(v))  # q * (count - 1)
        if x.dtype.is_floating and not ignore_nan:  # a line holding NaN: its quantiles are NaN (the last value)
            has_nan = ops.any(is_nan, (-1 % lines.ndim,), True)
            position = ops.where(has_nan, ops.full_like(position, n - 1), position)
        below, above = ops.floor(position), ops.ceil(position)
        weight = ops.subtract(position, below)
        low, high = (
            ops.cast(ops.gather_along_axis(ordered, ops.cast(ops.clip(p, 0.0, n - 1.0), np.int64), -1), np.float64)
            for p in (below, above)
        )
        out = ops.add(low, ops.multiply(weight, ops.subtract(high, low)))
        outputs.append(ops.reshape(out, with_ones if keepdim else kept))
    return ops.stack(outputs, 0) if len(outputs) > 1 else outputs[0]


def quantile(x, q, axis=None, keepdim=False) -> Tensor:
    """The q-th quantile of x over `axis` (None: all; an int or a list of axes), interpolating linearly between
    the two nearest sorted values. A line holding NaN gives NaN.

    Args:
        x (Tensor): int32, int64 or float. q (float|list|tuple): quantile(s) in [0, 1]; with several, the
            results are stacked along a new first axis.

    Returns:
        float64 Tensor (as paddle 2.6).

    Example:
        >>> paddle.quantile(paddle.to_tensor([1., 2., 3., 4.]), 0.5)    # 2.5
    """
    return _quantile(x, q, axis, keepdim, "quantile", ignore_nan=False)


def nanquantile(x, q, axis=None, keepdim=False) -> Tensor:
    """paddle.quantile ignoring NaN (a line of only NaN gives NaN).

    Example:
        >>> paddle.nanquantile(paddle.to_tensor([1., float('nan'), 3.]), 0.5)    # 2.
    """
    return _quantile(x, q, axis, keepdim, "nanquantile", ignore_nan=True)
