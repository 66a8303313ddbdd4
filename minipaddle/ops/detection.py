"""The box arithmetic of detection heads in paddle.vision.ops: box_coder, prior_box, yolo_box, matrix_nms,
generate_proposals and distribute_fpn_proposals, which have no gradient in Paddle.

Loops run over images, classes and greedy NMS decisions, never over pixels.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.vision_ops import _batch_of_each_box

__all__ = [
    "box_coder",
    "prior_box",
    "yolo_box",
    "matrix_nms",
    "generate_proposals",
    "distribute_fpn_proposals",
]


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
