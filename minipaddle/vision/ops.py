"""paddle.vision.ops: detection operators (RoI Align, RoI pooling, non-maximum suppression) and the
Conv-Norm-Activation block. The kernels live in minipaddle/ops/vision_ops.py."""

from __future__ import annotations

from minipaddle import nn, ops
from minipaddle.tensor.checks import check_float_tensor, check_tensor
from minipaddle.vision.models._utils import ConvNormActivation

__all__ = ["nms", "roi_align", "RoIAlign", "roi_pool", "RoIPool", "ConvNormActivation"]


def _pair(output_size, fn: str) -> tuple:
    """output_size as (height, width): an int means a square."""
    if isinstance(output_size, int):
        output_size = (output_size, output_size)
    if not (isinstance(output_size, (list, tuple)) and len(output_size) == 2
            and all(isinstance(s, int) and s > 0 for s in output_size)):  # fmt: skip
        raise ValueError(f"{fn}: output_size must be a positive int or a pair of them, got {output_size!r}")
    return tuple(output_size)


def _check_rois(x, boxes, boxes_num, fn: str):
    check_float_tensor(x, fn, "x")
    check_float_tensor(boxes, fn, "boxes")
    if boxes_num is None:
        raise ValueError(f"{fn}: boxes_num (how many boxes each image of the batch has) must be given, got None")
    check_tensor(boxes_num, fn, "boxes_num")
    if x.ndim != 4:
        raise ValueError(f"{fn}: x must be 4-D [N, C, H, W], got shape {x.shape}")
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"{fn}: boxes must be [num_boxes, 4] ([x1, y1, x2, y2] each), got shape {boxes.shape}")


def roi_align(x, boxes, boxes_num, output_size, spatial_scale=1.0, sampling_ratio=-1, aligned=True, name=None):
    """RoI Align (He et al., Mask R-CNN): pool each box of `boxes` into an output_size grid by averaging bilinear
    samples (no rounding of the box, unlike roi_pool).

    Args:
        x (Tensor): feature maps [N, C, H, W], float32 or float64.
        boxes (Tensor): [num_boxes, 4], each [x1, y1, x2, y2] in input image coordinates.
        boxes_num (Tensor): [N] int32, how many of the boxes belong to each image (in order).
        output_size (int|tuple): the pooled (height, width).
        spatial_scale (float): the feature map's scale relative to the image (boxes are multiplied by it).
        sampling_ratio (int): samples per bin along each axis; -1 chooses ceil(box size / output size).
        aligned (bool): shift the box by -0.5 pixel so that sample points fall on pixel centers.

    Returns:
        Tensor [num_boxes, C, output_height, output_width], differentiable in x.

    Example:
        >>> x = paddle.rand([1, 2, 8, 8])
        >>> boxes = paddle.to_tensor([[1.0, 1.0, 5.0, 6.0]])
        >>> paddle.vision.ops.roi_align(x, boxes, paddle.to_tensor([1], 'int32'), 2).shape
        [1, 2, 2, 2]
    """
    _check_rois(x, boxes, boxes_num, "roi_align")
    ph, pw = _pair(output_size, "roi_align")
    return ops.roi_align(x, boxes, boxes_num, ph, pw, spatial_scale, sampling_ratio, aligned)


def roi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """RoI pooling (Girshick, Fast R-CNN): round each box to pixels, split it into an output_size grid of integer
    bins and take each bin's maximum (0 for an empty bin).

    Args:
        x (Tensor): feature maps [N, C, H, W], float32 or float64.
        boxes (Tensor): [num_boxes, 4], each [x1, y1, x2, y2].
        boxes_num (Tensor): [N] int32, how many boxes belong to each image.
        output_size (int|tuple): the pooled (height, width).
        spatial_scale (float): the feature map's scale relative to the image.

    Returns:
        Tensor [num_boxes, C, output_height, output_width]; the gradient goes to each bin's maximal pixel.

    Example:
        >>> x, boxes = paddle.rand([1, 1, 4, 4]), paddle.to_tensor([[0.0, 0.0, 3.0, 3.0]])
        >>> paddle.vision.ops.roi_pool(x, boxes, paddle.to_tensor([1], 'int32'), 2).shape
        [1, 1, 2, 2]
    """
    _check_rois(x, boxes, boxes_num, "roi_pool")
    ph, pw = _pair(output_size, "roi_pool")
    return ops.roi_pool(x, boxes, boxes_num, ph, pw, spatial_scale)


class RoIAlign(nn.Layer):
    """The layer form of roi_align: RoIAlign(output_size, spatial_scale)(x, boxes, boxes_num, aligned=True)."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num, aligned=True):
        return roi_align(x, boxes, boxes_num, self._output_size, self._spatial_scale, aligned=aligned)

    def extra_repr(self):
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


class RoIPool(nn.Layer):
    """The layer form of roi_pool: RoIPool(output_size, spatial_scale)(x, boxes, boxes_num)."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return roi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)

    def extra_repr(self):
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


def nms(boxes, iou_threshold=0.3, scores=None, category_idxs=None, categories=None, top_k=None):
    """Non-maximum suppression: keep a box unless it overlaps (IoU > iou_threshold) a box kept before it.

    Args:
        boxes (Tensor): [M, 4], each [x1, y1, x2, y2].
        iou_threshold (float): the overlap above which the later box is dropped.
        scores (Tensor, optional): [M]; boxes are then visited by decreasing score (else in their order).
        category_idxs (Tensor, optional): [M] int64, each box's category; suppression then happens only within a
            category (needs `categories`), and the kept boxes of all categories are sorted by score.
        categories (list, optional): the category ids to process.
        top_k (int, optional): keep at most this many (only with category_idxs, as in Paddle).

    Returns:
        Tensor: int64 indices of the kept boxes (by decreasing score when scores are given).

    Example:
        >>> boxes = paddle.to_tensor([[0.0, 0.0, 2.0, 2.0], [0.1, 0.1, 2.0, 2.0], [3.0, 3.0, 4.0, 4.0]])
        >>> paddle.vision.ops.nms(boxes, 0.5).numpy()
        array([0, 2])
    """
    check_float_tensor(boxes, "nms", "boxes")
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"nms: boxes must be [num_boxes, 4], got shape {boxes.shape}")
    if scores is None:
        return ops.nms(boxes, iou_threshold)
    check_tensor(scores, "nms", "scores")
    if category_idxs is None:
        return ops.nms(boxes, iou_threshold, scores)
    if categories is None:
        raise ValueError("nms: with category_idxs, categories (the list of category ids) must be given, got None")
    if top_k is not None and top_k > scores.shape[0]:
        raise ValueError(f"nms: top_k must be at most the number of boxes ({scores.shape[0]}), got {top_k}")
    return ops.nms(boxes, iou_threshold, scores, category_idxs, categories, top_k)
