"""The ops behind paddle 2.6's as_strided (fill_diagonal, once beside it, is in ops/diagonal.py).

- `as_strided`: a view of x's elements (in x's row-major order) with any shape and element strides, sharing x's
  storage; its gradient `as_strided_grad` adds each output element's gradient back onto the element it reads
  (an element read twice gets both), and the gradient of that is as_strided again.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = [
    "as_strided",
    "as_strided_grad",
]


def strided_positions(shape: tuple, stride: tuple, offset: int) -> np.ndarray:
    """The flat (row-major) position in x of each element of as_strided(x, shape, stride, offset)."""
    index = np.full(shape, offset, dtype=np.int64)
    for axis, (size, step) in enumerate(zip(shape, stride)):
        along = [1] * len(shape)
        along[axis] = size
        index = index + np.arange(size, dtype=np.int64).reshape(along) * step
    return index


@register
class AsStrided(OpDef):
    """The view of x (read in row-major order) with `shape`, element `stride` and element `offset`."""

    name = "as_strided"
    view = True
    saves_inputs = False

    def kernel(self, x, shape, stride, offset):
        flat = np.ascontiguousarray(x).reshape(-1)  # a view when x is contiguous, so the result shares storage
        return np.lib.stride_tricks.as_strided(flat[offset:], shape, tuple(s * x.itemsize for s in stride))

    def grad(self, node, g):
        a = node.attrs
        return (as_strided_grad(g, tuple(node.inputs[0].shape), a["shape"], a["stride"], a["offset"]),)

    def infer_meta(self, x: Meta, shape, stride, offset) -> Meta:
        return Meta(tuple(shape), x.dtype)


def as_strided(x: Tensor, shape: tuple, stride: tuple, offset: int) -> Tensor:
    return apply(AsStrided, (x,), {"shape": tuple(shape), "stride": tuple(stride), "offset": offset})


@register
class AsStridedGrad(OpDef):
    """Zeros of `x_shape` with each element of g added onto the element of x that as_strided read it from."""

    name = "as_strided_grad"
    saves_inputs = False

    def kernel(self, g, x_shape, shape, stride, offset):
        out = np.zeros(int(np.prod(x_shape)), dtype=g.dtype)
        np.add.at(out, strided_positions(shape, stride, offset).reshape(-1), g.reshape(-1))
        return out.reshape(x_shape)

    def grad(self, node, gg):
        a = node.attrs
        return (as_strided(gg, a["shape"], a["stride"], a["offset"]),)

    def infer_meta(self, g: Meta, x_shape, shape, stride, offset) -> Meta:
        return Meta(tuple(x_shape), g.dtype)


def as_strided_grad(g: Tensor, x_shape: tuple, shape: tuple, stride: tuple, offset: int) -> Tensor:
    attrs = {"x_shape": tuple(x_shape), "shape": tuple(shape), "stride": tuple(stride), "offset": offset}
    return apply(AsStridedGrad, (g,), attrs)
