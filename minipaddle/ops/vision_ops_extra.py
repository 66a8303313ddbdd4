"""More ops of paddle.vision.ops: deformable convolution's sampling, position-sensitive RoI pooling, YOLOv3's loss,
and the box arithmetic of detection heads (box_coder, prior_box, yolo_box, matrix_nms, generate_proposals,
distribute_fpn_proposals), which have no gradient in Paddle.

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

psroi_pool (Dai et al., R-FCN): output bin (i, j) of output channel c averages the input channel
c*PH*PW + i*PW + j over the bin's integer pixel rectangle. The rectangle sum is a product of two 0/1 masks, so it
is Ay @ x @ Ax.T per box, as roi_align does in ops/vision_ops.py; the gradient is the same masks transposed.

yolo_loss builds its targets once (_yolo_targets: which predictions are positives, negatives or ignored) and
both the loss and its gradient op read them; the gradient is the true one (sigmoid(p) - target, sign for L1).
Loops run over images, classes and greedy NMS decisions, never over pixels.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.vision_ops import _batch_of_each_box, _round_half_away
from minipaddle.ops.windows import out_size

__all__ = [
    "deformable_im2col", "deformable_im2col_grad", "psroi_pool", "psroi_pool_grad",
    "box_coder", "prior_box", "yolo_box", "matrix_nms", "generate_proposals", "distribute_fpn_proposals",
    "yolo_loss", "yolo_loss_grad",
]  # fmt: skip


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


# ---- psroi_pool -----------------------------------------------------------------------------------------------------


def _ps_bins(boxes, pooled: int, axis: int, spatial_scale: float, length: int):
    """[R, pooled, length] 0/1 masks of the pixels each bin covers along one axis (axis 0: x, 1: y), Paddle's
    rounding: the box's corners are rounded to pixels, its far edge is one past the corner pixel."""
    start = _round_half_away(boxes[:, axis].astype(np.float64)) * spatial_scale
    end = (_round_half_away(boxes[:, axis + 2].astype(np.float64)) + 1.0) * spatial_scale
    bin_size = np.maximum(end - start, 0.1) / pooled
    p = np.arange(pooled)[None, :]
    lo = np.clip(np.floor(p * bin_size[:, None] + start[:, None]), 0, length)
    hi = np.clip(np.ceil((p + 1) * bin_size[:, None] + start[:, None]), 0, length)
    pixel = np.arange(length)[None, None, :]
    return ((pixel >= lo[..., None]) & (pixel < hi[..., None])).astype(np.float64)


def _ps_geometry(x_shape, boxes, boxes_num, pooled_height, pooled_width, spatial_scale):
    batch = _batch_of_each_box(boxes_num, boxes.shape[0], "psroi_pool")
    ay = _ps_bins(boxes, pooled_height, 1, spatial_scale, x_shape[2])  # [R, PH, H]
    ax = _ps_bins(boxes, pooled_width, 0, spatial_scale, x_shape[3])  # [R, PW, W]
    area = ay.sum(-1)[:, :, None] * ax.sum(-1)[:, None, :]  # [R, PH, PW]; 0 for an empty bin
    inv_area = np.divide(1.0, area, out=np.zeros_like(area), where=area > 0)
    return batch, ay, ax, inv_area


@register
class PsroiPool(OpDef):
    """out [R, C/(PH*PW), PH, PW] = psroi_pool(x [N, C, H, W], boxes [R, 4], boxes_num [N]): bin (i, j) of output
    channel c is the mean of input channel (c*PH + i)*PW + j over the bin (0 if the bin is empty)."""

    name = "psroi_pool"

    def kernel(self, x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale):
        batch, ay, ax, inv_area = _ps_geometry(x.shape, boxes, boxes_num, pooled_height, pooled_width, spatial_scale)
        n, c, h, w = x.shape
        xr = x[batch].reshape(len(batch), c // (pooled_height * pooled_width), pooled_height, pooled_width, h, w)
        sums = np.einsum("rih,rcijhw,rjw->rcij", ay, xr, ax)
        return (sums * inv_area[:, None]).astype(x.dtype)

    def grad(self, node, g):
        x, boxes, boxes_num = node.inputs
        return (psroi_pool_grad(boxes, boxes_num, g, x.shape, **node.attrs), None, None)

    def infer_meta(self, x: Meta, boxes: Meta, boxes_num: Meta, pooled_height, pooled_width, **attrs) -> Meta:
        c = -1 if x.shape[1] < 0 else x.shape[1] // (pooled_height * pooled_width)
        return Meta((boxes.shape[0], c, pooled_height, pooled_width), x.dtype)


@register
class PsroiPoolGrad(OpDef):
    """dx = psroi_pool_grad(boxes, boxes_num, g): each bin's gradient spread evenly over its pixels of its input
    channel, added into its box's image."""

    name = "psroi_pool_grad"
    differentiable = False

    def kernel(self, boxes, boxes_num, g, x_shape, pooled_height, pooled_width, spatial_scale):
        batch, ay, ax, inv_area = _ps_geometry(x_shape, boxes, boxes_num, pooled_height, pooled_width, spatial_scale)
        per_box = np.einsum("rih,rcij,rjw->rcijhw", ay, g * inv_area[:, None], ax)
        dx = np.zeros(x_shape, dtype=np.float64)
        np.add.at(dx, batch, per_box.reshape(len(batch), *x_shape[1:]))
        return dx.astype(g.dtype)

    def infer_meta(self, boxes: Meta, boxes_num: Meta, g: Meta, x_shape, **attrs) -> Meta:
        return Meta(tuple(x_shape), g.dtype)


def psroi_pool(x: Tensor, boxes: Tensor, boxes_num: Tensor, pooled_height: int, pooled_width: int,
               spatial_scale: float) -> Tensor:  # fmt: skip
    attrs = {"pooled_height": int(pooled_height), "pooled_width": int(pooled_width),
             "spatial_scale": float(spatial_scale)}  # fmt: skip
    return apply(PsroiPool, (x, boxes, boxes_num), attrs)


def psroi_pool_grad(boxes: Tensor, boxes_num: Tensor, g: Tensor, x_shape, **attrs) -> Tensor:
    return apply(PsroiPoolGrad, (boxes, boxes_num, g), {"x_shape": tuple(int(s) for s in x_shape), **attrs})


# ---- box_coder, prior_box, yolo_box (no gradients, as in Paddle) ----------------------------------------------------


def _center_size(boxes, pixel: float):
    """(center x, center y, width, height) of [..., 4] corner boxes; `pixel` is 1 for unnormalized boxes, whose
    far corner is a pixel of the box."""
    w = boxes[..., 2] - boxes[..., 0] + pixel
    h = boxes[..., 3] - boxes[..., 1] + pixel
    return boxes[..., 0] + w / 2, boxes[..., 1] + h / 2, w, h


@register
class BoxCoder(OpDef):
    """Encode target boxes [N, 4] against priors [M, 4] into offsets [N, M, 4], or decode offsets [N, M, 4] back
    into boxes, priors broadcast along `axis` (see paddle.vision.ops.box_coder)."""

    name = "box_coder"
    differentiable = False

    def kernel(self, prior, target, *prior_var, code_type, box_normalized, axis, variance):
        pixel = 0.0 if box_normalized else 1.0
        var = prior_var[0] if prior_var else np.asarray(variance if variance is not None else (1.0,) * 4)
        pcx, pcy, pw, ph = _center_size(prior, pixel)
        if code_type == "encode_center_size":
            _, _, tw, th = (v[:, None] for v in _center_size(target, pixel))  # [N, 1] against [M]
            # (Paddle's target centers are the corners' midpoints, even for unnormalized boxes)
            tcx = (target[:, 0, None] + target[:, 2, None]) / 2
            tcy = (target[:, 1, None] + target[:, 3, None]) / 2
            with np.errstate(divide="ignore"):
                out = np.stack([(tcx - pcx) / pw, (tcy - pcy) / ph, np.log(np.abs(tw / pw)), np.log(np.abs(th / ph))],
                               axis=-1)  # fmt: skip
            return (out / var).astype(target.dtype)  # var [M, 4] or [4] broadcasts along the priors

        # decode: the priors (and their variances) run along target's axis 1 (axis=0) or axis 0 (axis=1)
        def along(v):
            return v[None, :] if axis == 0 else v[:, None]

        pcx, pcy, pw, ph = along(pcx), along(pcy), along(pw), along(ph)
        var = along(var) if var.ndim == 2 else var
        cx = var[..., 0] * target[..., 0] * pw + pcx
        cy = var[..., 1] * target[..., 1] * ph + pcy
        w = np.exp(var[..., 2] * target[..., 2]) * pw
        h = np.exp(var[..., 3] * target[..., 3]) * ph
        out = np.stack([cx - w / 2, cy - h / 2, cx + w / 2 - pixel, cy + h / 2 - pixel], axis=-1)
        return out.astype(target.dtype)

    def infer_meta(self, prior: Meta, target: Meta, *prior_var, code_type, **attrs) -> Meta:
        if code_type == "encode_center_size":
            return Meta((target.shape[0], prior.shape[0], 4), target.dtype)
        return Meta(tuple(target.shape), target.dtype)


def box_coder(prior: Tensor, target: Tensor, prior_var, code_type: str, box_normalized: bool, axis: int,
              variance) -> Tensor:  # fmt: skip
    """prior_var: a Tensor [M, 4] or None; variance: 4 numbers or None (used when prior_var is None)."""
    attrs = {"code_type": code_type, "box_normalized": bool(box_normalized), "axis": int(axis),
             "variance": None if variance is None else tuple(float(v) for v in variance)}  # fmt: skip
    return apply(BoxCoder, (prior, target) if prior_var is None else (prior, target, prior_var), attrs)


def _expanded_ratios(aspect_ratios, flip: bool) -> list:
    """1 first, then each new ratio (and its inverse with flip), as Paddle's ExpandAspectRatios."""
    out = [1.0]
    for ar in aspect_ratios:
        if all(abs(ar - seen) >= 1e-6 for seen in out):
            out.append(float(ar))
            if flip:
                out.append(1.0 / ar)
    return out


@register
class PriorBox(OpDef):
    """(boxes, variances), each [H, W, num_priors, 4]: SSD's prior boxes centred on every cell of the feature map
    x [N, C, H, W], normalized by the image's size (see paddle.vision.ops.prior_box)."""

    name = "prior_box"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, image, min_sizes, max_sizes, aspect_ratios, variance, flip, clip, steps, offset,
               min_max_aspect_ratios_order):  # fmt: skip
        fh, fw = x.shape[2:]
        ih, iw = image.shape[2:]
        step_w, step_h = steps if steps[0] != 0 and steps[1] != 0 else (iw / fw, ih / fh)
        ratios = _expanded_ratios(aspect_ratios, flip)
        half_sizes = []  # (half width, half height) of each prior at one cell, in Paddle's order
        for s, size in enumerate(min_sizes):
            by_ratio = [(size * np.sqrt(ar) / 2, size / np.sqrt(ar) / 2) for ar in ratios]
            big = [(np.sqrt(size * max_sizes[s]) / 2,) * 2] if max_sizes else []
            if min_max_aspect_ratios_order:  # the square, the big square, then the other ratios
                rest = [hw for ar, hw in zip(ratios, by_ratio) if abs(ar - 1.0) >= 1e-6]
                half_sizes += [(size / 2, size / 2), *big, *rest]
            else:
                half_sizes += [*by_ratio, *big]
        half = np.asarray(half_sizes)  # [P, 2]
        cx = (np.arange(fw) + offset) * step_w  # [W]
        cy = (np.arange(fh) + offset) * step_h  # [H]
        cx = np.broadcast_to(cx[None, :, None], (fh, fw, len(half)))
        cy = np.broadcast_to(cy[:, None, None], (fh, fw, len(half)))
        boxes = np.stack([(cx - half[:, 0]) / iw, (cy - half[:, 1]) / ih, (cx + half[:, 0]) / iw,
                          (cy + half[:, 1]) / ih], axis=-1)  # fmt: skip
        if clip:
            boxes = np.clip(boxes, 0.0, 1.0)
        variances = np.broadcast_to(np.asarray(variance), boxes.shape)
        return boxes.astype(x.dtype), variances.astype(x.dtype)


def prior_box(x: Tensor, image: Tensor, **attrs):
    return apply(PriorBox, (x, image), attrs)


def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


@register
class YoloBox(OpDef):
    """(boxes [N, A*H*W, 4], scores [N, A*H*W, class_num]) = yolo_box(x [N, C, H, W], img_size [N, 2]): YOLOv3's
    head decoded into image boxes; boxes and scores are 0 where the objectness is under conf_thresh."""

    name = "yolo_box"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox, scale_x_y,
               iou_aware, iou_aware_factor):  # fmt: skip
        n, _, h, w = x.shape
        an = np.asarray(anchors, dtype=np.float64).reshape(-1, 2)  # [A, (w, h)]
        a = len(an)
        if iou_aware:  # the first A channels are each anchor's IoU prediction
            iou, x = _sigmoid(x[:, :a]), x[:, a:]
        p = x.reshape(n, a, 5 + class_num, h, w)
        conf = _sigmoid(p[:, :, 4])
        if iou_aware:
            conf = conf ** (1.0 - iou_aware_factor) * iou**iou_aware_factor
        img_h = img_size[:, 0].astype(np.float64)[:, None, None, None]
        img_w = img_size[:, 1].astype(np.float64)[:, None, None, None]
        bias = -0.5 * (scale_x_y - 1.0)
        cx = (np.arange(w) + _sigmoid(p[:, :, 0]) * scale_x_y + bias) * img_w / w
        cy = (np.arange(h)[:, None] + _sigmoid(p[:, :, 1]) * scale_x_y + bias) * img_h / h
        bw = np.exp(p[:, :, 2]) * an[:, 0, None, None] * img_w / (downsample_ratio * w)
        bh = np.exp(p[:, :, 3]) * an[:, 1, None, None] * img_h / (downsample_ratio * h)
        x1, y1, x2, y2 = cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
        if clip_bbox:
            x1, y1 = np.maximum(x1, 0.0), np.maximum(y1, 0.0)
            x2, y2 = np.minimum(x2, img_w - 1), np.minimum(y2, img_h - 1)
        keep = conf >= conf_thresh  # [N, A, H, W]
        boxes = np.where(keep[..., None], np.stack([x1, y1, x2, y2], axis=-1), 0.0)
        scores = np.where(keep[:, :, None], conf[:, :, None] * _sigmoid(p[:, :, 5:]), 0.0)  # [N, A, K, H, W]
        boxes = boxes.reshape(n, -1, 4)
        scores = scores.transpose(0, 1, 3, 4, 2).reshape(n, -1, class_num)
        return boxes.astype(x.dtype), scores.astype(x.dtype)

    def infer_meta(self, x: Meta, img_size: Meta, anchors, class_num, **attrs):
        boxes = -1 if -1 in x.shape[2:] else len(anchors) // 2 * x.shape[2] * x.shape[3]
        return Meta((x.shape[0], boxes, 4), x.dtype), Meta((x.shape[0], boxes, class_num), x.dtype)


def yolo_box(x: Tensor, img_size: Tensor, **attrs):
    return apply(YoloBox, (x, img_size), attrs)


# ---- matrix_nms -----------------------------------------------------------------------------------------------------


def _pairwise_iou(boxes, normalized: bool):
    """[M, M] IoU of corner boxes (Paddle's JaccardOverlap: unnormalized boxes count their far pixel)."""
    pixel = 0.0 if normalized else 1.0
    x1, y1, x2, y2 = (boxes[:, k].astype(np.float64) for k in range(4))
    area = np.where((x2 < x1) | (y2 < y1), 0.0, (x2 - x1 + pixel) * (y2 - y1 + pixel))
    iw = np.minimum(x2[:, None], x2[None]) - np.maximum(x1[:, None], x1[None]) + pixel
    ih = np.minimum(y2[:, None], y2[None]) - np.maximum(y1[:, None], y1[None]) + pixel
    apart = (x1[None] > x2[:, None]) | (x2[None] < x1[:, None]) | (y1[None] > y2[:, None]) | (y2[None] < y1[:, None])
    inter = iw * ih
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(apart, 0.0, inter / (area[:, None] + area[None] - inter))


def _matrix_nms_class(boxes, scores, score_threshold, post_threshold, nms_top_k, use_gaussian, gaussian_sigma,
                      normalized):  # fmt: skip
    """(kept box indices, decayed scores) of one class: each box's score decays by its worst overlap with a
    higher-scored box, discounted by how suppressed that box itself was (Wang et al., SOLOv2)."""
    candidates = np.flatnonzero(scores > score_threshold)
    order = candidates[np.argsort(-scores[candidates], kind="stable")]
    if nms_top_k > -1:
        order = order[:nms_top_k]
    if order.size == 0:
        return order, scores[order]
    iou = np.tril(_pairwise_iou(boxes[order], normalized), k=-1)  # iou[i, j] for j < i only
    iou_max = iou.max(axis=1)  # each box's largest overlap with a higher-scored one
    if use_gaussian:
        decay = np.exp((iou_max[None, :] ** 2 - iou**2) * gaussian_sigma)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):  # a duplicate box (IoU 1) suppresses fully
            decay = (1.0 - iou) / (1.0 - iou_max[None, :])
    below = np.tri(len(order), k=-1, dtype=bool)
    min_decay = np.where(below, decay, 1.0).min(axis=1)
    decayed = min_decay * scores[order]
    keep = decayed > post_threshold
    keep[0] = scores[order[0]] > post_threshold  # the best box is never decayed
    return order[keep], decayed[keep]


@register
class MatrixNms(OpDef):
    """(out [K, 6], index [K, 1], rois_num [N]) = matrix_nms(bboxes [N, M, 4], scores [N, C, M]): each row of out
    is (class, decayed score, x1, y1, x2, y2), images in order, each by decreasing score."""

    name = "matrix_nms"
    differentiable = False
    saves_inputs = False

    def kernel(self, bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k, use_gaussian,
               gaussian_sigma, background_label, normalized):  # fmt: skip
        rows, indices, counts = [], [], []
        for b in range(bboxes.shape[0]):
            kept, kept_scores, classes = [], [], []
            for c in range(scores.shape[1]):
                if c == background_label:
                    continue
                idx, sc = _matrix_nms_class(bboxes[b], scores[b, c], score_threshold, post_threshold, nms_top_k,
                                            use_gaussian, gaussian_sigma, normalized)  # fmt: skip
                kept.append(idx), kept_scores.append(sc), classes.append(np.full(idx.size, c))
            idx, sc, cls = (np.concatenate(v) if v else np.zeros(0) for v in (kept, kept_scores, classes))
            best = np.argsort(-sc, kind="stable")
            if keep_top_k > -1:
                best = best[:keep_top_k]
            idx = idx[best].astype(np.int64)
            rows.append(np.concatenate([cls[best, None], sc[best, None], bboxes[b][idx]], axis=1))
            indices.append(idx + b * bboxes.shape[1])
            counts.append(idx.size)
        out = np.concatenate(rows).astype(bboxes.dtype) if rows else np.zeros((0, 6), bboxes.dtype)
        index = np.concatenate(indices).astype(np.int32).reshape(-1, 1) if indices else np.zeros((0, 1), np.int32)
        return out, index, np.asarray(counts, dtype=np.int32)

    def infer_meta(self, bboxes: Meta, scores: Meta, **attrs):
        return Meta((-1, 6), bboxes.dtype), Meta((-1, 1), dtypes.int32), Meta((bboxes.shape[0],), dtypes.int32)


def matrix_nms(bboxes: Tensor, scores: Tensor, **attrs):
    return apply(MatrixNms, (bboxes, scores), attrs)


# ---- generate_proposals ---------------------------------------------------------------------------------------------

_BBOX_CLIP = float(np.log(1000.0 / 16.0))  # Paddle's kBBoxClipDefault: the largest log-scale a delta may apply


def _decode_deltas(anchors, deltas, variances, offset: float):
    """Anchors [K, 4] moved by deltas [K, 4] scaled by variances [K, 4] (Paddle's BoxCoder in bbox_util.h)."""
    w = anchors[:, 2] - anchors[:, 0] + offset
    h = anchors[:, 3] - anchors[:, 1] + offset
    cx, cy = anchors[:, 0] + 0.5 * w, anchors[:, 1] + 0.5 * h
    bcx = variances[:, 0] * deltas[:, 0] * w + cx
    bcy = variances[:, 1] * deltas[:, 1] * h + cy
    bw = np.exp(np.minimum(variances[:, 2] * deltas[:, 2], _BBOX_CLIP)) * w
    bh = np.exp(np.minimum(variances[:, 3] * deltas[:, 3], _BBOX_CLIP)) * h
    return np.stack([bcx - bw / 2, bcy - bh / 2, bcx + bw / 2 - offset, bcy + bh / 2 - offset], axis=1)


def _greedy_nms(boxes, nms_thresh: float, eta: float, normalized: bool):
    """Indices kept by greedy NMS over boxes already in score order (Paddle's NMS with adaptive eta: keep a box
    when its IoU with every kept box is at most the threshold)."""
    iou = _pairwise_iou(boxes, normalized)
    keep, threshold = [], nms_thresh
    for i in range(len(boxes)):  # greedy: each decision depends on the boxes kept before it
        if all(iou[i, k] <= threshold for k in keep):
            keep.append(i)
            if eta < 1 and threshold > 0.5:
                threshold *= eta
    return np.asarray(keep, dtype=np.int64)


def _proposals_of_image(scores, deltas, im_hw, anchors, variances, pre_nms_top_n, post_nms_top_n, nms_thresh,
                        min_size, eta, pixel_offset):  # fmt: skip
    offset = 1.0 if pixel_offset else 0.0
    order = np.argsort(-scores, kind="stable")
    if 0 < pre_nms_top_n < scores.size:
        order = order[:pre_nms_top_n]
    boxes = _decode_deltas(anchors[order], deltas[order], variances[order], offset)
    im_h, im_w = float(im_hw[0]), float(im_hw[1])
    boxes = np.maximum(np.minimum(boxes, np.array([im_w, im_h, im_w, im_h]) - offset), 0.0)  # clip to the image
    ws, hs = boxes[:, 2] - boxes[:, 0] + offset, boxes[:, 3] - boxes[:, 1] + offset
    keep = (ws >= max(min_size, 1.0)) & (hs >= max(min_size, 1.0))
    if pixel_offset:  # the box's centre must lie in the image too
        keep &= (boxes[:, 0] + ws / 2 <= im_w) & (boxes[:, 1] + hs / 2 <= im_h)
    if not keep.any():  # Paddle returns one all-zero proposal for an image with none
        return np.zeros((1, 4)), np.zeros(1)
    boxes, kept_scores = boxes[keep], scores[order][keep]
    if nms_thresh > 0:
        chosen = _greedy_nms(boxes, nms_thresh, eta, normalized=not pixel_offset)
        if 0 < post_nms_top_n < chosen.size:
            chosen = chosen[:post_nms_top_n]
        boxes, kept_scores = boxes[chosen], kept_scores[chosen]
    return boxes, kept_scores


@register
class GenerateProposals(OpDef):
    """(rois [R, 4], probs [R, 1], rois_num [N]) = generate_proposals(scores [N, A, H, W], bbox_deltas
    [N, 4A, H, W], img_size [N, 2], anchors [H, W, A, 4], variances [H, W, A, 4]): RPN's proposals (see
    paddle.vision.ops.generate_proposals)."""

    name = "generate_proposals"
    differentiable = False
    saves_inputs = False

    def kernel(self, scores, bbox_deltas, img_size, anchors, variances, pre_nms_top_n, post_nms_top_n, nms_thresh,
               min_size, eta, pixel_offset):  # fmt: skip
        n = scores.shape[0]
        per_anchor = scores.transpose(0, 2, 3, 1).reshape(n, -1)  # [N, H*W*A], anchors' order
        deltas = bbox_deltas.transpose(0, 2, 3, 1).reshape(n, -1, 4)
        anchors, variances = anchors.reshape(-1, 4), variances.reshape(-1, 4)
        rois, probs, counts = [], [], []
        for b in range(n):
            boxes, kept = _proposals_of_image(per_anchor[b], deltas[b], img_size[b], anchors, variances,
                                              pre_nms_top_n, post_nms_top_n, nms_thresh, min_size, eta,
                                              pixel_offset)  # fmt: skip
            rois.append(boxes), probs.append(kept), counts.append(len(kept))
        return (np.concatenate(rois).astype(scores.dtype), np.concatenate(probs)[:, None].astype(scores.dtype),
                np.asarray(counts, dtype=np.int32))  # fmt: skip

    def infer_meta(self, scores: Meta, *inputs, **attrs):
        return Meta((-1, 4), scores.dtype), Meta((-1, 1), scores.dtype), Meta((scores.shape[0],), dtypes.int32)


def generate_proposals(scores: Tensor, bbox_deltas: Tensor, img_size: Tensor, anchors: Tensor, variances: Tensor,
                       **attrs):  # fmt: skip
    return apply(GenerateProposals, (scores, bbox_deltas, img_size, anchors, variances), attrs)


# ---- distribute_fpn_proposals ---------------------------------------------------------------------------------------


@register
class DistributeFpnProposals(OpDef):
    """(rois of each level..., restore_index [R, 1], rois_num of each level...) = distribute_fpn_proposals(
    fpn_rois [R, 4], rois_num [N]): each RoI goes to the FPN level floor(refer_level + log2(sqrt(area) /
    refer_scale)), clamped to [min_level, max_level]; within a level, in their order."""

    name = "distribute_fpn_proposals"
    differentiable = False
    saves_inputs = False

    def kernel(self, fpn_rois, rois_num, min_level, max_level, refer_level, refer_scale, pixel_offset):
        pixel = 1.0 if pixel_offset else 0.0
        x1, y1, x2, y2 = (fpn_rois[:, k].astype(np.float64) for k in range(4))
        area = np.where((x2 < x1) | (y2 < y1), 0.0, (x2 - x1 + pixel) * (y2 - y1 + pixel))
        with np.errstate(divide="ignore"):  # an empty box goes to the lowest level
            level = np.floor(np.log2(np.sqrt(area) / refer_scale + 1e-8) + refer_level)
        level = np.clip(level, min_level, max_level).astype(np.int64) - min_level
        order = np.argsort(level, kind="stable")  # RoIs grouped by level, each group in the input's order
        restore = np.empty(len(order), dtype=np.int32)
        restore[order] = np.arange(len(order))
        levels = range(max_level - min_level + 1)
        batch = _batch_of_each_box(rois_num, len(fpn_rois), "distribute_fpn_proposals")
        per_level = tuple(fpn_rois[level == lv] for lv in levels)
        counts = tuple(np.bincount(batch[level == lv], minlength=len(rois_num)).astype(np.int32) for lv in levels)
        return (*per_level, restore[:, None], *counts)

    def infer_meta(self, fpn_rois: Meta, rois_num: Meta, min_level, max_level, **attrs):
        n = max_level - min_level + 1
        return ((Meta((-1, 4), fpn_rois.dtype),) * n + (Meta((fpn_rois.shape[0], 1), dtypes.int32),)
                + (Meta((rois_num.shape[0],), dtypes.int32),) * n)  # fmt: skip


def distribute_fpn_proposals(fpn_rois: Tensor, rois_num: Tensor, **attrs):
    return apply(DistributeFpnProposals, (fpn_rois, rois_num), attrs)


# ---- yolo_loss ------------------------------------------------------------------------------------------------------


def _sce(x, label):
    """Sigmoid cross-entropy of logits x against label, the stable form."""
    return np.maximum(x, 0.0) - x * label + np.log1p(np.exp(-np.abs(x)))


def _overlap(c1, w1, c2, w2):
    return np.minimum(c1 + w1 / 2, c2 + w2 / 2) - np.maximum(c1 - w1 / 2, c2 - w2 / 2)


def _center_iou(x1, y1, w1, h1, x2, y2, w2, h2):
    """IoU of center-size boxes (Paddle's CalcBoxIoU), broadcasting."""
    iw, ih = _overlap(x1, w1, x2, w2), _overlap(y1, h1, y2, h2)
    inter = np.where((iw < 0) | (ih < 0), 0.0, iw * ih)
    with np.errstate(divide="ignore", invalid="ignore"):
        return inter / (w1 * h1 + w2 * h2 - inter)


def _yolo_targets(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio,
                  use_label_smooth, scale_x_y):  # fmt: skip
    """What YOLOv3's loss compares x with (Paddle's yolo_loss kernel): the logits p [N, M, 5 + C, H, W], the
    objectness targets obj [N, M, H, W] (> 0: positive with that weight, 0: negative, -1: ignored), and the
    positives: per matched ground-truth box, where it sits (image, mask slot, row, column) and its targets."""
    n, _, h, w = x.shape
    m = len(anchor_mask)
    an = np.asarray(anchors, dtype=np.float64).reshape(-1, 2)
    input_size = downsample_ratio * h
    p = x.reshape(n, m, 5 + class_num, h, w).astype(np.float64)
    valid = (gt_box[..., 2] >= 1e-6) & (gt_box[..., 3] >= 1e-6)  # [N, B]
    # predicted boxes (Paddle divides both axes by the grid's height)
    bias = -0.5 * (scale_x_y - 1.0)
    sig = 1.0 / (1.0 + np.exp(-p[:, :, :2]))
    px = (np.arange(w) + sig[:, :, 0] * scale_x_y + bias) / h
    py = (np.arange(h)[:, None] + sig[:, :, 1] * scale_x_y + bias) / h
    pw = np.exp(p[:, :, 2]) * an[anchor_mask, 0, None, None] / input_size
    ph = np.exp(p[:, :, 3]) * an[anchor_mask, 1, None, None] / input_size
    g = gt_box.astype(np.float64)[:, None, None, None, :, :]  # [N, 1, 1, 1, B, 4]
    iou = _center_iou(px[..., None], py[..., None], pw[..., None], ph[..., None], *(g[..., k] for k in range(4)))
    best = np.where(valid[:, None, None, None, :], iou, 0.0).max(axis=-1, initial=0.0)  # [N, M, H, W]
    obj = np.where(best > ignore_thresh, -1.0, 0.0)
    # each valid ground truth goes to the anchor of the most similar shape, if that anchor is in the mask
    gw, gh = gt_box[..., 2].astype(np.float64), gt_box[..., 3].astype(np.float64)
    shape_iou = _center_iou(0.0, 0.0, an[:, 0] / input_size, an[:, 1] / input_size, 0.0, 0.0, gw[..., None],
                            gh[..., None])  # fmt: skip  # [N, B, A]
    best_anchor = np.argmax(np.where(np.isnan(shape_iou), -1.0, shape_iou), axis=-1)
    slot_of_anchor = np.full(len(an), -1)
    slot_of_anchor[np.asarray(anchor_mask)] = np.arange(m)
    slot = slot_of_anchor[best_anchor]
    bi, ti = np.nonzero(valid & (slot >= 0))  # in Paddle's order: image, then ground truth
    gx, gy = gt_box[bi, ti, 0].astype(np.float64), gt_box[bi, ti, 1].astype(np.float64)
    gi = np.clip((gx * w).astype(np.int64), 0, w - 1)
    gj = np.clip((gy * h).astype(np.int64), 0, h - 1)
    score = np.ones(len(bi)) if gt_score is None else gt_score[bi, ti].astype(np.float64)
    mi, k = slot[bi, ti], best_anchor[bi, ti]
    obj[bi, mi, gj, gi] = score  # a later ground truth in the same cell wins, as in Paddle's loop
    smooth = min(1.0 / class_num, 1.0 / 40) if use_label_smooth else 0.0
    labels = np.where(np.arange(class_num) == gt_label[bi, ti][:, None], 1.0 - smooth, smooth)  # [K, C]
    targets = {
        "tx": gx * h - gi, "ty": gy * h - gj,
        "tw": np.log(gw[bi, ti] * input_size / an[k, 0]), "th": np.log(gh[bi, ti] * input_size / an[k, 1]),
        "box_weight": (2.0 - gw[bi, ti] * gh[bi, ti]) * score, "score": score, "labels": labels,
    }  # fmt: skip
    return p, obj, (bi, mi, gj, gi), targets


@register
class YoloLoss(OpDef):
    """loss [N] = yolo_loss(x [N, M*(5+C), H, W], gt_box [N, B, 4], gt_label [N, B], gt_score [N, B] (optional)):
    YOLOv3's loss per image (see paddle.vision.ops.yolo_loss)."""

    name = "yolo_loss"

    def kernel(self, x, gt_box, gt_label, *gt_score, **attrs):
        p, obj, (bi, mi, gj, gi), t = _yolo_targets(x, gt_box, gt_label, gt_score[0] if gt_score else None, **attrs)
        at = p[bi, mi, :, gj, gi]  # [K, 5 + C]: the logits at each positive
        per_box = (_sce(at[:, 0], t["tx"]) + _sce(at[:, 1], t["ty"]) + np.abs(at[:, 2] - t["tw"])
                   + np.abs(at[:, 3] - t["th"])) * t["box_weight"]  # fmt: skip
        per_box = per_box + (_sce(at[:, 5:], t["labels"]) * t["score"][:, None]).sum(axis=1)
        loss = np.bincount(bi, per_box, minlength=x.shape[0])
        conf = p[:, :, 4]
        objectness = np.where(obj > 1e-5, _sce(conf, 1.0) * obj, np.where(obj > -0.5, _sce(conf, 0.0), 0.0))
        return (loss + objectness.sum(axis=(1, 2, 3))).astype(x.dtype)

    def grad(self, node, g):
        return (yolo_loss_grad(*node.inputs, g, **node.attrs),) + (None,) * (len(node.inputs) - 1)

    def infer_meta(self, x: Meta, *inputs, **attrs) -> Meta:
        return Meta((x.shape[0],), x.dtype)


@register
class YoloLossGrad(OpDef):
    """dx = yolo_loss_grad(x, gt_box, gt_label, [gt_score,] g): sigmoid(p) - target for the cross-entropies,
    sign(p - target) for the L1 size terms, each times its weight and the image's incoming gradient."""

    name = "yolo_loss_grad"
    differentiable = False

    def kernel(self, x, gt_box, gt_label, *rest, **attrs):
        *gt_score, g = rest
        p, obj, (bi, mi, gj, gi), t = _yolo_targets(x, gt_box, gt_label, gt_score[0] if gt_score else None, **attrs)
        sig = 1.0 / (1.0 + np.exp(-p))
        dp = np.zeros_like(p)
        conf = sig[:, :, 4]
        dp[:, :, 4] = np.where(obj > 1e-5, (conf - 1.0) * obj, np.where(obj > -0.5, conf, 0.0))
        at, sat = p[bi, mi, :, gj, gi], sig[bi, mi, :, gj, gi]
        d = np.zeros_like(at)
        d[:, 0] = (sat[:, 0] - t["tx"]) * t["box_weight"]
        d[:, 1] = (sat[:, 1] - t["ty"]) * t["box_weight"]
        d[:, 2] = np.sign(at[:, 2] - t["tw"]) * t["box_weight"]
        d[:, 3] = np.sign(at[:, 3] - t["th"]) * t["box_weight"]
        d[:, 5:] = (sat[:, 5:] - t["labels"]) * t["score"][:, None]
        np.add.at(dp, (bi, mi, slice(None), gj, gi), d)
        dp *= g.astype(np.float64)[:, None, None, None, None]
        return dp.reshape(x.shape).astype(x.dtype)

    def infer_meta(self, x: Meta, *inputs, **attrs) -> Meta:
        return x


def yolo_loss(x: Tensor, gt_box: Tensor, gt_label: Tensor, gt_score, **attrs) -> Tensor:
    inputs = (x, gt_box, gt_label) if gt_score is None else (x, gt_box, gt_label, gt_score)
    return apply(YoloLoss, inputs, attrs)


def yolo_loss_grad(x: Tensor, gt_box: Tensor, gt_label: Tensor, *rest, **attrs) -> Tensor:
    return apply(YoloLossGrad, (x, gt_box, gt_label, *rest), attrs)
