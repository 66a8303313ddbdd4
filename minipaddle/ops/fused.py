"""Fused ops: several ops' work in one, made by the static passes (minipaddle/static/passes/).

fc is what `fuse_fc` turns `matmul(x, w) -> add(b) [-> relu | sigmoid | tanh]` into: the same arithmetic, one
op instead of three, so a Program runs fewer steps and keeps fewer intermediate arrays alive. The inference
passes (minipaddle/inference/passes/) make two more, by Paddle's names:

    conv2d_fusion            conv2d -> add(per-channel bias) -> activation   (conv_elementwise_add_act_fuse_pass)
    fusion_repeated_fc_relu  fc(relu) -> fc(relu) -> ...                     (repeated_fc_relu_fuse_pass)

Each fused kernel adds the bias and applies the activation in place on the GEMM's fresh result: no new array
per step, which is where the fused op saves time on numpy. conv2d_fusion's arithmetic (im2col and GEMM a chunk
of the batch at a time) is in ops/fused_conv.py.

One more op here is an inference form rather than a fusion: `max_pool_infer` is max_pool without its mask
output (the argmax positions only its gradient reads), which inference_op_replace_pass puts in where nothing
reads the mask. Paddle's inference `pool2d` computes no index either. It may end with the activation of the op
before it (act_pool_swap_pass, inference/passes/pool_act.py): a monotone activation commutes with max, and
after the pool it touches a quarter of the numbers (a 2x2 pool); relu costs nothing there at all.
"""

from __future__ import annotations

import functools

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import OPS, Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.fused_conv import allocate, bias_act, conv2d_fusion_into
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


def _gemm(a, b, shape, result=None):
    """(a @ b) reshaped to `shape`; with `result(shape, dtype)` (the predictor's buffers, enable_memory_optim) the
    GEMM writes into the array it gives, for float32/float64 (low-precision GEMMs go through float32 anyway)."""
    dtype = a.dtype if a.dtype == b.dtype else np.result_type(a, b)
    if result is None or dtype.char in LOW_CODES:
        return gemm(a, b).reshape(shape)
    out_shape = a.shape[:-1] + b.shape[-1:] if a.ndim >= b.ndim else b.shape[:-2] + (a.shape[0], b.shape[-1])
    out = result(out_shape, dtype)
    np.matmul(a, b, out=out)
    return out.reshape(shape)


def fc_into(x, w, b, activation=None, result=None):
    """fc's arithmetic, its result in `result(shape, dtype)` when given (see _gemm)."""
    return bias_act(_gemm(x, w, x.shape[:-1] + w.shape[1:], result), b, activation)


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
            out = bias_act(gemm(out, w), b, "relu")
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


def _like(scratch, a):
    """scratch's array for a 4-D result shaped as `a`, in `a`'s memory order (as numpy's own out would be): a pool
    after conv2 reads channels-last memory, and writing it in NCHW order would make the pass a transpose."""
    n, c, h, w = a.shape
    if a.strides[1] < a.strides[3]:  # channels-last
        return scratch((n, h, w, c), a.dtype).transpose(0, 3, 1, 2)
    return scratch(a.shape, a.dtype)


@functools.lru_cache(maxsize=256)
def _pool_plan(shape, dtype, kernel_size, strides, paddings, ceil_mode):
    """What max_pool_infer works out from the shapes alone, once per shape (a served batch of 1 pays Python for
    each of these calls on every run): the paddings, the fill value, and per axis the k index tuples of the
    strided views (the p-th element of every window)."""
    sizes = shape[2:]
    pads = _pool_paddings(sizes, kernel_size, strides, paddings, ceil_mode)
    lowest = finfo(dtype).min if is_float(dtype) else np.iinfo(dtype).min
    out_sp = [out_size(d, k, s, 1, p, ceil_mode) for d, k, s, p in zip(sizes, kernel_size, strides, paddings)]
    axes = []
    for axis, (k, s, o) in enumerate(zip(kernel_size, strides, out_sp), start=2):
        lead = (slice(None),) * axis
        axes.append((axis, k, o, [(*lead, slice(p, p + s * (o - 1) + 1, s)) for p in range(k)]))
    padded = any(b or a for b, a in pads)
    return pads if padded else None, dtype.type(lowest), axes


def max_pool_infer_into(x, kernel_size, strides, paddings, ceil_mode=False, activation=None, result=None, scratch=None):
    """max_pool_infer's arithmetic; with `result(shape, dtype)` and `scratch(shape, dtype)` (the predictor's reused
    buffers, enable_memory_optim) a 4-D pool writes its result and its first pass into the arrays they give."""
    # max_pool's scan without the bookkeeping of where the maximum was. A window's maximum is the maximum of
    # its rows' maxima, so it goes one spatial axis at a time: k strided slices and k-1 in-place fmax per axis,
    # kh + kw - 2 passes in all instead of kh*kw - 1, and the first (along H) reads whole rows. Counted on
    # LeNet's first 2x2 pool at batch 64 (callgrind): 2.7M instructions -> 1.0M; the values are the same.
    # fmax passes over NaN as max_pool's `>` scan does, and a window of padding alone keeps the dtype's
    # lowest value, as there.
    try:  # a Program's attributes are tuples already
        pads, lowest, axes = _pool_plan(x.shape, x.dtype, kernel_size, strides, paddings, bool(ceil_mode))
    except TypeError:  # lists (unhashable)
        hashable = tuple(kernel_size), tuple(strides), tuple(tuple(p) for p in paddings)
        pads, lowest, axes = _pool_plan(x.shape, x.dtype, *hashable, bool(ceil_mode))
    best = x if pads is None else pad_spatial(x, pads, lowest)
    fresh = False  # whether `best` is an array of this call's own, to finish in place
    for axis, k, o, index in axes:
        views = [best[i] for i in index]  # the p-th element of every window, for each p
        if k > 1:
            # The last pass of a 4-D pool writes channels-last memory (seen as NCHW through a transpose): a
            # convolution after it reads its windows from [N, H, W, C] and so needs no transposing copy.
            # LeNet at batch 64 (callgrind): the predictor step 19.5M instructions -> 18.8M (pool1 feeds conv2).
            # With the predictor's allocators the last pass writes into `result`'s array, and a first pass (along
            # H) that another one follows into `scratch`'s: no allocation at all.
            out = None
            if x.ndim == 4 and axis == 3:
                n, c, oh = views[0].shape[:3]
                out = allocate(result, (n, oh, o, c), views[0].dtype).transpose(0, 3, 1, 2)
            elif x.ndim == 4 and scratch is not None and kernel_size[1] > 1:
                out = _like(scratch, views[0])
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


@register
class MaxPoolInfer(OpDef):
    """out = max_pool_infer(x): max_pool's first output alone (the maximum of each window), without the mask."""

    name = "max_pool_infer"
    saves_inputs = True  # the gradient recomputes the mask from x

    def kernel(self, x, kernel_size, strides, paddings, ceil_mode=False, activation=None):
        return max_pool_infer_into(x, kernel_size, strides, paddings, ceil_mode, activation)

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
