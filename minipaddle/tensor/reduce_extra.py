"""Running products and extrema, NaN-ignoring reductions, quantiles, differences and integrals, counting and
searching in sorted sequences (the paddle 2.6 functions missing from the 2.0 API): cumprod, cummax, cummin,
logcumsumexp, count_nonzero, nansum, nanmean, nanmedian, quantile, nanquantile, kthvalue, diff, trapezoid,
cumulative_trapezoid, bincount, bucketize, searchsorted, logspace.

The ops they need are in ops/reduce_extra.py; quantile, kthvalue, diff and the trapezoid rules are compositions
of ops (sort, gather, subtract, sum), so their gradients come from those ops' rules.
"""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor import math
from minipaddle.tensor.checks import (
    check_bool,
    check_broadcast,
    check_float_tensor,
    check_number,
    check_tensor,
    normalize_axes,
    normalize_axis,
)

__all__ = [
    "cumprod",
    "cummax",
    "cummin",
    "logcumsumexp",
    "count_nonzero",
    "nansum",
    "nanmean",
    "nanmedian",
    "quantile",
    "nanquantile",
    "kthvalue",
    "diff",
    "trapezoid",
    "cumulative_trapezoid",
    "bincount",
    "bucketize",
    "searchsorted",
    "logspace",
]


# ---- shared helpers --------------------------------------------------------------------------------------------


def _int(v, fn: str, arg: str) -> int:
    v = v.item() if isinstance(v, Tensor) and v.size == 1 else v
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{fn}: {arg} must be an int, got {type(v).__name__}")
    return int(v)


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
        x = ops.cast(x, dtypes.to_dtype(dtype))
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
        x = ops.cast(x, dtypes.to_dtype(dtype))
    check_float_tensor(x, "logcumsumexp")
    return _along(x, axis, "logcumsumexp", ops.logcumsumexp)


# ---- reductions that skip zeros or NaN ---------------------------------------------------------------------------


def count_nonzero(x, axis=None, keepdim=False, name=None) -> Tensor:
    """How many elements of x along `axis` (None: all) are not zero (NaN counts), as int64.

    Example:
        >>> paddle.count_nonzero(paddle.to_tensor([[0, 1], [2, 3]]), axis=1)    # [1, 2]
    """
    check_tensor(x, "count_nonzero")
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
    check_tensor(x, "nansum")
    return math.sum(_nan_to_zero(x), axis, dtype, keepdim)


def nanmean(x, axis=None, keepdim=False, name=None) -> Tensor:
    """The mean over `axis` of the elements that are not NaN (NaN where there are none). Integers give a
    truncated integer (int64), as paddle 2.6.

    Example:
        >>> paddle.nanmean(paddle.to_tensor([1., float('nan'), 2.]))    # 1.5
    """
    check_tensor(x, "nanmean")
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


def kthvalue(x, k, axis=None, keepdim=False, name=None) -> tuple:
    """The k-th smallest element along `axis` (default: the last) and its position. NaN counts as the largest.

    Returns:
        (values, indices): values has x's dtype and sends its gradient to the element at indices (int64). Among
        equal values the position follows a stable sort (paddle's kernel may pick another of the tied ones).

    Example:
        >>> paddle.kthvalue(paddle.to_tensor([3., 1., 2.]), 2)    # (2., 2)
    """
    check_tensor(x, "kthvalue")
    k = _int(k, "kthvalue", "k")
    keepdim = check_bool(keepdim, "kthvalue", "keepdim")
    if x.ndim == 0:
        if k != 1:
            raise ValueError(f"kthvalue: k must be 1 for a 0-d tensor, got {k}")
        return ops.assign(x), ops.full_like(x, 0, np.int64)
    axis = normalize_axis(-1 if axis is None else axis, x.ndim, "kthvalue")
    n = x.shape[axis]
    if not 1 <= k <= n:
        raise ValueError(f"kthvalue: k must be between 1 and x.shape[{axis}] = {n}, got {k}")
    indices = ops.split(ops.argsort(x, axis, False), (k - 1, 1, n - k), axis)[1]
    values = ops.gather_along_axis(x, indices, axis)
    if keepdim:
        return values, indices
    shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
    return ops.reshape(values, shape), ops.reshape(indices, shape)


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
    n = _int(n, "diff", "n")
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
    if x is not None and dx is not None:
        raise ValueError(f"{fn}: give x or dx, not both")
    axis = normalize_axis(axis, y.ndim, fn)
    length = y.shape[axis]
    if length < 2:
        raise ValueError(f"{fn}: y needs at least 2 values along axis {axis}, got shape {y.shape}")
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


# ---- counting and searching --------------------------------------------------------------------------------------


def bincount(x, weights=None, minlength=0, name=None) -> Tensor:
    """How often each of 0, 1, ..., max(x) occurs in the 1-D non-negative integer tensor x (at least
    `minlength` bins); with `weights`, the sum of the weights in each bin instead.

    Returns:
        int64 counts, or the weights' float dtype (float64 for integer weights). An empty x gives an empty
        tensor, as paddle 2.6.

    Example:
        >>> paddle.bincount(paddle.to_tensor([1, 1, 3]))    # [0, 2, 0, 1]
    """
    check_tensor(x, "bincount")
    if not x.dtype.is_integer:
        raise TypeError(f"bincount: x must hold integers, got {x.dtype.name}")
    if x.ndim != 1:
        raise ValueError(f"bincount: x must be 1-D, got shape {x.shape}")
    minlength = _int(minlength, "bincount", "minlength")
    if minlength < 0:
        raise ValueError(f"bincount: minlength must be >= 0, got {minlength}")
    if weights is not None:
        check_tensor(weights, "bincount", "weights")
        if weights.shape != x.shape:
            raise ValueError(f"bincount: weights must have x's shape {x.shape}, got {weights.shape}")
    return ops.bincount(x, weights, minlength)


def _check_sortable(t, fn: str, arg: str) -> Tensor:
    check_tensor(t, fn, arg)
    if not (t.dtype.is_integer or t.dtype.is_floating) or t.dtype is dtypes.bfloat16:
        raise TypeError(f"{fn}: {arg} must be an int or float tensor, got {t.dtype.name}")
    return t


def searchsorted(sorted_sequence, values, out_int32=False, right=False, name=None) -> Tensor:
    """Where each of `values` would go in `sorted_sequence` to keep it sorted: the first such position
    (right=False) or the last. An N-D sorted_sequence has one sorted row per row of values.

    Returns:
        int64 (int32 with out_int32=True) tensor of values' shape.

    Example:
        >>> paddle.searchsorted(paddle.to_tensor([1, 3, 5]), paddle.to_tensor([3, 6]))    # [1, 3]
    """
    _check_sortable(sorted_sequence, "searchsorted", "sorted_sequence")
    _check_sortable(values, "searchsorted", "values")
    out_int32 = check_bool(out_int32, "searchsorted", "out_int32")
    right = check_bool(right, "searchsorted", "right")
    seq_shape, value_shape = sorted_sequence.shape, values.shape
    if len(seq_shape) == 0:
        raise ValueError("searchsorted: sorted_sequence must have at least 1 dimension, got a 0-d tensor")
    if len(seq_shape) > 1 and (len(value_shape) != len(seq_shape) or seq_shape[:-1] != value_shape[:-1]):
        raise ValueError(
            f"searchsorted: an N-D sorted_sequence (shape {seq_shape}) needs values with the same leading "
            f"dimensions {seq_shape[:-1]}, got values of shape {value_shape}"
        )
    return ops.searchsorted(sorted_sequence, values, right, np.int32 if out_int32 else np.int64)


def bucketize(x, sorted_sequence, out_int32=False, right=False, name=None) -> Tensor:
    """The bucket of each element of x between the boundaries in the 1-D `sorted_sequence`
    (paddle.searchsorted with the arguments swapped).

    Example:
        >>> paddle.bucketize(paddle.to_tensor([0, 4, 10]), paddle.to_tensor([1, 3, 5, 7]))    # [0, 2, 4]
    """
    _check_sortable(sorted_sequence, "bucketize", "sorted_sequence")
    if sorted_sequence.ndim != 1:
        raise ValueError(f"bucketize: sorted_sequence must be 1-D, got shape {sorted_sequence.shape}")
    _check_sortable(x, "bucketize", "x")
    return searchsorted(sorted_sequence, x, out_int32, right)


def logspace(start, stop, num, base=10.0, dtype=None, name=None) -> Tensor:
    """num values base ** e with the exponents e evenly spaced from start to stop (both included).

    Args:
        start, stop, base (float|Tensor): cast to `dtype` first (integer dtypes truncate them).
        num (int|Tensor): how many values, > 0. dtype: int32, int64, float32 or float64 (default: the
            default float dtype).

    Example:
        >>> paddle.logspace(0, 2, 3)    # [1., 10., 100.]
    """
    d = dtypes.default_float() if dtype is None else dtypes.to_dtype(dtype)
    if d not in (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64):
        raise TypeError(f"logspace: dtype must be int32, int64, float32 or float64, got {d.name}")
    start, stop, base = (float(check_number(v, "logspace", a)) for v, a in ((start, "start"), (stop, "stop"),
                                                                            (base, "base")))  # fmt: skip
    num = num.item() if isinstance(num, Tensor) else num
    if isinstance(num, (float, np.floating)) and float(num).is_integer():
        num = int(num)
    num = _int(num, "logspace", "num")
    if num <= 0:
        raise ValueError(f"logspace: num must be > 0, got {num}")
    return ops.logspace(start, stop, num, base, d.np)
