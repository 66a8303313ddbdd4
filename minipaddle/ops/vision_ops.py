"""Detection ops of paddle.vision.ops: RoI Align, RoI pooling and non-maximum suppression.

A region of interest (RoI) is a box [x1, y1, x2, y2] in image coordinates; `boxes_num` says how many of the
stacked boxes belong to each image of the batch, so box r reads image `batch[r]`.

roi_align averages bilinear samples over a grid in each of the output's bins. Bilinear interpolation is separable:
each sample's weight on pixel (h, w) is a weight on row h times a weight on column w (Paddle's zeroing of samples
outside [-1, size] is separable too). So the whole op is out[r] = Ay[r] @ x[batch[r]] @ Ax[r].T / count[r], with
Ay [PH, H] and Ax [PW, W] the summed sample weights of each bin — no loop over boxes or pixels, and a gradient that
is the same two products transposed, scattered back to each box's image.

roi_pool takes the maximum over the integer pixel rectangle of each bin. The maximum over a rectangle is the
maximum over its rows of the maxima over its columns, which keeps it vectorized too; the gradient goes to the
first maximal pixel (rows first, as Paddle's loop finds it).

nms keeps boxes greedily in score order: the loop over kept boxes is inherent to the algorithm; the IoUs are one
vectorized matrix.

psroi_pool (Dai et al., R-FCN): output bin (i, j) of output channel c averages the input channel
c*PH*PW + i*PW + j over the bin's integer pixel rectangle. The rectangle sum is a product of two 0/1 masks, so it
is Ay @ x @ Ax.T per box, as roi_align does in ops/vision_ops.py; the gradient is the same masks transposed.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.low_precision import LOW_PRECISION

__all__ = [
    "roi_align",
    "roi_align_grad",
    "roi_pool",
    "roi_pool_grad",
    "nms",
    "psroi_pool",
    "psroi_pool_grad",
]


def _batch_of_each_box(boxes_num, n_boxes: int, fn: str) -> np.ndarray:
    counts = np.asarray(boxes_num).astype(np.int64).reshape(-1)
    if counts.sum() != n_boxes:
        raise ValueError(f"{fn}: boxes_num must add up to the number of boxes ({n_boxes}), got {counts.tolist()}")
    return np.repeat(np.arange(counts.size), counts)


# ---- roi_align ------------------------------------------------------------------------------------------------------


def _axis_weights(start, size, pooled: int, grid, length: int, dtype) -> np.ndarray:
    """[R, pooled, length]: for each box and bin along one axis, the bilinear weight of each pixel summed over the
    bin's `grid` samples (Paddle's roi_align sampling, clamping and zeroing, one axis at a time)."""
    bin_size = size / pooled  # [R]
    most = int(grid.max()) if grid.size else 1
    i = np.arange(most)
    # sample positions [R, pooled, most]; samples past a box's own grid count are masked out
    pos = (start[:, None, None] + np.arange(pooled)[None, :, None] * bin_size[:, None, None]
           + (i[None, None, :] + 0.5) * (bin_size / grid)[:, None, None])  # fmt: skip
    used = (i[None, None, :] < grid[:, None, None]) & (pos >= -1.0) & (pos <= length)
    pos = np.maximum(pos, 0.0)
    low = np.floor(pos).astype(np.int64)
    at_edge = low >= length - 1
    low = np.where(at_edge, length - 1, low)
    high = np.where(at_edge, length - 1, low + 1)
    frac = np.where(at_edge, 0.0, pos - low)
    weights = np.zeros((*pos.shape[:2], length), dtype=np.float64)
    r_idx, p_idx = (a[..., None] for a in np.indices(pos.shape[:2]))
    for corner, w in ((low, 1.0 - frac), (high, frac)):
        np.add.at(weights, (r_idx, p_idx, corner), np.where(used, w, 0.0))
    return weights.astype(dtype)


def _align_matrices(boxes, n_boxes, pooled_height, pooled_width, spatial_scale, sampling_ratio, aligned, h, w, dtype):
    offset = 0.5 if aligned else 0.0
    x1, y1, x2, y2 = (boxes[:, k].astype(np.float64) * spatial_scale - offset for k in range(4))
    roi_w, roi_h = x2 - x1, y2 - y1
    if not aligned:
        roi_w, roi_h = np.maximum(roi_w, 1.0), np.maximum(roi_h, 1.0)
    if sampling_ratio > 0:
        grid_h = np.full(n_boxes, sampling_ratio, dtype=np.int64)
        grid_w = grid_h
    else:
        grid_h = np.ceil(roi_h / pooled_height).astype(np.int64)
        grid_w = np.ceil(roi_w / pooled_width).astype(np.int64)
    count = np.maximum(grid_h * grid_w, 1).astype(dtype)
    ay = _axis_weights(y1, roi_h, pooled_height, grid_h, h, dtype)
    ax = _axis_weights(x1, roi_w, pooled_width, grid_w, w, dtype)
    return ay, ax, count


@register
class RoiAlign(OpDef):
    """out [R, C, PH, PW] = roi_align(x [N, C, H, W], boxes [R, 4], boxes_num [N])."""

    name = "roi_align"

    def kernel(self, x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale, sampling_ratio, aligned):
        dtype = x.dtype
        x = x.astype(np.float32) if x.dtype in LOW_PRECISION else x  # float16/bfloat16: in float32 (einsum), rounded
        batch = _batch_of_each_box(boxes_num, boxes.shape[0], "roi_align")
        ay, ax, count = _align_matrices(boxes, boxes.shape[0], pooled_height, pooled_width, spatial_scale,
                                        sampling_ratio, aligned, x.shape[2], x.shape[3], x.dtype)  # fmt: skip
        rows = np.einsum("rph,rchw->rcpw", ay, x[batch])
        return (np.einsum("rcpw,rqw->rcpq", rows, ax) / count[:, None, None, None]).astype(dtype)

    def grad(self, node, g):
        x, boxes, boxes_num = node.inputs
        return (roi_align_grad(boxes, boxes_num, g, x.shape, **node.attrs), None, None)

    def infer_meta(self, x: Meta, boxes: Meta, boxes_num: Meta, pooled_height, pooled_width, **attrs) -> Meta:
        return Meta((boxes.shape[0], x.shape[1], pooled_height, pooled_width), x.dtype)


@register
class RoiAlignGrad(OpDef):
    """dx = roi_align_grad(boxes, boxes_num, g): each box's Ay.T @ g @ Ax / count, added into its image."""

    name = "roi_align_grad"
    differentiable = False

    def kernel(self, boxes, boxes_num, g, x_shape, pooled_height, pooled_width, spatial_scale, sampling_ratio,
               aligned):  # fmt: skip
        batch = _batch_of_each_box(boxes_num, boxes.shape[0], "roi_align")
        ay, ax, count = _align_matrices(boxes, boxes.shape[0], pooled_height, pooled_width, spatial_scale,
                                        sampling_ratio, aligned, x_shape[2], x_shape[3], g.dtype)  # fmt: skip
        per_box = np.einsum("rph,rcpq,rqw->rchw", ay, g / count[:, None, None, None], ax)
        dx = np.zeros(x_shape, dtype=g.dtype)
        np.add.at(dx, batch, per_box)
        return dx

    def infer_meta(self, boxes: Meta, boxes_num: Meta, g: Meta, x_shape, **attrs) -> Meta:
        return Meta(tuple(x_shape), g.dtype)


def roi_align(x: Tensor, boxes: Tensor, boxes_num: Tensor, pooled_height: int, pooled_width: int,
              spatial_scale: float, sampling_ratio: int, aligned: bool) -> Tensor:  # fmt: skip
    attrs = {"pooled_height": int(pooled_height), "pooled_width": int(pooled_width),
             "spatial_scale": float(spatial_scale), "sampling_ratio": int(sampling_ratio),
             "aligned": bool(aligned)}  # fmt: skip
    return apply(RoiAlign, (x, boxes, boxes_num), attrs)


def roi_align_grad(boxes: Tensor, boxes_num: Tensor, g: Tensor, x_shape, **attrs) -> Tensor:
    return apply(RoiAlignGrad, (boxes, boxes_num, g), {"x_shape": tuple(int(s) for s in x_shape), **attrs})


# ---- roi_pool -------------------------------------------------------------------------------------------------------


def _round_half_away(v):
    """C's round(): halves go away from zero (numpy's round goes to even)."""
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def _bin_masks(start, end, pooled: int, length: int) -> np.ndarray:
    """[R, pooled, length]: which pixels of one axis each bin covers (Paddle's integer bin edges)."""
    size = np.maximum(end - start + 1, 1)
    bin_size = size / pooled
    p = np.arange(pooled)[None, :]
    lo = np.clip(np.floor(p * bin_size[:, None]) + start[:, None], 0, length)
    hi = np.clip(np.ceil((p + 1) * bin_size[:, None]) + start[:, None], 0, length)
    pixel = np.arange(length)[None, None, :]
    return (pixel >= lo[..., None]) & (pixel < hi[..., None])


def _roi_pool_argmax(x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale):
    """(out [R, C, PH, PW], flat index of each bin's first maximum within its image plane, or -1 if empty)."""
    batch = _batch_of_each_box(boxes_num, boxes.shape[0], "roi_pool")
    x1, y1, x2, y2 = (_round_half_away(boxes[:, k].astype(np.float64) * spatial_scale) for k in range(4))
    mask_h = _bin_masks(y1, y2, pooled_height, x.shape[2])  # [R, PH, H]
    mask_w = _bin_masks(x1, x2, pooled_width, x.shape[3])  # [R, PW, W]
    xr = x[batch]  # [R, C, H, W]
    # maximum over each bin's columns, for every row: [R, C, H, PW]
    cols = np.where(mask_w[:, None, None, :, :], xr[:, :, :, None, :], -np.inf)
    col_max, col_arg = cols.max(axis=-1), cols.argmax(axis=-1)
    # then over the bin's rows: [R, C, PH, PW]
    rows = np.where(mask_h[:, None, :, None, :], np.moveaxis(col_max, 2, 3)[:, :, None, :, :], -np.inf)
    out, row_arg = rows.max(axis=-1), rows.argmax(axis=-1)
    col_at = np.take_along_axis(np.moveaxis(col_arg, 2, 3)[:, :, None, :, :], row_arg[..., None], axis=-1)[..., 0]
    empty = ~(mask_h.any(-1)[:, :, None] & mask_w.any(-1)[:, None, :])[:, None]  # [R, 1, PH, PW]
    index = np.where(empty, -1, row_arg * x.shape[3] + col_at)
    return np.where(empty, 0, out).astype(x.dtype), index, batch


@register
class RoiPool(OpDef):
    """out [R, C, PH, PW] = roi_pool(x [N, C, H, W], boxes [R, 4], boxes_num [N]): each bin's maximum (0 if the
    bin is empty)."""

    name = "roi_pool"

    def kernel(self, x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale):
        return _roi_pool_argmax(x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale)[0]

    def grad(self, node, g):
        return (roi_pool_grad(*node.inputs, g, **node.attrs), None, None)

    def infer_meta(self, x: Meta, boxes: Meta, boxes_num: Meta, pooled_height, pooled_width, **attrs) -> Meta:
        return Meta((boxes.shape[0], x.shape[1], pooled_height, pooled_width), x.dtype)


@register
class RoiPoolGrad(OpDef):
    """dx = roi_pool_grad(x, boxes, boxes_num, g): each bin's gradient added at its maximum's pixel."""

    name = "roi_pool_grad"
    differentiable = False

    def kernel(self, x, boxes, boxes_num, g, pooled_height, pooled_width, spatial_scale):
        _, index, batch = _roi_pool_argmax(x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale)
        n, c, h, w = x.shape
        plane = (batch[:, None] * c + np.arange(c)[None, :]) * (h * w)  # [R, C]: where each (image, channel) starts
        target = plane[:, :, None, None] + index
        hit = index >= 0
        dx = np.bincount(target[hit], g[hit], minlength=x.size)
        return dx.reshape(x.shape).astype(g.dtype)

    def infer_meta(self, x: Meta, boxes: Meta, boxes_num: Meta, g: Meta, **attrs) -> Meta:
        return x


def roi_pool(x: Tensor, boxes: Tensor, boxes_num: Tensor, pooled_height: int, pooled_width: int,
             spatial_scale: float) -> Tensor:  # fmt: skip
    attrs = {"pooled_height": int(pooled_height), "pooled_width": int(pooled_width),
             "spatial_scale": float(spatial_scale)}  # fmt: skip
    return apply(RoiPool, (x, boxes, boxes_num), attrs)


def roi_pool_grad(x: Tensor, boxes: Tensor, boxes_num: Tensor, g: Tensor, **attrs) -> Tensor:
    return apply(RoiPoolGrad, (x, boxes, boxes_num, g), attrs)


# ---- nms ------------------------------------------------------------------------------------------------------------


def _greedy_keep(boxes: np.ndarray, iou_threshold: float) -> np.ndarray:
    """Indices of the boxes kept, in their order: a box is dropped when its IoU with a kept earlier box is above
    the threshold."""
    x1, y1, x2, y2 = (boxes[:, k] for k in range(4))
    area = (x2 - x1) * (y2 - y1)
    inter_w = np.clip(np.minimum(x2[:, None], x2[None]) - np.maximum(x1[:, None], x1[None]), 0, None)
    inter_h = np.clip(np.minimum(y2[:, None], y2[None]) - np.maximum(y1[:, None], y1[None]), 0, None)
    inter = inter_w * inter_h
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where(inter > 0, inter / (area[:, None] + area[None] - inter), 0.0)
    dropped = np.zeros(len(boxes), dtype=bool)
    keep = []
    for i in range(len(boxes)):  # greedy: each decision depends on the boxes kept before it
        if not dropped[i]:
            keep.append(i)
            dropped |= iou[i] > iou_threshold
    return np.asarray(keep, dtype=np.int64)


def _by_score(scores: np.ndarray) -> np.ndarray:
    return np.argsort(-scores, kind="stable")


@register
class Nms(OpDef):
    """kept = nms(boxes [M, 4], scores [M] or nothing, category_idxs [M] or nothing): int64 indices of the kept
    boxes (see paddle.vision.ops.nms for the order)."""

    name = "nms"
    differentiable = False

    def kernel(self, boxes, *extra, iou_threshold, categories, top_k):
        if not extra:  # no scores: the boxes' own order
            return _greedy_keep(boxes, iou_threshold)
        scores = extra[0]
        if len(extra) == 1:  # one class: all boxes by score (top_k is ignored here, as in Paddle)
            order = _by_score(scores)
            return order[_greedy_keep(boxes[order], iou_threshold)]
        category_idxs = extra[1]
        kept = np.zeros(len(boxes), dtype=bool)
        for category in categories:  # each category on its own
            members = np.flatnonzero(category_idxs == category)
            order = members[_by_score(scores[members])]
            kept[order[_greedy_keep(boxes[order], iou_threshold)]] = True
        idx = np.flatnonzero(kept)
        idx = idx[_by_score(scores[idx])]
        return (idx if top_k is None else idx[:top_k]).astype(np.int64)

    def infer_meta(self, boxes: Meta, *extra, **attrs) -> Meta:
        return Meta((-1,), dtypes.int64)


def nms(boxes: Tensor, iou_threshold: float, scores=None, category_idxs=None, categories=None, top_k=None):
    inputs = (boxes,) + tuple(t for t in (scores, category_idxs) if t is not None)
    attrs = {"iou_threshold": float(iou_threshold), "top_k": None if top_k is None else int(top_k),
             "categories": None if categories is None else tuple(int(c) for c in categories)}  # fmt: skip
    return apply(Nms, inputs, attrs)


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
