"""paddle.vision.ops: detection operators (RoI Align, RoI pooling, non-maximum suppression, position-sensitive RoI
pooling, box coding, prior boxes, YOLO box decoding), deformable convolution and the Conv-Norm-Activation block.
The kernels live in minipaddle/ops/vision_ops.py, detection.py, deformable_conv.py and yolo_loss.py."""

from __future__ import annotations

import math

import numpy as np

from minipaddle import nn, ops
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.deform_conv import _shape_fits, deform_conv2d
from minipaddle.nn.functional.window_args import ntuple
from minipaddle.nn.initializer import Normal
from minipaddle.tensor.checks import _int_scalar, check_flag, check_float, check_float_tensor, check_tensor
from minipaddle.vision.models._utils import ConvNormActivation

__all__ = ["nms", "roi_align", "RoIAlign", "roi_pool", "RoIPool", "ConvNormActivation"]
__all__ += ["deform_conv2d", "DeformConv2D", "psroi_pool", "PSRoIPool", "box_coder", "prior_box", "yolo_box"]
__all__ += ["matrix_nms", "generate_proposals", "distribute_fpn_proposals", "yolo_loss"]


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
    iou_threshold = check_float(iou_threshold, "nms", "iou_threshold")
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


class DeformConv2D(nn.Layer):
    """The layer form of deform_conv2d, with its own weight [out_channels, in_channels / groups, kh, kw]
    (Normal(0, sqrt(2 / (kh * kw * in_channels))) by default, as Paddle) and bias (zeros).

    DeformConv2D(in_channels, out_channels, kernel_size, ...)(x, offset, mask=None).

    Example:
        >>> conv = paddle.vision.ops.DeformConv2D(2, 4, 3)
        >>> conv(paddle.rand([1, 2, 5, 5]), paddle.zeros([1, 18, 3, 3])).shape
        [1, 4, 3, 3]
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, deformable_groups=1,
                 groups=1, weight_attr=None, bias_attr=None):  # fmt: skip
        super().__init__()
        fn = "DeformConv2D"
        if weight_attr is False:
            raise ValueError(f"{fn}: weight_attr must not be False (a convolution needs its weight)")
        if not (isinstance(groups, int) and groups > 0 and in_channels % groups == 0):
            raise ValueError(f"{fn}: in_channels ({in_channels}) must be divisible by groups, got {groups!r}")
        self._kernel_size = ntuple(kernel_size, 2, fn, "kernel_size")
        self._stride = ntuple(stride, 2, fn, "stride")
        self._padding = ntuple(padding, 2, fn, "padding", minimum=0)
        self._dilation = ntuple(dilation, 2, fn, "dilation")
        self._deformable_groups, self._groups = deformable_groups, groups
        self._in_channels, self._out_channels = in_channels, out_channels
        std = math.sqrt(2.0 / (math.prod(self._kernel_size) * in_channels))
        shape = [out_channels, in_channels // groups, *self._kernel_size]
        self.weight = self.create_parameter(shape, attr=weight_attr, default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter([out_channels], attr=bias_attr, is_bias=True)

    def forward(self, x, offset, mask=None):
        return deform_conv2d(x, offset, self.weight, self.bias, self._stride, self._padding, self._dilation,
                             self._deformable_groups, self._groups, mask)  # fmt: skip


def psroi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """Position-sensitive RoI pooling (Dai et al., R-FCN): split each box into an output_size grid; bin (i, j) of
    output channel c averages input channel (c * PH + i) * PW + j over the bin's pixels.

    Args:
        x (Tensor): [N, C, H, W], float32 or float64, with C divisible by PH * PW.
        boxes (Tensor): [num_boxes, 4], each [x1, y1, x2, y2] (rounded to pixels, the far edge included).
        boxes_num (Tensor): [N] int32, how many boxes belong to each image.
        output_size (int|tuple): the pooled (height, width).
        spatial_scale (float): the feature map's scale relative to the image.

    Returns:
        Tensor [num_boxes, C / (PH * PW), PH, PW], differentiable in x.

    Example:
        >>> x = paddle.rand([1, 8, 6, 6])
        >>> boxes = paddle.to_tensor([[0.0, 0.0, 4.0, 4.0]])
        >>> paddle.vision.ops.psroi_pool(x, boxes, paddle.to_tensor([1], 'int32'), 2).shape
        [1, 2, 2, 2]
    """
    _check_rois(x, boxes, boxes_num, "psroi_pool")
    ph, pw = _pair(output_size, "psroi_pool")
    if x.shape[1] % (ph * pw):
        raise ValueError(f"psroi_pool: x's channels ({x.shape[1]}) must be divisible by the number of bins "
                         f"({ph} * {pw}), got shape {x.shape}")  # fmt: skip
    return ops.psroi_pool(x, boxes, boxes_num, ph, pw, spatial_scale)


class PSRoIPool(nn.Layer):
    """The layer form of psroi_pool: PSRoIPool(output_size, spatial_scale)(x, boxes, boxes_num)."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return psroi_pool(x, boxes, boxes_num, self.output_size, self.spatial_scale)


_CODE_TYPES = ("encode_center_size", "decode_center_size")


def box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size", box_normalized=True, axis=0,
              name=None):  # fmt: skip
    """Encode target boxes as offsets from prior boxes (anchors), or decode such offsets back into boxes.

    With p the priors' centers (px, py) and sizes (pw, ph), t the targets' and v the variances:
    encode: ((tx - px) / pw / vx, (ty - py) / ph / vy, log(|tw / pw|) / vw, log(|th / ph|) / vh);
    decode: center (vx * tx * pw + px, vy * ty * ph + py), size (exp(vw * tw) * pw, exp(vh * th) * ph), as
    corners. Unnormalized boxes (box_normalized=False) count their far corner's pixel: width = x2 - x1 + 1.

    Args:
        prior_box (Tensor): [M, 4] corner boxes [x1, y1, x2, y2], float32 or float64.
        prior_box_var (Tensor|list|tuple): [M, 4] variances, or 4 numbers shared by all priors.
        target_box (Tensor): encode: [N, 4] boxes; decode: [N, M, 4] offsets.
        code_type (str): 'encode_center_size' or 'decode_center_size'.
        box_normalized (bool): whether the boxes are in normalized coordinates.
        axis (int): decode only: 0 if the priors run along target_box's axis 1 ([M, 4] priors), 1 if along
            axis 0 ([N, 4] priors).

    Returns:
        Tensor [N, M, 4], without gradient (as in Paddle).

    Example:
        >>> priors = paddle.to_tensor([[0.1, 0.1, 0.5, 0.5]])
        >>> targets = paddle.to_tensor([[0.2, 0.2, 0.6, 0.6]])
        >>> paddle.vision.ops.box_coder(priors, [0.1, 0.1, 0.2, 0.2], targets).shape
        [1, 1, 4]
    """
    fn = "box_coder"
    check_float_tensor(prior_box, fn, "prior_box")
    check_float_tensor(target_box, fn, "target_box")
    box_normalized = check_flag(box_normalized, fn, "box_normalized")
    if code_type not in _CODE_TYPES:
        raise ValueError(f"{fn}: code_type must be one of {_CODE_TYPES}, got {code_type!r}")
    if prior_box.ndim != 2 or prior_box.shape[1] != 4:
        raise ValueError(f"{fn}: prior_box must be [M, 4], got shape {prior_box.shape}")
    axis = _int_scalar(axis, fn, "axis")  # an int attribute of the op even when encoding ignores it (as paddle)
    if not -(2**31) <= axis < 2**31:  # (an int32 attribute in paddle 2.6)
        raise ValueError(f"{fn}: axis must be an int32 (0 or 1), got {axis}")
    encode = code_type == "encode_center_size"
    if encode and (target_box.ndim != 2 or target_box.shape[1] != 4):
        raise ValueError(f"{fn}: to encode, target_box must be [N, 4], got shape {target_box.shape}")
    if not encode:
        if axis not in (0, 1):
            raise ValueError(f"{fn}: axis must be 0 or 1, got {axis!r}")
        if target_box.ndim != 3 or target_box.shape[2] != 4 or target_box.shape[1 - axis] != prior_box.shape[0]:
            raise ValueError(f"{fn}: to decode with axis={axis}, target_box must be [N, M, 4] with "
                             f"{'M' if axis == 0 else 'N'} = {prior_box.shape[0]} (the priors), "
                             f"got shape {target_box.shape}")  # fmt: skip
    if isinstance(prior_box_var, Tensor):
        if prior_box_var.shape != prior_box.shape:
            raise ValueError(f"{fn}: prior_box_var must have prior_box's shape {prior_box.shape}, "
                             f"got {prior_box_var.shape}")  # fmt: skip
        return ops.box_coder(prior_box, target_box, prior_box_var, code_type, box_normalized, axis, None)
    if isinstance(prior_box_var, (list, tuple)):
        if len(prior_box_var) != 4:
            raise ValueError(f"{fn}: prior_box_var must hold 4 numbers, got {list(prior_box_var)}")
        variance = [_float32(v) for v in prior_box_var]  # a float32 attribute in Paddle
        return ops.box_coder(prior_box, target_box, None, code_type, box_normalized, axis, variance)
    raise TypeError(f"{fn}: prior_box_var must be a Tensor or a list/tuple of 4 numbers, "
                    f"got {type(prior_box_var).__name__}")  # fmt: skip


def _float_list(value, fn: str, arg: str) -> list:
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise TypeError(f"{fn}: {arg} must be a number or a list of numbers, got {value!r}")
    return [float(v) for v in values]


def prior_box(input, image, min_sizes, max_sizes=None,
              aspect_ratios=[1.0], variance=[0.1, 0.1, 0.2, 0.2],  # noqa: B006 (Paddle's defaults, never changed)
              flip=False, clip=False,
              steps=[0.0, 0.0],  # noqa: B006
              offset=0.5, min_max_aspect_ratios_order=False, name=None):  # fmt: skip
    """SSD's prior (anchor) boxes: at the center of every cell of the feature map `input`, one box per min size
    and aspect ratio (plus a square of side sqrt(min_size * max_size) per max size), in image coordinates
    divided by the image's size.

    Args:
        input (Tensor): the feature map [N, C, H, W]; image (Tensor): the image [N, C, H_img, W_img].
        min_sizes (float|list), max_sizes (float|list, optional): the boxes' sizes in pixels.
        aspect_ratios (float|list): width/height ratios (1 is always included; with flip, their inverses too).
        variance (list): 4 numbers, repeated for every box.
        flip (bool), clip (bool): add inverse ratios; clip the boxes to [0, 1].
        steps (list): (step_w, step_h), the cell size in pixels; 0 means the image size over the map size.
        offset (float): the box centers' offset within a cell, in cells.
        min_max_aspect_ratios_order (bool): order each min size's boxes as: square, big square, the others.

    Returns:
        (boxes, variances): Tensors [H, W, num_priors, 4] of input's dtype, without gradient.

    Example:
        >>> boxes, var = paddle.vision.ops.prior_box(paddle.rand([1, 3, 4, 4]), paddle.rand([1, 3, 32, 32]), [8.0])
        >>> boxes.shape
        [4, 4, 1, 4]
    """
    offset = check_float(offset, "prior_box", "offset")
    fn = "prior_box"
    check_tensor(input, fn, "input")
    check_tensor(image, fn, "image")
    if input.ndim != 4 or image.ndim != 4:
        raise ValueError(f"{fn}: input and image must be 4-D [N, C, H, W], got shapes {input.shape} and "
                         f"{image.shape}")  # fmt: skip
    min_sizes = _float_list(min_sizes, fn, "min_sizes")
    aspect_ratios = _float_list(aspect_ratios, fn, "aspect_ratios")
    steps = _float_list(steps, fn, "steps")
    if len(steps) != 2:
        raise ValueError(f"{fn}: steps must be (step_w, step_h), got {steps}")
    max_sizes = [] if max_sizes is None else _float_list(max_sizes, fn, "max_sizes")
    if max_sizes and len(max_sizes) != len(min_sizes):
        raise ValueError(f"{fn}: max_sizes must have one size per min size ({len(min_sizes)}), got {max_sizes}")
    variance = _float_list(variance, fn, "variance")
    if len(variance) != 4:
        raise ValueError(f"{fn}: variance must hold 4 numbers, got {variance}")
    return ops.prior_box(input, image, min_sizes=tuple(min_sizes), max_sizes=tuple(max_sizes),
                         aspect_ratios=tuple(aspect_ratios), variance=tuple(variance), flip=bool(flip),
                         clip=bool(clip), steps=tuple(steps), offset=float(offset),
                         min_max_aspect_ratios_order=bool(min_max_aspect_ratios_order))  # fmt: skip


def yolo_box(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox=True, name=None,
             scale_x_y=1.0, iou_aware=False, iou_aware_factor=0.5):  # fmt: skip
    """Decode a YOLOv3 head into boxes and class scores.

    For anchor a at cell (i, j) of x's H x W grid, with p its predictions: the box center is
    ((j + sigmoid(p_x) * scale_x_y - (scale_x_y - 1) / 2) / W * img_w, likewise for y), its size
    (exp(p_w) * anchor_w, exp(p_h) * anchor_h) scaled by the image size over downsample_ratio * grid size;
    the scores are sigmoid(p_obj) * sigmoid(p_class). Where sigmoid(p_obj) < conf_thresh, box and scores are 0.

    Args:
        x (Tensor): [N, A * (5 + class_num), H, W] (iou_aware: A more channels first), float32 or float64.
        img_size (Tensor): [N, 2] int32, each image's (height, width).
        anchors (list): [w0, h0, w1, h1, ...], A anchors in pixels.
        class_num (int), conf_thresh (float), downsample_ratio (int): as described.
        clip_bbox (bool): clip the boxes to the image.
        scale_x_y (float): YOLOv4's center scaling.
        iou_aware (bool), iou_aware_factor (float): scale the objectness by the predicted IoU:
            conf ** (1 - factor) * sigmoid(p_iou) ** factor.

    Returns:
        (boxes [N, A * H * W, 4], scores [N, A * H * W, class_num]), without gradient.

    Example:
        >>> x = paddle.rand([1, 2 * (5 + 3), 4, 4])
        >>> boxes, scores = paddle.vision.ops.yolo_box(x, paddle.to_tensor([[64, 64]], 'int32'),
        ...                                            [10, 13, 16, 30], 3, 0.01, 16)
        >>> boxes.shape, scores.shape
        ([1, 32, 4], [1, 32, 3])
    """
    fn = "yolo_box"
    check_float_tensor(x, fn, "x")
    check_tensor(img_size, fn, "img_size")
    if not isinstance(anchors, (list, tuple)) or len(anchors) % 2 or not anchors:
        raise TypeError(f"{fn}: anchors must be a list of (width, height) pairs, flattened, got {anchors!r}")
    if not isinstance(class_num, int) or class_num <= 0:
        raise ValueError(f"{fn}: class_num must be a positive int, got {class_num!r}")
    a = len(anchors) // 2
    channels = a * (5 + class_num) + (a if iou_aware else 0)
    if x.ndim != 4 or x.shape[1] != channels:
        raise ValueError(f"{fn}: x must be [N, {channels}, H, W] for {a} anchors and {class_num} classes"
                         f"{' (iou_aware)' if iou_aware else ''}, got shape {x.shape}")  # fmt: skip
    if img_size.shape != [x.shape[0], 2]:
        raise ValueError(f"{fn}: img_size must be [N, 2] = {[x.shape[0], 2]}, got shape {img_size.shape}")
    # Paddle's float attributes are float32: round them the same way, so that thresholds compare alike
    return ops.yolo_box(x, img_size, anchors=tuple(int(v) for v in anchors), class_num=class_num,
                        conf_thresh=_float32(conf_thresh), downsample_ratio=int(downsample_ratio),
                        clip_bbox=bool(clip_bbox), scale_x_y=_float32(scale_x_y), iou_aware=bool(iou_aware),
                        iou_aware_factor=_float32(iou_aware_factor))  # fmt: skip


def _float32(v) -> float:
    return float(np.float32(v))


def matrix_nms(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k, use_gaussian=False,
               gaussian_sigma=2.0, background_label=0, normalized=True, return_index=False, return_rois_num=True,
               name=None):  # fmt: skip
    """Matrix NMS (Wang et al., SOLOv2): instead of dropping overlapping boxes, decay each box's score by its
    overlap with every higher-scored box of its class, all at once, then keep the boxes still above
    post_threshold.

    Per image and class (except background_label): the boxes scoring above score_threshold, at most nms_top_k
    of them (-1: all), by decreasing score; box i's score is multiplied by min over j < i of
    decay(iou_ij, max IoU of box j with the boxes above it): (1 - iou) / (1 - max_iou), or with use_gaussian
    exp((max_iou^2 - iou^2) * gaussian_sigma). Then each image keeps its keep_top_k best (-1: all).

    Args:
        bboxes (Tensor): [N, M, 4] boxes [x1, y1, x2, y2], float32 or float64.
        scores (Tensor): [N, C, M] each box's score per class.
        score_threshold, post_threshold (float): thresholds before and after the decay.
        nms_top_k, keep_top_k (int): as above.
        use_gaussian (bool), gaussian_sigma (float): the decay function.
        background_label (int): the class to skip (-1: none).
        normalized (bool): False for pixel boxes, whose far corner counts (width = x2 - x1 + 1).
        return_index, return_rois_num (bool): whether to return index and rois_num (else None in their place).

    Returns:
        (out, rois_num, index): out [K, 6] rows (class, score, x1, y1, x2, y2); rois_num [N] int32, how many
        rows each image has; index [K, 1] int32, each row's box as an index into bboxes flattened to [N * M].

    Example:
        >>> boxes = paddle.to_tensor([[[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [2.0, 2.0, 3.0, 3.0]]])
        >>> scores = paddle.to_tensor([[[0.0, 0.0, 0.0], [0.9, 0.8, 0.7]]])
        >>> out, num, _ = paddle.vision.ops.matrix_nms(boxes, scores, 0.1, 0.5, -1, -1)
        >>> num.numpy()
        array([2], dtype=int32)
    """
    fn = "matrix_nms"
    check_float_tensor(bboxes, fn, "bboxes")
    check_float_tensor(scores, fn, "scores")
    if bboxes.ndim != 3 or bboxes.shape[2] != 4:
        raise ValueError(f"{fn}: bboxes must be [N, M, 4], got shape {bboxes.shape}")
    if scores.ndim != 3 or scores.shape[0] != bboxes.shape[0] or scores.shape[2] != bboxes.shape[1]:
        raise ValueError(f"{fn}: scores must be [N, C, M] = [{bboxes.shape[0]}, C, {bboxes.shape[1]}] for bboxes "
                         f"of shape {bboxes.shape}, got {scores.shape}")  # fmt: skip
    for arg, v in (("nms_top_k", nms_top_k), ("keep_top_k", keep_top_k), ("background_label", background_label)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"{fn}: {arg} must be an int, got {v!r}")
    out, index, rois_num = ops.matrix_nms(bboxes, scores, score_threshold=_float32(score_threshold),
                                          post_threshold=_float32(post_threshold), nms_top_k=nms_top_k,
                                          keep_top_k=keep_top_k, use_gaussian=bool(use_gaussian),
                                          gaussian_sigma=_float32(gaussian_sigma),
                                          background_label=background_label, normalized=bool(normalized))  # fmt: skip
    return out, rois_num if return_rois_num else None, index if return_index else None


def generate_proposals(scores, bbox_deltas, img_size, anchors, variances, pre_nms_top_n=6000, post_nms_top_n=1000,
                       nms_thresh=0.5, min_size=0.1, eta=1.0, pixel_offset=False, return_rois_num=False,
                       name=None):  # fmt: skip
    """Region proposals (Faster R-CNN's RPN): per image, take the pre_nms_top_n best-scored anchors, move them by
    their predicted deltas (scaled by the variances), clip them to the image, drop those smaller than min_size,
    run NMS (nms_thresh; eta < 1 lowers an above-0.5 threshold after each kept box) and keep post_nms_top_n.

    Args:
        scores (Tensor): [N, A, H, W] objectness of each anchor, float32 or float64.
        bbox_deltas (Tensor): [N, 4 * A, H, W] the (dx, dy, dw, dh) of each anchor.
        img_size (Tensor): [N, 2] each image's (height, width).
        anchors (Tensor), variances (Tensor): [H, W, A, 4] each, as prior_box and anchor generators give.
        pre_nms_top_n, post_nms_top_n (int), nms_thresh, min_size, eta (float): as above.
        pixel_offset (bool): pixel boxes, whose far corner counts (width = x2 - x1 + 1).
        return_rois_num (bool): also return how many proposals each image has.

    Returns:
        (rpn_rois [R, 4], rpn_roi_probs [R, 1], rpn_rois_num [N] int32 or None), without gradient. An image left
        with no box gives one all-zero proposal (as in Paddle).

    Example:
        >>> rois, probs, num = paddle.vision.ops.generate_proposals(
        ...     paddle.rand([1, 2, 3, 3]), paddle.rand([1, 8, 3, 3]) * 0.1, paddle.to_tensor([[30.0, 30.0]]),
        ...     anchors, variances, return_rois_num=True)    # anchors, variances: [3, 3, 2, 4]
    """
    fn = "generate_proposals"
    for arg, t in (("scores", scores), ("bbox_deltas", bbox_deltas), ("anchors", anchors), ("variances", variances)):
        check_float_tensor(t, fn, arg)
    check_tensor(img_size, fn, "img_size")
    if scores.ndim != 4:
        raise ValueError(f"{fn}: scores must be [N, A, H, W], got shape {scores.shape}")
    n, a, h, w = scores.shape
    for arg, t, want in (("bbox_deltas", bbox_deltas, [n, 4 * a, h, w]), ("img_size", img_size, [n, 2]),
                         ("anchors", anchors, [h, w, a, 4]), ("variances", variances, [h, w, a, 4])):  # fmt: skip
        if not _shape_fits(t.shape, want):
            raise ValueError(f"{fn}: {arg} must have shape {want} for scores of shape {scores.shape}, got {t.shape}")
    rois, probs, num = ops.generate_proposals(scores, bbox_deltas, img_size, anchors, variances,
                                              pre_nms_top_n=int(pre_nms_top_n), post_nms_top_n=int(post_nms_top_n),
                                              nms_thresh=_float32(nms_thresh), min_size=_float32(min_size),
                                              eta=_float32(eta), pixel_offset=bool(pixel_offset))  # fmt: skip
    return rois, probs, num if return_rois_num else None


def distribute_fpn_proposals(fpn_rois, min_level, max_level, refer_level, refer_scale, pixel_offset=False,
                             rois_num=None, name=None):  # fmt: skip
    """Send each RoI to the feature-pyramid level that matches its size (Lin et al., FPN):
    level = floor(refer_level + log2(sqrt(area) / refer_scale)), clamped to [min_level, max_level].

    Args:
        fpn_rois (Tensor): [R, 4] boxes [x1, y1, x2, y2], float32 or float64.
        min_level, max_level (int): the pyramid's levels.
        refer_level (int), refer_scale (int): a box of side refer_scale belongs to refer_level.
        pixel_offset (bool): pixel boxes, whose far corner counts (width = x2 - x1 + 1).
        rois_num (Tensor): [N] int32, how many of the RoIs belong to each image (required, as in Paddle's
            dynamic mode).

    Returns:
        (multi_rois, restore_ind, rois_num_per_level): a list with each level's RoIs [R_l, 4] (in their order);
        restore_ind [R, 1] int32, where each RoI went in the levels' concatenation (so
        paddle.gather(paddle.concat(multi_rois), restore_ind) restores the input); and a list with each level's
        [N] int32 count per image.

    Example:
        >>> rois = paddle.to_tensor([[0.0, 0.0, 224.0, 224.0], [0.0, 0.0, 50.0, 50.0]])
        >>> multi, restore, nums = paddle.vision.ops.distribute_fpn_proposals(
        ...     rois, 2, 5, 4, 224, rois_num=paddle.to_tensor([2], 'int32'))
        >>> [m.shape[0] for m in multi]
        [1, 0, 1, 0]
    """
    fn = "distribute_fpn_proposals"
    check_float_tensor(fpn_rois, fn, "fpn_rois")
    if fpn_rois.ndim != 2 or fpn_rois.shape[1] != 4:
        raise ValueError(f"{fn}: fpn_rois must be [R, 4], got shape {fpn_rois.shape}")
    if rois_num is None:
        raise ValueError(f"{fn}: rois_num (how many RoIs each image has) must be given, got None")
    check_tensor(rois_num, fn, "rois_num")
    for arg, v in (("min_level", min_level), ("max_level", max_level), ("refer_level", refer_level)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"{fn}: {arg} must be an int, got {v!r}")
    if max_level < min_level:
        raise ValueError(f"{fn}: max_level ({max_level}) must be at least min_level ({min_level})")
    outs = ops.distribute_fpn_proposals(fpn_rois, rois_num, min_level=min_level, max_level=max_level,
                                        refer_level=refer_level, refer_scale=int(refer_scale),
                                        pixel_offset=bool(pixel_offset))  # fmt: skip
    n = max_level - min_level + 1
    return list(outs[:n]), outs[n], list(outs[n + 1 :])


def yolo_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio, gt_score=None,
              use_label_smooth=True, name=None, scale_x_y=1.0):  # fmt: skip
    """YOLOv3's training loss, one value per image.

    Each valid ground-truth box (width and height > 0) is matched to the anchor of the most similar shape; when
    that anchor is in anchor_mask, the cell holding the box's center is a positive for that anchor, with
    sigmoid cross-entropy on the center offsets, L1 on the log sizes (both weighted by 2 - w * h), sigmoid
    cross-entropy on the classes (smoothed labels with use_label_smooth) and on the objectness. Every other
    prediction is a negative for the objectness, unless its box overlaps a ground truth by more than
    ignore_thresh. gt_score weights each ground truth's terms (mixup).

    Args:
        x (Tensor): [N, len(anchor_mask) * (5 + class_num), H, W], float32 or float64.
        gt_box (Tensor): [N, B, 4] boxes (center x, center y, width, height) relative to the image.
        gt_label (Tensor): [N, B] int32 class ids.
        anchors (list): [w0, h0, w1, h1, ...] all anchors, in pixels; anchor_mask (list): the ones this head uses.
        class_num (int), ignore_thresh (float), downsample_ratio (int): as described.
        gt_score (Tensor, optional): [N, B] weights (default 1).
        use_label_smooth (bool), scale_x_y (float): as described.

    Returns:
        Tensor [N], differentiable in x.

    Example:
        >>> x = paddle.rand([1, 2 * (5 + 3), 4, 4])
        >>> gt = paddle.to_tensor([[[0.3, 0.4, 0.2, 0.3]]])
        >>> paddle.vision.ops.yolo_loss(x, gt, paddle.to_tensor([[1]], 'int32'), [10, 13, 16, 30], [0, 1], 3,
        ...                             0.7, 8).shape
        [1]
    """
    fn = "yolo_loss"
    check_float_tensor(x, fn, "x")
    check_float_tensor(gt_box, fn, "gt_box")
    check_tensor(gt_label, fn, "gt_label")
    if not isinstance(anchors, (list, tuple)) or not anchors or len(anchors) % 2:
        raise TypeError(f"{fn}: anchors must be a list of (width, height) pairs, flattened, got {anchors!r}")
    if not isinstance(anchor_mask, (list, tuple)) or not all(0 <= a < len(anchors) // 2 for a in anchor_mask):
        raise ValueError(f"{fn}: anchor_mask must list anchor indices below {len(anchors) // 2}, got {anchor_mask!r}")
    if not isinstance(class_num, int) or class_num <= 0:
        raise ValueError(f"{fn}: class_num must be a positive int, got {class_num!r}")
    channels = len(anchor_mask) * (5 + class_num)
    if x.ndim != 4 or x.shape[1] != channels:
        raise ValueError(f"{fn}: x must be [N, {channels}, H, W] for {len(anchor_mask)} masked anchors and "
                         f"{class_num} classes, got shape {x.shape}")  # fmt: skip
    n = x.shape[0]
    if gt_box.ndim != 3 or gt_box.shape[2] != 4 or not _shape_fits(gt_box.shape[:1], [n]):
        raise ValueError(f"{fn}: gt_box must be [N, B, 4] with N = {n}, got shape {gt_box.shape}")
    if not _shape_fits(gt_label.shape, gt_box.shape[:2]):
        raise ValueError(f"{fn}: gt_label must have shape {gt_box.shape[:2]}, got {gt_label.shape}")
    if gt_score is not None:
        check_float_tensor(gt_score, fn, "gt_score")
        if not _shape_fits(gt_score.shape, gt_box.shape[:2]):
            raise ValueError(f"{fn}: gt_score must have shape {gt_box.shape[:2]}, got {gt_score.shape}")
    return ops.yolo_loss(x, gt_box, gt_label, gt_score, anchors=tuple(int(a) for a in anchors),
                         anchor_mask=tuple(int(a) for a in anchor_mask), class_num=class_num,
                         ignore_thresh=_float32(ignore_thresh), downsample_ratio=int(downsample_ratio),
                         use_label_smooth=bool(use_label_smooth), scale_x_y=_float32(scale_x_y))  # fmt: skip
