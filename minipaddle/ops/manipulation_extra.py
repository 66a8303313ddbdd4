"""Ops behind the paddle 2.6 manipulation functions that are not compositions of older ops.

- `take_along_axis` / `put_along_axis`: read or write x at the positions in `index` along one axis (each is part of
  the other's gradient); put_along_axis combines repeated positions by `reduce` (assign, add, mul, mean, amin, amax).
- `index_put` / `index_get`: x[indices] = value (or +=) and x[indices], with the indices given as Tensors.
- `along_axis_winners`: which values an 'assign' put_along_axis kept (the last written to each position).
- `repeat_index`, `unique_consecutive`, `view_dtype`, `tri_indices`: index builders and reinterpreting ops.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.manipulation import input_shape

__all__ = [
    "take_along_axis",
    "put_along_axis",
    "index_put",
    "index_get",
    "repeat_index",
    "unique_consecutive",
    "view_dtype",
    "tri_indices",
]  # the raw op functions; ops/__init__.py gathers them


def along(index: np.ndarray, axis: int) -> tuple:
    """The numpy index that picks x[i0, ..., index[i0, ..., ik], ..., ik] for every position of `index`."""
    grid = []
    for i, n in enumerate(index.shape):
        if i == axis:
            grid.append(index)
        else:
            grid.append(np.arange(n).reshape([n if j == i else 1 for j in range(index.ndim)]))
    return tuple(grid)


@register
class TakeAlongAxis(OpDef):
    """out[..., j, ...] = x[..., index[..., j, ...], ...] along `axis`; out has index's shape."""

    name = "take_along_axis"

    def kernel(self, x, index, axis):
        return x[along(index, axis)]

    def grad(self, node, g):
        zeros = ops.full_like(node.inputs[0], 0, None)
        return put_along_axis(zeros, node.inputs[1], g, node.attrs["axis"], "add", True), None

    def infer_meta(self, x: Meta, index: Meta, axis) -> Meta:
        return Meta(index.shape, x.dtype)


_IDENTITY = {"add": 0, "mean": 0, "mul": 1}
_UFUNC = {"add": np.add, "mean": np.add, "mul": np.multiply, "amin": np.minimum, "amax": np.maximum}


@register
class PutAlongAxis(OpDef):
    """x with `values` (index's shape) written at the positions of `index` along `axis`, combined by `reduce`:
    'assign' (the last write wins), 'add', 'mul', 'mean', 'amin', 'amax'. With include_self=False, x's old value
    at a written position takes no part in the combination."""

    name = "put_along_axis"
    saves_outputs = True

    def kernel(self, x, index, values, axis, reduce, include_self):
        out = x.copy()
        where = along(index, axis)
        if reduce == "assign":
            out[where] = values
            return out
        if not include_self:  # start each written position from the combination's identity (or a member)
            out[where] = _IDENTITY.get(reduce, values)
        _UFUNC[reduce].at(out, where, values)
        if reduce == "mean":
            count = np.zeros(x.shape, np.int64)
            np.add.at(count, where, 1)
            count = count + 1 if include_self else np.maximum(count, 1)
            out = (out / count).astype(x.dtype)  # integers are truncated, as Paddle's integer division
        return out

    def grad(self, node, g):
        x, index, values = node.inputs
        out = node.output(0)
        axis, reduce, include = node.attrs["axis"], node.attrs["reduce"], node.attrs["include_self"]
        ones_v = ops.full_like(values, 1, None)
        # 1 where nothing was written (x's value passes through), 0 at the written positions
        untouched = put_along_axis(ops.full_like(x, 1, None), index, ops.full_like(values, 0, None), axis, "assign",
                                   True)  # fmt: skip
        gx = ops.multiply(g, untouched)
        if reduce == "assign":
            winners = ops.cast(apply(AlongAxisWinners, (index,), {"axis": axis, "length": x.shape[axis]}), g.dtype)
            return gx, None, ops.multiply(take_along_axis(g, index, axis), winners)
        if reduce == "add":
            return (g if include else gx), None, take_along_axis(g, index, axis)
        if reduce == "mean":
            counts = put_along_axis(ops.full_like(x, 1 if include else 0, None), index, ones_v, axis, "add", True)
            counts = ops.maximum(counts, ops.full_like(counts, 1, None))
            share = ops.divide(g, counts)
            return (share if include else gx), None, take_along_axis(share, index, axis)
        if reduce == "mul":
            # d out / d x is the product of the values written there; d out / d v is out / v
            product = put_along_axis(ops.full_like(x, 1, None), index, values, axis, "mul", True)
            gv = ops.divide(take_along_axis(ops.multiply(g, out), index, axis), values)
            return (ops.multiply(g, product) if include else gx), None, gv
        # amin / amax: the gradient goes to whichever entries equal the result
        if include:
            gx = ops.multiply(g, ops.cast(ops.equal(x, out), g.dtype))
        hit = ops.cast(ops.equal(values, take_along_axis(out, index, axis)), g.dtype)
        return gx, None, ops.multiply(take_along_axis(g, index, axis), hit)

    def infer_meta(self, x: Meta, index: Meta, values: Meta, **attrs) -> Meta:
        return x


@register
class AlongAxisWinners(OpDef):
    """For each position of `index`: whether it is the last one writing to its place (the value an 'assign'
    put_along_axis keeps)."""

    name = "along_axis_winners"
    differentiable = False

    def kernel(self, index, axis, length):
        shape = list(index.shape)
        shape[axis] = length
        last = np.full(shape, -1, np.int64)
        ids = np.arange(index.size).reshape(index.shape)
        where = along(index, axis)
        last[where] = ids  # numpy keeps the last of repeated writes
        return last[where] == ids


def take_along_axis(x: Tensor, index: Tensor, axis: int) -> Tensor:
    return apply(TakeAlongAxis, (x, index), {"axis": axis})


def put_along_axis(x: Tensor, index: Tensor, values: Tensor, axis: int, reduce: str, include_self: bool) -> Tensor:
    attrs = {"axis": axis, "reduce": reduce, "include_self": include_self}
    return apply(PutAlongAxis, (x, index, values), attrs)


# ---- x[indices] with Tensor indices --------------------------------------------------------------------------


def _index_tuple(indices) -> tuple:
    """The indices as numpy takes them; boolean masks become the positions of their True elements."""
    out = []
    for i in indices:
        out.extend(np.nonzero(i) if i.dtype == np.bool_ else (i,))
    return tuple(out)


@register
class IndexPut(OpDef):
    """x with x[indices] = value (or += value with accumulate; repeated positions then add up)."""

    name = "index_put"
    saves_inputs = False

    def kernel(self, x, value, *indices, accumulate):
        out = x.copy()
        where = _index_tuple(indices)
        if accumulate:
            np.add.at(out, where, value)
        else:
            out[where] = value
        return out

    def grad(self, node, g):
        x, value, *indices = node.inputs
        accumulate = node.attrs["accumulate"]
        gx = None
        if node.needs_grad(0):
            gx = g if accumulate else index_put(g, ops.full_like(value, 0, None), indices, False)
        gv = ops.unbroadcast(index_get(g, indices), input_shape(node, 1)) if node.needs_grad(1) else None
        return (gx, gv) + (None,) * len(indices)

    def infer_meta(self, x: Meta, value: Meta, *indices, accumulate) -> Meta:
        return x


@register
class IndexGet(OpDef):
    """x[indices] (a copy), the indices being integer or boolean arrays."""

    name = "index_get"
    saves_inputs = False

    def kernel(self, x, *indices):
        return x[_index_tuple(indices)]

    def grad(self, node, g):
        x, *indices = node.inputs
        zeros = ops.full_like(x, 0, None)
        return (index_put(zeros, g, indices, True),) + (None,) * len(indices)


def index_put(x: Tensor, value: Tensor, indices, accumulate: bool) -> Tensor:
    return apply(IndexPut, (x, value, *indices), {"accumulate": accumulate})


def index_get(x: Tensor, indices) -> Tensor:
    return apply(IndexGet, (x, *indices))


# ---- index builders and reinterpreting ops ---------------------------------------------------------------------


@register
class RepeatIndex(OpDef):
    """0, 0, 1, 2, 2, 2, ...: position i repeated repeats[i] times (the gather index of repeat_interleave)."""

    name = "repeat_index"
    differentiable = False

    def kernel(self, repeats):
        return np.repeat(np.arange(repeats.size), repeats.reshape(-1))

    def infer_meta(self, repeats: Meta) -> Meta:
        return Meta((-1,), dtypes.int64)  # the length depends on the values


def repeat_index(repeats: Tensor) -> Tensor:
    return apply(RepeatIndex, (repeats,))


@register
class UniqueConsecutive(OpDef):
    """Collapse runs of equal elements (or of equal slices along `axis`): the kept values, each element's run
    number (inverse) and each run's length (counts)."""

    name = "unique_consecutive"
    differentiable = False

    def kernel(self, x, axis, dtype):
        if axis is None:
            x, axis = x.reshape(-1), 0
        rows = np.moveaxis(x, axis, 0).reshape(x.shape[axis], -1)
        starts = np.ones(len(rows), bool)
        starts[1:] = np.any(rows[1:] != rows[:-1], axis=1)
        first = np.nonzero(starts)[0]
        inverse = (np.cumsum(starts) - 1).astype(dtype)
        counts = np.diff(np.append(first, len(rows))).astype(dtype)
        return np.take(x, first, axis=axis), inverse, counts

    def infer_meta(self, x: Meta, axis, dtype) -> tuple:
        d = dtypes.from_numpy(np.dtype(dtype))
        if axis is None:
            n = -1 if -1 in x.shape else int(np.prod(x.shape))
            return Meta((-1,), x.dtype), Meta((n,), d), Meta((-1,), d)
        shape = list(x.shape)
        shape[axis] = -1
        return Meta(tuple(shape), x.dtype), Meta((x.shape[axis],), d), Meta((-1,), d)


def unique_consecutive(x: Tensor, axis, dtype) -> tuple:
    return apply(UniqueConsecutive, (x,), {"axis": axis, "dtype": np.dtype(dtype)})


@register
class ViewDtype(OpDef):
    """x's bytes read as another dtype (numpy's ndarray.view): the last axis shrinks or grows by the size ratio."""

    name = "view_dtype"
    view = True
    differentiable = False
    saves_inputs = False

    def kernel(self, x, dtype):
        return np.ascontiguousarray(x).view(dtype)


def view_dtype(x: Tensor, dtype) -> Tensor:
    return apply(ViewDtype, (x,), {"dtype": np.dtype(dtype)})


@register
class TriIndices(OpDef):
    """The [2, n] coordinates (rows, then columns) of the lower (or upper) triangle of a row x col matrix, the
    diagonal moved by `offset`."""

    name = "tri_indices"
    differentiable = False
    saves_inputs = False

    def kernel(self, row, col, offset, lower, dtype):
        pick = np.tril_indices if lower else np.triu_indices
        return np.stack(pick(max(row, 0), offset, max(col, 0))).astype(dtype)


def tri_indices(row: int, col: int, offset: int, lower: bool, dtype) -> Tensor:
    return apply(TriIndices, (), {"row": row, "col": col, "offset": offset, "lower": lower, "dtype": np.dtype(dtype)})
