"""conv2d_fusion's arithmetic (ops/fused.py's op): im2col columns and one GEMM, a chunk of the batch at a time.

    for each chunk of images:   cols <- the chunk's windows       (one reused array, at most _CHUNK_BYTES)
                                out[chunk] <- GEMM(weights, cols)  (straight into the result)
    then                        bias and activation on out, in place

Why chunks: built for the whole batch at once, the columns are far larger than the machine's L2 (LeNet at batch
64: conv1's 2.0 MB, conv2's 3.84 MB, against 1 MB), so they are written out to memory and read back when OpenBLAS
packs them. A chunk's columns are still in L2 when the GEMM reads them. Counted with callgrind's cache simulator
(last level sized as the L2) on LeNet's predictor step at batch 64: see _CHUNK_BYTES. Each image's numbers are
computed by the same BLAS calls as before, so the results are bit for bit those of the whole-batch GEMM.

With the predictor's buffers (inference/buffers.py, enable_memory_optim) three allocators come in: `result(shape,
dtype)` and `scratch(shape, dtype)` give reused arrays for the result and the columns, and `layout(make)` gives
the weights' GEMM form made once (`make()`) and kept while the weights stay the same arrays.
"""

from __future__ import annotations

import functools

import numpy as np

from minipaddle.core.op import OPS
from minipaddle.ops.low_precision import LOW_CODES, gemm
from minipaddle.ops.windows import out_size, pad_spatial

__all__ = ["allocate", "bias_act", "conv2d_fusion_into"]

# The columns of one chunk at most (at least one image). LeNet's predictor step at batch 64, callgrind with its
# cache simulator (LL = this machine's L2, 1 MB; benchmarks/predictor_counts.py): the whole batch at once 289K L2
# misses and 17.33M instructions; chunks of 128 KB 99K / 21.59M, 256 KB 107K / 18.11M, 512 KB 123K / 17.74M (each
# chunk's numpy calls are the instructions' price).
_CHUNK_BYTES = 512 * 1024


def bias_act(out, b, activation):
    """activation(out + b), written into `out` (a fresh GEMM result) when the shapes and dtypes allow."""
    if b is not None:
        # the usual bias (the trailing dimensions, the same dtype) is added in place; anything else the general way
        # (a conv's [1, 1, 1, O] channels-last bias too: it used to take the new-array way, one more pass)
        if b.dtype == out.dtype and _trails(b.shape, out.shape):
            np.add(out, b, out=out)
        else:
            out = out + b
    if activation == "relu":  # a zero of out's dtype: a Python 0 makes numpy cast it into a buffer per block
        return np.maximum(out, out.dtype.type(0), out=out)
    return out if activation is None else OPS[activation].kernel(out)


def _trails(b_shape: tuple, out_shape: tuple) -> bool:
    """Whether b broadcasts to out without growing it: each of its dimensions, from the right, 1 or out's (a loop,
    not all() over a generator: a call less per fused op, which a served batch of 1 pays on every op)."""
    if len(b_shape) > len(out_shape):
        return False
    for d, o in zip(reversed(b_shape), reversed(out_shape)):
        if d != 1 and d != o:
            return False
    return True


def allocate(alloc, shape, dtype):
    """alloc(shape, dtype) (a predictor's reused array), or a new array without one."""
    return np.empty(shape, dtype) if alloc is None else alloc(shape, dtype)


def _matmul_into(a, b, out) -> None:
    """out[...] = a @ b; low-precision operands through float32, as ops.low_precision.gemm."""
    if (a.dtype if a.dtype == b.dtype else np.result_type(a, b)).char in LOW_CODES:
        out[...] = gemm(a, b)
    else:
        np.matmul(a, b, out=out)


def _images_per_chunk(n: int, bytes_per_image: int) -> int:
    return max(1, min(n, _CHUNK_BYTES // max(1, bytes_per_image)))


def _windows(xp, kernel, strides, dilations, out_hw):
    """xp [N, C, H, W]'s kernel windows as a strided view [N, C, kh, kw, oh, ow] (no copy)."""
    (kh, kw), (sh, sw), (dh, dw) = kernel, strides, dilations
    s_n, s_c, s_h, s_w = xp.strides
    steps = (s_n, s_c, s_h * dh, s_w * dw, s_h * sh, s_w * sw)
    return np.lib.stride_tricks.as_strided(xp, (xp.shape[0], xp.shape[1], kh, kw, *out_hw), steps, writeable=False)


def _valid_outputs(size: int, out: int, pos: int, stride: int, dilation: int, before: int) -> tuple:
    """(lo, hi): the outputs lo..hi-1 along one axis whose input, for kernel position `pos`, lies inside x
    (input index o*stride + pos*dilation - before, in 0..size-1); the others read padding."""
    shift = pos * dilation - before
    lo = max(0, -(shift // stride) if shift < 0 else 0)
    hi = min(out, (size - 1 - shift) // stride + 1) if size - 1 - shift >= 0 else 0
    return lo, max(lo, hi)


@functools.lru_cache(maxsize=256)
def _position_copies(hw, kernel, strides, dilations, paddings, out_hw) -> tuple:
    """For im2col straight from an unpadded x: (borders, copies). borders: the index tuples (into the columns seen
    as [m, C, kh, kw, oh, ow]) of the outputs whose input is padding, zeroed once; copies: per kernel position
    (the columns' index, x's index) of the part of x it sees."""
    (h, wd), (kh, kw), (sh, sw), (dh, dw) = hw, kernel, strides, dilations
    (pt, _), (pl, _) = paddings
    oh, ow = out_hw
    every = (slice(None), slice(None))
    borders, copies = [], []
    for i in range(kh):
        r0, r1 = _valid_outputs(h, oh, i, sh, dh, pt)
        for j in range(kw):
            c0, c1 = _valid_outputs(wd, ow, j, sw, dw, pl)
            if (r0, r1, c0, c1) != (0, oh, 0, ow):
                rows, inner = slice(r0, r1), (*every, i, j)
                borders += [(*inner, slice(0, r0)), (*inner, slice(r1, oh)), (*inner, rows, slice(0, c0)),
                            (*inner, rows, slice(c1, ow))]  # fmt: skip
            if r0 < r1 and c0 < c1:
                top, left = r0 * sh + i * dh - pt, c0 * sw + j * dw - pl
                src = (
                    *every,
                    slice(top, top + sh * (r1 - r0 - 1) + 1, sh),
                    slice(left, left + sw * (c1 - c0 - 1) + 1, sw),
                )
                copies.append(((*every, i, j, slice(r0, r1), slice(c0, c1)), src))
    return borders, copies


# From this many numbers in x up, a padded x's columns are copied straight from x, one slice per kernel position
# with the border zeroed once a call, rather than through a padded copy of each chunk (one more copy of x, row
# by row: at batch 64, 1792 rows, 0.45M instructions of LeNet's step); below it the per-position slices' Python
# costs more (LeNet's predictor at batch 1, counted when this was first measured: 1.35M instructions a step per
# position, 1.22M padded).
_UNPADDED_MIN = 16384


def _few_positions(x, w, b, strides, paddings, dilations, activation, result, scratch, layout):
    """Batch-first im2col, cols [m, C*kh*kw, out_pixels]; w [O, C*kh*kw] @ cols is then [m, O, out_pixels],
    already NCHW (no transpose after, as the conv2d kernel needs). Without padding all kernel positions are copied
    at once, from a strided view of x's windows. With padding, a large x is copied one slice per kernel position,
    the columns that read padding zeroed once a call (the chunks rewrite only the rest); a small one is padded
    a chunk at a time into an array of its own (border zeroed once) and copied through its windows. A per-channel
    bias rides in the GEMM as one more column of w against a row of ones, also written once a call: no pass over
    the result for it (LeNet's conv1 at batch 64: 6.0M instructions -> 5.5M, counted with callgrind). numpy's
    matmul of a stack calls the BLAS once per image, so the chunks change no bit of the result."""
    n, c = x.shape[:2]
    o, kernel = w.shape[0], w.shape[2:]
    fold = b is not None and b.dtype == x.dtype == w.dtype and b.size == o and b.shape[-3:] == (o, 1, 1)

    def weights():
        return np.concatenate([w.reshape(o, -1), b.reshape(o, 1)], axis=1) if fold else w.reshape(o, -1)

    wm = weights() if layout is None else layout(weights)
    (pt, pb), (pl, pr) = paddings
    padded = (x.shape[2] + pt + pb, x.shape[3] + pl + pr)
    oh = out_size(x.shape[2], kernel[0], strides[0], dilations[0], paddings[0])
    ow = out_size(x.shape[3], kernel[1], strides[1], dilations[1], paddings[1])
    k = c * kernel[0] * kernel[1]
    chunk = _images_per_chunk(n, (k + fold) * oh * ow * x.dtype.itemsize)
    cols = allocate(scratch, (chunk, k + fold, oh * ow), x.dtype)
    by_position = cols[:, :k].reshape(chunk, c, *kernel, oh, ow)
    if fold:
        cols[:, k] = 1
    copies = None
    if pt == pb == pl == pr == 0:
        xp, inside = x, None
    elif x.size >= _UNPADDED_MIN:
        geometry = tuple(kernel), tuple(strides), tuple(dilations), tuple(tuple(p) for p in paddings)
        borders, copies = _position_copies(x.shape[2:], *geometry, (oh, ow))
        for index in borders:
            by_position[index] = 0
    else:
        xp = allocate(scratch, (chunk, c, *padded), x.dtype)
        xp.fill(0)
        inside = xp[:, :, pt : pt + x.shape[2], pl : pl + x.shape[3]]
    windows = None if copies is not None else _windows(xp, kernel, strides, dilations, (oh, ow))
    out = allocate(result, (n, o, oh * ow), np.result_type(wm, x))
    for s in range(0, n, chunk):
        m = min(chunk, n - s)
        if copies is not None:
            dest, source = by_position[:m], x[s : s + m]
            for into, part in copies:
                dest[into] = source[part]
        elif inside is None:
            np.copyto(by_position[:m], windows[s : s + m])
        else:
            np.copyto(inside[:m], x[s : s + m])
            np.copyto(by_position[:m], windows[:m])
        _matmul_into(wm, cols[:m], out[s : s + m])
    return bias_act(out.reshape(n, o, oh, ow), None if fold else b, activation)


def _many_positions(x, w, b, strides, paddings, dilations, activation, result, scratch, layout):
    """One GEMM [m*oh*ow, kh*kw*C] @ [kh*kw*C, O] a chunk over channels-last windows. Read from x in channels-last
    memory ([N, H, W, C], a copy unless x already is one seen through a transpose), each window row is kw*C
    consecutive numbers, so the copy moves runs of kw*C (30 on LeNet's second conv) instead of runs of ow (10) in
    the channels-first order. The result is channels-last [N, oh, ow, O]; it is returned as the NCHW array it is,
    through a transpose (a view, no copy), so that a next convolution reads channels-last memory for free and a
    pool runs on it as on any NCHW array. Counted on LeNet's second conv at batch 64 (callgrind): 12.4M
    instructions -> 9.1M."""
    (kh, kw), (sh, sw), (dh, dw) = w.shape[2:], strides, dilations
    o = w.shape[0]
    xp = x if paddings == ((0, 0), (0, 0)) else pad_spatial(x, paddings)
    x_cl = np.ascontiguousarray(xp.transpose(0, 2, 3, 1))  # free when x is channels-last already
    n, h, wd, c = x_cl.shape
    oh, ow = out_size(h, kh, sh, dh, (0, 0)), out_size(wd, kw, sw, dw, (0, 0))  # (of the padded xp)
    s_n, s_h, s_w, s_c = x_cl.strides
    strides_of_win = (s_n, s_h * sh, s_w * sw, s_h * dh, s_w * dw, s_c)
    win = np.lib.stride_tricks.as_strided(x_cl, (n, oh, ow, kh, kw, c), strides_of_win, writeable=False)

    def weights():
        return w.transpose(0, 2, 3, 1).reshape(o, -1).T

    wt = weights() if layout is None else layout(weights)
    k, pixels = kh * kw * c, oh * ow
    chunk = _images_per_chunk(n, pixels * k * x_cl.dtype.itemsize)
    cols = allocate(scratch, (chunk, oh, ow, kh, kw, c), x_cl.dtype)
    out = allocate(result, (n * pixels, o), np.result_type(x_cl, wt))
    for s in range(0, n, chunk):
        m = min(chunk, n - s)
        np.copyto(cols[:m], win[s : s + m])
        _matmul_into(cols[:m].reshape(m * pixels, k), wt, out[s * pixels : (s + m) * pixels])
    b_cl = None if b is None else b.reshape((1,) * (4 - b.ndim) + b.shape).transpose(0, 2, 3, 1)
    return bias_act(out.reshape(n, oh, ow, o), b_cl, activation).transpose(0, 3, 1, 2)


def conv2d_fusion_into(x, w, b, strides, paddings, dilations, groups, activation=None, result=None, scratch=None,
                       layout=None):  # fmt: skip
    """activation(conv2d(x, w) + b), x [N, C, H, W], w [O, C, kh, kw], paddings ((top, bottom), (left, right));
    `result`, `scratch` and `layout` the predictor's allocators (module docstring), each optional."""
    if groups != 1:
        return bias_act(OPS["conv2d"].kernel(x, w, strides, paddings, dilations, groups), b, activation)
    few = w.shape[2] * w.shape[3] <= 9
    return (_few_positions if few else _many_positions)(x, w, b, strides, paddings, dilations, activation, result,
                                                        scratch, layout)  # fmt: skip
