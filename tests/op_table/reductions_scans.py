"""Op-table section: paddle 2.6's running products and extrema, NaN-ignoring reductions, quantiles, kthvalue,
differences and trapezoid integrals, counting and searching (bincount, bucketize, searchsorted), logspace, and
the random ops shaped like a tensor (checked where their result is certain)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, distinct, r

NAN = np.nan


def with_nans(rng, *shape, every=4):
    """Distinct values with a NaN in every `every`-th place (never a line of NaN only, along any axis of these
    shapes), so gradients stay finite."""
    x = distinct(rng, *shape).reshape(-1)
    x[1::every] = NAN
    return x.reshape(shape)


# ---- running products, extrema and log-sums -------------------------------------------------------------------


def cumprod_samples(rng):
    with_zeros = r(rng, 2, 5)
    with_zeros[0, 1] = 0.0
    with_zeros[1, 1] = with_zeros[1, 3] = 0.0  # two zeros in one line
    return [
        Sample((r(rng, 3, 4),), {"dim": 1}, "dim 1"),
        Sample((r(rng, 3, 4),), {"dim": 0}, "dim 0"),
        Sample((r(rng, 2, 3, 2),), {"dim": -1}, "3-d, dim -1"),
        Sample((with_zeros,), {"dim": 1}, "zeros"),
        Sample((np.asarray(0.7),), {"dim": 0}, "0-d"),
    ]


def cumprod_ref(x, dim):
    return np.cumprod(x, axis=dim).reshape(x.shape)


def cum_samples(rng):
    return [
        Sample((distinct(rng, 3, 4),), {"axis": 1}, "axis 1"),
        Sample((distinct(rng, 3, 4),), {"axis": 0}, "axis 0"),
        Sample((distinct(rng, 2, 3, 2),), {}, "flattened"),
        Sample((np.asarray(0.3),), {"axis": 0}, "0-d"),
    ]


def cum_index_samples(rng):
    ties = rng.integers(0, 3, size=(3, 6)).astype(float)
    return cum_samples(rng) + [
        Sample((ties,), {"axis": 1}, "ties"),
        Sample((np.array([1.0, NAN, 3.0, NAN, 0.0]),), {"axis": 0}, "NaN"),
        Sample((rng.integers(-5, 5, size=(4, 3)),), {"axis": 0, "dtype": "int32"}, "ints, int32 indices"),
    ]


def cum_extremum_ref(largest: bool, want: str):
    """Paddle's rule, element by element: a NaN or an element >= (<=) the running extremum takes over."""

    def ref(x, axis=None, dtype="int64"):
        if axis is None:
            x, axis = x.reshape(-1), 0
        lines = np.moveaxis(np.atleast_1d(x), axis, -1)
        values, indices = np.empty_like(lines), np.zeros(lines.shape, dtype=dtype)
        for pos in np.ndindex(*lines.shape[:-1]):
            best, where = lines[pos][0], 0
            for i, v in enumerate(lines[pos]):
                take = np.isnan(v) or (not np.isnan(best) and (v >= best if largest else v <= best))
                if take:
                    best, where = v, i
                values[pos][i], indices[pos][i] = best, where
        out = values if want == "values" else indices
        return np.moveaxis(out, -1, axis).reshape(x.shape)

    return ref


def logcumsumexp_ref(x, axis=None):
    if axis is None:
        x, axis = x.reshape(-1), 0
    return np.logaddexp.accumulate(np.atleast_1d(x), axis=axis).reshape(x.shape)


# ---- NaN-ignoring reductions -------------------------------------------------------------------------------------


def nan_samples(rng):
    return [
        Sample((with_nans(rng, 3, 4),), {}, "all axes"),
        Sample((with_nans(rng, 3, 4),), {"axis": 1}, "axis 1"),
        Sample((with_nans(rng, 3, 4, 2),), {"axis": [0, 2], "keepdim": True}, "axis list keepdim"),
        Sample((distinct(rng, 5),), {"axis": 0}, "no NaN"),
    ]


def nan_ref(np_fn):
    def ref(x, axis=None, keepdim=False):
        return np.asarray(np_fn(x, axis=tuple(axis) if isinstance(axis, list) else axis, keepdims=keepdim))

    return ref


def nanmedian_samples(rng):
    even = distinct(rng, 4, 6)
    even[np.arange(4), np.arange(4)] = NAN  # along axis 0: columns of 3 and of 4 numbers; 20 numbers in all
    return nan_samples(rng) + [
        Sample((even,), {"axis": 0}, "even count"),
        Sample((even,), {"axis": (0, 1)}, "axis tuple"),
    ]


def count_nonzero_samples(rng):
    x = rng.integers(-1, 2, size=(3, 4)).astype(float)
    return [
        Sample((x,), {}, "all axes"),
        Sample((x,), {"axis": 1, "keepdim": True}, "axis 1 keepdim"),
        Sample((rng.integers(0, 2, size=(2, 3, 2)),), {"axis": [0, 2]}, "ints, axis list"),
    ]


# ---- quantiles and kthvalue --------------------------------------------------------------------------------------


def quantile_samples(rng):
    return [
        Sample((distinct(rng, 3, 5), 0.3), {}, "all axes"),
        Sample((distinct(rng, 3, 5), 0.5), {"axis": 1}, "axis 1"),
        Sample((distinct(rng, 3, 5), [0.25, 0.8]), {"axis": 0, "keepdim": True}, "two q, keepdim"),
        Sample((distinct(rng, 2, 3, 4), 0.7), {"axis": [0, 2]}, "axis list"),
        Sample((distinct(rng, 4), 1.0), {}, "q = 1"),
    ]


def nanquantile_samples(rng):
    return [
        Sample((with_nans(rng, 3, 5), 0.4), {"axis": 1}, "NaN, axis 1"),
        Sample((with_nans(rng, 3, 5), [0.0, 0.6]), {}, "NaN, two q"),
    ]


def quantile_ref(np_fn):
    def ref(x, q, axis=None, keepdim=False):
        axis = tuple(axis) if isinstance(axis, list) else axis
        return np.asarray(np_fn(x.astype(np.float64), q, axis=axis, keepdims=keepdim))

    return ref


def kthvalue_samples(rng):
    return [
        Sample((distinct(rng, 3, 5), 2), {}, "last axis"),
        Sample((distinct(rng, 3, 5), 3), {"axis": 0, "keepdim": True}, "axis 0 keepdim"),
        Sample((distinct(rng, 6), 6), {}, "k = n"),
    ]


def kthvalue_ref(want: str):
    def ref(x, k, axis=-1, keepdim=False):
        order = np.take(np.argsort(x, axis=axis, kind="stable"), [k - 1], axis=axis)
        out = np.take_along_axis(x, order, axis=axis) if want == "values" else order
        return out if keepdim else np.squeeze(out, axis=axis)

    return ref


# ---- differences and integrals -----------------------------------------------------------------------------------


def diff_samples(rng):
    return [
        Sample((r(rng, 3, 5),), {}, "last axis"),
        Sample((r(rng, 3, 5),), {"n": 2, "axis": 0}, "n = 2, axis 0"),
        Sample((r(rng, 3, 4), 1, 1, r(rng, 3, 2), r(rng, 3, 1)), {}, "prepend, append"),
        Sample((r(rng, 3),), {"n": 4}, "n > length: empty"),
    ]


def diff_ref(x, n=1, axis=-1, prepend=None, append=None):
    kwargs = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    return np.diff(x, n=n, axis=axis, **kwargs)


def trapezoid_samples(rng):
    return [
        Sample((r(rng, 3, 5),), {}, "dx = 1"),
        Sample((r(rng, 3, 5),), {"dx": 0.5, "axis": 0}, "dx, axis 0"),
        Sample((r(rng, 2, 4), np.sort(r(rng, 4))), {}, "1-d x"),
        Sample((r(rng, 2, 4), np.sort(r(rng, 2, 4), axis=1)), {"axis": 1}, "x like y"),
    ]


def trapezoid_ref(y, x=None, dx=None, axis=-1):
    return np.trapezoid(y, x=x, dx=1.0 if dx is None else dx, axis=axis)


def cumulative_trapezoid_ref(y, x=None, dx=None, axis=-1):
    y = np.moveaxis(y, axis, -1)
    widths = np.full(y.shape[-1] - 1, 1.0 if dx is None else dx) if x is None else np.diff(np.moveaxis(x, axis, -1))
    widths = widths.astype(y.dtype)
    return np.moveaxis(np.cumsum((y[..., 1:] + y[..., :-1]) * widths / 2, axis=-1), -1, axis)


# ---- counting and searching --------------------------------------------------------------------------------------


def bincount_samples(rng):
    x = rng.integers(0, 5, size=8)
    return [
        Sample((x,), {}, "counts"),
        Sample((x,), {"minlength": 9}, "minlength"),
        Sample((x, r(rng, 8)), {}, "weights"),
        Sample((x, rng.integers(0, 4, size=8)), {}, "int weights: float64"),
    ]


def bincount_ref(x, weights=None, minlength=0):
    out = np.bincount(x, weights, minlength)
    return out.astype(np.int64 if weights is None else np.float64)


def bucketize_samples(rng):
    return [
        Sample((rng.integers(0, 12, size=(2, 3)), np.array([1, 3, 5, 7, 9])), {}, "ints"),
        Sample((r(rng, 4), np.sort(r(rng, 6))), {"right": True}, "floats, right"),
        Sample((np.array([3, 5]), np.array([1, 3, 5])), {"out_int32": True}, "ties, int32"),
    ]


def bucketize_ref(x, sorted_sequence, out_int32=False, right=False):
    out = np.searchsorted(sorted_sequence, x, side="right" if right else "left")
    return out.astype(np.int32 if out_int32 else np.int64)


def searchsorted_samples(rng):
    rows = np.sort(rng.integers(0, 10, size=(2, 3, 5)), axis=-1)
    return [
        Sample((np.array([1, 3, 5, 7]), rng.integers(0, 9, size=(2, 3))), {}, "1-d sequence"),
        Sample((rows, rng.integers(0, 10, size=(2, 3, 4))), {}, "a row each"),
        Sample((rows, rng.integers(0, 10, size=(2, 3, 4))), {"right": True}, "a row each, right"),
        Sample((np.sort(r(rng, 2, 4), axis=1), np.array([[NAN, 0.0], [1.0, NAN]])), {}, "NaN values"),
        Sample((np.sort(r(rng, 2, 4), axis=1), np.array([[NAN, 0.0], [1.0, NAN]])), {"right": True}, "NaN, right"),
    ]


def searchsorted_ref(sorted_sequence, values, out_int32=False, right=False):
    side = "right" if right else "left"
    seq = sorted_sequence.reshape(-1, sorted_sequence.shape[-1])
    if sorted_sequence.ndim == 1:
        return np.searchsorted(sorted_sequence, values, side=side)
    v = values.reshape(len(seq), -1)
    return np.stack([np.searchsorted(s, row, side=side) for s, row in zip(seq, v)]).reshape(values.shape)


def logspace_samples(rng):
    return [
        Sample((0, 2, 3), {}, "powers of 10"),
        Sample((-1.0, 1.5, 6), {"base": 2.0, "dtype": "float64"}, "base 2, float64"),
        Sample((0, 3, 4), {"base": 2, "dtype": "int64"}, "int64"),
        Sample((0, 1.5, 4), {"dtype": "int32"}, "int32 truncates stop"),
        Sample((2, 5, 1), {}, "num = 1"),
    ]


def logspace_ref(start, stop, num, base=10.0, dtype="float32"):
    if np.dtype(dtype).kind in "iu":
        start, stop, base = int(start), int(stop), int(base)
    return np.logspace(start, stop, num, base=base).astype(dtype)


# ---- random ops, where their result is certain -------------------------------------------------------------------


def randint_like_certain(x):
    return paddle.randint_like(x, 1)  # draws from [0, 1): all zeros, in x's dtype


def fill_then_floor(x):
    return paddle.floor(paddle.assign(x).uniform_(0.0, 1.0))  # uniform in [0, 1) floors to 0


def zeros_like_ref(x):
    return np.zeros_like(x)


ENTRIES = [
    OpInfo("cumprod", paddle.cumprod, cumprod_ref, cumprod_samples),  # (no double grad: paddle 2.6 has none)
    OpInfo("cummax", lambda x, **k: paddle.cummax(x, **k)[0], cum_extremum_ref(True, "values"), cum_samples),
    OpInfo("cummin", lambda x, **k: paddle.cummin(x, **k)[0], cum_extremum_ref(False, "values"), cum_samples),
    OpInfo(
        "cummax_indices",
        lambda x, **k: paddle.cummax(x, **k)[1],
        cum_extremum_ref(True, "indices"),
        cum_index_samples,
        grad=False,
    ),  # fmt: skip
    OpInfo(
        "cummin_indices",
        lambda x, **k: paddle.cummin(x, **k)[1],
        cum_extremum_ref(False, "indices"),
        cum_index_samples,
        grad=False,
    ),  # fmt: skip
    OpInfo("logcumsumexp", paddle.logcumsumexp, logcumsumexp_ref, cum_samples),
    OpInfo("count_nonzero", paddle.count_nonzero, nan_ref(np.count_nonzero), count_nonzero_samples, grad=False),
    OpInfo("nansum", paddle.nansum, nan_ref(np.nansum), nan_samples),
    OpInfo("nanmean", paddle.nanmean, nan_ref(np.nanmean), nan_samples),
    OpInfo("nanmedian", paddle.nanmedian, nan_ref(np.nanmedian), nanmedian_samples),
    OpInfo("quantile", paddle.quantile, quantile_ref(np.quantile), quantile_samples),
    OpInfo("nanquantile", paddle.nanquantile, quantile_ref(np.nanquantile), nanquantile_samples),
    OpInfo("kthvalue", lambda x, k, **kw: paddle.kthvalue(x, k, **kw)[0], kthvalue_ref("values"), kthvalue_samples),
    OpInfo(
        "kthvalue_indices",
        lambda x, k, **kw: paddle.kthvalue(x, k, **kw)[1],
        kthvalue_ref("indices"),
        kthvalue_samples,
        grad=False,
    ),  # fmt: skip
    OpInfo("diff", paddle.diff, diff_ref, diff_samples),
    OpInfo("trapezoid", paddle.trapezoid, trapezoid_ref, trapezoid_samples),
    OpInfo("cumulative_trapezoid", paddle.cumulative_trapezoid, cumulative_trapezoid_ref, trapezoid_samples),
    OpInfo("bincount", paddle.bincount, bincount_ref, bincount_samples, grad=False, dtypes=("float64",)),
    OpInfo("bucketize", paddle.bucketize, bucketize_ref, bucketize_samples, grad=False),
    OpInfo("searchsorted", paddle.searchsorted, searchsorted_ref, searchsorted_samples, grad=False),
    OpInfo("logspace", paddle.logspace, logspace_ref, logspace_samples, grad=False, dtypes=("float64",)),
    OpInfo("randint_like", randint_like_certain, zeros_like_ref, lambda rng: [Sample((r(rng, 2, 3),))], grad=False),
    OpInfo(
        "uniform_", fill_then_floor, zeros_like_ref, lambda rng: [Sample((r(rng, 3, 2),))], grad=False, static=False
    ),  # fmt: skip  (an in-place fill of a static input Variable is refused, as for every op_)
    OpInfo("poisson", paddle.poisson, zeros_like_ref, lambda rng: [Sample((np.zeros((2, 3)),))], grad=False),
]
