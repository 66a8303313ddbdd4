"""pad: add values around the edges of a tensor (Paddle's constant, reflect, replicate and circular modes).

Along each axis, padding is a gather: every position of the padded axis copies one input index (or, in constant
mode, no index: the fill value). `_source_index` is that map, and it is the whole definition of the four modes:

    input [a b c d], 2 before and 2 after:
    constant   v v a b c d v v        reflect    c b a b c d c b
    replicate  a a a b c d d d        circular   c d a b c d a b

The gradient, pad_grad, adds each output gradient back onto the input index it was copied from; pad_grad's own
gradient is pad again (with fill value 0), so the pair is closed under differentiation.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["pad", "pad_grad"]  # the raw op functions; ops/__init__.py gathers them


def _source_index(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each position of the padded axis, the input index it copies; -1 means the constant fill value."""
    j = np.arange(-before, n + after)
    if mode == "constant":
        return np.where((j >= 0) & (j < n), j, -1)
    if mode == "replicate":
        return np.clip(j, 0, n - 1)
    if mode == "circular":
        return j % n
    period = 2 * (n - 1)  # reflect: mirror about the first and last element without repeating them
    m = np.abs(j) % period if period else np.zeros_like(j)
    return np.where(m < n, m, period - m)


def _padded_axes(paddings):
    return [(axis, b, a) for axis, (b, a) in enumerate(paddings) if b or a]


@register
class Pad(OpDef):
    """y = pad(x): paddings is one (before, after) pair per axis of x."""

    name = "pad"
    saves_inputs = False

    def kernel(self, x, paddings, mode="constant", value=0.0):
        out = x
        for axis, b, a in _padded_axes(paddings):
            index = _source_index(x.shape[axis], b, a, mode)
            out = np.take(out, np.maximum(index, 0), axis=axis)
            if mode == "constant":
                fill = (index < 0).reshape([-1 if i == axis else 1 for i in range(x.ndim)])
                out = np.where(fill, np.asarray(value, dtype=x.dtype), out)
        return out if out is not x else x.copy()

    def grad(self, node, g):
        return (pad_grad(g, tuple(node.inputs[0].shape), node.attrs["paddings"], node.attrs["mode"]),)

    def infer_meta(self, x: Meta, paddings, mode="constant", value=0.0) -> Meta:
        return Meta(tuple(-1 if d < 0 else d + b + a for d, (b, a) in zip(x.shape, paddings)), x.dtype)


@register
class PadGrad(OpDef):
    """dx = pad_grad(g): each gradient added onto the input index its position was copied from."""

    name = "pad_grad"
    saves_inputs = False

    def kernel(self, g, input_shape, paddings, mode="constant"):
        dx = g
        for axis, b, a in reversed(_padded_axes(paddings)):
            n = input_shape[axis]
            index = _source_index(n, b, a, mode)
            moved = np.moveaxis(dx, axis, -1)
            rows = moved.reshape(-1, moved.shape[-1])
            keep = index >= 0
            target = (np.arange(rows.shape[0])[:, None] * n + index[None, keep]).ravel()
            weights = rows[:, keep].ravel()
            summed = np.bincount(target, weights=weights.real, minlength=rows.shape[0] * n)
            if weights.dtype.kind == "c":  # bincount adds real weights only: add the imaginary parts apart
                summed = summed + 1j * np.bincount(target, weights=weights.imag, minlength=rows.shape[0] * n)
            dx = np.moveaxis(summed.astype(g.dtype, copy=False).reshape(*moved.shape[:-1], n), -1, axis)
        return dx if dx is not g else g.copy()

    def grad(self, node, gg):
        return (pad(gg, node.attrs["paddings"], node.attrs["mode"], 0.0),)

    def infer_meta(self, g: Meta, input_shape, paddings, mode="constant") -> Meta:
        return Meta(tuple(input_shape), g.dtype)


def pad(x: Tensor, paddings, mode: str = "constant", value: float = 0.0) -> Tensor:
    """paddings: one (before, after) pair per axis of x. mode: constant, reflect, replicate or circular."""
    attrs = {"paddings": tuple((int(b), int(a)) for b, a in paddings), "mode": mode, "value": float(value)}
    return apply(Pad, (x,), attrs)


def pad_grad(g: Tensor, input_shape, paddings, mode: str = "constant") -> Tensor:
    return apply(PadGrad, (g,), {"input_shape": tuple(input_shape), "paddings": tuple(paddings), "mode": mode})
