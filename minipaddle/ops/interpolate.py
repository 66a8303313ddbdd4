"""interpolate: resize the spatial axes of x [N, C, *spatial] (nearest, linear, bicubic), one axis at a time.

Resizing along one axis is a linear map: each output position is a weighted sum of a few input positions (1 for
nearest, 2 for linear, 4 for bicubic). `_taps` computes those positions and weights as Paddle's CPU kernels do
(down to their float32 steps, so that rounding to an index agrees), `_resize_matrix` writes them into a matrix
A [out, in], and the op applies one matrix per axis (bilinear = linear along H, then along W). The gradient,
interpolate_grad, applies the transposed matrices; its own gradient is interpolate again.

Dense matrices cost in*out per row instead of 2 or 4 taps, which is fine for the images of a course; the
formulas in `_taps` are the part to read.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.windows import apply_per_axis

__all__ = ["interpolate", "interpolate_grad"]  # the raw op functions; ops/__init__.py gathers them

F32 = np.float32


def _ratio(n_in: int, n_out: int, align_corners: bool, scale) -> F32:
    """How far apart, in input pixels, two neighbouring output pixels are (Paddle computes it in float32)."""
    if n_out <= 1:
        return F32(0)
    if align_corners:
        return F32(n_in - 1) / F32(n_out - 1)
    return F32(1.0 / scale) if scale else F32(n_in) / F32(n_out)


def _cubic_weights(t):
    """Paddle's (and OpenCV's) cubic convolution weights, A = -0.75, for the 4 neighbours at offsets -1..2."""
    a = -0.75
    near = lambda s: ((a + 2) * s - (a + 3)) * s * s + 1  # |s| <= 1
    far = lambda s: ((a * s - 5 * a) * s + 8 * a) * s - 4 * a  # 1 < |s| < 2
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _taps(n_in, n_out, mode, align_corners, align_mode, scale):
    """[(index, weight), ...]: output position k = sum of weight[k] * input[index[k]], along one axis.

    The float32 / float64 mix copies Paddle's kernels: the ratio is a float32; nearest multiplies in float32;
    linear computes its source coordinate in float64 and keeps it, and its weights, as float32; bicubic keeps
    float64 (or float32 with align_corners, where the product is float32)."""
    ratio = _ratio(n_in, n_out, align_corners, scale)
    k = np.arange(n_out)
    half_pixel = ratio.astype(np.float64) * (k + 0.5) - 0.5  # Paddle: ratio * (k + 0.5) - 0.5 in double
    if mode == "nearest":
        src = ratio * k.astype(F32) + F32(0.5) if align_corners else ratio * k.astype(F32)
        return [(np.minimum(src.astype(np.int64), n_in - 1), np.ones(n_out))]
    if mode == "linear":
        if align_mode == 0 and not align_corners:  # half-pixel centres, clamped at 0
            lo = np.maximum(np.trunc(half_pixel), 0).astype(np.int64)  # C's (int) cast of the double
            src = np.maximum(half_pixel, 0).astype(F32)
        else:
            src = ratio * k.astype(F32)
            lo = src.astype(np.int64)
        frac = src - lo.astype(F32)
        return [(lo, 1 - frac), (np.minimum(lo + 1, n_in - 1), frac)]
    src = (ratio * k.astype(F32)).astype(np.float64) if align_corners else half_pixel  # bicubic
    lo = np.floor(src).astype(np.int64)
    t = src - lo
    return [(np.clip(lo - 1 + i, 0, n_in - 1), w) for i, w in enumerate(_cubic_weights(t))]


def _resize_matrix(n_in, n_out, mode, align_corners, align_mode, scale, dtype):
    m = np.zeros((n_out, n_in), dtype=np.float64)
    rows = np.arange(n_out)
    for index, weight in _taps(n_in, n_out, mode, align_corners, align_mode, scale):
        np.add.at(m, (rows, index), weight)  # neighbours clamped to the edge may coincide: their weights add
    return m.astype(dtype)


def _matrices(in_sizes, out_sizes, mode, align_corners, align_mode, scales, dtype):
    scales = scales or (None,) * len(in_sizes)
    return [
        _resize_matrix(i, o, mode, align_corners, align_mode, s, dtype) for i, o, s in zip(in_sizes, out_sizes, scales)
    ]


@register
class Interpolate(OpDef):
    """y = interpolate(x): x [N, C, *in] resized to [N, C, *out_size].

    mode: 'nearest', 'linear' (bilinear and trilinear are linear along each axis) or 'bicubic'. scales: the
    user's scale_factor per axis, or None (Paddle derives the sampling ratio from it when given)."""

    name = "interpolate"
    amp = "fp32"
    saves_inputs = False

    def kernel(self, x, out_size, mode, align_corners=False, align_mode=0, scales=None):
        mats = _matrices(x.shape[2:], out_size, mode, align_corners, align_mode, scales, x.dtype)
        return apply_per_axis(x, mats)

    def grad(self, node, g):
        return (interpolate_grad(g, tuple(node.inputs[0].shape[2:]), **node.attrs),)

    def infer_meta(self, x: Meta, out_size, **attrs) -> Meta:
        return Meta((*x.shape[:2], *out_size), x.dtype)


@register
class InterpolateGrad(OpDef):
    """dx = interpolate_grad(g): the transposed resize, from [N, C, *out_size] back to [N, C, *input_size]."""

    name = "interpolate_grad"
    saves_inputs = False

    def kernel(self, g, input_size, out_size, mode, align_corners=False, align_mode=0, scales=None):
        mats = _matrices(input_size, out_size, mode, align_corners, align_mode, scales, g.dtype)
        return apply_per_axis(g, mats, transpose=True)

    def grad(self, node, gg):
        attrs = {k: v for k, v in node.attrs.items() if k != "input_size"}
        return (apply(Interpolate, (gg,), attrs),)

    def infer_meta(self, g: Meta, input_size, **attrs) -> Meta:
        return Meta((*g.shape[:2], *input_size), g.dtype)


def interpolate(x: Tensor, out_size, mode: str, align_corners=False, align_mode=0, scales=None) -> Tensor:
    attrs = {
        "out_size": tuple(int(s) for s in out_size),
        "mode": mode,
        "align_corners": bool(align_corners),
        "align_mode": int(align_mode),
        "scales": None if scales is None else tuple(float(s) for s in scales),
    }
    return apply(Interpolate, (x,), attrs)


def interpolate_grad(g: Tensor, input_size, **attrs) -> Tensor:
    return apply(InterpolateGrad, (g,), {"input_size": tuple(input_size), **attrs})
