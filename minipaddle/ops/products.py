"""Products that are neither elementwise nor matmul: kron (Kronecker) and cross (3-vectors)."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["kron", "cross"]  # the raw op functions; ops/__init__.py gathers them


def _padded(shape, n: int) -> tuple:
    """`shape` with leading 1s up to n dims: how kron lines up operands of different ranks."""
    return (1,) * (n - len(shape)) + tuple(shape)


@register
class Kron(OpDef):
    """The Kronecker product: block (i, j) of the result is x[i, j] * y, in any number of dimensions."""

    name = "kron"

    def kernel(self, x, y):
        return np.kron(x, y)

    def grad(self, node, g):
        # With both operands padded to n dims, out has shape (a0*b0, a1*b1, ...) and
        # out[i0*b0 + j0, ...] = x[i0, ...] * y[j0, ...]. Reshaped to (a0, b0, a1, b1, ...) it is a plain broadcast
        # product, so each gradient is a multiply and a sum over the other operand's axes.
        x, y = node.inputs
        n = max(x.ndim, y.ndim)
        xs, ys = _padded(x.shape, n), _padded(y.shape, n)
        g4 = ops.reshape(g, tuple(d for pair in zip(xs, ys) for d in pair))
        x4 = ops.reshape(x, tuple(d for a in xs for d in (a, 1)))
        y4 = ops.reshape(y, tuple(d for b in ys for d in (1, b)))
        gx = gy = None
        if node.needs_grad(0):
            gx = ops.reshape(ops.sum(ops.multiply(g4, ops.conj(y4)), tuple(range(1, 2 * n, 2))), tuple(x.shape))
        if node.needs_grad(1):
            gy = ops.reshape(ops.sum(ops.multiply(g4, ops.conj(x4)), tuple(range(0, 2 * n, 2))), tuple(y.shape))
        return gx, gy

    def infer_meta(self, x: Meta, y: Meta) -> Meta:
        n = max(len(x.shape), len(y.shape))
        xs, ys = _padded(x.shape, n), _padded(y.shape, n)
        return Meta(tuple(-1 if -1 in (a, b) else a * b for a, b in zip(xs, ys)), x.dtype)


@register
class Cross(OpDef):
    """The cross product of 3-vectors laid along `axis` (x and y have the same shape)."""

    name = "cross"

    def kernel(self, x, y, axis):
        return np.cross(x, y, axis=axis)

    def grad(self, node, g):
        # d(x . (y x g)) = dx . (y x g): the gradient of x is y x g, and of y is g x x.
        x, y = node.inputs
        axis = node.attrs["axis"]
        gx = cross(y, g, axis) if node.needs_grad(0) else None
        gy = cross(g, x, axis) if node.needs_grad(1) else None
        return gx, gy

    def infer_meta(self, x: Meta, y: Meta, axis) -> Meta:
        return x


def kron(x: Tensor, y: Tensor) -> Tensor:
    return apply(Kron, (x, y))


def cross(x: Tensor, y: Tensor, axis: int) -> Tensor:
    return apply(Cross, (x, y), {"axis": axis})
