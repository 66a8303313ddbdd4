"""Ops that read or write parts of a tensor chosen by an index: `x[index]`, `x[index] = v`, gather/scatter.

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
]  # the raw op functions; ops/__init__.py gathers them


@register
class IndexView(OpDef):
    """x[index] for a basic index (ints, slices, None, Ellipsis): a view of x."""

    name = "index_view"
    view = True
    saves_inputs = False

    def kernel(self, x, index):
        return x[index]

    def grad(self, node, g):
        return (apply(GetItemGrad, (g,), {"index": node.attrs["index"], "shape": input_shape(node, 0)}),)


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
        return (apply(GetItemGrad, (g,), {"index": node.attrs["index"], "shape": input_shape(node, 0)}),)


def getitem(x: Tensor, index) -> Tensor:
    return apply(GetItem, (x,), {"index": index})


@register
class GetItemGrad(OpDef):
    """Zeros of `shape` with g added at `index` (numpy's np.add.at, so repeated indices accumulate)."""

    name = "getitem_grad"
    saves_inputs = False

    def kernel(self, g, index, shape):
        out = np.zeros(shape, dtype=g.dtype)
        np.add.at(out, index, g)
        return out

    def grad(self, node, gg):
        return (getitem(gg, node.attrs["index"]),)

    def infer_meta(self, g: Meta, index, shape) -> Meta:
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
        index = node.inputs[1]
        return scatter_add_to_zeros(g, index, node.attrs["mode"], node.attrs["axis"], input_shape(node, 0)), None


def gather(x: Tensor, index: Tensor, mode: str = "axis", axis: int = 0) -> Tensor:
    return apply(Gather, (x, index), {"mode": mode, "axis": axis})


@register
class ScatterAddToZeros(OpDef):
    """Zeros of `shape` with the values added where gather would take them from (gather's gradient)."""

    name = "scatter_add_to_zeros"

    def kernel(self, values, index, mode, axis, shape):
        out = np.zeros(shape, dtype=values.dtype)
        np.add.at(out, np_index(index, mode, axis), values)
        return out

    def grad(self, node, g):
        return gather(g, node.inputs[1], node.attrs["mode"], node.attrs["axis"]), None

    def infer_meta(self, values: Meta, index: Meta, mode, axis, shape) -> Meta:
        return Meta(tuple(shape), values.dtype)


def scatter_add_to_zeros(values: Tensor, index: Tensor, mode: str, axis: int, shape) -> Tensor:
    return apply(ScatterAddToZeros, (values, index), {"mode": mode, "axis": axis, "shape": tuple(shape)})


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
