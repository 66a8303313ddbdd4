"""Op-table section: searching, sorting and selecting (argmax, argsort, sort, topk, mode, nonzero, masked_select,
unique) and statistics (var, std, median)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, distinct, r


def axis_samples(rng):
    x = distinct(rng, 3, 4, 2)
    return [
        Sample((x,), {}, "default"),
        Sample((x,), {"axis": 1}, "axis 1"),
        Sample((x,), {"axis": 0, "descending": True}, "axis 0, descending"),
        Sample((distinct(rng, 6),), {"descending": True}, "1-d, descending"),
    ]


def ties(rng, *shape):
    return rng.integers(0, 3, size=shape).astype(float)


def sort_ref(x, axis=-1, descending=False):
    return -np.sort(-x, axis=axis, kind="stable") if descending else np.sort(x, axis=axis, kind="stable")


def argsort_ref(x, axis=-1, descending=False):
    return np.argsort(-x if descending else x, axis=axis, kind="stable")


def argext_samples(rng):
    x = ties(rng, 3, 5)
    return [
        Sample((x,), {}, "flattened, ties"),
        Sample((x,), {"axis": 1}, "axis 1, ties"),
        Sample((x,), {"axis": 0, "keepdim": True}, "axis 0 keepdim"),
        Sample((x,), {"axis": -1, "dtype": "int32"}, "int32"),
    ]


def argext_ref(np_fn):
    def ref(x, axis=None, keepdim=False, dtype="int64"):
        if axis is None:
            out = np.asarray(np_fn(x.reshape(-1)))
            return out.reshape((1,) * x.ndim) if keepdim else out
        return np_fn(x, axis=axis, keepdims=keepdim).astype(dtype)

    return ref


def topk_samples(rng):
    x = distinct(rng, 3, 5)
    return [
        Sample((x, 2), {}, "k=2, last axis"),
        Sample((x, 3), {"axis": 0, "largest": False}, "axis 0, smallest"),
        Sample((distinct(rng, 6), 6), {}, "k = n"),
    ]


def topk_ref(x, k, axis=-1, largest=True):
    order = np.argsort(-x if largest else x, axis=axis, kind="stable")
    return np.take_along_axis(x, np.take(order, np.arange(k), axis=axis), axis=axis)


def topk_index_ref(x, k, axis=-1, largest=True):
    return np.take(np.argsort(-x if largest else x, axis=axis, kind="stable"), np.arange(k), axis=axis)


def mode_samples(rng):
    return [
        Sample((np.array([[1.0, 3.0, 3.0, 2.0, 2.0], [4.0, 0.5, 4.0, 0.5, 7.0]]),), {}, "rows with ties"),
        Sample((ties(rng, 4, 3),), {"axis": 0, "keepdim": True}, "axis 0 keepdim"),
    ]


def mode_ref(x, axis=-1, keepdim=False, want="values"):
    lines = np.moveaxis(x, axis, -1)
    flat = lines.reshape(-1, lines.shape[-1])
    values, indices = [], []
    for row in flat:  # the plain definition, one line at a time
        uniq, counts = np.unique(row, return_counts=True)
        v = uniq[np.argmax(counts)]  # np.unique sorts: the first of the most frequent is the smallest
        values.append(v)
        indices.append(np.nonzero(row == v)[0][-1])
    out = np.asarray(values if want == "values" else indices).reshape(lines.shape[:-1])
    return np.expand_dims(out, axis) if keepdim else out


def nonzero_samples(rng):
    return [
        Sample((ties(rng, 3, 4),), {}, "2-d"),
        Sample((ties(rng, 6),), {}, "1-d"),
    ]


def masked_select_samples(rng):
    return [
        Sample((r(rng, 3, 4), rng.random((3, 4)) > 0.5), {}, "same shape"),
        Sample((r(rng, 3, 4), rng.random(4) > 0.5), {}, "broadcast mask"),
        Sample((r(rng, 4), rng.random((2, 4)) > 0.5), {}, "broadcast x"),
    ]


def masked_select_ref(x, mask):
    shape = np.broadcast_shapes(x.shape, mask.shape)
    return np.broadcast_to(x, shape)[np.broadcast_to(mask, shape)]


def unique_samples(rng):
    return [
        Sample((ties(rng, 3, 4),), {}, "flattened"),
        Sample((np.array([[3, 1], [3, 1], [0, 2]]),), {"axis": 0}, "rows"),
    ]


def stat_samples(rng):
    x = distinct(rng, 3, 4, 2)
    return [
        Sample((x,), {}, "all axes"),
        Sample((x,), {"axis": 1}, "axis 1"),
        Sample((x,), {"axis": [0, 2], "keepdim": True, "unbiased": False}, "axis list, biased"),
        Sample((distinct(rng, 5),), {"axis": 0}, "1-d"),
    ]


def var_ref(x, axis=None, unbiased=True, keepdim=False):
    axis = tuple(axis) if isinstance(axis, list) else axis
    return np.var(x, axis=axis, ddof=1 if unbiased else 0, keepdims=keepdim)


def median_samples(rng):
    return [
        Sample((distinct(rng, 3, 5),), {}, "all, odd count"),
        Sample((distinct(rng, 3, 4),), {"axis": 1}, "axis 1, even count"),
        Sample((distinct(rng, 3, 5),), {"axis": 0, "keepdim": True}, "axis 0, keepdim"),
        Sample((distinct(rng, 6),), {"keepdim": True}, "1-d, even, keepdim"),
    ]


def median_ref(x, axis=None, keepdim=False):
    return np.median(x, axis=axis, keepdims=keepdim)


ENTRIES: list[OpInfo] = [
    OpInfo("argmax", paddle.argmax, argext_ref(np.argmax), argext_samples, grad=False),
    OpInfo("argmin", paddle.argmin, argext_ref(np.argmin), argext_samples, grad=False),
    OpInfo("argsort", paddle.argsort, argsort_ref,
           lambda rng: axis_samples(rng) + [Sample((ties(rng, 8),), {"descending": True}, "ties, descending")],
           grad=False),
    OpInfo("sort", paddle.sort, sort_ref, axis_samples, double_grad=True),
    OpInfo("topk", lambda x, k, **kw: paddle.topk(x, k, **kw)[0], topk_ref, topk_samples, double_grad=True),
    OpInfo("topk_indices", lambda x, k, **kw: paddle.topk(x, k, **kw)[1], topk_index_ref, topk_samples,
           grad=False),
    OpInfo("mode", lambda x, **kw: paddle.mode(x, **kw)[0], mode_ref, mode_samples, grad=False),
    OpInfo("mode_indices", lambda x, **kw: paddle.mode(x, **kw)[1],
           lambda x, **kw: mode_ref(x, want="indices", **kw), mode_samples, grad=False),
    OpInfo("nonzero", paddle.nonzero, np.argwhere, nonzero_samples, grad=False),
    OpInfo("masked_select", paddle.masked_select, masked_select_ref, masked_select_samples, double_grad=True),
    OpInfo("unique", paddle.unique, lambda x, axis=None: np.unique(x, axis=axis), unique_samples, grad=False),
    OpInfo("unique_counts", lambda x, axis=None: paddle.unique(x, return_counts=True, axis=axis)[1],
           lambda x, axis=None: np.unique(x, return_counts=True, axis=axis)[1], unique_samples, grad=False),
    # statistics
    OpInfo("var", paddle.var, var_ref, stat_samples, double_grad=True),
    OpInfo("std", paddle.std, lambda x, **kw: np.sqrt(var_ref(x, **kw)), stat_samples),
    OpInfo("median", paddle.median, median_ref, median_samples),
]  # fmt: skip
