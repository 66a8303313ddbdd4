"""matmul, with Paddle's transpose_x/transpose_y flags, batch broadcasting and 1-D operands."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import broadcast_shapes
from minipaddle.ops.low_precision import gemm

__all__ = ["matmul"]  # the raw op functions; ops/__init__.py gathers them


def _back_to(g, as_2d, original):
    """A gradient computed for the 2-D form of an operand, summed over broadcast batches, in the operand's shape."""
    g = ops.unbroadcast(g, as_2d.shape)
    return g if tuple(g.shape) == tuple(original.shape) else ops.reshape(g, original.shape)


def _t(a: np.ndarray) -> np.ndarray:
    return a.swapaxes(-1, -2) if a.ndim >= 2 else a  # (the method: np.swapaxes is four Python calls around it)


@register
class Matmul(OpDef):
    name = "matmul"
    amp = "white"

    def kernel(self, x, y, transpose_x=False, transpose_y=False):
        return gemm(_t(x) if transpose_x else x, _t(y) if transpose_y else y)  # float16: fp32 accumulation

    def grad(self, node, g):
        x, y = node.inputs
        tx, ty = node.attrs["transpose_x"], node.attrs["transpose_y"]
        # A 1-D operand acts as a matrix with one row (x) or one column (y); make that explicit first.
        x_vector, y_vector = x.ndim == 1, y.ndim == 1
        x2 = ops.reshape(x, (1, x.shape[0])) if x_vector else x
        y2 = ops.reshape(y, (y.shape[0], 1)) if y_vector else y
        x2, y2 = ops.conj(x2), ops.conj(y2)  # complex: d(x @ y) pairs g with conj(y), conj(x) (real: no-op)
        g2 = g
        if x_vector:
            g2 = ops.reshape(g2, tuple(g2.shape[:-1]) + (1, g2.shape[-1]) if not y_vector else (1, -1))
        if y_vector:
            g2 = ops.reshape(g2, tuple(g2.shape) + (1,))
        # out = A @ B with A = x or x^T, B = y or y^T; dA = g B^T, dB = A^T g, then undo the transposes.
        # (Each is computed only when wanted: the first layer's input needs no gradient, and it is a big GEMM.)
        gx = gy = None
        if node.needs_grad(0):
            if not tx:
                gx = matmul(g2, y2, False, not ty)
            else:
                gx = matmul(y2, g2, ty, True)
            gx = _back_to(gx, x2, x)
        if node.needs_grad(1):
            if not ty:
                gy = matmul(x2, g2, not tx, False)
            else:
                gy = matmul(g2, x2, True, tx)
            gy = _back_to(gy, y2, y)
        return gx, gy

    def infer_meta(self, x: Meta, y: Meta, transpose_x=False, transpose_y=False) -> Meta:
        xs, ys = transposed_shapes(x.shape, y.shape, transpose_x, transpose_y)
        xs2 = [1] + xs if len(xs) == 1 else xs
        ys2 = ys + [1] if len(ys) == 1 else ys
        k1, k2 = xs2[-1], ys2[-2]
        if k1 != k2 and -1 not in (k1, k2):
            raise ValueError(f"matmul: x's last dimension ({k1}) must equal y's first matrix dimension ({k2})")
        batch = broadcast_shapes(tuple(xs2[:-2]), tuple(ys2[:-2]), "matmul")
        shape = list(batch) + [xs2[-2], ys2[-1]]
        if len(xs) == 1:
            shape.pop(-2)
        if len(ys) == 1:
            shape.pop(-1)
        return Meta(tuple(shape), x.dtype)


def transposed_shapes(x_shape, y_shape, transpose_x: bool, transpose_y: bool) -> tuple[list, list]:
    """The operands' shapes as matmul multiplies them: the last two dimensions swapped where asked (a 1-D
    operand is never transposed)."""
    xs, ys = list(x_shape), list(y_shape)
    if transpose_x and len(xs) >= 2:
        xs[-1], xs[-2] = xs[-2], xs[-1]
    if transpose_y and len(ys) >= 2:
        ys[-1], ys[-2] = ys[-2], ys[-1]
    return xs, ys


def matmul(x: Tensor, y: Tensor, transpose_x: bool = False, transpose_y: bool = False) -> Tensor:
    return apply(Matmul, (x, y), {"transpose_x": transpose_x, "transpose_y": transpose_y})
