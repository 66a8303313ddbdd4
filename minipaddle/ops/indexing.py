"""Ops that read or write parts of a tensor chosen by an index: `x[index]`, `x[index] = v`, gather/scatter,
take_along_axis / put_along_axis (each part of the other's gradient; along_axis_winners says which values an
'assign' put kept), and index_put / index_get (x[indices] = value and x[indices], indices given as Tensors).

Two kinds of `x[index]`, as in numpy:
- a *basic* index (ints, slices, None, Ellipsis) picks a regular part of x; `index_view` returns it as a view that
  shares x's storage (numpy gives a view, and so does Paddle 2.6);
- an *advanced* index (integer or boolean arrays) picks arbitrary elements; `getitem` returns a copy.
Both scatter their gradient back into zeros of x's shape with `getitem_grad` (repeated indices add up).

Writing: `set_value` is `x[index] = value` (recorded like any in-place op); `write_view` writes a value into the
part of x that a view op selects: core/dispatch.py uses it to record on a base that one of its views was changed.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import OPS, Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.manipulation import input_shape

__all__ = [
    "getitem",
    "index_view",
    "set_value",
    "gather",
    "scatter_add_to_zeros",
    "scatter_nd_add",
    "scatter",
    "take_along_axis",
    "put_along_axis",
    "index_put",
    "index_get",
]


@register
class IndexView(OpDef):
    """x[index] for a basic index (ints, slices, None, Ellipsis): a view of x."""

    name = "index_view"
    view = True
    saves_inputs = False

    def kernel(self, x, index):
        return x[index]

    def grad(self, node, g):
        return (_scatter_back(node, g),)

    def infer_meta(self, x: Meta, index) -> Meta:
        return _index_meta(x, index)


def _index_meta(x: Meta, index) -> Meta:
    """x[index]'s shape as the default infer_meta finds it (unknown sizes read as 1, then 2; an output size that
    differs is unknown), but an unknown axis taken by an int i or an integer array a is read as |i| + 1 or
    max|a| + 1, so x[1] or x[[0, 2]] of a None batch is not out of range (the axis does not show in the result)."""
    sizes = {1: list(x.shape), 2: list(x.shape)}
    parts = index if isinstance(index, tuple) else (index,)
    axis = 0
    for part in parts:
        if part is Ellipsis:
            axis += len(x.shape) - sum(p is not None and p is not Ellipsis for p in parts)
        elif part is not None:
            taken = isinstance(part, (int, np.integer)) or (isinstance(part, np.ndarray) and part.dtype.kind in "iu")
            if taken and axis < len(x.shape) and x.shape[axis] < 0:
                sizes[1][axis] = sizes[2][axis] = int(np.abs(part).max(initial=0)) + 1
            axis += 1
    shapes = [np.broadcast_to(np.zeros((), x.dtype.np), [u if d < 0 else d for d in s])[index].shape
              for u, s in sizes.items()]  # fmt: skip
    return Meta(tuple(a if a == b else -1 for a, b in zip(*shapes)), x.dtype)


def _scatter_back(node, g: Tensor) -> Tensor:
    """g added into zeros of x's shape at the node's index. When the Program knows x's shape only when it runs (a
    None batch), x itself is an input, read for its shape then, so one Program serves every batch size."""
    shape = input_shape(node, 0)
    if -1 in shape:
        return apply(GetItemGrad, (g, node.inputs[0]), {"index": node.attrs["index"], "shape": shape})
    return apply(GetItemGrad, (g,), {"index": node.attrs["index"], "shape": shape})


def index_view(x: Tensor, index: tuple) -> Tensor:
    return apply(IndexView, (x,), {"index": index})


@register
class GetItem(OpDef):
    """x[index] for an advanced index (integer or boolean arrays, maybe mixed with basic parts): a copy."""

    name = "getitem"
    saves_inputs = False

    def kernel(self, x, index):
        return np.array(x[index], copy=True)

    def grad(self, node, g):
        return (_scatter_back(node, g),)

    def infer_meta(self, x: Meta, index) -> Meta:
        return _index_meta(x, index)


def getitem(x: Tensor, index) -> Tensor:
    return apply(GetItem, (x,), {"index": index})


@register
class GetItemGrad(OpDef):
    """Zeros of `shape` with g added at `index` (numpy's np.add.at, so repeated indices accumulate). With a second
    input (`like`, read for its shape only) the zeros take its shape: `shape` then holds -1 for sizes known only
    when the Program runs."""

    name = "getitem_grad"
    saves_inputs = False

    def kernel(self, g, *like, index, shape):
        out = np.zeros(like[0].shape if like else shape, dtype=g.dtype)
        np.add.at(out, index, g)
        return out

    def grad(self, node, gg):
        return (getitem(gg, node.attrs["index"]),) + (None,) * (len(node.inputs) - 1)

    def infer_meta(self, g: Meta, *like: Meta, index, shape) -> Meta:
        return Meta(tuple(shape), g.dtype)


@register
class SetValue(OpDef):
    """x with x[index] replaced by value (broadcast to the indexed part): Paddle's set_value, behind `x[i] = v`.

    The overwritten elements of x get no gradient; the value gets the gradient of the places it was written to."""

    name = "set_value"
    saves_inputs = False

    def kernel(self, x, value, index):
        out = x.copy()
        out[index] = value
        return out

    def grad(self, node, g):
        index = node.attrs["index"]
        gx = set_value(g, ops.full_like(node.inputs[1], 0, None), index) if node.needs_grad(0) else None
        gv = None
        if node.needs_grad(1):
            gv = ops.unbroadcast(getitem(g, index), input_shape(node, 1))
        return gx, gv

    def infer_meta(self, x: Meta, value: Meta, index) -> Meta:
        return x


def set_value(x: Tensor, value: Tensor, index) -> Tensor:
    return apply(SetValue, (x, value), {"index": index})


@register
class WriteView(OpDef):
    """base with the part that op `view_op` (with `view_attrs`) selects replaced by value.

    When a view is changed in place, its base changes too; core/dispatch.py records that on the base with this op,
    so gradients reaching the base go to the view's new value for the viewed part and to the old base elsewhere."""

    name = "write_view"
    saves_inputs = False

    def kernel(self, base, value, view_op, view_attrs):
        out = base.copy()
        part = OPS[view_op].kernel(out, **view_attrs)
        if not np.shares_memory(part, out):
            raise TypeError(f"op {view_op!r} does not return a view, so its part of the base cannot be written")
        part[...] = value
        return out

    def grad(self, node, g):
        attrs = node.attrs
        g_part = apply(OPS[attrs["view_op"]], (g,), attrs["view_attrs"])
        g_base = apply(WriteView, (g, ops.full_like(g_part, 0, None)), attrs) if node.needs_grad(0) else None
        return g_base, ops.unbroadcast(ops.assign(g_part), input_shape(node, 1))

    def infer_meta(self, base: Meta, value: Meta, view_op, view_attrs) -> Meta:
        return base


# ---- gather and scatter --------------------------------------------------------------------------------------
# One pair of ops serves paddle.gather / index_select (`mode='axis'`: slices along an axis), gather_nd
# (`'nd'`: the last dimension of index holds coordinates) and index_sample (`'row'`: per-row positions).


def np_index(index: np.ndarray, mode: str, axis: int) -> tuple:
    """The numpy index that picks what gather takes from x."""
    if mode == "axis":
        return (slice(None),) * axis + (index,)
    if mode == "nd":
        return tuple(np.moveaxis(index, -1, 0))
    return (np.arange(index.shape[0])[:, None], index)  # 'row': x[i, index[i, j]]


@register
class Gather(OpDef):
    name = "gather"
    saves_inputs = False

    def kernel(self, x, index, mode, axis=0):
        return x[np_index(index, mode, axis)]

    def grad(self, node, g):
        index, shape = node.inputs[1], input_shape(node, 0)
        like = node.inputs[0] if -1 in shape else None  # a None batch: x's shape is read when the Program runs
        return scatter_add_to_zeros(g, index, node.attrs["mode"], node.attrs["axis"], shape, like), None


def gather(x: Tensor, index: Tensor, mode: str = "axis", axis: int = 0) -> Tensor:
    return apply(Gather, (x, index), {"mode": mode, "axis": axis})


@register
class ScatterAddToZeros(OpDef):
    """Zeros of `shape` with the values added where gather would take them from (gather's gradient). With a third
    input (`like`, read for its shape only) the zeros take its shape: `shape` then holds -1 for sizes known only
    when the Program runs."""

    name = "scatter_add_to_zeros"

    def kernel(self, values, index, *like, mode, axis, shape):
        out = np.zeros(like[0].shape if like else shape, dtype=values.dtype)
        np.add.at(out, np_index(index, mode, axis), values)
        return out

    def grad(self, node, g):
        return (gather(g, node.inputs[1], node.attrs["mode"], node.attrs["axis"]),) + (None,) * (len(node.inputs) - 1)

    def infer_meta(self, values: Meta, index: Meta, *like: Meta, mode, axis, shape) -> Meta:
        return Meta(tuple(shape), values.dtype)


def scatter_add_to_zeros(values: Tensor, index: Tensor, mode: str, axis: int, shape, like: Tensor | None = None):
    inputs = (values, index) if like is None else (values, index, like)
    return apply(ScatterAddToZeros, inputs, {"mode": mode, "axis": axis, "shape": tuple(shape)})


def scatter_nd_add(x: Tensor, index: Tensor, updates: Tensor) -> Tensor:
    """x plus the updates added at the coordinates in index (repeated coordinates add up)."""
    return ops.add(x, scatter_add_to_zeros(updates, index, "nd", 0, x.shape))


@register
class Scatter(OpDef):
    """x with the rows at `index` replaced by `updates` (overwrite) or by the sum of the updates for that row."""

    name = "scatter"
    amp = "fp32"
    saves_inputs = False

    def kernel(self, x, index, updates, overwrite):
        out = x.copy()
        if overwrite:
            out[index] = updates
        else:
            out[index] = 0
            np.add.at(out, index, updates)
        return out

    def grad(self, node, g):
        x, index, updates = node.inputs
        gx = scatter(g, index, ops.full_like(updates, 0, None), True) if node.needs_grad(0) else None
        gu = gather(g, index) if node.needs_grad(2) else None
        return gx, None, gu


def scatter(x: Tensor, index: Tensor, updates: Tensor, overwrite: bool) -> Tensor:
    return apply(Scatter, (x, index, updates), {"overwrite": overwrite})


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
