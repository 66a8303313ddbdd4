"""Op-table section: the manipulation and indexing functions paddle 2.6 added (take_along_axis, put_along_axis,
index_put, einsum, tensordot, ...). References are numpy; put_along_axis's reductions follow values measured on
paddle 2.6 (tests/tensor/test_indexing_manipulation.py pins some of them)."""

from __future__ import annotations

import itertools

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, distinct, r


def _along(index, axis):
    return tuple(index if i == axis else np.arange(n).reshape([n if j == i else 1 for j in range(index.ndim)])
                 for i, n in enumerate(index.shape))  # fmt: skip


def put_along_ref(arr, indices, values, axis, reduce="assign", include_self=True):
    out = arr.copy()
    values = np.broadcast_to(values, indices.shape)
    where = _along(indices, axis % arr.ndim)
    if reduce == "assign":
        out[where] = values
        return out
    groups = {}
    for pos, v in zip(zip(*(np.broadcast_to(w, indices.shape).ravel() for w in where)), values.ravel()):
        groups.setdefault(pos, []).append(v)
    for pos, vs in groups.items():
        members = ([arr[pos]] if include_self else []) + vs
        combine = {"add": np.sum, "mul": np.prod, "mean": np.mean, "amin": np.min, "amax": np.max}[reduce]
        out[pos] = combine(members)
    return out


def put_along_samples(rng):
    x = distinct(rng, 3, 4)
    idx = np.array([[0, 0], [1, 2], [2, 2]])
    v = distinct(rng, 3, 2) + 3.0  # no ties with x, so amin/amax have one winner each
    return [
        Sample((x, idx, v, 1), {}, "assign, repeated positions"),
        Sample((x, idx, v, 1, "add"), {}, "add"),
        Sample((x, idx, v, 1, "add", False), {}, "add without self"),
        Sample((x, idx, pos_(rng, 3, 2), 1, "mul"), {}, "mul"),
        Sample((x, idx, pos_(rng, 3, 2), 1, "mul", False), {}, "mul without self"),
        Sample((x, idx, v, 1, "mean"), {}, "mean"),
        Sample((x, idx, v, 1, "mean", False), {}, "mean without self"),
        Sample((x, idx, v - 6.0, 1, "amin"), {}, "amin"),
        Sample((x, idx, v, 1, "amax", False), {}, "amax without self"),
        Sample((x, np.array([[2, 0, 1, 0]]), distinct(rng, 1, 4), 0), {}, "axis 0"),
        Sample((x, np.array([[1], [3], [0]]), distinct(rng, 3, 1), -1, "add"), {}, "indices broadcast over rows"),
    ]


def pos_(rng, *shape):
    return rng.uniform(0.5, 2.0, size=shape)


def take_along_samples(rng):
    x = r(rng, 3, 4)
    return [
        Sample((x, np.array([[0, 3], [1, 1], [2, 0]]), 1), {}, "axis 1 with repeats"),
        Sample((x, np.array([[2, 0, 1, 2]]), 0), {}, "axis 0"),
        Sample((x, np.array([[1], [-1], [0]]), 1), {}, "negative index"),
        Sample((x, np.array([[0, 1]]), 1), {"broadcast": False}, "no broadcast, smaller indices"),
        Sample((r(rng, 2, 3, 4), np.array([[[3], [0], [1]]]), 2), {}, "3-d, broadcast over dim 0"),
    ]


def take_along_ref(arr, indices, axis, broadcast=True):
    if broadcast:
        shape = list(arr.shape)
        shape[axis] = indices.shape[axis]
        indices = np.broadcast_to(indices, shape)
    return arr[_along(indices, axis)]


def index_put_ref(x, value, *indices, accumulate=False):
    out = x.copy()
    where = tuple(i for i in indices)
    if accumulate:
        np.add.at(out, tuple(p for i in where for p in (np.nonzero(i) if i.dtype == bool else (i,))), value)
    else:
        out[where] = value
    return out


def _index_put(x, value, *indices, accumulate=False):
    return paddle.index_put(x, indices, value, accumulate)


def index_add_ref(x, index, axis, value):
    out = x.copy()
    np.add.at(out, (slice(None),) * axis + (index,), value)
    return out


def index_fill_ref(x, index, axis, value):
    out = x.copy()
    out[(slice(None),) * axis + (index,)] = value
    return out


def repeat_ref(x, repeats, axis=None):
    return np.repeat(x, repeats, axis)


def unflatten_ref(x, axis, shape):
    return x.reshape(x.shape[:axis] + tuple(shape) + x.shape[axis + 1 :])


def _first(fn):
    """A function returning a list, reduced to one tensor (each part scaled differently, so mixed-up gradients
    show)."""

    def joined(*args, **kwargs):
        parts = fn(*args, **kwargs)
        parts = parts if isinstance(parts, list) else [parts]
        return paddle.concat([paddle.flatten(p) * (i + 1.0) for i, p in enumerate(parts)])

    return joined


def _np_joined(fn):
    def joined(*args, **kwargs):
        parts = fn(*args, **kwargs)
        parts = parts if isinstance(parts, list) else [parts]
        return np.concatenate([np.ravel(p) * (i + 1.0) for i, p in enumerate(parts)])

    return joined


def einsum_samples(rng):
    return [
        Sample(("ij,jk->ik", r(rng, 2, 3), r(rng, 3, 4)), {}, "matmul"),
        Sample(("ij,jk", r(rng, 2, 3), r(rng, 3, 4)), {}, "implicit matmul"),
        Sample(("ba", r(rng, 2, 3)), {}, "implicit transpose (sorted labels)"),
        Sample(("ii", r(rng, 3, 3)), {}, "trace"),
        Sample(("ii->i", r(rng, 3, 3)), {}, "diagonal"),
        Sample(("iij->j", r(rng, 3, 3, 2)), {}, "diagonal then sum"),
        Sample(("i,j->ij", r(rng, 3), r(rng, 4)), {}, "outer"),
        Sample(("i,i", r(rng, 4), r(rng, 4)), {}, "dot"),
        Sample(("bij,bjk->bik", r(rng, 2, 3, 4), r(rng, 2, 4, 2)), {}, "batched matmul"),
        Sample(("...ij,...jk", r(rng, 2, 3, 4), r(rng, 4, 2)), {}, "ellipsis broadcast"),
        Sample(("...,...->...", r(rng, 1, 3), r(rng, 2, 3)), {}, "ellipsis size-1 broadcast"),
        Sample(("i...->...", r(rng, 2, 3, 4)), {}, "sum the leading axis"),
        Sample(("ij->", r(rng, 3, 4)), {}, "sum all"),
        Sample(("ij,ij->ij", r(rng, 3, 4), r(rng, 3, 4)), {}, "elementwise"),
        Sample(("ij,jk,kl->il", r(rng, 2, 3), r(rng, 3, 4), r(rng, 4, 2)), {}, "three operands"),
        Sample(("abc,cb->a", r(rng, 2, 3, 4), r(rng, 4, 3)), {}, "two contracted labels"),
    ]


def tensordot_samples(rng):
    return [
        Sample((r(rng, 2, 3, 4), r(rng, 3, 4, 5)), {}, "axes=2"),
        Sample((r(rng, 2, 3), r(rng, 3, 4)), {"axes": 1}, "axes=1"),
        Sample((r(rng, 2, 3), r(rng, 4, 5)), {"axes": 0}, "axes=0"),
        Sample((r(rng, 3, 4, 2), r(rng, 4, 3)), {"axes": [[0, 1], [1, 0]]}, "pairs"),
        Sample((r(rng, 3, 4), r(rng, 3, 5)), {"axes": [[0], []]}, "shorter list completed"),
    ]


def tensordot_ref(x, y, axes=2):
    if isinstance(axes, list) and len(axes[1]) < len(axes[0]):
        axes = [axes[0], axes[1] + axes[0][len(axes[1]) :]]
    return np.tensordot(x, y, axes)


def vsplit_ref(x, n):
    return np.vsplit(x, n if isinstance(n, int) else list(np.cumsum(n)[:-1]))  # paddle gives sizes, numpy cuts


def rot90_ref(x, k=1, axes=(0, 1)):
    return np.rot90(x, k, axes)


def diagonal_scatter_ref(x, y, offset=0, axis1=0, axis2=1):
    out = x.copy()
    view = np.diagonal(out, offset, axis1, axis2)
    view.setflags(write=True)
    view[...] = y
    return out


def select_scatter_ref(x, values, axis, index):
    out = x.copy()
    out[(slice(None),) * axis + (index,)] = values
    return out


def combinations_ref(x, r=2, with_replacement=False):
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = list(pick(x, r))
    return np.array(rows, dtype=x.dtype).reshape(-1, r)


def vander_ref(x, n=None, increasing=False):
    return np.vander(x, n, increasing).astype(x.dtype)  # (numpy widens float32 to float64)


def take_ref(x, index, mode="raise"):
    return np.take(x, index, mode=mode) if mode != "raise" else x.ravel()[index]


def unique_consecutive_ref(x, axis=None, part=0):
    if axis is None:
        x, axis = x.ravel(), 0
    rows = np.moveaxis(x, axis, 0).reshape(x.shape[axis], -1)
    starts = np.r_[True, np.any(rows[1:] != rows[:-1], axis=1)]
    first = np.nonzero(starts)[0]
    return [np.take(x, first, axis), np.cumsum(starts) - 1, np.diff(np.r_[first, len(rows)])][part]


def _unique_part(part):
    def fn(x, axis=None):
        out = paddle.unique_consecutive(x, True, True, axis)
        return out[part]

    return fn


def _repeated(rng, *shape):
    return rng.integers(0, 2, size=shape).astype(np.float64)


ENTRIES: list[OpInfo] = [
    OpInfo("take_along_axis", paddle.take_along_axis, take_along_ref, take_along_samples),
    OpInfo("put_along_axis", paddle.put_along_axis, put_along_ref, put_along_samples),
    OpInfo("masked_fill", paddle.masked_fill, lambda x, mask, value: np.where(mask, value, x),
           lambda rng: [Sample((r(rng, 3, 4), rng.uniform(size=(3, 4)) > 0.5, 0.5), {}, "number"),
                        Sample((r(rng, 3, 4), np.array([True, False, True, False]), r(rng, 1)), {}, "tensor value"),
                        Sample((r(rng, 2), np.array([[True], [False]]), -1.0), {}, "mask broadcasts x")]),
    OpInfo("index_add", paddle.index_add, index_add_ref,
           lambda rng: [Sample((r(rng, 3, 4), np.array([0, 2, 0]), 0, r(rng, 3, 4)), {}, "repeated rows"),
                        Sample((r(rng, 3, 4), np.array([3, 1]), 1, r(rng, 3, 2)), {}, "axis 1")]),
    OpInfo("index_fill", paddle.index_fill, index_fill_ref,
           lambda rng: [Sample((r(rng, 3, 4), np.array([0, 2]), 1, 7.0), {}, "number"),
                        Sample((r(rng, 3, 4), np.array([-1, 0, 0]), 0, -2.0), {}, "negative and repeated")]),
    OpInfo("index_put", _index_put, index_put_ref,
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 2), np.array([0, 2]), np.array([1, 1])), {}, "pairs"),
                        Sample((r(rng, 3, 4), r(rng, 2), np.array([0, 0]), np.array([1, 1])), {"accumulate": True},
                               "accumulate repeated"),
                        Sample((r(rng, 3, 4), r(rng, 4), np.array([2, -3])), {}, "rows, broadcast value"),
                        Sample((r(rng, 3, 4), r(rng), np.array([True, False, True])), {}, "bool rows, 0-d value"),
                        Sample((r(rng, 3, 4), r(rng, 4), np.array([True, False, True])), {"accumulate": True},
                               "bool rows accumulate")]),
    OpInfo("diagonal", paddle.diagonal, lambda x, offset=0, axis1=0, axis2=1: np.diagonal(x, offset, axis1, axis2),
           lambda rng: [Sample((r(rng, 3, 4),)), Sample((r(rng, 3, 4), 1), {}, "offset"),
                        Sample((r(rng, 3, 4), -1, 1, 0), {}, "swapped axes"),
                        Sample((r(rng, 2, 3, 4), 0, 2, 0), {}, "3-d")]),
    OpInfo("diagflat", paddle.diagflat, lambda x, offset=0: np.diagflat(x, offset),
           lambda rng: [Sample((r(rng, 3),)), Sample((r(rng, 2, 2), -1), {}, "2-d, negative offset"),
                        Sample((np.asarray(r(rng, 1)[0]), 1), {}, "0-d")]),
    OpInfo("diagonal_scatter", paddle.diagonal_scatter, diagonal_scatter_ref,
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 3))), Sample((r(rng, 3, 4), r(rng, 3), 1), {}, "offset"),
                        Sample((r(rng, 2, 3, 3), r(rng, 3, 2), -1, 2, 0), {}, "3-d, swapped axes")]),
    OpInfo("select_scatter", paddle.select_scatter, select_scatter_ref,
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 3), 1, 2)), Sample((r(rng, 3, 4), r(rng, 4), 0, -1))]),
    OpInfo("moveaxis", paddle.moveaxis, lambda x, source, destination: np.moveaxis(x, source, destination),
           lambda rng: [Sample((r(rng, 2, 3, 4), 0, -1)), Sample((r(rng, 2, 3, 4), [0, 1], [2, 0]))]),
    OpInfo("rot90", paddle.rot90, rot90_ref,
           lambda rng: [Sample((r(rng, 3, 4),)), Sample((r(rng, 3, 4), 2)), Sample((r(rng, 3, 4), -1)),
                        Sample((r(rng, 2, 3, 4), 5, [2, 0]), {}, "3-d, k=5"), Sample((r(rng, 3, 4), 4), {}, "k=4")]),
    OpInfo("repeat_interleave", paddle.repeat_interleave, repeat_ref,
           lambda rng: [Sample((r(rng, 3, 4), 2), {}, "flattened"), Sample((r(rng, 3, 4), 2, 0), {}, "axis 0"),
                        Sample((r(rng, 3, 4), np.array([1, 0, 2, 1]), 1), {}, "tensor repeats"),
                        Sample((np.asarray(r(rng, 1)[0]), 3), {}, "0-d")]),
    OpInfo("unflatten", paddle.unflatten, unflatten_ref,
           lambda rng: [Sample((r(rng, 3, 4), 1, [2, 2])), Sample((r(rng, 6, 2), 0, (3, -1)), {}, "-1")]),
    OpInfo("vsplit", _first(paddle.vsplit), _np_joined(vsplit_ref),
           lambda rng: [Sample((r(rng, 6, 2), 3)), Sample((r(rng, 5, 2), [1, 4]), {}, "sections")]),
    OpInfo("atleast_3d", _first(paddle.atleast_3d), _np_joined(lambda *xs: list(np.atleast_3d(*xs))
                                                                if len(xs) > 1 else np.atleast_3d(xs[0])),
           lambda rng: [Sample((r(rng, 3),)), Sample((np.asarray(r(rng, 1)[0]), r(rng, 2, 3)), {}, "0-d and 2-d")]),
    OpInfo("atleast_2d", paddle.atleast_2d, np.atleast_2d, lambda rng: [Sample((r(rng, 3),))]),
    OpInfo("atleast_1d", paddle.atleast_1d, np.atleast_1d, lambda rng: [Sample((np.asarray(r(rng, 1)[0]),))]),
    OpInfo("broadcast_tensors", lambda *xs: _first(paddle.broadcast_tensors)(list(xs)),
           _np_joined(lambda *xs: list(np.broadcast_arrays(*xs))),
           lambda rng: [Sample((r(rng, 3), r(rng, 2, 1))), Sample((r(rng, 2, 3), r(rng, 2, 3), r(rng, 3)))]),
    OpInfo("outer", paddle.outer, lambda x, y: np.outer(x, y),
           lambda rng: [Sample((r(rng, 3), r(rng, 4))), Sample((r(rng, 2, 2), r(rng, 3)), {}, "flattens")]),
    OpInfo("inner", paddle.inner, np.inner,
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 4))), Sample((r(rng, 2, 3), r(rng, 4, 3))),
                        Sample((r(rng, 3), np.asarray(r(rng, 1)[0])), {}, "0-d y")]),
    OpInfo("tensordot", paddle.tensordot, tensordot_ref, tensordot_samples),
    OpInfo("einsum", paddle.einsum, np.einsum, einsum_samples),
    OpInfo("clone", paddle.clone, np.copy, lambda rng: [Sample((r(rng, 3, 4),))]),
    OpInfo("view", paddle.view, lambda x, shape: x.reshape(shape), lambda rng: [Sample((r(rng, 3, 4), [4, 3]))]),
    OpInfo("view_dtype", paddle.view, lambda x, dtype: x.view(dtype),
           lambda rng: [Sample((rng.integers(0, 1 << 20, (3, 4)), "int32")),
                        Sample((rng.integers(0, 200, (3, 4)).astype(np.uint8), "int16"))], grad=False),
    OpInfo("view_as", paddle.view_as, lambda x, other: x.reshape(other.shape),
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 2, 6)))]),
    OpInfo("unique_consecutive", _unique_part(0), unique_consecutive_ref,
           lambda rng: [Sample((_repeated(rng, 12),)), Sample((_repeated(rng, 5, 3, 2),), {"axis": 0}, "axis 0"),
                        Sample((_repeated(rng, 2, 6),), {"axis": 1}, "axis 1")], grad=False),
    OpInfo("unique_consecutive_inverse", _unique_part(1), lambda x, axis=None: unique_consecutive_ref(x, axis, 1),
           lambda rng: [Sample((_repeated(rng, 3, 4),)), Sample((_repeated(rng, 5, 2),), {"axis": 0})], grad=False),
    OpInfo("unique_consecutive_counts", _unique_part(2), lambda x, axis=None: unique_consecutive_ref(x, axis, 2),
           lambda rng: [Sample((_repeated(rng, 3, 4),)), Sample((_repeated(rng, 5, 2),), {"axis": 0})], grad=False),
    OpInfo("combinations", paddle.combinations, combinations_ref,
           lambda rng: [Sample((r(rng, 4),)), Sample((r(rng, 4), 3)), Sample((r(rng, 3), 2, True), {}, "replacement"),
                        Sample((r(rng, 2), 3), {}, "r > n: empty")]),
    OpInfo("tril_indices", paddle.tril_indices, lambda row, col, offset=0: np.stack(np.tril_indices(row, offset, col)),
           lambda rng: [Sample((4, 3)), Sample((4, 3, -1)), Sample((3, 5, 2))], grad=False),
    OpInfo("triu_indices", paddle.triu_indices,
           lambda row, col=None, offset=0: np.stack(np.triu_indices(row, offset, row if col is None else col)),
           lambda rng: [Sample((3,)), Sample((4, 3, 1)), Sample((4, 3, -1))], grad=False),
    OpInfo("vander", paddle.vander, vander_ref,
           lambda rng: [Sample((r(rng, 3),)), Sample((r(rng, 4), 2)), Sample((r(rng, 3), 4, True), {}, "increasing"),
                        Sample((r(rng, 3), 0), {}, "n=0")]),
    OpInfo("take", paddle.take, take_ref,
           lambda rng: [Sample((r(rng, 3, 4), np.array([0, 5, 11, 5]))),
                        Sample((r(rng, 3, 4), np.array([[0, -1], [2, 3]])), {}, "2-d negative index"),
                        Sample((r(rng, 3, 4), np.array([0, 14, -15])), {"mode": "wrap"}, "wrap"),
                        Sample((r(rng, 3, 4), np.array([0, 14, -15])), {"mode": "clip"}, "clip")]),
]  # fmt: skip
