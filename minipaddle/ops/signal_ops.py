"""Framing a signal and adding frames back: Paddle's `frame` and `overlap_add` kernels, under paddle.signal.

    frame         x [..., seq_length] -> [..., frame_length, num_frames]     (axis=-1)
                  x [seq_length, ...] -> [num_frames, frame_length, ...]     (axis=0)
                  frame t holds x[t*hop : t*hop + frame_length], num_frames = 1 + (seq_length - frame_length) // hop
    overlap_add   the other way: frames [..., frame_length, num_frames] -> [..., seq_length] (axis=-1), each frame
                  added at t*hop, seq_length = (num_frames - 1) * hop + frame_length

Both are linear and each is the other's adjoint: the gradient of frame is the overlap-add of the gradient (zero
for the samples at the end that no frame reached), the gradient of overlap_add is the framing of the gradient.
The kernels reuse the sliding windows of ops/windows.py (a strided view, and its adjoint col2im).
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.manipulation import input_shape
from minipaddle.ops.windows import add_windows, windows

__all__ = ["frame", "overlap_add"]  # the raw op functions; ops/__init__.py gathers them


def _to_last(x: np.ndarray, axis: int) -> np.ndarray:
    """The signal axis last (axis=0 moves it there; axis=-1 already is)."""
    return x if axis == -1 else np.moveaxis(x, 0, -1)


@register
class Frame(OpDef):
    """Overlapping frames of length `frame_length`, `hop_length` apart, along axis 0 or -1."""

    name = "frame"
    saves_inputs = False

    def kernel(self, x, frame_length, hop_length, axis):
        framed = windows(_to_last(x, axis), (frame_length,), (hop_length,), (1,))  # [..., frames, frame_length]
        if axis == -1:
            return np.ascontiguousarray(np.swapaxes(framed, -1, -2))
        return np.ascontiguousarray(np.moveaxis(framed, (-2, -1), (0, 1)))

    def grad(self, node, g):
        a = node.attrs
        length = input_shape(node, 0)[a["axis"]]
        added = overlap_add(g, a["hop_length"], a["axis"])
        missing = length - added.shape[a["axis"]]  # the tail no frame reached gets no gradient
        if missing:
            ndim = added.ndim
            last = a["axis"] % ndim
            added = ops.pad(added, tuple((0, missing if i == last else 0) for i in range(ndim)))
        return (added,)

    def infer_meta(self, x: Meta, frame_length, hop_length, axis) -> Meta:
        n = x.shape[axis]
        frames = -1 if n < 0 else 1 + (n - frame_length) // hop_length
        if axis == -1:
            return Meta((*x.shape[:-1], frame_length, frames), x.dtype)
        return Meta((frames, frame_length, *x.shape[1:]), x.dtype)


@register
class OverlapAdd(OpDef):
    """Frames [..., frame_length, num_frames] (axis=-1) or [num_frames, frame_length, ...] (axis=0) added
    `hop_length` apart into one signal."""

    name = "overlap_add"
    saves_inputs = False

    def kernel(self, x, hop_length, axis):
        # col2im wants the kernel (frame_length) axis first and the windows (num_frames) axis last
        cols = np.moveaxis(x, -2, 0) if axis == -1 else np.moveaxis(x, (1, 0), (0, -1))
        frame_length, frames = cols.shape[0], cols.shape[-1]
        shape = (*cols.shape[1:-1], (frames - 1) * hop_length + frame_length)
        out = add_windows(cols, shape, (hop_length,), (1,))
        return out if axis == -1 else np.moveaxis(out, -1, 0)

    def grad(self, node, g):
        a = node.attrs
        shape = input_shape(node, 0)
        frame_length = shape[-2] if a["axis"] == -1 else shape[1]
        return (frame(g, frame_length, a["hop_length"], a["axis"]),)

    def infer_meta(self, x: Meta, hop_length, axis) -> Meta:
        if axis == -1:
            length, frames, rest = x.shape[-2], x.shape[-1], x.shape[:-2]
        else:
            frames, length, rest = x.shape[0], x.shape[1], x.shape[2:]
        n = -1 if min(length, frames) < 0 else (frames - 1) * hop_length + length
        return Meta((*rest, n) if axis == -1 else (n, *rest), x.dtype)


def frame(x: Tensor, frame_length: int, hop_length: int, axis: int = -1) -> Tensor:
    return apply(Frame, (x,), {"frame_length": int(frame_length), "hop_length": int(hop_length), "axis": int(axis)})


def overlap_add(x: Tensor, hop_length: int, axis: int = -1) -> Tensor:
    return apply(OverlapAdd, (x,), {"hop_length": int(hop_length), "axis": int(axis)})
