"""Fused ops: several ops' work in one, made by the static passes (minipaddle/static/passes/).

fc is what `fuse_fc` turns `matmul(x, w) -> add(b) [-> relu | sigmoid | tanh]` into: the same arithmetic, one
op instead of three, so a Program runs fewer steps and keeps fewer intermediate arrays alive. The inference
passes (minipaddle/inference/passes/) make two more, by Paddle's names:

    conv2d_fusion            conv2d -> add(per-channel bias) -> activation   (conv_elementwise_add_act_fuse_pass)
    fusion_repeated_fc_relu  fc(relu) -> fc(relu) -> ...                     (repeated_fc_relu_fuse_pass)

Each fused kernel adds the bias and applies the activation in place on the GEMM's fresh result: no new array
per step, which is where the fused op saves time on numpy.

One more op here is an inference form rather than a fusion: `max_pool_infer` is max_pool without its mask
output (the argmax positions only its gradient reads), which inference_op_replace_pass puts in where nothing
reads the mask. Paddle's inference `pool2d` computes no index either. It may end with the activation of the op
before it (act_pool_swap_pass, inference/passes/pool_act.py): a monotone activation commutes with max, and
after the pool it touches a quarter of the numbers (a 2x2 pool); relu costs nothing there at all.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import OPS, Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.low_precision import LOW_CODES, finfo, gemm, is_float
from minipaddle.ops.pool import _pool_paddings
from minipaddle.ops.windows import out_size, pad_spatial

# the raw op functions; ops/__init__.py gathers them
__all__ = ["fc", "conv2d_fusion", "fusion_repeated_fc_relu", "max_pool_infer"]

FC_ACTIVATIONS = ("relu", "sigmoid", "tanh")  # each has a grad rule that reads only its output


class _OutputOf:
    """What an activation's grad rule reads (`node.output(0)`), for fc's activation applied to fc's output."""

    def __init__(self, y) -> None:
        self.y = y

    def output(self, i: int = 0):
        return self.y


def _bias_act(out, b, activation):
    """activation(out + b), written into `out` (a fresh GEMM result) when the shapes and dtypes allow."""
    if b is not None:
        # the usual bias (the trailing dimensions, the same dtype) is added in place; anything else the general way
        # (a conv's [1, 1, 1, O] channels-last bias too: it used to take the new-array way, one more pass)
        trailing = b.ndim <= out.ndim and all(d in (1, o) for d, o in zip(b.shape[::-1], out.shape[::-1]))
        if b.dtype == out.dtype and trailing:
            np.add(out, b, out=out)
        else:
            out = out + b
    if activation == "relu":  # a zero of out's dtype: a Python 0 makes numpy cast it into a buffer per block
        return np.maximum(out, out.dtype.type(0), out=out)
    return out if activation is None else OPS[activation].kernel(out)


def _gemm(a, b, shape, result=None):
    """(a @ b) reshaped to `shape`; with `result(shape, dtype)` (the predictor's buffers, enable_memory_optim) the
    GEMM writes into the array it gives, for float32/float64 (low-precision GEMMs go through float32 anyway)."""
    dtype = np.result_type(a, b)
    if result is None or dtype.char in LOW_CODES:
        return gemm(a, b).reshape(shape)
    out_shape = a.shape[:-1] + b.shape[-1:] if a.ndim >= b.ndim else b.shape[:-2] + (a.shape[0], b.shape[-1])
    out = result(out_shape, dtype)
    np.matmul(a, b, out=out)
    return out.reshape(shape)


def fc_into(x, w, b, activation=None, result=None):
    """fc's arithmetic, its result in `result(shape, dtype)` when given (see _gemm)."""
    return _bias_act(_gemm(x, w, x.shape[:-1] + w.shape[1:], result), b, activation)


@register
class FC(OpDef):
    """y = activation(x @ w + b): x [..., in], w [in, out], b broadcastable to [..., out] or None."""

    name = "fc"
    saves_outputs = True  # the activation's gradient reads y

    def kernel(self, x, w, b, activation=None):
        return fc_into(x, w, b, activation)

    def grad(self, node, g):
        x, w, b = node.inputs
        activation = node.attrs["activation"]
        if activation is not None:  # back through the activation first, with its own grad rule
            (g,) = OPS[activation].grad(_OutputOf(node.output(0)), g)
        in_features, out_features = w.shape
        gx = ops.matmul(g, w, False, True) if node.needs_grad(0) else None
        gw = None
        if node.needs_grad(1):  # every row of x, against every row of g: flatten the leading axes
            x2 = x if x.ndim == 2 else ops.reshape(x, (-1, in_features))
            g2 = g if g.ndim == 2 else ops.reshape(g, (-1, out_features))
            gw = ops.matmul(x2, g2, True, False)
        gb = ops.unbroadcast(g, b.shape) if b is not None and node.needs_grad(2) else None
        return gx, gw, gb

    def infer_meta(self, x: Meta, w: Meta, b: Meta | None, activation=None) -> Meta:
        fits = len(w.shape) == 2 and len(x.shape) >= 1 and x.shape[-1] in (w.shape[0], -1)
        if not fits:
            raise ValueError(f"fc: x has shape {list(x.shape)} and w has shape {list(w.shape)}; w must be 2-D "
                             "[in, out] with in equal to x's last dimension")  # fmt: skip
        if activation is not None and activation not in FC_ACTIVATIONS:
            raise ValueError(f"fc: activation must be None or one of {FC_ACTIVATIONS}, got {activation!r}")
        return Meta(tuple(x.shape[:-1]) + (w.shape[1],), x.dtype)


def fc(x: Tensor, w: Tensor, b: Tensor | None = None, activation: str | None = None) -> Tensor:
    """activation(x @ w + b) in one op (b may be None; activation None, 'relu', 'sigmoid' or 'tanh')."""
    return apply(FC, (x, w, b), {"activation": activation})


# From this many numbers in x up, the few-positions im2col zeros each position's border (up to 4 numpy calls a
# position) rather than building a padded copy of x; below it the calls cost more (LeNet's predictor at batch 1:
# 1.22M instructions a step padded, 1.35M unpadded; batch 64, 50176 numbers: 0.2M fewer unpadded).
_UNPADDED_MIN = 16384


def _valid_outputs(size: int, out: int, pos: int, stride: int, dilation: int, before: int) -> tuple:
    """(lo, hi): the outputs lo..hi-1 along one axis whose input, for kernel position `pos`, lies inside x
    (input index o*stride + pos*dilation - before, in 0..size-1); the others read padding."""
    shift = pos * dilation - before
    lo = max(0, -(shift // stride) if shift < 0 else 0)
    hi = min(out, (size - 1 - shift) // stride + 1) if size - 1 - shift >= 0 else 0
    return lo, max(lo, hi)


def _batch_first_cols(x, kernel, strides, dilations, paddings, ones_row: bool = False, scratch=None):
    """cols [N, C*kh*kw (+1), oh*ow] of x [N, C, H, W] zero-padded by `paddings`, and (oh, ow), by one strided
    slice copy per kernel position, each of whole rows (for few positions: LeNet's 3x3 on one channel). The
    padding is not built: each position copies the part of x it sees and zeros the rest of its rows (no padded
    copy of x, whose np.full and copy were 0.3M of LeNet's batch-64 step). With ones_row, a last row of ones: a
    bias put as the weights' last column is then added by the GEMM itself. `scratch(shape, dtype)` gives the
    array to fill (the predictor's reused one); a new one without it."""
    (kh, kw), (sh, sw), (dh, dw) = kernel, strides, dilations
    (pt, pb), (pl, pr) = paddings
    n, c, h, wd = x.shape
    oh, ow = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1, (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    k = c * kh * kw
    shape = (n, k + ones_row, oh * ow)
    cols = np.empty(shape, x.dtype) if scratch is None else scratch(shape, x.dtype)
    if ones_row:
        cols[:, k] = 1
    by_position = cols[:, :k].reshape(n, c, kh, kw, oh, ow)
    if pt == pb == pl == pr == 0:
        # Nothing to zero: all kernel positions in one copy, from a strided view of x's windows, instead of one
        # slice copy (and its Python) per position. LeNet's predictor at batch 1 (x padded first, callgrind):
        # conv1 372K instructions -> 213K, the step 1.19M -> 1.03M.
        s_n, s_c, s_h, s_w = x.strides
        steps = (s_n, s_c, s_h * dh, s_w * dw, s_h * sh, s_w * sw)
        win = np.lib.stride_tricks.as_strided(x, (n, c, kh, kw, oh, ow), steps, writeable=False)
        np.copyto(by_position, win)
        return cols, (oh, ow)
    for i in range(kh):
        r0, r1 = _valid_outputs(h, oh, i, sh, dh, pt)
        for j in range(kw):
            c0, c1 = _valid_outputs(wd, ow, j, sw, dw, pl)
            dest = by_position[:, :, i, j]
            if (r0, r1, c0, c1) != (0, oh, 0, ow):  # this position sees padding: zero its border first
                dest[:, :, :r0] = 0
                dest[:, :, r1:] = 0
                dest[:, :, r0:r1, :c0] = 0
                dest[:, :, r0:r1, c1:] = 0
            if r0 < r1 and c0 < c1:
                top, left = r0 * sh + i * dh - pt, c0 * sw + j * dw - pl
                dest[:, :, r0:r1, c0:c1] = x[
                    :, :, top : top + sh * (r1 - r0 - 1) + 1 : sh, left : left + sw * (c1 - c0 - 1) + 1 : sw
                ]
    return cols, (oh, ow)


def _channels_last_cols(xp, kernel, strides, dilations, scratch=None):
    """cols [N*oh*ow, kh*kw*C] of the padded xp [N, C, H, W], and (oh, ow): one row per output pixel, its window
    in (row, column, channel) order. Read from xp in channels-last memory ([N, H, W, C], a copy unless xp already
    is one seen through a transpose), each window row is kw*C consecutive numbers, so the copy moves runs of kw*C
    (30 on LeNet's second conv) instead of runs of ow (10) in the channels-first order."""
    (kh, kw), (sh, sw), (dh, dw) = kernel, strides, dilations
    x_cl = np.ascontiguousarray(xp.transpose(0, 2, 3, 1))  # free when xp's memory is channels-last already
    n, h, wd, c = x_cl.shape
    oh, ow = (h - dh * (kh - 1) - 1) // sh + 1, (wd - dw * (kw - 1) - 1) // sw + 1
    s_n, s_h, s_w, s_c = x_cl.strides
    strides_of_win = (s_n, s_h * sh, s_w * sw, s_h * dh, s_w * dw, s_c)
    win = np.lib.stride_tricks.as_strided(x_cl, (n, oh, ow, kh, kw, c), strides_of_win, writeable=False)
    if scratch is None:
        return np.ascontiguousarray(win).reshape(n * oh * ow, kh * kw * c), (oh, ow)
    cols = scratch((n, oh, ow, kh, kw, c), x_cl.dtype)  # the predictor's reused array (enable_memory_optim)
    np.copyto(cols, win)
    return cols.reshape(n * oh * ow, kh * kw * c), (oh, ow)


def _channels_last(b, ndim: int):
    """b (broadcastable to an [N, C, H, W] result) as the matching [N, H, W, C]-shaped array (a view)."""
    b4 = b.reshape((1,) * (ndim - b.ndim) + b.shape)
    return b4.transpose(0, 2, 3, 1)


def conv2d_fusion_into(x, w, b, strides, paddings, dilations, groups, activation=None, result=None, scratch=None):
    """conv2d_fusion's arithmetic; with `result(shape, dtype)` and `scratch(shape, dtype)` (the predictor's reused
    buffers, enable_memory_optim) the GEMM writes into `result`'s array and the im2col columns into `scratch`'s."""
    if groups != 1:
        return _bias_act(OPS["conv2d"].kernel(x, w, strides, paddings, dilations, groups), b, activation)
    n, o = x.shape[0], w.shape[0]
    if w.shape[2] * w.shape[3] <= 9:
        # Few kernel positions: batch-first im2col, cols [N, C*kh*kw, out_pixels]; w [O, C*kh*kw] @ cols is
        # then [N, O, out_pixels], already NCHW (no transpose after, as the conv2d kernel needs).
        # A per-channel bias rides in the GEMM as one more column of w against a row of ones: no pass over
        # the result for it (LeNet's conv1 at batch 64: 6.0M instructions -> 5.5M, counted with callgrind).
        fold = b is not None and b.dtype == x.dtype == w.dtype and b.size == o and b.shape[-3:] == (o, 1, 1)
        if x.size < _UNPADDED_MIN:  # a small x: padding it costs less than the border zeroing's numpy calls
            x, paddings = pad_spatial(x, paddings), ((0, 0), (0, 0))
        cols, (oh, ow) = _batch_first_cols(x, w.shape[2:], strides, dilations, paddings, fold, scratch)
        wm = np.concatenate([w.reshape(o, -1), b.reshape(o, 1)], axis=1) if fold else w.reshape(o, -1)
        return _bias_act(_gemm(wm, cols, (n, o, oh, ow), result), None if fold else b, activation)
    # More positions: one GEMM [N*oh*ow, kh*kw*C] @ [kh*kw*C, O] over channels-last windows. Its result is
    # channels-last [N, oh, ow, O]; it is returned as the NCHW array it is, through a transpose (a view, no
    # copy), so that a next convolution reads channels-last memory for free and a pool runs on it as on any
    # NCHW array. Counted on LeNet's second conv at batch 64 (callgrind): 12.4M instructions -> 9.1M.
    xp = pad_spatial(x, paddings)
    cols, (oh, ow) = _channels_last_cols(xp, w.shape[2:], strides, dilations, scratch)
    out = _gemm(cols, w.transpose(0, 2, 3, 1).reshape(o, -1).T, (n, oh, ow, o), result)
    b_cl = None if b is None else _channels_last(b, 4)
    return _bias_act(out, b_cl, activation).transpose(0, 3, 1, 2)


@register
class Conv2DFusion(OpDef):
    """y = activation(conv2d(x, w) + b): b broadcastable to the conv's output ([1, O, 1, 1] or [O, 1, 1])."""

    name = "conv2d_fusion"
    saves_outputs = True  # the activation's gradient reads y

    def kernel(self, x, w, b, strides, paddings, dilations, groups, activation=None):
        return conv2d_fusion_into(x, w, b, strides, paddings, dilations, groups, activation)

    def grad(self, node, g):
        x, w, b = node.inputs
        a = node.attrs
        if a["activation"] is not None:
            (g,) = OPS[a["activation"]].grad(_OutputOf(node.output(0)), g)
        geometry = (a["strides"], a["paddings"], a["dilations"], a["groups"])
        gx = ops.conv2d_grad_input(g, w, tuple(x.shape[2:]), *geometry) if node.needs_grad(0) else None
        gw = ops.conv2d_grad_filter(x, g, tuple(w.shape[2:]), *geometry) if node.needs_grad(1) else None
        gb = ops.unbroadcast(g, b.shape) if b is not None and node.needs_grad(2) else None
        return gx, gw, gb

    def infer_meta(self, x: Meta, w: Meta, b: Meta | None, strides, paddings, dilations, groups, activation=None):
        if activation is not None and activation not in FC_ACTIVATIONS:
            raise ValueError(f"conv2d_fusion: activation must be None or one of {FC_ACTIVATIONS}, got {activation!r}")
        return OPS["conv2d"].infer_meta(x, w, strides, paddings, dilations, groups)


def conv2d_fusion(x: Tensor, w: Tensor, b: Tensor | None, strides, paddings, dilations, groups=1,
                  activation: str | None = None) -> Tensor:  # fmt: skip
    """activation(conv2d(x, w) + b) in one op; geometry as ops.conv2d (paddings ((top, bottom), (left, right)))."""
    attrs = {"strides": tuple(strides), "paddings": tuple(tuple(p) for p in paddings),
             "dilations": tuple(dilations), "groups": int(groups), "activation": activation}  # fmt: skip
    return apply(Conv2DFusion, (x, w, b), attrs)


@register
class RepeatedFCRelu(OpDef):
    """y = relu(... relu(relu(x @ w0 + b0) @ w1 + b1) ...): inputs x, w0, b0, w1, b1, ... (two or more layers)."""

    name = "fusion_repeated_fc_relu"

    def kernel(self, x, *weights_and_biases):
        out = x
        for w, b in zip(weights_and_biases[::2], weights_and_biases[1::2]):
            out = _bias_act(gemm(out, w), b, "relu")
        return out

    def grad(self, node, g):
        # Recompute the layers' outputs with fc (the fused op keeps only its inputs), then go back layer by layer.
        x, params = node.inputs[0], node.inputs[1:]
        hs = [x]
        for w, b in zip(params[::2], params[1::2]):
            hs.append(ops.fc(hs[-1], w, b, "relu"))
        grads = [None] * len(params)
        for k in range(len(params) // 2 - 1, -1, -1):
            w, b = params[2 * k], params[2 * k + 1]
            (g,) = OPS["relu"].grad(_OutputOf(hs[k + 1]), g)
            in_features, out_features = w.shape
            x2 = ops.reshape(hs[k], (-1, in_features))
            grads[2 * k] = ops.matmul(x2, ops.reshape(g, (-1, out_features)), True, False)
            grads[2 * k + 1] = ops.unbroadcast(g, b.shape)
            g = ops.matmul(g, w, False, True)
        return (g, *grads)

    def infer_meta(self, x: Meta, *weights_and_biases: Meta) -> Meta:
        if len(weights_and_biases) < 4 or len(weights_and_biases) % 2:
            raise ValueError("fusion_repeated_fc_relu: takes x and pairs (w, b) of two or more layers, got "
                             f"{len(weights_and_biases)} tensors after x")  # fmt: skip
        return Meta(tuple(x.shape[:-1]) + (weights_and_biases[-2].shape[1],), x.dtype)


def fusion_repeated_fc_relu(x: Tensor, weights, biases) -> Tensor:
    """relu(fc) applied once per (w, b) pair, in one op."""
    params = [t for pair in zip(weights, biases) for t in pair]
    return apply(RepeatedFCRelu, (x, *params), {})


@register
class MaxPoolInfer(OpDef):
    """out = max_pool_infer(x): max_pool's first output alone (the maximum of each window), without the mask."""

    name = "max_pool_infer"
    saves_inputs = True  # the gradient recomputes the mask from x

    def kernel(self, x, kernel_size, strides, paddings, ceil_mode=False, activation=None):
        # max_pool's scan without the bookkeeping of where the maximum was. A window's maximum is the maximum of
        # its rows' maxima, so it goes one spatial axis at a time: k strided slices and k-1 in-place fmax per axis,
        # kh + kw - 2 passes in all instead of kh*kw - 1, and the first (along H) reads whole rows. Counted on
        # LeNet's first 2x2 pool at batch 64 (callgrind): 2.7M instructions -> 1.0M; the values are the same.
        # fmax passes over NaN as max_pool's `>` scan does, and a window of padding alone keeps the dtype's
        # lowest value, as there.
        sizes = x.shape[2:]
        pads = _pool_paddings(sizes, kernel_size, strides, paddings, ceil_mode)
        lowest = finfo(x.dtype).min if is_float(x.dtype) else np.iinfo(x.dtype).min
        out_sp = [out_size(d, k, s, 1, p, ceil_mode) for d, k, s, p in zip(sizes, kernel_size, strides, paddings)]
        best = pad_spatial(x, pads, lowest)
        fresh = False  # whether `best` is an array of this call's own, to finish in place
        for axis, (k, s, o) in enumerate(zip(kernel_size, strides, out_sp), start=2):
            lead = (slice(None),) * axis
            views = [best[(*lead, slice(p, p + s * (o - 1) + 1, s))] for p in range(k)]  # p-th of every window
            if k > 1:
                # The last pass of a 4-D pool writes channels-last memory (seen as NCHW through a transpose): a
                # convolution after it reads its windows from [N, H, W, C] and so needs no transposing copy.
                # LeNet at batch 64 (callgrind): the predictor step 19.5M instructions -> 18.8M (pool1 feeds conv2).
                out = None
                if x.ndim == 4 and axis == 3:
                    n, c, oh = views[0].shape[:3]
                    out = np.empty((n, oh, o, c), views[0].dtype).transpose(0, 3, 1, 2)
                best, rest, fresh = np.fmax(views[0], views[1], out=out), views[2:], True
            else:
                best, rest = views[0], []
            for v in rest:
                np.fmax(best, v, out=best)
        # `lowest` comes in last, on the smallest array (it used to start the first pass, on twice as many numbers):
        # fmax skips NaN in any order, so a window of NaN or of padding alone still ends at `lowest`. A relu after
        # the pool is the same last pass with 0 in place of `lowest`: max(max(window), 0).
        relu_here = activation == "relu" and x.dtype.kind in "fiu"
        floor = x.dtype.type(0) if relu_here else lowest
        out = np.fmax(best, floor, out=best if fresh else None)
        return out if activation is None or relu_here else OPS[activation].kernel(out)

    def grad(self, node, g):
        (x,) = node.inputs
        a = node.attrs
        pooled, mask = ops.max_pool(x, a["kernel_size"], a["strides"], a["paddings"], a["ceil_mode"])
        if a.get("activation") is not None:  # back through the activation (recomputed: only x is kept) first
            y = apply(OPS[a["activation"]], (pooled,))
            (g,) = OPS[a["activation"]].grad(_OutputOf(y), g)
        return (ops.max_pool_grad(g, mask, tuple(x.shape[2:])),)

    def infer_meta(self, x: Meta, kernel_size, strides, paddings, ceil_mode=False, activation=None) -> Meta:
        if activation is not None and activation not in FC_ACTIVATIONS:
            raise ValueError(f"max_pool_infer: activation must be None or one of {FC_ACTIVATIONS}, got {activation!r}")
        return OPS["max_pool"].infer_meta(x, kernel_size, strides, paddings, ceil_mode)[0]


def max_pool_infer(x: Tensor, kernel_size, strides, paddings, ceil_mode=False, activation: str | None = None) -> Tensor:
    """The maxima of max_pool(x, ...) without the mask, then `activation` (None, 'relu', 'sigmoid' or 'tanh')
    if given; paddings ((before, after), ...) per spatial axis."""
    if activation is not None and activation not in FC_ACTIVATIONS:
        raise ValueError(f"max_pool_infer: activation must be None or one of {FC_ACTIVATIONS}, got {activation!r}")
    pads = tuple(tuple(p) for p in paddings)
    attrs = {"kernel_size": tuple(kernel_size), "strides": tuple(strides), "paddings": pads,
             "ceil_mode": bool(ceil_mode), "activation": activation}  # fmt: skip
    return apply(MaxPoolInfer, (x,), attrs)
