"""Ops whose sizes come from Tensors, read when the op runs (Paddle's ShapeTensor / ShapeTensorList inputs).

A batch-agnostic model converted by to_static asks for `paddle.zeros([x.shape[0], 8])` while x's batch size is
-1: the Program does not know it yet. As in Paddle 2.6, `x.shape[0]` is then a Tensor (`paddle.shape(x)[0]`),
and the op gets it as an input. Each op here takes a `template` attribute, the shape with an int where the size
is known when the Program is built and None where it comes from the size inputs (in order; an input holds one
size, or several when a whole shape is one 1-D Tensor):

    full_with_shape(*sizes, template, value, dtype)    a tensor of that shape filled with value (paddle.full/zeros)
    reshape_with_shape(x, *sizes, template)            reshape (0 copies x's size, one -1 is inferred)
    expand_with_shape(x, *sizes, template)             expand / broadcast_to (-1 keeps x's size)
    tile_with_repeats(x, *sizes, template)             tile, the repeat counts from the template
    tile_with_repeats_grad(g, x, *sizes, template)     tile's gradient: the copies summed

The sizes never get gradients. The public functions (paddle.full, reshape, expand, tile, ...) use these ops
only in static mode when a size is a Tensor without a value yet; otherwise they read the sizes as ints.
"""

from __future__ import annotations

import math

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.manipulation import aligned_repeats, expand_array, input_shape, resolve_shape

__all__ = [
    "full_with_shape",
    "reshape_with_shape",
    "expand_with_shape",
    "tile_with_repeats",
    "tile_with_repeats_grad",
]


def fill_template(template: tuple, sizes, op: str) -> tuple:
    """The template with each None replaced by the next size the size inputs hold."""
    flat = [int(v) for s in sizes for v in np.asarray(s).reshape(-1)]
    if len(flat) != sum(t is None for t in template):
        raise ValueError(f"{op}: the size tensors hold {len(flat)} sizes, the shape {list(template)} needs "
                         f"{sum(t is None for t in template)}")  # fmt: skip
    it = iter(flat)
    return tuple(next(it) if t is None else t for t in template)


def _static(template: tuple) -> tuple:
    """The shape as the Program knows it: -1 where a size comes from a Tensor."""
    return tuple(-1 if t is None else t for t in template)


def _no_grads(sizes) -> tuple:
    return (None,) * len(sizes)


@register
class FullWithShape(OpDef):
    """A tensor of the template's shape, its None sizes from the inputs, filled with `value`."""

    name = "full_with_shape"
    differentiable = False
    saves_inputs = False

    def kernel(self, *sizes, template, value, dtype):
        shape = fill_template(template, sizes, self.name)
        if any(d < 0 for d in shape):
            raise ValueError(f"{self.name}: shape must not have negative dimensions, got {list(shape)}")
        out = np.empty(shape, dtype=dtypes.to_dtype(dtype).np)
        out.fill(value)
        return out

    def infer_meta(self, *sizes: Meta, template, value, dtype) -> Meta:
        return Meta(_static(template), dtypes.to_dtype(dtype))


def full_with_shape(sizes, template, value, dtype) -> Tensor:
    return apply(FullWithShape, tuple(sizes), {"template": tuple(template), "value": value, "dtype": dtype})


@register
class ReshapeWithShape(OpDef):
    """x reshaped to the template (0 copies x's size, one -1 is inferred), its None sizes from the inputs."""

    name = "reshape_with_shape"
    saves_inputs = False

    def kernel(self, x, *sizes, template):
        wanted = fill_template(template, sizes, self.name)
        target = resolve_shape(wanted, x.shape, x.size)
        if math.prod(target) != x.size:
            raise ValueError(f"{self.name}: cannot reshape a tensor of shape {list(x.shape)} ({x.size} elements) "
                             f"to {list(wanted)}")  # fmt: skip
        return x.reshape(target)

    def grad(self, node, g):
        shape = input_shape(node, 0)
        if shape.count(-1) <= 1:  # the Program knows x's shape up to one size: a plain reshape gives it back
            back = ops.reshape(g, shape)
        else:  # read x's shape when the backward runs
            back = reshape_with_shape(g, (ops.shape_of(node.inputs[0]),), (None,) * len(shape))
        return (back,) + _no_grads(node.inputs[1:])

    def infer_meta(self, x: Meta, *sizes: Meta, template) -> Meta:
        shape = tuple(x.shape[i] if t == 0 else t for i, t in enumerate(template))  # 0 copies x's size
        if -1 in shape and None not in shape and -1 not in x.shape:
            shape = resolve_shape(shape, x.shape, math.prod(x.shape))
        return Meta(_static(shape), x.dtype)


def reshape_with_shape(x: Tensor, sizes, template) -> Tensor:
    return apply(ReshapeWithShape, (x, *sizes), {"template": tuple(template)})


@register
class ExpandWithShape(OpDef):
    """x broadcast to the template (-1 keeps x's size), its None sizes from the inputs (a copy)."""

    name = "expand_with_shape"
    saves_inputs = False

    def kernel(self, x, *sizes, template):
        return expand_array(x, fill_template(template, sizes, self.name))

    def grad(self, node, g):
        return (ops.unbroadcast(g, input_shape(node, 0)),) + _no_grads(node.inputs[1:])

    def infer_meta(self, x: Meta, *sizes: Meta, template) -> Meta:
        lead = len(template) - len(x.shape)
        shape = tuple(x.shape[i - lead] if t == -1 and i >= lead else t for i, t in enumerate(template))
        return Meta(_static(shape), x.dtype)


def expand_with_shape(x: Tensor, sizes, template) -> Tensor:
    return apply(ExpandWithShape, (x, *sizes), {"template": tuple(template)})


@register
class TileWithRepeats(OpDef):
    """x repeated along each axis as often as the template (its None counts from the inputs) says."""

    name = "tile_with_repeats"
    saves_inputs = False

    def kernel(self, x, *sizes, template):
        reps = fill_template(template, sizes, self.name)
        if any(r <= 0 for r in reps):
            raise ValueError(f"{self.name}: repeat_times must be positive, got {list(reps)}")
        return np.tile(x, reps)

    def grad(self, node, g):
        gx = tile_with_repeats_grad(g, node.inputs[0], node.inputs[1:], node.attrs["template"])
        return (gx,) + _no_grads(node.inputs[1:])

    def infer_meta(self, x: Meta, *sizes: Meta, template) -> Meta:
        dims, reps = aligned_repeats(x.shape, _static(template))
        return Meta(tuple(-1 if d < 0 or r < 0 else d * r for d, r in zip(dims, reps)), x.dtype)


def tile_with_repeats(x: Tensor, sizes, template) -> Tensor:
    return apply(TileWithRepeats, (x, *sizes), {"template": tuple(template)})


@register
class TileWithRepeatsGrad(OpDef):
    """The gradient of tile: g's copies of x summed (x is read for its shape only). Its own gradient tiles again."""

    name = "tile_with_repeats_grad"
    saves_inputs = False

    def kernel(self, g, x, *sizes, template):
        dims, reps = aligned_repeats(x.shape, fill_template(template, sizes, self.name))
        # g's axis i holds reps[i] copies of x's axis i, one after the other: split it into (copy, element)
        interleaved = g.reshape(tuple(d for pair in zip(reps, dims) for d in pair))
        return interleaved.sum(axis=tuple(range(0, 2 * len(dims), 2))).reshape(x.shape)

    def grad(self, node, gg):
        again = tile_with_repeats(gg, node.inputs[2:], node.attrs["template"])
        return (again, None) + _no_grads(node.inputs[2:])

    def infer_meta(self, g: Meta, x: Meta, *sizes: Meta, template) -> Meta:
        return Meta(x.shape, g.dtype)


def tile_with_repeats_grad(g: Tensor, x: Tensor, sizes, template) -> Tensor:
    return apply(TileWithRepeatsGrad, (g, x, *sizes), {"template": tuple(template)})
