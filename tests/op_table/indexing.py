"""Op-table section: indexing, slicing, gather and scatter (x[index], x[index] = v, paddle.gather, ...)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, r


def getitem_samples(rng):
    x = r(rng, 4, 5, 3)
    return [
        Sample((x, (1,)), {}, "int"),
        Sample((x, (slice(1, 3), slice(None, None, -2))), {}, "slices with negative step"),
        Sample((x, (-1, slice(-4, None, 2), -2)), {}, "negative ints and slice bounds"),
        Sample((x, (Ellipsis, 0)), {}, "ellipsis"),
        Sample((x, (None, slice(None), 2)), {}, "None"),
        Sample((x, (np.array([0, 2, 2]),)), {}, "int array with repeats"),
        Sample((x, (x[..., 0] > 0,)), {}, "bool mask"),
        Sample((x, (slice(None), np.array([[0, 1], [4, 4]]), 1)), {}, "2-d int array between slices"),
        Sample((x, (np.array([1, 3]), Ellipsis, np.array([0, 2]))), {}, "two int arrays around Ellipsis"),
        Sample((x, ([True, False, True, True],)), {}, "bool list"),
    ]


def _setitem(x, index, value):
    y = x * 1.0  # a non-leaf copy, so that the in-place write is recorded
    y[index] = value
    return y


def _np_setitem(x, index, value):
    y = x.copy()
    y[index] = value
    return y


def setitem_samples(rng):
    x = r(rng, 4, 3)
    return [
        Sample((x, (1,), r(rng, 3)), {}, "row from tensor"),
        Sample((x, (slice(None), slice(0, 3, 2)), r(rng, 4, 1)), {}, "strided columns, broadcast value"),
        Sample((x, (np.array([0, 3]),), r(rng, 2, 3)), {}, "int array rows"),
        Sample((x, (x > 0.2,), 0.5), {}, "bool mask with a number"),
        Sample((x, (Ellipsis, 2), r(rng, 4)), {}, "ellipsis"),
    ]


def _inplace_on_views(x):
    """Change views of y in place; y must see the changes, with gradients (recorded on y by `write_view`)."""
    y = x * 1.0
    y[1:, ::2].exp_()
    y.T[0].multiply_(y[:, 1].clone())
    return y


def _np_inplace_on_views(x):
    y = x.copy()
    y[1:, ::2] = np.exp(y[1:, ::2])
    y.T[0] *= y[:, 1].copy()
    return y


def _slice_ref(x, axes, starts, ends, strides=None):
    index = [slice(None)] * x.ndim
    for k, a in enumerate(axes):
        index[a] = slice(starts[k], ends[k], 1 if strides is None else strides[k])
    return x[tuple(index)]


def _scatter_ref(x, index, updates, overwrite=True):
    out = x.copy()
    if overwrite:
        out[index] = updates
    else:
        out[index] = 0
        np.add.at(out, index, updates)
    return out


def _crop_ref(x, shape, offsets):
    return x[tuple(slice(o, o + (d - o if s == -1 else s)) for d, s, o in zip(x.shape, shape, offsets))]


def _scatter_nd_ref(index, updates, shape):
    return _scatter_nd_add_ref(np.zeros(shape, updates.dtype), index, updates)


def _scatter_nd_add_ref(x, index, updates):
    out = x.copy()
    np.add.at(out, tuple(np.moveaxis(index, -1, 0)), updates)
    return out


ENTRIES: list[OpInfo] = [
    OpInfo("getitem", lambda x, index: x[index], lambda x, index: x[index], getitem_samples),
    OpInfo("getitem_tensor_index", lambda x, i: x[i], lambda x, i: x[i],
           lambda rng: [Sample((r(rng, 5, 2), np.array([4, 0, 4])), {}, "int64 Tensor"),
                        Sample((r(rng, 3, 2), np.array([True, False, True])), {}, "bool Tensor")], static=False),
    # static=False: static backward gives a variable written in place (y[i] = v writes into y's name) the gradient
    # twice; the in-place record of the Program is static mode's to fix.
    OpInfo("setitem", _setitem, _np_setitem, setitem_samples, static=False),
    OpInfo("inplace_on_views", _inplace_on_views, _np_inplace_on_views, lambda rng: [Sample((r(rng, 3, 4),))],
           double_grad=True, static=False),
    OpInfo("slice", paddle.slice, lambda input, axes, starts, ends: _slice_ref(input, axes, starts, ends),
           lambda rng: [Sample((r(rng, 4, 5),), {"axes": [1], "starts": [1], "ends": [3]}),
                        Sample((r(rng, 4, 5, 2),), {"axes": [0, 1], "starts": [-3, 0], "ends": [100, -1]})]),
    OpInfo("strided_slice", paddle.strided_slice, _slice_ref,
           lambda rng: [Sample((r(rng, 6, 5),), {"axes": [0, 1], "starts": [0, 4], "ends": [6, 0],
                                                 "strides": [2, -1]})]),
    OpInfo("crop", paddle.crop, _crop_ref,
           lambda rng: [Sample((r(rng, 4, 5),), {"shape": [2, -1], "offsets": [1, 2]})]),
    OpInfo("gather", paddle.gather, lambda x, index, axis=0: np.take(x, index, axis),
           lambda rng: [Sample((r(rng, 4, 3), np.array([3, 0, 3]))),
                        Sample((r(rng, 2, 5), np.array([1, 4])), {"axis": 1})]),
    OpInfo("index_select", paddle.index_select, lambda x, index, axis=0: np.take(x, index, axis),
           lambda rng: [Sample((r(rng, 2, 4, 3), np.array([2, 2, 0])), {"axis": 1})]),
    OpInfo("gather_nd", paddle.gather_nd, lambda x, index: x[tuple(np.moveaxis(index, -1, 0))],
           lambda rng: [Sample((r(rng, 3, 4, 2), np.array([[0, 1], [2, 3], [0, 1]]))),
                        Sample((r(rng, 3, 4), np.array([[[1], [2]]])), {}, "k=1")]),
    OpInfo("index_sample", paddle.index_sample, lambda x, index: np.take_along_axis(x, index, 1),
           lambda rng: [Sample((r(rng, 3, 5), np.array([[0, 4], [1, 1], [3, 2]])))]),
    OpInfo("scatter", paddle.scatter, _scatter_ref,
           lambda rng: [Sample((r(rng, 4, 2), np.array([2, 0]), r(rng, 2, 2)), {}, "overwrite"),
                        Sample((r(rng, 4, 2), np.array([2, 1, 2]), r(rng, 3, 2)), {"overwrite": False}, "accumulate")]),
    OpInfo("scatter_nd_add", paddle.scatter_nd_add, _scatter_nd_add_ref,
           lambda rng: [Sample((r(rng, 3, 4), np.array([[0, 1], [2, 3], [0, 1]]), r(rng, 3))),
                        Sample((r(rng, 3, 4), np.array([[2], [0]]), r(rng, 2, 4)), {}, "rows")]),
    OpInfo("scatter_nd", paddle.scatter_nd, _scatter_nd_ref,
           lambda rng: [Sample((np.array([[1], [3], [1]]), r(rng, 3, 2), [4, 2]))]),
]  # fmt: skip
