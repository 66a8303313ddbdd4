"""Ops about the diagonals of matrices: extract_diagonal, diag_embed, tril, triu.

`extract_diagonal` reads the diagonal at `offset` of the matrices spanned by (axis1, axis2) and puts it last;
`diag_embed` does the reverse, writing the last axis onto a diagonal of new (dim1, dim2) matrices. Each is the
other's gradient. paddle.diag, paddle.diag_embed and paddle.trace are built from these two.

`fill_diagonal` (Tensor.fill_diagonal_): x with `value` written on its diagonal, at the positions Paddle's
FillDiagonal kernel picks (every `1 + d[-1] + d[-1]*d[-2] + ...`-th element, shifted by `offset` within a row;
`wrap` starts again below a tall matrix's square part); its gradient is g with those positions zeroed.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import UnaryOp

__all__ = [
    "extract_diagonal",
    "diag_embed",
    "tril",
    "triu",
    "fill_diagonal",
]


@register
class ExtractDiagonal(OpDef):
    """x's diagonal at `offset` in the (axis1, axis2) plane, as a new last axis (numpy's np.diagonal)."""

    name = "extract_diagonal"
    saves_inputs = False

    def kernel(self, x, offset, axis1, axis2):
        return np.diagonal(x, offset, axis1, axis2).copy()

    def grad(self, node, g):
        a = node.attrs
        shape = node.inputs[0].shape
        return (diag_embed(g, a["offset"], a["axis1"], a["axis2"], shape[a["axis1"]], shape[a["axis2"]]),)


@register
class DiagEmbed(OpDef):
    """Write x's last axis onto the `offset` diagonal of new matrices of rows x cols, placed at (dim1, dim2).

    rows and cols default to the square size len + |offset|; everything off the diagonal is 0.
    """

    name = "diag_embed"
    saves_inputs = False

    def kernel(self, x, offset, dim1, dim2, rows=None, cols=None):
        n = x.shape[-1]
        rows = n + abs(offset) if rows is None else rows
        cols = n + abs(offset) if cols is None else cols
        out = np.zeros(x.shape[:-1] + (rows, cols), dtype=x.dtype)
        i = np.arange(n)
        out[..., i + max(-offset, 0), i + max(offset, 0)] = x
        return np.moveaxis(out, (-2, -1), (dim1, dim2))

    def grad(self, node, g):
        a = node.attrs
        return (extract_diagonal(g, a["offset"], a["dim1"], a["dim2"]),)

    def infer_meta(self, x: Meta, offset, dim1, dim2, rows=None, cols=None) -> Meta:
        n = x.shape[-1]
        side = -1 if n < 0 else n + abs(offset)
        batch = list(x.shape[:-1])
        shape = [None] * (len(batch) + 2)
        shape[dim1], shape[dim2] = (side if rows is None else rows), (side if cols is None else cols)
        rest = iter(batch)
        return Meta(tuple(d if d is not None else next(rest) for d in shape), x.dtype)


class _Triangle(UnaryOp):
    """Keep one triangle of the last two axes, zero the rest. The gradient keeps the same triangle."""

    saves_inputs = False
    numpy_fn = None

    def kernel(self, x, diagonal=0):
        return self.numpy_fn(x, diagonal)

    def grad(self, node, g):
        return (apply(self, (g,), node.attrs),)


@register
class Tril(_Triangle):
    name = "tril"
    numpy_fn = staticmethod(np.tril)


@register
class Triu(_Triangle):
    name = "triu"
    numpy_fn = staticmethod(np.triu)


def extract_diagonal(x: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    return apply(ExtractDiagonal, (x,), {"offset": offset, "axis1": axis1, "axis2": axis2})


def diag_embed(x: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1, rows=None, cols=None) -> Tensor:
    return apply(DiagEmbed, (x,), {"offset": offset, "dim1": dim1, "dim2": dim2, "rows": rows, "cols": cols})


def tril(x: Tensor, diagonal: int = 0) -> Tensor:
    return apply(Tril, (x,), {"diagonal": diagonal})


def triu(x: Tensor, diagonal: int = 0) -> Tensor:
    return apply(Triu, (x,), {"diagonal": diagonal})


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
