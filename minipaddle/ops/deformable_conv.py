"""Deformable convolution's sampling (paddle.vision.ops.deform_conv2d builds on it, nn/functional/deform_conv.py).

Deformable convolution (Dai et al. 2017; v2 with a modulation mask, Zhu et al. 2018) is im2col with moved sample
points: kernel tap k of output pixel p reads x at p*stride - pad + k*dilation + offset[k, p], bilinearly, times
mask[k, p]. `deformable_im2col` builds those columns [N, C*kh*kw, L] in the layout of ops/im2col.py, every sample
at once (four gathered corners per point); the public deform_conv2d then multiplies them by the weight in one GEMM,
so the weight's and bias's gradients are matmul's. Its gradient op returns what Paddle's CPU kernel computes:
- dx: each column value, times the mask, added back onto the four corners it was read from (one bincount);
- doffset: the column gradient times the mask times the bilinear sample's derivative along y or x, summed over the
  channels of the deformable group;
- dmask: the column gradient times the unmasked sample, summed the same way.
A sample point is read only when it lies in (-1, H) x (-1, W); a corner outside the image reads 0 (Paddle's
DmcnIm2colBilinear), and the derivatives follow the same rules, so they are the true derivatives away from pixel
borders.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.windows import out_size

__all__ = [
    "deformable_im2col",
    "deformable_im2col_grad",
]


# ---- deformable convolution -----------------------------------------------------------------------------------------


def _sample_points(x_shape, offset, kernel_size, strides, paddings, dilations, deformable_groups):
    """Where every tap reads: (ys, xs) [N, dg, K*L] and the output's spatial shape.

    offset [N, dg*2*K, Ho, Wo] holds (dy, dx) pairs per tap, tap k = i*kw + j (Paddle's layout)."""
    kh, kw = kernel_size
    ho = out_size(x_shape[2], kh, strides[0], dilations[0], paddings[0])
    wo = out_size(x_shape[3], kw, strides[1], dilations[1], paddings[1])
    n = offset.shape[0]
    off = offset.reshape(n, deformable_groups, kh * kw, 2, ho, wo)
    tap_y = (np.arange(kh) * dilations[0]).repeat(kw)  # [K]
    tap_x = np.tile(np.arange(kw) * dilations[1], kh)
    base_y = tap_y[:, None, None] + (np.arange(ho) * strides[0] - paddings[0][0])[None, :, None]  # [K, Ho, 1]
    base_x = tap_x[:, None, None] + (np.arange(wo) * strides[1] - paddings[1][0])[None, None, :]  # [K, 1, Wo]
    ys = (base_y + off[:, :, :, 0]).reshape(n, deformable_groups, -1)
    xs = (base_x + off[:, :, :, 1]).reshape(n, deformable_groups, -1)
    return ys, xs, (ho, wo)


def _corners(ys, xs, h, w):
    """The four corners of each point as (flat pixel index, weight, d weight/dy, d weight/dx), index 0 and all
    zeros where the corner lies outside the image or the point outside (-1, H) x (-1, W)."""
    inside = (ys > -1) & (xs > -1) & (ys < h) & (xs < w)
    y0, x0 = np.floor(ys), np.floor(xs)
    ly, lx = ys - y0, xs - x0
    out = []
    for cy, wy, dwy in ((y0, 1 - ly, -1.0), (y0 + 1, ly, 1.0)):
        for cx, wx, dwx in ((x0, 1 - lx, -1.0), (x0 + 1, lx, 1.0)):
            ok = inside & (cy >= 0) & (cy <= h - 1) & (cx >= 0) & (cx <= w - 1)
            index = np.where(ok, cy * w + cx, 0).astype(np.int64)
            out.append((index, np.where(ok, wy * wx, 0.0), np.where(ok, dwy * wx, 0.0), np.where(ok, wy * dwx, 0.0)))
    return out


def _gather(xg, index):
    """xg [N, dg, Cg, H*W] read at index [N, dg, P] -> [N, dg, Cg, P]."""
    return np.take_along_axis(xg, np.broadcast_to(index[:, :, None, :], (*xg.shape[:3], index.shape[-1])), axis=-1)


def _grouped(x, deformable_groups):
    n, c, h, w = x.shape
    return x.reshape(n, deformable_groups, c // deformable_groups, h * w)


def _taps_mask(mask, deformable_groups):
    """mask [N, dg*K, Ho, Wo] -> [N, dg, 1, K*L], ready to scale the grouped samples."""
    return mask.reshape(mask.shape[0], deformable_groups, 1, -1)


def _as_columns(v, c, k):
    """[N, dg, Cg, K*L] -> [N, C*K, L] (channel major, then tap), im2col's layout."""
    return v.reshape(v.shape[0], c * k, -1)


@register
class DeformableIm2Col(OpDef):
    """cols [N, C*kh*kw, Ho*Wo] = deformable_im2col(x [N, C, H, W], offset [N, dg*2*kh*kw, Ho, Wo],
    mask [N, dg*kh*kw, Ho, Wo] (optional))."""

    name = "deformable_im2col"

    def kernel(self, x, offset, *mask, kernel_size, strides, paddings, dilations, deformable_groups):
        ys, xs, _ = _sample_points(x.shape, offset, kernel_size, strides, paddings, dilations, deformable_groups)
        xg = _grouped(x, deformable_groups)
        val = sum(_gather(xg, index) * wt[:, :, None, :] for index, wt, _, _ in _corners(ys, xs, *x.shape[2:]))
        if mask:
            val = val * _taps_mask(mask[0], deformable_groups)
        return _as_columns(val, x.shape[1], kernel_size[0] * kernel_size[1]).astype(x.dtype)

    def grad(self, node, g):
        grads = deformable_im2col_grad(*node.inputs[:2], g, *node.inputs[2:], **node.attrs)
        return tuple(gi if node.needs_grad(i) else None for i, gi in enumerate(grads))

    def infer_meta(self, x: Meta, offset: Meta, *mask, kernel_size, strides, paddings, dilations, **attrs) -> Meta:
        spatial = [-1 if d < 0 else out_size(d, k, s, dl, p)
                   for d, k, s, dl, p in zip(x.shape[2:], kernel_size, strides, dilations, paddings)]  # fmt: skip
        k = kernel_size[0] * kernel_size[1]
        pixels = -1 if -1 in spatial else spatial[0] * spatial[1]
        return Meta((x.shape[0], -1 if x.shape[1] < 0 else x.shape[1] * k, pixels), x.dtype)


@register
class DeformableIm2ColGrad(OpDef):
    """(dx, doffset[, dmask]) = deformable_im2col_grad(x, offset, dcols[, mask]): Paddle's deformable_conv_grad
    without the GEMMs."""

    name = "deformable_im2col_grad"
    differentiable = False

    def kernel(self, x, offset, g, *mask, kernel_size, strides, paddings, dilations, deformable_groups):
        n, c, h, w = x.shape
        dg, k = deformable_groups, kernel_size[0] * kernel_size[1]
        ys, xs, (ho, wo) = _sample_points(x.shape, offset, kernel_size, strides, paddings, dilations, dg)
        xg = _grouped(x, dg)
        gg = g.reshape(n, dg, c // dg, -1)  # [N, dg, Cg, K*L]
        m = _taps_mask(mask[0], dg) if mask else 1.0
        gm = gg * m
        plane = np.arange(n * c).reshape(n, dg, c // dg, 1) * (h * w)  # where each (image, channel) plane starts
        dx = np.zeros(x.size, dtype=np.float64)
        val = dval_dy = dval_dx = 0.0
        for index, wt, dwy, dwx in _corners(ys, xs, h, w):
            dx += np.bincount((plane + index[:, :, None, :]).ravel(), (gm * wt[:, :, None, :]).ravel(), x.size)
            corner = _gather(xg, index)
            val = val + corner * wt[:, :, None, :]
            dval_dy = dval_dy + corner * dwy[:, :, None, :]
            dval_dx = dval_dx + corner * dwx[:, :, None, :]
        d_off = np.stack([(gm * dval_dy).sum(2), (gm * dval_dx).sum(2)], axis=2)  # [N, dg, 2, K*L]
        d_off = d_off.reshape(n, dg, 2, k, ho, wo).transpose(0, 1, 3, 2, 4, 5).reshape(offset.shape)
        out = (dx.reshape(x.shape).astype(x.dtype), d_off.astype(offset.dtype))
        if mask:
            out += ((gg * val).sum(2).reshape(mask[0].shape).astype(mask[0].dtype),)
        return out

    def infer_meta(self, x: Meta, offset: Meta, g: Meta, *mask, **attrs):
        return (x, offset, *mask)


def deformable_im2col(x: Tensor, offset: Tensor, mask, kernel_size, strides, paddings, dilations,
                      deformable_groups: int) -> Tensor:  # fmt: skip
    """paddings: ((top, bottom), (left, right)); mask None for deformable convolution v1."""
    attrs = {"kernel_size": tuple(int(k) for k in kernel_size), "strides": tuple(strides),
             "paddings": tuple(tuple(p) for p in paddings), "dilations": tuple(dilations),
             "deformable_groups": int(deformable_groups)}  # fmt: skip
    inputs = (x, offset) if mask is None else (x, offset, mask)
    return apply(DeformableIm2Col, inputs, attrs)


def deformable_im2col_grad(x: Tensor, offset: Tensor, g: Tensor, *mask, **attrs):
    return apply(DeformableIm2ColGrad, (x, offset, g, *mask), attrs)
