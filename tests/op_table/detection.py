"""Op-table section: paddle.vision.ops' deform_conv2d (gradients in x, offset, weight, bias and mask) and
psroi_pool and yolo_loss (gradients in x); box_coder, prior_box, yolo_box, matrix_nms, generate_proposals and
distribute_fpn_proposals (no gradients).

The references loop over output pixels, kernel taps, boxes, bins and grid cells one at a time, as Paddle's CPU
kernels do, independently of the vectorized kernels in minipaddle/ops/{detection,deformable_conv,yolo_loss}.py.
Offsets are random, so sample points fall off pixel borders (where the bilinear gradient jumps).
"""

from __future__ import annotations

import math

import numpy as np

import minipaddle as paddle
from minipaddle.vision import ops as V
from tests.op_table.common import OpInfo, Sample


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _bilinear(img, y, x):
    """img [C, H, W] at (y, x); 0 outside (-1, H) x (-1, W) and for corners outside the image."""
    h, w = img.shape[1:]
    if not (-1 < y < h and -1 < x < w):
        return np.zeros(img.shape[0])
    y0, x0 = math.floor(y), math.floor(x)
    total = np.zeros(img.shape[0])
    for cy, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
        for cx, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
            if 0 <= cy < h and 0 <= cx < w:
                total = total + wy * wx * img[:, cy, cx]
    return total


def deform_conv2d_ref(x, offset, weight, bias=None, stride=1, padding=0, dilation=1, deformable_groups=1, groups=1,
                      mask=None):  # fmt: skip
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    n, c, h, w = x.shape
    o, cg, kh, kw = weight.shape
    ho, wo = offset.shape[2:]
    cpd = c // deformable_groups
    out = np.zeros((n, o, ho, wo))
    for b in range(n):
        for i in range(ho):
            for j in range(wo):
                cols = np.zeros((c, kh, kw))  # what output pixel (i, j) sees
                for g in range(deformable_groups):
                    for ki in range(kh):
                        for kj in range(kw):
                            k = ki * kw + kj
                            y = i * sh - ph + ki * dh + offset[b, g * 2 * kh * kw + 2 * k, i, j]
                            xx = j * sw - pw + kj * dw + offset[b, g * 2 * kh * kw + 2 * k + 1, i, j]
                            m = 1.0 if mask is None else mask[b, g * kh * kw + k, i, j]
                            cols[g * cpd : (g + 1) * cpd, ki, kj] = m * _bilinear(x[b, g * cpd : (g + 1) * cpd], y, xx)
                for oc in range(o):
                    grp = oc // (o // groups)
                    out[b, oc, i, j] = np.sum(weight[oc] * cols[grp * cg : (grp + 1) * cg])
    if bias is not None:
        out += bias[None, :, None, None]
    return out.astype(x.dtype)


def deform_samples(rng):
    def case(xs, ws, label, with_mask, with_bias, **kw):
        s, p, d = _pair(kw.get("stride", 1)), _pair(kw.get("padding", 0)), _pair(kw.get("dilation", 1))
        ho, wo = ((xs[2 + a] + 2 * p[a] - d[a] * (ws[2 + a] - 1) - 1) // s[a] + 1 for a in range(2))
        taps = kw.get("deformable_groups", 1) * ws[2] * ws[3]
        x, weight = rng.uniform(-1, 1, xs), rng.uniform(-1, 1, ws)
        offset = rng.uniform(-2, 2, (xs[0], 2 * taps, ho, wo))
        bias = rng.uniform(-1, 1, ws[0]) if with_bias else None
        mask = rng.uniform(0, 1, (xs[0], taps, ho, wo)) if with_mask else None
        args = (x, offset, weight, bias, mask)  # positional, so that gradcheck nudges bias and mask too
        return Sample(args, kw, label)

    return [
        case((1, 2, 5, 6), (3, 2, 3, 3), "v1", False, False),
        case((2, 2, 5, 5), (2, 2, 2, 3), "v2, stride, padding, bias", True, True, stride=2, padding=1),
        case(
            (1, 4, 5, 5),
            (4, 2, 3, 2),
            "v2, groups, deformable groups, dilation",
            True,
            False,
            groups=2,
            deformable_groups=2,
            dilation=(2, 1),
            padding=(1, 0),
        ),  # fmt: skip
    ]


def deform_entry_fn(x, offset, weight, bias, mask, **kw):
    if isinstance(x, np.ndarray):
        return deform_conv2d_ref(x, offset, weight, bias, mask=mask, **kw)
    return V.deform_conv2d(x, offset, weight, bias, mask=mask, **kw)


def psroi_pool_ref(x, boxes, boxes_num, output_size, spatial_scale=1.0):
    ph, pw = _pair(output_size)
    h, w = x.shape[2:]
    batch = np.repeat(np.arange(len(boxes_num)), boxes_num)
    co = x.shape[1] // (ph * pw)
    out = np.zeros((len(boxes), co, ph, pw), dtype=x.dtype)
    for r, box in enumerate(boxes):
        x1, y1, x2, y2 = (math.floor(abs(v) + 0.5) * (1 if v >= 0 else -1) for v in box)  # C's round()
        sx, sy = x1 * spatial_scale, y1 * spatial_scale
        bw = max((x2 + 1) * spatial_scale - sx, 0.1) / pw
        bh = max((y2 + 1) * spatial_scale - sy, 0.1) / ph
        for c in range(co):
            for i in range(ph):
                for j in range(pw):
                    hs, he = min(max(math.floor(i * bh + sy), 0), h), min(max(math.ceil((i + 1) * bh + sy), 0), h)
                    ws, we = min(max(math.floor(j * bw + sx), 0), w), min(max(math.ceil((j + 1) * bw + sx), 0), w)
                    if he > hs and we > ws:
                        out[r, c, i, j] = x[batch[r], (c * ph + i) * pw + j, hs:he, ws:we].mean()
    return out


_BOXES = np.array([[0.3, 0.7, 5.5, 6.9], [2.5, 1.2, 9.3, 7.7], [-1.2, -2.1, 3.3, 2.6]])
_NUM = np.array([1, 2], "int32")


def _on_fixed_boxes(fn):
    """fn(x, **kw) on _BOXES: the boxes stay constants, so gradcheck nudges x only."""

    def call(x, **kwargs):
        if isinstance(x, np.ndarray):
            return fn(x, _BOXES.astype(x.dtype), _NUM, **kwargs)
        return fn(x, paddle.to_tensor(_BOXES.astype(x.dtype.name)), paddle.to_tensor(_NUM), **kwargs)

    return call


def psroi_samples(rng):
    return [
        Sample((rng.uniform(-1, 1, (2, 8, 8, 10)),), {"output_size": 2}, "2x2"),
        Sample((rng.uniform(-1, 1, (2, 12, 8, 10)),), {"output_size": (3, 2), "spatial_scale": 0.7}, "scaled"),
    ]


def box_coder_ref(prior, var, target, code_type="encode_center_size", box_normalized=True, axis=0):
    pixel = 0.0 if box_normalized else 1.0
    var = np.broadcast_to(np.asarray(var, dtype=np.float64), prior.shape)
    if code_type == "encode_center_size":
        out = np.zeros((len(target), len(prior), 4))
        for i, t in enumerate(target):
            for j, p in enumerate(prior):
                pw, ph = p[2] - p[0] + pixel, p[3] - p[1] + pixel
                tw, th = t[2] - t[0] + pixel, t[3] - t[1] + pixel
                out[i, j] = [((t[0] + t[2]) / 2 - (p[0] + pw / 2)) / pw, ((t[1] + t[3]) / 2 - (p[1] + ph / 2)) / ph,
                             math.log(abs(tw / pw)), math.log(abs(th / ph))]  # fmt: skip
                out[i, j] /= var[j]
        return out.astype(target.dtype)
    out = np.zeros(target.shape)
    for i in range(target.shape[0]):
        for j in range(target.shape[1]):
            k = j if axis == 0 else i
            p, v, t = prior[k], var[k], target[i, j]
            pw, ph = p[2] - p[0] + pixel, p[3] - p[1] + pixel
            cx, cy = v[0] * t[0] * pw + p[0] + pw / 2, v[1] * t[1] * ph + p[1] + ph / 2
            w, h = math.exp(v[2] * t[2]) * pw, math.exp(v[3] * t[3]) * ph
            out[i, j] = [cx - w / 2, cy - h / 2, cx + w / 2 - pixel, cy + h / 2 - pixel]
    return out.astype(target.dtype)


def box_coder_samples(rng):
    def boxes(n):
        corner = rng.uniform(0, 5, (n, 2))
        return np.concatenate([corner, corner + rng.uniform(0.5, 3, (n, 2))], 1)

    var = [0.1, 0.1, 0.2, 0.2]  # exact in float32, as Paddle's float attribute keeps it
    return [
        Sample((boxes(4), var, boxes(3)), {}, "encode, list"),
        Sample((boxes(4), rng.uniform(0.1, 0.3, (4, 4)), boxes(3)), {"box_normalized": False}, "encode, pixels"),
        Sample((boxes(4), var, rng.uniform(-1, 1, (3, 4, 4))), {"code_type": "decode_center_size"}, "decode"),
        Sample(
            (boxes(3), rng.uniform(0.1, 0.3, (3, 4)), rng.uniform(-1, 1, (3, 5, 4))),
            {"code_type": "decode_center_size", "axis": 1, "box_normalized": False},
            "decode, axis 1",
        ),  # fmt: skip
    ]


def prior_box_ref(x, image, min_sizes, max_sizes=None, aspect_ratios=(1.0,), variance=(0.1, 0.1, 0.2, 0.2),
                  flip=False, clip=False, steps=(0.0, 0.0), offset=0.5, min_max_aspect_ratios_order=False):  # fmt: skip
    fh, fw = x.shape[2:]
    ih, iw = image.shape[2:]
    step_w, step_h = steps if steps[0] and steps[1] else (iw / fw, ih / fh)
    ratios = [1.0]
    for ar in aspect_ratios:
        if all(abs(ar - r) >= 1e-6 for r in ratios):
            ratios += [ar, 1.0 / ar] if flip else [ar]
    out = []
    for i in range(fh):
        row = []
        for j in range(fw):
            cx, cy = (j + offset) * step_w, (i + offset) * step_h
            cell = []
            for s, size in enumerate(min_sizes):
                sizes = [(size * math.sqrt(ar) / 2, size / math.sqrt(ar) / 2) for ar in ratios]
                big = [(math.sqrt(size * max_sizes[s]) / 2,) * 2] if max_sizes else []
                if min_max_aspect_ratios_order:
                    sizes = [sizes[0]] + big + sizes[1:]
                else:
                    sizes = sizes + big
                cell += [[(cx - bw) / iw, (cy - bh) / ih, (cx + bw) / iw, (cy + bh) / ih] for bw, bh in sizes]
            row.append(cell)
        out.append(row)
    out = np.array(out)
    return np.clip(out, 0, 1) if clip else out


def _prior_part(k):
    def fn(x, image, **kw):
        if isinstance(x, np.ndarray):
            boxes = prior_box_ref(x, image, **kw).astype(x.dtype)
            return boxes if k == 0 else np.broadcast_to(np.asarray(kw.get("variance", (0.1, 0.1, 0.2, 0.2)),
                                                                   x.dtype), boxes.shape)  # fmt: skip
        return V.prior_box(x, image, **kw)[k]

    return fn


def prior_box_samples(rng):
    feat, img = rng.uniform(size=(1, 2, 3, 4)), rng.uniform(size=(1, 3, 24, 40))
    return [
        Sample((feat, img), {"min_sizes": [4.0]}, "one size"),
        Sample(
            (feat, img),
            {"min_sizes": [2.0, 5.0], "max_sizes": [4.0, 9.0], "aspect_ratios": [2.0, 3.0], "flip": True, "clip": True},
            "ratios, flip, clip",
        ),  # fmt: skip
        Sample(
            (feat, img),
            {
                "min_sizes": [3.0],
                "max_sizes": [6.0],
                "aspect_ratios": [0.5],
                "min_max_aspect_ratios_order": True,
                "steps": [5.0, 3.0],
                "offset": 0.25,
                "variance": [0.5, 0.25, 0.125, 1.0],
            },
            "order, steps",
        ),  # fmt: skip
    ]


def _sig(v):
    return 1.0 / (1.0 + math.exp(-v))


def yolo_box_ref(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox=True, scale_x_y=1.0,
                 iou_aware=False, iou_aware_factor=0.5):  # fmt: skip
    n, _, h, w = x.shape
    a = len(anchors) // 2
    boxes, scores = np.zeros((n, a * h * w, 4)), np.zeros((n, a * h * w, class_num))
    bias = -0.5 * (scale_x_y - 1)
    for b in range(n):
        ih, iw = img_size[b]
        for k in range(a):
            base = a + k * (5 + class_num) if iou_aware else k * (5 + class_num)
            for i in range(h):
                for j in range(w):
                    conf = _sig(x[b, base + 4, i, j])
                    if iou_aware:
                        conf = conf ** (1 - iou_aware_factor) * _sig(x[b, k, i, j]) ** iou_aware_factor
                    if conf < conf_thresh:
                        continue
                    cx = (j + _sig(x[b, base, i, j]) * scale_x_y + bias) * iw / w
                    cy = (i + _sig(x[b, base + 1, i, j]) * scale_x_y + bias) * ih / h
                    bw = math.exp(x[b, base + 2, i, j]) * anchors[2 * k] * iw / (downsample_ratio * w)
                    bh = math.exp(x[b, base + 3, i, j]) * anchors[2 * k + 1] * ih / (downsample_ratio * h)
                    box = [cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]
                    if clip_bbox:
                        box = [max(box[0], 0), max(box[1], 0), min(box[2], iw - 1), min(box[3], ih - 1)]
                    r = (k * h + i) * w + j
                    boxes[b, r] = box
                    scores[b, r] = [conf * _sig(x[b, base + 5 + c, i, j]) for c in range(class_num)]
    return boxes, scores


def _yolo_part(k):
    def fn(x, img_size, **kw):
        if isinstance(x, np.ndarray):
            return yolo_box_ref(x, img_size, **kw)[k].astype(x.dtype)
        return V.yolo_box(x, img_size, **kw)[k]

    return fn


def yolo_samples(rng):
    sizes = np.array([[40, 50], [33, 21]], "int32")
    return [
        Sample(
            (rng.uniform(-2, 2, (2, 16, 3, 4)), sizes),
            {"anchors": [10, 13, 16, 30], "class_num": 3, "conf_thresh": 0.5, "downsample_ratio": 8},
            "clipped",
        ),  # fmt: skip
        Sample(
            (rng.uniform(-2, 2, (2, 21, 2, 3)), sizes),
            {
                "anchors": [10, 13, 16, 30, 33, 23],
                "class_num": 2,
                "conf_thresh": 0.25,
                "downsample_ratio": 16,
                "clip_bbox": False,
                "scale_x_y": 1.25,
            },
            "scale, no clip",
        ),  # fmt: skip
        Sample(
            (rng.uniform(-2, 2, (1, 16, 3, 3)), sizes[:1]),
            {
                "anchors": [10, 13, 16, 30],
                "class_num": 2,
                "conf_thresh": 0.25,
                "downsample_ratio": 8,
                "iou_aware": True,
                "iou_aware_factor": 0.375,
            },
            "iou aware",
        ),  # fmt: skip
    ]


def _iou_ref(a, b, normalized):
    if b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1]:
        return 0.0
    px = 0.0 if normalized else 1.0

    def area(r):
        return 0.0 if r[2] < r[0] or r[3] < r[1] else (r[2] - r[0] + px) * (r[3] - r[1] + px)

    inter = (min(a[2], b[2]) - max(a[0], b[0]) + px) * (min(a[3], b[3]) - max(a[1], b[1]) + px)
    return inter / (area(a) + area(b) - inter)


def matrix_nms_ref(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k, use_gaussian=False,
                   gaussian_sigma=2.0, background_label=0, normalized=True):  # fmt: skip
    """(out, index, rois_num), with Paddle's loops (NMSMatrix, then MultiClassMatrixNMS)."""
    rows, index, counts = [], [], []
    for b in range(len(bboxes)):
        found = []  # (score, class, box index)
        for c in range(scores.shape[1]):
            if c == background_label:
                continue
            s = scores[b, c]
            order = sorted((i for i in range(len(s)) if s[i] > score_threshold), key=lambda i: -s[i])
            order = order[:nms_top_k] if nms_top_k > -1 else order
            iou = [[_iou_ref(bboxes[b, order[i]], bboxes[b, order[j]], normalized) for j in range(i)]
                   for i in range(len(order))]  # fmt: skip
            iou_max = [max(r, default=0.0) for r in iou]
            for i, k in enumerate(order):
                decay = 1.0
                for j in range(i):
                    if use_gaussian:
                        d = math.exp((iou_max[j] ** 2 - iou[i][j] ** 2) * gaussian_sigma)
                    else:
                        d = (1 - iou[i][j]) / (1 - iou_max[j])
                    decay = min(decay, d)
                if decay * s[k] > post_threshold:
                    found.append((decay * s[k], c, k))
        found.sort(key=lambda f: -f[0])
        found = found[:keep_top_k] if keep_top_k > -1 else found
        rows += [[c, sc, *bboxes[b, k]] for sc, c, k in found]
        index += [k + b * bboxes.shape[1] for _, _, k in found]
        counts.append(len(found))
    out = np.array(rows, dtype=bboxes.dtype).reshape(-1, 6)
    return out, np.array(index, dtype=np.int32).reshape(-1, 1), np.array(counts, dtype=np.int32)


def _matrix_nms_part(k):
    def fn(bboxes, scores, **kw):
        if isinstance(bboxes, np.ndarray):
            return matrix_nms_ref(bboxes, scores, **kw)[k]
        out, rois_num, index = V.matrix_nms(bboxes, scores, return_index=True, **kw)
        return (out, index, rois_num)[k]

    return fn


def matrix_nms_samples(rng):
    corner = rng.uniform(0, 6, (2, 12, 2))
    boxes = np.concatenate([corner, corner + rng.uniform(1, 4, (2, 12, 2))], -1)
    scores = rng.uniform(0, 1, (2, 3, 12))
    # thresholds exact in float32 (Paddle's attributes are float32)
    return [
        Sample(
            (boxes, scores),
            {"score_threshold": 0.25, "post_threshold": 0.125, "nms_top_k": -1, "keep_top_k": -1},
            "linear",
        ),  # fmt: skip
        Sample(
            (boxes, scores),
            {
                "score_threshold": 0.125,
                "post_threshold": 0.25,
                "nms_top_k": 6,
                "keep_top_k": 8,
                "use_gaussian": True,
                "gaussian_sigma": 3.0,
                "background_label": -1,
            },
            "gaussian, top k",
        ),  # fmt: skip
        Sample(
            (boxes, scores),
            {
                "score_threshold": 0.25,
                "post_threshold": 0.25,
                "nms_top_k": 10,
                "keep_top_k": 5,
                "normalized": False,
                "background_label": 2,
            },
            "pixels",
        ),  # fmt: skip
    ]


def generate_proposals_ref(scores, bbox_deltas, img_size, anchors, variances, pre_nms_top_n=6000,
                           post_nms_top_n=1000, nms_thresh=0.5, min_size=0.1, eta=1.0, pixel_offset=False):  # fmt: skip
    """(rois, probs, rois_num), one anchor at a time as Paddle's ProposalForOneImage."""
    off = 1.0 if pixel_offset else 0.0
    n, a, h, w = scores.shape
    rois, probs, counts = [], [], []
    for b in range(n):
        cands = []  # (score, anchor, delta, variance), anchors in [H, W, A] order
        for i in range(h):
            for j in range(w):
                for k in range(a):
                    cands.append((scores[b, k, i, j], anchors[i, j, k], bbox_deltas[b, 4 * k : 4 * k + 4, i, j],
                                  variances[i, j, k]))  # fmt: skip
        cands.sort(key=lambda c: -c[0])
        cands = cands[:pre_nms_top_n] if 0 < pre_nms_top_n < len(cands) else cands
        kept = []
        im_h, im_w = img_size[b]
        for sc, an, d, v in cands:
            aw, ah = an[2] - an[0] + off, an[3] - an[1] + off
            cx, cy = v[0] * d[0] * aw + an[0] + aw / 2, v[1] * d[1] * ah + an[1] + ah / 2
            bw = math.exp(min(v[2] * d[2], math.log(1000 / 16))) * aw
            bh = math.exp(min(v[3] * d[3], math.log(1000 / 16))) * ah
            box = [cx - bw / 2, cy - bh / 2, cx + bw / 2 - off, cy + bh / 2 - off]
            box = [max(min(c, lim - off), 0) for c, lim in zip(box, (im_w, im_h, im_w, im_h))]
            bw, bh = box[2] - box[0] + off, box[3] - box[1] + off
            ok = bw >= max(min_size, 1) and bh >= max(min_size, 1)
            if pixel_offset:
                ok = ok and box[0] + bw / 2 <= im_w and box[1] + bh / 2 <= im_h
            if ok:
                kept.append((sc, box))
        if not kept:
            kept = [(0.0, [0.0] * 4)]
        elif nms_thresh > 0:
            chosen, thr = [], nms_thresh
            for sc, box in kept:
                if all(_iou_ref(box, other, not pixel_offset) <= thr for _, other in chosen):
                    chosen.append((sc, box))
                    if eta < 1 and thr > 0.5:
                        thr *= eta
            kept = chosen[:post_nms_top_n] if post_nms_top_n > 0 else chosen
        rois += [box for _, box in kept]
        probs += [[sc] for sc, _ in kept]
        counts.append(len(kept))
    return (np.array(rois, dtype=scores.dtype), np.array(probs, dtype=scores.dtype), np.array(counts, np.int32))


def _proposals_part(k):
    def fn(*args, **kw):
        if isinstance(args[0], np.ndarray):
            return generate_proposals_ref(*args, **kw)[k]
        return V.generate_proposals(*args, return_rois_num=True, **kw)[k]

    return fn


def proposal_samples(rng):
    n, a, h, w = 2, 2, 3, 4
    cy, cx = np.meshgrid(np.arange(h) * 8 + 4, np.arange(w) * 8 + 4, indexing="ij")
    half = np.array([[4, 6], [7, 3]])
    anchors = np.stack([cx[..., None] - half[:, 0], cy[..., None] - half[:, 1], cx[..., None] + half[:, 0],
                        cy[..., None] + half[:, 1]], axis=-1).astype(np.float64)  # fmt: skip
    args = (rng.uniform(0, 1, (n, a, h, w)), rng.uniform(-0.5, 0.5, (n, 4 * a, h, w)),
            np.array([[24.0, 30.0], [20.0, 26.0]]), anchors, rng.uniform(0.1, 0.3, (h, w, a, 4)))  # fmt: skip
    return [
        Sample(args, {}, "defaults"),
        Sample(args, {"pre_nms_top_n": 15, "post_nms_top_n": 5, "nms_thresh": 0.25, "min_size": 3.0}, "top n"),
        Sample(args, {"pixel_offset": True, "nms_thresh": 0.75, "eta": 0.5, "min_size": 4.0}, "pixels, eta"),
    ]


def distribute_fpn_ref(fpn_rois, rois_num, min_level, max_level, refer_level, refer_scale, pixel_offset=False):
    """(all levels' RoIs concatenated, restore index, per-level counts [L, N]), one RoI at a time."""
    px = 1.0 if pixel_offset else 0.0
    n_levels = max_level - min_level + 1
    batch = np.repeat(np.arange(len(rois_num)), rois_num)
    levels = []
    for x1, y1, x2, y2 in fpn_rois:
        area = 0.0 if x2 < x1 or y2 < y1 else (x2 - x1 + px) * (y2 - y1 + px)
        lvl = math.floor(math.log2(math.sqrt(area) / refer_scale + 1e-8) + refer_level) if area > 0 else min_level
        levels.append(min(max(lvl, min_level), max_level) - min_level)
    order = [i for lv in range(n_levels) for i in range(len(fpn_rois)) if levels[i] == lv]
    restore = np.array([order.index(i) for i in range(len(fpn_rois))], np.int32)[:, None]
    counts = np.zeros((n_levels, len(rois_num)), np.int32)
    for i, lv in enumerate(levels):
        counts[lv, batch[i]] += 1
    return fpn_rois[order], restore, counts


def _fpn_part(k):
    def fn(fpn_rois, rois_num, **kw):
        if isinstance(fpn_rois, np.ndarray):
            return distribute_fpn_ref(fpn_rois, rois_num, **kw)[k]
        multi, restore, nums = V.distribute_fpn_proposals(fpn_rois, rois_num=rois_num, **kw)
        return (paddle.concat(multi), restore, paddle.stack(nums))[k]

    return fn


def fpn_samples(rng):
    corner = rng.uniform(0, 100, (10, 2))
    rois = np.concatenate([corner, corner + rng.uniform(5, 400, (10, 2))], 1)
    num = np.array([4, 6], "int32")
    return [
        Sample((rois, num), {"min_level": 2, "max_level": 5, "refer_level": 4, "refer_scale": 224}, "2..5"),
        Sample(
            (rois, num),
            {"min_level": 1, "max_level": 3, "refer_level": 2, "refer_scale": 64, "pixel_offset": True},
            "pixel offset",
        ),  # fmt: skip
    ]


def yolo_loss_ref(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio,
                  gt_score=None, use_label_smooth=True, scale_x_y=1.0):  # fmt: skip
    """YOLOv3's loss per image, one prediction and one ground truth at a time (Paddle's CPU kernel)."""
    n, _, h, w = x.shape
    m, na, nb = len(anchor_mask), len(anchors) // 2, gt_box.shape[1]
    size = downsample_ratio * h
    p = x.reshape(n, m, 5 + class_num, h, w)
    pos = 1 - min(1 / class_num, 1 / 40) if use_label_smooth else 1.0
    neg = 1 - pos
    score = np.ones((n, nb)) if gt_score is None else gt_score
    bias = -0.5 * (scale_x_y - 1)

    def sce(v, label):
        return max(v, 0) - v * label + math.log(1 + math.exp(-abs(v)))

    def iou(a, b):
        iw = min(a[0] + a[2] / 2, b[0] + b[2] / 2) - max(a[0] - a[2] / 2, b[0] - b[2] / 2)
        ih = min(a[1] + a[3] / 2, b[1] + b[3] / 2) - max(a[1] - a[3] / 2, b[1] - b[3] / 2)
        inter = 0.0 if iw < 0 or ih < 0 else iw * ih
        return inter / (a[2] * a[3] + b[2] * b[3] - inter)

    loss = np.zeros(n)
    for b in range(n):
        valid = [gt_box[b, t, 2] >= 1e-6 and gt_box[b, t, 3] >= 1e-6 for t in range(nb)]
        obj = np.zeros((m, h, w))
        for j in range(m):
            aw, ah = anchors[2 * anchor_mask[j]], anchors[2 * anchor_mask[j] + 1]
            for i in range(h):
                for k in range(w):
                    v = p[b, j, :, i, k]
                    pred = ((k + _sig(v[0]) * scale_x_y + bias) / h, (i + _sig(v[1]) * scale_x_y + bias) / h,
                            math.exp(v[2]) * aw / size, math.exp(v[3]) * ah / size)  # fmt: skip
                    best = max([iou(pred, gt_box[b, t]) for t in range(nb) if valid[t]], default=0.0)
                    if best > ignore_thresh:
                        obj[j, i, k] = -1
        for t in range(nb):
            if not valid[t]:
                continue
            gx, gy, gw, gh = gt_box[b, t]
            shape_ious = [iou((0, 0, anchors[2 * a] / size, anchors[2 * a + 1] / size), (0, 0, gw, gh))
                          for a in range(na)]  # fmt: skip
            best_n = int(np.argmax(shape_ious))
            if best_n not in anchor_mask:
                continue
            j, gi, gj = list(anchor_mask).index(best_n), int(gx * w), int(gy * h)
            v, sc = p[b, j, :, gj, gi], score[b, t]
            weight = (2 - gw * gh) * sc
            loss[b] += (sce(v[0], gx * h - gi) + sce(v[1], gy * h - gj)) * weight
            loss[b] += abs(v[2] - math.log(gw * size / anchors[2 * best_n])) * weight
            loss[b] += abs(v[3] - math.log(gh * size / anchors[2 * best_n + 1])) * weight
            loss[b] += sum(sce(v[5 + c], pos if c == gt_label[b, t] else neg) for c in range(class_num)) * sc
            obj[j, gj, gi] = sc
        for j in range(m):
            for i in range(h):
                for k in range(w):
                    if obj[j, i, k] > 1e-5:
                        loss[b] += sce(p[b, j, 4, i, k], 1.0) * obj[j, i, k]
                    elif obj[j, i, k] > -0.5:
                        loss[b] += sce(p[b, j, 4, i, k], 0.0)
    return loss.astype(x.dtype)


_GT_BOX = np.array(
    [
        [[0.1, 0.2, 0.3, 0.4], [0.6, 0.3, 0.9, 0.7], [0.4, 0.8, 0.35, 0.5], [0.0, 0.0, 0.0, 0.0]],
        [[0.9, 0.9, 0.2, 0.2], [0.3, 0.6, 0.5, 0.3], [0.7, 0.1, 0.4, 0.9], [0.55, 0.55, 0.6, 0.7]],
    ]
)
_GT_LABEL = np.array([[0, 2, 1, 0], [1, 1, 2, 0]], "int32")
_GT_SCORE = np.array([[0.5, 0.9, 0.75, 1.0], [0.25, 1.0, 0.6, 0.8]])


def _yolo_loss_on_fixed_truth(x, scored=False, **kw):
    """yolo_loss of x against fixed ground truths: they stay constants, so gradcheck nudges x only."""
    if isinstance(x, np.ndarray):
        return yolo_loss_ref(x, _GT_BOX, _GT_LABEL, gt_score=_GT_SCORE if scored else None, **kw)
    dtype = x.dtype.name
    score = paddle.to_tensor(_GT_SCORE.astype(dtype)) if scored else None
    return V.yolo_loss(x, paddle.to_tensor(_GT_BOX.astype(dtype)), paddle.to_tensor(_GT_LABEL), gt_score=score,
                       **kw)  # fmt: skip


def yolo_loss_samples(rng):
    kw = {"anchors": [10, 13, 16, 30, 33, 23], "class_num": 3, "downsample_ratio": 8}
    return [
        Sample((rng.uniform(-1, 1, (2, 16, 4, 4)),), {**kw, "anchor_mask": [0, 1], "ignore_thresh": 0.5}, "smooth"),
        Sample(
            (rng.uniform(-1, 1, (2, 16, 4, 4)),),
            {
                **kw,
                "anchor_mask": [1, 2],
                "ignore_thresh": 0.25,
                "use_label_smooth": False,
                "scale_x_y": 1.25,
                "scored": True,
            },
            "scored",
        ),  # fmt: skip
    ]


ENTRIES = [
    OpInfo("vision.ops.deform_conv2d", deform_entry_fn, deform_entry_fn, deform_samples, atol=1e-9),
    OpInfo("vision.ops.psroi_pool", _on_fixed_boxes(V.psroi_pool), _on_fixed_boxes(psroi_pool_ref), psroi_samples),
    OpInfo("vision.ops.box_coder", V.box_coder, box_coder_ref, box_coder_samples, grad=False),
    OpInfo("vision.ops.prior_box.boxes", _prior_part(0), _prior_part(0), prior_box_samples, grad=False),
    OpInfo("vision.ops.prior_box.variances", _prior_part(1), _prior_part(1), prior_box_samples, grad=False),
    OpInfo("vision.ops.yolo_box.boxes", _yolo_part(0), _yolo_part(0), yolo_samples, grad=False),
    OpInfo("vision.ops.yolo_box.scores", _yolo_part(1), _yolo_part(1), yolo_samples, grad=False),
    OpInfo("vision.ops.matrix_nms.out", _matrix_nms_part(0), _matrix_nms_part(0), matrix_nms_samples, grad=False),
    OpInfo("vision.ops.matrix_nms.index", _matrix_nms_part(1), _matrix_nms_part(1), matrix_nms_samples, grad=False),
    OpInfo(
        "vision.ops.matrix_nms.rois_num", _matrix_nms_part(2), _matrix_nms_part(2), matrix_nms_samples, grad=False
    ),  # fmt: skip
]
ENTRIES += [
    OpInfo(
        f"vision.ops.generate_proposals.{part}", _proposals_part(k), _proposals_part(k), proposal_samples, grad=False
    )  # fmt: skip
    for k, part in enumerate(("rois", "probs", "rois_num"))
]
ENTRIES += [
    OpInfo(f"vision.ops.distribute_fpn_proposals.{part}", _fpn_part(k), _fpn_part(k), fpn_samples, grad=False)
    for k, part in enumerate(("rois", "restore_ind", "rois_num_per_level"))
]
ENTRIES += [
    OpInfo("vision.ops.yolo_loss", _yolo_loss_on_fixed_truth, _yolo_loss_on_fixed_truth, yolo_loss_samples),
]
