"""YOLOv3's loss (paddle.vision.ops.yolo_loss).

yolo_loss builds its targets once (_yolo_targets: which predictions are positives, negatives or ignored) and
both the loss and its gradient op read them; the gradient is the true one (sigmoid(p) - target, sign for L1).
Loops run over images, never over pixels.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = [
    "yolo_loss",
    "yolo_loss_grad",
]


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
