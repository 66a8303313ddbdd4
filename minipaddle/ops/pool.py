"""Pooling over the spatial axes of x [N, C, *spatial] (1, 2 or 3 of them), each with its own gradient ops.

- max_pool / adaptive_max_pool: two outputs, the maxima and `mask`, the flat index (h*W + w) in the input of
  each maximum (Paddle's return_mask; int32). Their gradient is one op, max_pool_grad, which adds each output
  gradient onto the input pixel its mask names; max_pool_grad's own gradient, max_pool_grad_grad, reads the
  gradient back at those pixels. The pair is closed under differentiation. max_pool scans each window as Paddle
  does: the first of equal maxima wins, NaN never does, and a window with nothing above the dtype's lowest value
  (all padding, all -inf) gives that value and mask -1.
- avg_pool: window sums divided by each window's size (Paddle's `exclusive` rule) or by divisor_override. Its
  gradient avg_pool_grad spreads each output gradient over its window (col2im); avg_pool_grad's gradient is
  avg_pool again.
- adaptive_avg_pool: one averaging matrix per axis (out = A_h x A_w^T); its gradient uses the transposed
  matrices (adaptive_avg_pool_grad), whose gradient is adaptive_avg_pool again.

Window geometry follows Paddle: paddings ((before, after) per axis); ceil_mode counts a last partial window,
even one that lies wholly in the padding (max gives the dtype's lowest value there, exclusive avg gives nan);
adaptive bins run from floor(i*in/out) to ceil((i+1)*in/out).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.plus_zero import write_plus_zero
from minipaddle.core.tensor import Tensor
from minipaddle.ops.low_precision import LOW_CODES, finfo, is_float
from minipaddle.ops.windows import add_windows, apply_per_axis, crop_spatial, out_size, pad_spatial

__all__ = [
    "max_pool",
    "max_pool_grad",
    "max_pool_grad_grad",
    "adaptive_max_pool",
    "avg_pool",
    "avg_pool_grad",
    "adaptive_avg_pool",
    "adaptive_avg_pool_grad",
]  # the raw op functions; ops/__init__.py gathers them


# ---- geometry ---------------------------------------------------------------------------------------------------


def _pool_paddings(sizes, kernel, strides, paddings, ceil_mode):
    """The paddings with room added after, so that ceil_mode's last partial window lies inside the array."""
    if not ceil_mode:
        return tuple(tuple(p) for p in paddings)
    out = []
    for d, k, s, (b, a) in zip(sizes, kernel, strides, paddings):
        need = (out_size(d, k, s, 1, (b, a), True) - 1) * s + k  # the extent the windows reach
        out.append((b, a + max(0, need - (d + b + a))))
    return tuple(out)


def _adaptive_bins(size, out_n):
    """Paddle's adaptive bins along one axis: bin i covers [floor(i*size/out), ceil((i+1)*size/out))."""
    i = np.arange(out_n)
    return (i * size) // out_n, -((-(i + 1) * size) // out_n)


# ---- max pooling --------------------------------------------------------------------------------------------------


def _mask_from_pick(pick, kernel, coords, sizes):
    """mask: the flat input index (h*W + w) of each chosen element, given `pick`, its position in the flattened
    window, and per axis the input coordinate of each window element (an array [out, kernel]). An element in the
    padding gets -1."""
    index = np.zeros(pick.shape, dtype=np.int64)
    inside = np.ones(pick.shape, dtype=bool)
    for axis, (k_pos, c) in enumerate(zip(np.unravel_index(pick, kernel), coords)):
        shape = [1] * pick.ndim
        shape[2 + axis] = c.shape[0]
        coord = c[np.arange(c.shape[0]).reshape(shape), k_pos]  # the chosen element's coordinate on this axis
        inside &= (coord >= 0) & (coord < sizes[axis])
        index = index * sizes[axis] + coord
    return np.where(inside, index, -1).astype(np.int32)


def _argmax_windows(win, coords, sizes):
    """Maxima and mask of windows gathered into win [N, C, *out, *kernel]."""
    nd = len(coords)
    flat = win.reshape(*win.shape[:-nd], -1)  # each window as a row
    pick = np.argmax(flat, axis=-1)  # the first maximum, as Paddle's `>` scan
    out = np.take_along_axis(flat, pick[..., None], axis=-1)[..., 0]
    return out, _mask_from_pick(pick, win.shape[-nd:], coords, sizes)


def _position_views(xp, kernel, strides, out_sp) -> list:
    """One strided view [N, C, *out] per kernel position: view q holds element q (flattened) of every window."""
    return [
        xp[(..., *(slice(p, p + s * (o - 1) + 1, s) for p, s, o in zip(pos, strides, out_sp)))]
        for pos in itertools.product(*(range(k) for k in kernel))
    ]


def _scan_positions(xp, kernel, strides, out_sp, lowest):
    """Paddle's max-pool scan over every window of xp at once: visit the kernel positions in row-major order and
    keep a value only when it is strictly greater than the best so far, starting from the dtype's lowest value. So
    the first maximum wins a tie, NaN never wins, and a window in which nothing beats `lowest` (all padding, all
    -inf) keeps it. Returns the maxima and `pick`, the winning kernel position (flattened; 0 where none won).

    One pass per kernel position over a strided view (no copy of the windows). The updates are branch-free:
    `better` is 0 or 1, and positions grow along the scan, so max(pick, better * q) is the last position that
    improved. (np.where or boolean indexing on such a data-dependent mask is 5-10x slower.)"""
    views = _position_views(xp, kernel, strides, out_sp)
    best = np.fmax(views[0], lowest)  # position 0 against the start value; fmax, like `>`, passes over NaN
    pick = np.zeros(best.shape, dtype=np.int32)
    for q, v in enumerate(views[1:], start=1):
        better = v > best
        np.fmax(best, v, out=best)  # where(better, v, best)
        np.maximum(pick, better * np.int32(q), out=pick)
    return best, pick


def _low_keys(x: np.ndarray) -> np.ndarray:
    """int16 keys of float16/bfloat16 values that order as the values do: a value's bits as int16 for a clear
    sign bit; for a set one the other 15 bits flipped, plus one, so -0 and +0 share key 0 (a tie: the first wins,
    as with `>` on the values); NaN gets int16's lowest key, below every value's, so it never wins (as `>` and fmax
    pass over NaN)."""
    v = x.view(np.int16)
    negative = v >> np.int16(15)  # -1 where the sign bit is set, else 0
    keys = v ^ (negative & np.int16(0x7FFF))
    keys -= negative
    magnitude = v & np.int16(0x7FFF)
    infinity = np.array(np.inf, x.dtype).view(np.int16)
    if magnitude.size and magnitude.max() > infinity:
        keys[magnitude > infinity] = np.iinfo(np.int16).min
    return keys


def _flat_index(coords, sizes):
    """The flat input index (h*W + w) of every point of the grid whose coordinates along axis a are coords[a]."""
    flat = np.zeros((), dtype=np.int32)
    for c, d in zip(coords, sizes):
        flat = flat[..., None] * d + c
    return flat


@register
class MaxPool(OpDef):
    """(out, mask) = max_pool(x): the maximum of each window and where it was."""

    name = "max_pool"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x, kernel_size, strides, paddings, ceil_mode=False):
        sizes = x.shape[2:]
        pads = _pool_paddings(sizes, kernel_size, strides, paddings, ceil_mode)
        lowest = finfo(x.dtype).min if is_float(x.dtype) else np.iinfo(x.dtype).min
        out_sp = [out_size(d, k, s, 1, p, ceil_mode) for d, k, s, p in zip(sizes, kernel_size, strides, paddings)]
        # float16/bfloat16 scan their int16 keys (_low_keys): the same windows' winners, in numpy's integer loops
        keyed = x.dtype.char in LOW_CODES
        work, floor = (_low_keys(x), _low_keys(np.array([lowest], x.dtype))[0]) if keyed else (x, lowest)
        best, pick = _scan_positions(pad_spatial(work, pads, floor), kernel_size, strides, out_sp, floor)
        # The mask: where each window starts in the input (o * stride - pad_before along each axis, as a flat
        # index) plus the winning kernel position's offset. A winner is never in the padding (it holds `lowest`).
        start = _flat_index([np.arange(o, dtype=np.int32) * s - b for o, s, (b, _) in zip(out_sp, strides, pads)],
                            sizes)  # fmt: skip
        offsets = _flat_index([np.arange(k, dtype=np.int32) for k in kernel_size], sizes).ravel()
        index = start + np.take(offsets, pick)
        found = best > floor
        if not found.all():
            index = np.where(found, index, np.int32(-1))
        if keyed:  # the winners' own values (a key is shared by -0 and +0), `lowest` where nothing won
            rows = x.shape[0] * x.shape[1]
            pixels = x.size // rows if rows else 0
            offsets = np.arange(rows, dtype=np.int32 if x.size < 2**31 else np.int64) * pixels
            # np.take on flat indices: a quarter of take_along_axis's instructions (which goes through mapiter)
            at = np.maximum(index, 0).reshape(rows, index.size // rows if rows else 0) + offsets[:, None]
            best = np.take(x.reshape(-1), at.reshape(-1)).reshape(best.shape)
            if not found.all():
                best = np.where(found, best, np.asarray(lowest, x.dtype))
        return best, index

    def grad(self, node, g, _):
        return (max_pool_grad(g, node.output(1), tuple(node.inputs[0].shape[2:])),)

    def infer_meta(self, x: Meta, kernel_size, strides, paddings, ceil_mode=False):
        out = tuple(
            -1 if d < 0 else out_size(d, k, s, 1, p, ceil_mode)
            for d, k, s, p in zip(x.shape[2:], kernel_size, strides, paddings)
        )
        shape = (*x.shape[:2], *out)
        return Meta(shape, x.dtype), Meta(shape, dtypes.int32)


@register
class AdaptiveMaxPool(OpDef):
    """(out, mask) = adaptive_max_pool(x): the maximum of each adaptive bin and where it was."""

    name = "adaptive_max_pool"
    amp = "white"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x, output_size):
        sizes = x.shape[2:]
        coords, index = [], [slice(None), slice(None)]
        for axis, (d, n) in enumerate(zip(sizes, output_size)):
            start, end = _adaptive_bins(d, n)
            width = int(np.max(end - start))
            # Every bin as `width` coordinates; a short bin repeats its last one (harmless for a maximum).
            c = np.minimum(start[:, None] + np.arange(width)[None, :], end[:, None] - 1)
            coords.append(c)
            shape = [1] * (2 * len(sizes))
            shape[axis], shape[len(sizes) + axis] = n, width
            index.append(c.reshape(shape))
        win = x[tuple(index)]  # [N, C, *out, *width] by fancy indexing
        return _argmax_windows(win, coords, sizes)

    def grad(self, node, g, _):
        return (max_pool_grad(g, node.output(1), tuple(node.inputs[0].shape[2:])),)

    def infer_meta(self, x: Meta, output_size):
        shape = (*x.shape[:2], *output_size)
        return Meta(shape, x.dtype), Meta(shape, dtypes.int32)


def _distinct(target: np.ndarray, size: int) -> bool:
    """Whether no index in `target` (flat, into an array of `size`) appears twice."""
    hit = np.zeros(size, np.bool_)
    hit[target] = True
    return np.count_nonzero(hit) == target.size


@register
class MaxPoolGrad(OpDef):
    """dx = max_pool_grad(g, mask): each output gradient added onto the input pixel its mask names."""

    name = "max_pool_grad"
    saves_inputs = True

    def kernel(self, g, mask, input_size):
        rows, pixels = g.shape[0] * g.shape[1], math.prod(input_size)
        m = mask.reshape(rows, -1)
        target = (m + (np.arange(rows, dtype=np.int64) * pixels)[:, None]).ravel()  # the pixel's index in dx
        values = g.reshape(-1)
        named = m.ravel() >= 0
        if not named.all():  # -1: the window held nothing but padding (or -inf, NaN); its gradient goes nowhere
            target, values = target[named], values[named]
        dx = np.zeros(rows * pixels, dtype=g.dtype)
        if g.dtype.char in LOW_CODES and _distinct(target, dx.size):
            # float16/bfloat16 with every pixel named at most once (windows that do not overlap: LeNet's 2x2/2):
            # each pixel is 0 + its one value, written on the 16-bit codes. numpy's add.at has no indexed loop for
            # ml_dtypes' bfloat16 (one generic call a value, ~150 instructions) and float16's converts each value.
            picked = np.empty_like(values)
            write_plus_zero(values, picked)  # the bits of 0 + v: -0 becomes +0, a NaN comes out quiet
            dx.view(np.uint16)[target] = picked.view(np.uint16)
            return dx.reshape(*g.shape[:2], *input_size)
        # Adds, as overlapping windows can pick one pixel twice. numpy >= 1.25 runs add.at on flat (1-d) indices
        # as fast as an assignment, and in g's dtype (np.bincount, the old idiom, adds in float64: 2x slower here;
        # add.at with 2-d indices: 10x slower).
        np.add.at(dx, target, values)
        return dx.reshape(*g.shape[:2], *input_size)

    def grad(self, node, gg):
        return (max_pool_grad_grad(gg, node.inputs[1]), None)

    def infer_meta(self, g: Meta, mask: Meta, input_size):
        return Meta((*g.shape[:2], *input_size), g.dtype)


@register
class MaxPoolGradGrad(OpDef):
    """y = max_pool_grad_grad(gg, mask): gg read at the pixels the mask names (0 where the mask is -1)."""

    name = "max_pool_grad_grad"

    def kernel(self, gg, mask):
        rows = gg.shape[0] * gg.shape[1]
        flat = gg.reshape(rows, -1)
        m = mask.reshape(rows, -1).astype(np.int64)
        picked = np.take_along_axis(flat, np.maximum(m, 0), axis=-1)
        return np.where(m >= 0, picked, 0).reshape(mask.shape).astype(gg.dtype, copy=False)

    def grad(self, node, g):
        return (max_pool_grad(g, node.inputs[1], tuple(node.inputs[0].shape[2:])), None)

    def infer_meta(self, gg: Meta, mask: Meta):
        return Meta(mask.shape, gg.dtype)


def max_pool(x: Tensor, kernel_size, strides, paddings, ceil_mode=False) -> tuple:
    """(out, mask). paddings: ((before, after), ...) per spatial axis."""
    attrs = {
        "kernel_size": tuple(kernel_size),
        "strides": tuple(strides),
        "paddings": tuple(tuple(p) for p in paddings),
        "ceil_mode": bool(ceil_mode),
    }
    return apply(MaxPool, (x,), attrs)


def adaptive_max_pool(x: Tensor, output_size) -> tuple:
    return apply(AdaptiveMaxPool, (x,), {"output_size": tuple(output_size)})


def max_pool_grad(g: Tensor, mask: Tensor, input_size) -> Tensor:
    return apply(MaxPoolGrad, (g, mask), {"input_size": tuple(input_size)})


def max_pool_grad_grad(gg: Tensor, mask: Tensor) -> Tensor:
    return apply(MaxPoolGradGrad, (gg, mask))


# ---- average pooling ----------------------------------------------------------------------------------------------


def _avg_divisor(sizes, out_sp, kernel, strides, paddings, exclusive, divisor_override, dtype):
    """The divisor of each output pixel, [*out] (a product of one factor per axis)."""
    if divisor_override:
        return np.asarray(divisor_override, dtype=dtype)
    div = np.ones((), dtype=dtype)
    for axis, (d, n, k, s, (b, _)) in enumerate(zip(sizes, out_sp, kernel, strides, paddings)):
        start = np.arange(n) * s - b
        if exclusive:  # count only the pixels inside the input
            count = np.minimum(start + k, d) - np.maximum(start, 0)
        else:  # count the padding too, but stop at size + padding-before (Paddle's rule, also for uneven padding)
            count = np.minimum(start + k, d + b) - start
        shape = [1] * len(out_sp)
        shape[axis] = n
        div = div * count.astype(dtype).reshape(shape)
    return div


@register
class AvgPool(OpDef):
    """y = avg_pool(x): the mean of each window."""

    name = "avg_pool"
    saves_inputs = False

    def kernel(self, x, kernel_size, strides, paddings, ceil_mode=False, exclusive=True, divisor_override=None):
        sizes = x.shape[2:]
        pads = _pool_paddings(sizes, kernel_size, strides, paddings, ceil_mode)
        out_sp = [out_size(d, k, s, 1, p, ceil_mode) for d, k, s, p in zip(sizes, kernel_size, strides, paddings)]
        views = _position_views(pad_spatial(x, pads), kernel_size, strides, out_sp)
        total = views[0].copy()
        for v in views[1:]:  # the window sums, one pass per kernel position
            total += v
        div = _avg_divisor(sizes, out_sp, kernel_size, strides, paddings, exclusive, divisor_override, x.dtype)
        with np.errstate(invalid="ignore", divide="ignore"):  # a window wholly in the padding: 0/0, as Paddle
            return total / div

    def grad(self, node, g):
        return (avg_pool_grad(g, tuple(node.inputs[0].shape[2:]), **node.attrs),)

    def infer_meta(self, x: Meta, kernel_size, strides, paddings, ceil_mode=False, **attrs):
        out = tuple(
            -1 if d < 0 else out_size(d, k, s, 1, p, ceil_mode)
            for d, k, s, p in zip(x.shape[2:], kernel_size, strides, paddings)
        )
        return Meta((*x.shape[:2], *out), x.dtype)


@register
class AvgPoolGrad(OpDef):
    """dx = avg_pool_grad(g): each output gradient, divided by its window's divisor, spread over the window."""

    name = "avg_pool_grad"
    saves_inputs = False

    def kernel(self, g, input_size, kernel_size, strides, paddings, ceil_mode=False, exclusive=True,
               divisor_override=None):  # fmt: skip
        nd = len(kernel_size)
        pads = _pool_paddings(input_size, kernel_size, strides, paddings, ceil_mode)
        div = _avg_divisor(input_size, g.shape[2:], kernel_size, strides, paddings, exclusive, divisor_override,
                           g.dtype)  # fmt: skip
        share = np.where(div != 0, g / np.where(div != 0, div, 1), 0).astype(g.dtype, copy=False)  # 0/0 windows: 0
        cols = np.broadcast_to(share, tuple(kernel_size) + share.shape)  # every kernel position gets the share
        padded = tuple(d + b + a for d, (b, a) in zip(input_size, pads))
        dx = add_windows(cols, (*g.shape[:2], *padded), strides, (1,) * nd)
        return crop_spatial(dx, pads, input_size)

    def grad(self, node, gg):
        attrs = {k: v for k, v in node.attrs.items() if k != "input_size"}
        return (apply(AvgPool, (gg,), attrs),)

    def infer_meta(self, g: Meta, input_size, **attrs):
        return Meta((*g.shape[:2], *input_size), g.dtype)


def avg_pool(x: Tensor, kernel_size, strides, paddings, ceil_mode=False, exclusive=True, divisor_override=None):
    attrs = {
        "kernel_size": tuple(kernel_size),
        "strides": tuple(strides),
        "paddings": tuple(tuple(p) for p in paddings),
        "ceil_mode": bool(ceil_mode),
        "exclusive": bool(exclusive),
        "divisor_override": divisor_override,
    }
    return apply(AvgPool, (x,), attrs)


def avg_pool_grad(g: Tensor, input_size, **attrs) -> Tensor:
    return apply(AvgPoolGrad, (g,), {"input_size": tuple(input_size), **attrs})


# ---- adaptive average pooling: one averaging matrix per axis ------------------------------------------------------


def _averaging_matrix(size, out_n, dtype):
    """A [out, size]: row i averages bin i."""
    start, end = _adaptive_bins(size, out_n)
    cols = np.arange(size)[None, :]
    inside = (cols >= start[:, None]) & (cols < end[:, None])
    return (inside / (end - start)[:, None]).astype(dtype)


@register
class AdaptiveAvgPool(OpDef):
    name = "adaptive_avg_pool"
    saves_inputs = False

    def kernel(self, x, output_size):
        mats = [_averaging_matrix(d, n, x.dtype) for d, n in zip(x.shape[2:], output_size)]
        return apply_per_axis(x, mats)

    def grad(self, node, g):
        return (adaptive_avg_pool_grad(g, tuple(node.inputs[0].shape[2:])),)

    def infer_meta(self, x: Meta, output_size):
        return Meta((*x.shape[:2], *output_size), x.dtype)


@register
class AdaptiveAvgPoolGrad(OpDef):
    name = "adaptive_avg_pool_grad"
    saves_inputs = False

    def kernel(self, g, input_size):
        mats = [_averaging_matrix(d, n, g.dtype) for d, n in zip(input_size, g.shape[2:])]
        return apply_per_axis(g, mats, transpose=True)

    def grad(self, node, gg):
        return (adaptive_avg_pool(gg, tuple(node.inputs[0].shape[2:])),)

    def infer_meta(self, g: Meta, input_size):
        return Meta((*g.shape[:2], *input_size), g.dtype)


def adaptive_avg_pool(x: Tensor, output_size) -> Tensor:
    return apply(AdaptiveAvgPool, (x,), {"output_size": tuple(output_size)})


def adaptive_avg_pool_grad(g: Tensor, input_size) -> Tensor:
    return apply(AdaptiveAvgPoolGrad, (g,), {"input_size": tuple(input_size)})
