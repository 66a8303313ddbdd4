"""Ops behind paddle 2.6's as_strided and Tensor.fill_diagonal_.

- `as_strided`: a view of x's elements (in x's row-major order) with any shape and element strides, sharing x's
  storage; its gradient `as_strided_grad` adds each output element's gradient back onto the element it reads
  (an element read twice gets both), and the gradient of that is as_strided again.
- `fill_diagonal`: x with `value` written on its diagonal, at the positions Paddle's FillDiagonal kernel picks
  (every `1 + d[-1] + d[-1]*d[-2] + ...`-th element, shifted by `offset` within a row; `wrap` starts again below
  a tall matrix's square part); its gradient is g with those positions zeroed.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["as_strided", "as_strided_grad", "fill_diagonal"]


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


def diagonal_positions(shape: tuple, offset: int, wrap: bool) -> np.ndarray:
    """The flat positions Paddle's FillDiagonal kernel writes (x has at least 2 dimensions)."""
    step = sum(int(np.prod(shape[i + 1 :])) for i in range(len(shape)))  # moves one along every axis at once
    size = int(np.prod(shape))
    if not wrap and len(shape) == 2:  # a tall matrix stops below its square part
        size = min(size, shape[1] * shape[1])
    starts = np.arange(0, size, step, dtype=np.int64)
    column = starts % shape[1] + offset
    return starts[(column >= 0) & (column < shape[1])] + offset  # stay in the row the diagonal element is in


@register
class FillDiagonal(OpDef):
    """x with `value` on its (offset) diagonal; the filled elements get no gradient."""

    name = "fill_diagonal"
    saves_inputs = False

    def kernel(self, x, value, offset, wrap):
        out = x.copy()
        out.reshape(-1)[diagonal_positions(x.shape, offset, wrap)] = value
        return out

    def grad(self, node, g):
        return (fill_diagonal(g, 0, node.attrs["offset"], node.attrs["wrap"]),)

    def infer_meta(self, x: Meta, value, offset, wrap) -> Meta:
        return x


def fill_diagonal(x: Tensor, value, offset: int, wrap: bool) -> Tensor:
    return apply(FillDiagonal, (x,), {"value": value, "offset": offset, "wrap": wrap})
