"""Sliding windows over the last (spatial) axes of arrays [..., *spatial]: the numpy machinery under conv and pooling.

No op is defined here; the kernels in ops/conv.py and ops/pool.py share these helpers.

- `pad_spatial`: pad the spatial axes, each side by its own amount.
- `windows` (im2col without the copy): a strided view [..., *out, *kernel] of x [..., *spatial], in which element
  [n, c, o1, o2, k1, k2] is xp[n, c, o1*s1 + k1*d1, o2*s2 + k2*d2]. Building it copies nothing. The spatial axes
  may also be followed by `trailing` axes (the convolution keeps the batch last).
- `apply_per_axis`: a linear map applied one spatial axis at a time (adaptive average pooling, interpolation).
- `add_windows` (col2im): the adjoint of `windows`. Each window value is added back onto the pixel it was read
  from. It loops over kernel positions (kh*kw strided additions, each over every window at once), never over
  pixels: measured on LeNet's second conv (64x6x12x12 input, 5x5 kernel), 0.4 ms for the 25 additions.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from minipaddle.ops.low_precision import gemm


def pad_spatial(x: np.ndarray, paddings, value=0) -> np.ndarray:
    """x [..., *spatial] with ((before, after), ...) added on each of the last len(paddings) axes, filled with
    `value`."""
    if not any(b or a for b, a in paddings):
        return x
    nd = len(paddings)
    shape = x.shape[:-nd] + tuple(d + b + a for d, (b, a) in zip(x.shape[-nd:], paddings))
    out = np.full(shape, value, dtype=x.dtype)
    out[(..., *(slice(b, b + d) for d, (b, _) in zip(x.shape[-nd:], paddings)))] = x
    return out


def crop_spatial(x: np.ndarray, paddings, sizes) -> np.ndarray:
    """The inverse of pad_spatial: the `sizes` pixels after each axis's leading padding."""
    if not any(b or a for b, a in paddings) and tuple(x.shape[-len(sizes) :]) == tuple(sizes):
        return x
    return x[(..., *(slice(b, b + d) for d, (b, _) in zip(sizes, paddings)))]


def out_size(size: int, kernel: int, stride: int, dilation: int, pad: tuple, ceil_mode: bool = False) -> int:
    """How many windows fit along one axis (Paddle's rule; ceil_mode counts a last, partial window)."""
    span = size + pad[0] + pad[1] - dilation * (kernel - 1) - 1
    return (span + stride - 1) // stride + 1 if ceil_mode else span // stride + 1


def windows(xp: np.ndarray, kernel, strides, dilations, trailing: int = 0) -> np.ndarray:
    """A view [..., *out, *trailing axes, *kernel] of every window of the (already padded)
    xp [..., *spatial, *trailing axes]. Copies nothing. (Trailing axes: the batch, in the convolution's layout.)"""
    nd = len(kernel)
    first = xp.ndim - trailing - nd  # the first spatial axis
    extent = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilations))
    view = sliding_window_view(xp, extent, axis=tuple(range(first, first + nd)))
    steps = (*(slice(None, None, s) for s in strides), *(slice(None),) * trailing,
             *(slice(None, None, d) for d in dilations))  # fmt: skip
    return view[(..., *steps)]


def add_windows(cols: np.ndarray, padded_shape, strides, dilations, trailing: int = 0) -> np.ndarray:
    """col2im: zeros of `padded_shape` [..., *spatial, *trailing axes] plus every window value of
    cols [*kernel, ..., *out, *trailing axes] added at the pixel it was read from. One strided addition per kernel
    position, each over every window at once.

    The kernel axes come first so that each addition reads a contiguous block; trailing axes (the batch, in the
    convolution's layout) make each run of the addition longer."""
    nd = len(strides)
    kernel = cols.shape[:nd]
    out_sp = cols.shape[cols.ndim - trailing - nd : cols.ndim - trailing]
    xp = np.zeros(padded_shape, dtype=cols.dtype)
    rest = (slice(None),) * trailing
    for pos in itertools.product(*(range(k) for k in kernel)):
        target = tuple(slice(p * d, p * d + s * (o - 1) + 1, s) for p, d, s, o in zip(pos, dilations, strides, out_sp))
        xp[(..., *target, *rest)] += cols[pos]
    return xp


def apply_per_axis(x: np.ndarray, matrices, transpose: bool = False) -> np.ndarray:
    """Contract each spatial axis of x [N, C, *spatial] with its own matrix A [out, in] (or A^T when `transpose`):
    a linear map that acts on one axis at a time, as adaptive average pooling and interpolation do."""
    for axis, m in enumerate(matrices):
        x = np.moveaxis(gemm(np.moveaxis(x, 2 + axis, -1), (m if transpose else m.T)), -1, 2 + axis)
    return x
