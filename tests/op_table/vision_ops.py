"""Op-table section: paddle.vision.ops' roi_align and roi_pool (gradients in x) and nms (no gradient).

The references loop over boxes, bins and samples one at a time, as Paddle's CPU kernels do, independently of the
separable, vectorized kernels in minipaddle/ops/vision_ops.py. Box corners avoid half-integers (roi_pool's
rounding) and pixel borders (where roi_align's gradient jumps); roi_pool's inputs have no ties.
"""

from __future__ import annotations

import math

import numpy as np

import minipaddle as paddle
from minipaddle.vision import ops as V
from tests.op_table.common import OpInfo, Sample, distinct


def _pair(s):
    return (s, s) if isinstance(s, int) else tuple(s)


def _bilinear(img, y, x):
    h, w = img.shape[-2:]
    if y < -1.0 or y > h or x < -1.0 or x > w:
        return 0.0 * img[..., 0, 0]
    y, x = max(y, 0.0), max(x, 0.0)
    yl, xl = int(y), int(x)
    yh = h - 1 if yl >= h - 1 else yl + 1
    if yl >= h - 1:
        yl, y = h - 1, float(h - 1)
    xh = w - 1 if xl >= w - 1 else xl + 1
    if xl >= w - 1:
        xl, x = w - 1, float(w - 1)
    ly, lx = y - yl, x - xl
    return ((1 - ly) * (1 - lx) * img[..., yl, xl] + (1 - ly) * lx * img[..., yl, xh]
            + ly * (1 - lx) * img[..., yh, xl] + ly * lx * img[..., yh, xh])  # fmt: skip


def roi_align_ref(x, boxes, boxes_num, output_size, spatial_scale=1.0, sampling_ratio=-1, aligned=True):
    ph, pw = _pair(output_size)
    batch = np.repeat(np.arange(len(boxes_num)), boxes_num)
    out = np.zeros((len(boxes), x.shape[1], ph, pw), dtype=x.dtype)
    off = 0.5 if aligned else 0.0
    for r, (x1, y1, x2, y2) in enumerate(boxes * spatial_scale - off):
        rw, rh = x2 - x1, y2 - y1
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        gh = sampling_ratio if sampling_ratio > 0 else math.ceil(rh / ph)
        gw = sampling_ratio if sampling_ratio > 0 else math.ceil(rw / pw)
        for i in range(ph):
            for j in range(pw):
                acc = 0.0
                for iy in range(gh):
                    for ix in range(gw):
                        y = y1 + i * rh / ph + (iy + 0.5) * rh / ph / gh
                        xx = x1 + j * rw / pw + (ix + 0.5) * rw / pw / gw
                        acc = acc + _bilinear(x[batch[r]], y, xx)
                out[r, :, i, j] = acc / max(gh * gw, 1)
    return out


def roi_pool_ref(x, boxes, boxes_num, output_size, spatial_scale=1.0):
    ph, pw = _pair(output_size)
    h, w = x.shape[2:]
    batch = np.repeat(np.arange(len(boxes_num)), boxes_num)
    out = np.zeros((len(boxes), x.shape[1], ph, pw), dtype=x.dtype)
    for r, box in enumerate(boxes):
        x1, y1, x2, y2 = (int(math.floor(v * spatial_scale + 0.5)) for v in box)
        bh, bw = max(y2 - y1 + 1, 1) / ph, max(x2 - x1 + 1, 1) / pw
        for i in range(ph):
            for j in range(pw):
                hs, he = min(max(math.floor(i * bh) + y1, 0), h), min(max(math.ceil((i + 1) * bh) + y1, 0), h)
                ws, we = min(max(math.floor(j * bw) + x1, 0), w), min(max(math.ceil((j + 1) * bw) + x1, 0), w)
                if he > hs and we > ws:
                    out[r, :, i, j] = x[batch[r], :, hs:he, ws:we].max(axis=(1, 2))
    return out


def nms_ref(boxes, iou_threshold=0.3, scores=None):
    order = list(range(len(boxes))) if scores is None else list(np.argsort(-scores, kind="stable"))
    keep = []
    for i in order:
        ok = True
        for k in keep:
            a, b = boxes[i], boxes[k]
            iw = max(min(a[2], b[2]) - max(a[0], b[0]), 0)
            ih = max(min(a[3], b[3]) - max(a[1], b[1]), 0)
            inter = iw * ih
            union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
            if inter > 0 and inter / union > iou_threshold:
                ok = False
        if ok:
            keep.append(i)
    return np.array(keep, dtype=np.int64)


_BOXES = np.array([[0.3, 0.7, 5.2, 6.9], [2.1, 1.2, 9.3, 7.7], [-1.2, -2.1, 3.3, 2.6]])
_NUM = np.array([1, 2], "int32")


def _on_fixed_boxes(fn):
    """fn(x, **kw) on _BOXES: the boxes stay constants (no gradient flows to them, as in Paddle), so gradcheck
    nudges x only."""

    def call(x, **kwargs):
        if isinstance(x, np.ndarray):
            return fn(x, _BOXES.astype(x.dtype), _NUM, **kwargs)
        return fn(x, paddle.to_tensor(_BOXES.astype(x.dtype.name)), paddle.to_tensor(_NUM), **kwargs)

    return call


def roi_samples(rng):
    return [
        Sample((rng.uniform(-1, 1, (2, 2, 8, 10)),), {"output_size": 2}, "2x2"),
        Sample(
            (rng.uniform(-1, 1, (2, 2, 8, 10)),), {"output_size": (3, 2), "spatial_scale": 0.7}, "scaled"
        ),  # fmt: skip
        Sample(
            (rng.uniform(-1, 1, (2, 1, 8, 10)),),
            {"output_size": 2, "sampling_ratio": 2, "aligned": False},
            "ratio, unaligned",
        ),  # fmt: skip
    ]


def pool_samples(rng):
    return [
        Sample((distinct(rng, 2, 2, 8, 10),), {"output_size": 2}, "2x2"),
        Sample((distinct(rng, 2, 2, 8, 10),), {"output_size": (3, 4), "spatial_scale": 0.7}, "scaled"),
    ]


def nms_samples(rng):
    b = rng.uniform(0, 10, (12, 2))
    boxes = np.concatenate([b, b + rng.uniform(1, 5, (12, 2))], 1)
    return [
        Sample((boxes,), {"iou_threshold": 0.3}, "in order"),
        Sample((boxes, 0.1, rng.permutation(12) / 12.0), {}, "by score"),
    ]


ENTRIES = [
    OpInfo("vision.ops.roi_align", _on_fixed_boxes(V.roi_align), _on_fixed_boxes(roi_align_ref), roi_samples),
    OpInfo("vision.ops.roi_pool", _on_fixed_boxes(V.roi_pool), _on_fixed_boxes(roi_pool_ref), pool_samples),
    OpInfo("vision.ops.nms", V.nms, nms_ref, nms_samples, grad=False),
]
