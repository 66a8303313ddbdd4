"""Ops that move data around without arithmetic: reshape, transpose, expand, concat/split, stack/unstack,
cast, where, full_like. Several are views (the output shares the input's storage), as numpy gives them."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = [
    "reshape",
    "transpose",
    "expand",
    "concat",
    "split",
    "stack",
    "unstack",
    "cast",
    "where",
    "full_like",
    "assign",
    "getitem",
]  # the raw op functions; ops/__init__.py gathers them


def resolve_shape(shape, source_shape, numel=None) -> tuple:
    """Paddle's reshape target: 0 copies the source dimension, one -1 is inferred (when numel is known)."""
    out = [source_shape[i] if d == 0 else d for i, d in enumerate(shape)]
    if numel is not None and -1 in out:
        known = int(np.prod([d for d in out if d != -1]))
        out[out.index(-1)] = numel // known if known else 0
    return tuple(out)


@register
class Reshape(OpDef):
    name = "reshape"
    view = True
    saves_inputs = False

    def kernel(self, x, shape):
        target = resolve_shape(shape, x.shape, x.size)
        if int(np.prod(target)) != x.size:
            raise ValueError(f"cannot reshape a tensor of shape {list(x.shape)} ({x.size} elements) to {list(shape)}")
        return x.reshape(target)

    def grad(self, node, g):
        return (reshape(g, tuple(node.inputs[0].shape)),)

    def infer_meta(self, x: Meta, shape) -> Meta:
        known = -1 not in x.shape
        return Meta(resolve_shape(shape, x.shape, int(np.prod(x.shape)) if known else None), x.dtype)


def reshape(x: Tensor, shape) -> Tensor:
    return apply(Reshape, (x,), {"shape": tuple(shape)})


@register
class Transpose(OpDef):
    name = "transpose"
    view = True
    saves_inputs = False

    def kernel(self, x, perm):
        return x.transpose(perm)

    def grad(self, node, g):
        inverse = tuple(int(i) for i in np.argsort(node.attrs["perm"]))
        return (transpose(g, inverse),)

    def infer_meta(self, x: Meta, perm) -> Meta:
        return Meta(tuple(x.shape[p] for p in perm), x.dtype)


def transpose(x: Tensor, perm) -> Tensor:
    return apply(Transpose, (x,), {"perm": tuple(perm)})


@register
class Expand(OpDef):
    """Broadcast x to `shape` (Paddle's expand / broadcast_to). The gradient sums over the stretched axes."""

    name = "expand"
    saves_inputs = False

    def kernel(self, x, shape):
        if -1 in shape:  # -1 keeps x's size in that dimension
            shape = tuple(x.shape[i - (len(shape) - x.ndim)] if d == -1 else d for i, d in enumerate(shape))
        out = np.empty(shape, dtype=x.dtype)  # a copy, as Paddle's expand: the result is writable
        out[...] = x  # numpy broadcasts x into it
        return out

    def grad(self, node, g):
        return (ops.unbroadcast(g, node.inputs[0].shape),)


def expand(x: Tensor, shape) -> Tensor:
    return apply(Expand, (x,), {"shape": tuple(shape)})


@register
class Concat(OpDef):
    """Join any number of tensors along `axis`. Its gradient splits the output gradient back."""

    name = "concat"
    saves_inputs = False

    def kernel(self, *xs, axis):
        return np.concatenate(xs, axis=axis)

    def grad(self, node, g):
        sizes = tuple(t.shape[node.attrs["axis"]] for t in node.inputs)
        return split(g, sizes, node.attrs["axis"])


def concat(xs, axis: int) -> Tensor:
    return apply(Concat, tuple(xs), {"axis": axis})


@register
class Split(OpDef):
    """Cut x along `axis` into pieces of the given sizes. Several outputs; the gradient concatenates them."""

    name = "split"
    saves_inputs = False

    def kernel(self, x, sections, axis):
        bounds = np.cumsum(sections)[:-1]
        return tuple(np.split(x, bounds, axis=axis))

    def grad(self, node, *gs):
        return (concat(gs, node.attrs["axis"]),)


def split(x: Tensor, sections, axis: int) -> tuple:
    return apply(Split, (x,), {"sections": tuple(sections), "axis": axis})


@register
class Stack(OpDef):
    name = "stack"
    saves_inputs = False

    def kernel(self, *xs, axis):
        return np.stack(xs, axis=axis)

    def grad(self, node, g):
        return unstack(g, node.attrs["axis"])


def stack(xs, axis: int) -> Tensor:
    return apply(Stack, tuple(xs), {"axis": axis})


@register
class Unstack(OpDef):
    name = "unstack"
    saves_inputs = False

    def kernel(self, x, axis):
        return tuple(np.moveaxis(x, axis, 0))

    def grad(self, node, *gs):
        return (stack(gs, node.attrs["axis"]),)


def unstack(x: Tensor, axis: int) -> tuple:
    return apply(Unstack, (x,), {"axis": axis})


@register
class Cast(OpDef):
    name = "cast"
    saves_inputs = False
    amp = "keep"

    def kernel(self, x, dtype):
        return x.astype(dtype, copy=False) if x.dtype != dtype else x.copy()

    def grad(self, node, g):
        return (cast(g, node.inputs[0].dtype),)

    def infer_meta(self, x: Meta, dtype) -> Meta:
        return Meta(x.shape, dtypes.from_numpy(np.dtype(dtype)))


def cast(x: Tensor, dtype) -> Tensor:
    """Cast to `dtype` (a numpy dtype, DType or name)."""
    return apply(Cast, (x,), {"dtype": dtypes.to_dtype(dtype).np})


@register
class Where(OpDef):
    """out = x where cond else y (all three broadcast together)."""

    name = "where"

    def kernel(self, cond, x, y):
        return np.where(cond, x, y)

    def grad(self, node, g):
        cond, x, y = node.inputs
        zeros = full_like(g, 0)
        return (
            None,
            ops.unbroadcast(where(cond, g, zeros), x.shape),
            ops.unbroadcast(where(cond, zeros, g), y.shape),
        )


def where(cond: Tensor, x: Tensor, y: Tensor) -> Tensor:
    return apply(Where, (cond, x, y))


@register
class FullLike(OpDef):
    """A tensor of x's shape and dtype filled with `value` (x's values are not read, and no gradient flows)."""

    name = "full_like"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, value, dtype=None):
        out = np.empty(x.shape, dtype=x.dtype if dtype is None else dtype)
        out.fill(value)  # np.full does the same through a slower Python wrapper
        return out

    def infer_meta(self, x: Meta, value, dtype=None) -> Meta:
        return Meta(x.shape, x.dtype if dtype is None else dtypes.from_numpy(np.dtype(dtype)))


def full_like(x: Tensor, value, dtype=None) -> Tensor:
    return apply(FullLike, (x,), {"value": value, "dtype": dtype})


@register
class Assign(OpDef):
    """A copy of x that gradients flow through (Tensor.clone, paddle.assign)."""

    name = "assign"
    saves_inputs = False

    def kernel(self, x):
        return x.copy()

    def grad(self, node, g):
        return (g,)

    def infer_meta(self, x: Meta) -> Meta:
        return x


def assign(x: Tensor) -> Tensor:
    return apply(Assign, (x,))


@register
class GetItem(OpDef):
    """x[index] for a numpy-style index (ints, slices, None, Ellipsis, int or bool arrays).

    The gradient scatters back into zeros of x's shape with its own op, `getitem_grad`, so repeated indices
    add up (numpy's `np.add.at`)."""

    name = "getitem"
    saves_inputs = False

    def kernel(self, x, index):
        return np.array(x[index], copy=True)

    def grad(self, node, g):
        return (apply(GetItemGrad, (g,), {"index": node.attrs["index"], "shape": tuple(node.inputs[0].shape)}),)


@register
class GetItemGrad(OpDef):
    name = "getitem_grad"
    saves_inputs = False

    def kernel(self, g, index, shape):
        out = np.zeros(shape, dtype=g.dtype)
        np.add.at(out, index, g)
        return out

    def grad(self, node, gg):
        return (getitem(gg, node.attrs["index"]),)


def getitem(x: Tensor, index) -> Tensor:
    return apply(GetItem, (x,), {"index": index})
