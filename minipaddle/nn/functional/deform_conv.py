"""Deformable convolution (paddle.vision.ops.deform_conv2d), on nn's floor: vision.ops gives it to users and
builds DeformConv2D on it, and static.nn.deform_conv2d builds its layer on it too (static stands below vision)."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.nn.functional.conv import _add_bias
from minipaddle.nn.functional.window_args import ntuple
from minipaddle.tensor.checks import check_float_tensor


def deform_conv2d(x, offset, weight, bias=None, stride=1, padding=0, dilation=1, deformable_groups=1, groups=1,
                  mask=None, name=None):  # fmt: skip
    """Deformable convolution, v1 (Dai et al. 2017) or, with a mask, v2 (Zhu et al. 2018):
    y(p) = sum_k w_k * x(p + p_k + offset_k(p)) * mask_k(p), x read bilinearly between pixels.

    Args:
        x (Tensor): [N, C, H, W], float32 or float64.
        offset (Tensor): [N, 2 * deformable_groups * kh * kw, H_out, W_out], a (dy, dx) pair per kernel tap.
        weight (Tensor): [M, C / groups, kh, kw].
        bias (Tensor, optional): [M].
        stride, padding, dilation (int|list|tuple): an int or a pair (height, width).
        deformable_groups (int): the channels are split into this many groups, each with its own offsets.
        groups (int): grouped convolution, as in conv2d.
        mask (Tensor, optional): [N, deformable_groups * kh * kw, H_out, W_out], the modulation of each tap
            (v2); None for v1.

    Returns:
        Tensor [N, M, H_out, W_out], differentiable in x, offset, mask, weight and bias.

    Example:
        >>> x = paddle.rand([1, 2, 5, 5])
        >>> offset = paddle.zeros([1, 18, 3, 3])
        >>> weight = paddle.rand([4, 2, 3, 3])
        >>> paddle.vision.ops.deform_conv2d(x, offset, weight).shape    # equals F.conv2d(x, weight) here
        [1, 4, 3, 3]
    """
    fn = "deform_conv2d"
    for arg, t in (("x", x), ("offset", offset), ("weight", weight)):
        check_float_tensor(t, fn, arg)
        if t.ndim != 4:
            raise ValueError(f"{fn}: {arg} must be 4-D, got shape {t.shape}")
    strides = ntuple(stride, 2, fn, "stride")
    dilations = ntuple(dilation, 2, fn, "dilation")
    pads = ntuple(padding, 2, fn, "padding", minimum=0)
    n, c, h, w = x.shape
    o, kh, kw = weight.shape[0], weight.shape[2], weight.shape[3]
    if not (isinstance(groups, int) and groups > 0 and c % groups == 0 and o % groups == 0):
        raise ValueError(f"{fn}: groups must be a positive int dividing x's channels ({c}) and weight's "
                         f"output channels ({o}), got {groups!r}")  # fmt: skip
    if weight.shape[1] * groups != c:
        raise ValueError(f"{fn}: x has {c} channels, but weight of shape {weight.shape} with groups={groups} "
                         f"expects {weight.shape[1] * groups}")  # fmt: skip
    if not (isinstance(deformable_groups, int) and deformable_groups > 0 and c % deformable_groups == 0):
        raise ValueError(f"{fn}: deformable_groups must be a positive int dividing x's channels ({c}), "
                         f"got {deformable_groups!r}")  # fmt: skip
    ho = (h + 2 * pads[0] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    wo = (w + 2 * pads[1] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    if ho <= 0 or wo <= 0:
        raise ValueError(f"{fn}: the output would be empty ({ho} x {wo}); x has shape {x.shape}, "
                         f"weight {weight.shape}")  # fmt: skip
    taps = deformable_groups * kh * kw
    if not _shape_fits(offset.shape, [n, 2 * taps, ho, wo]):
        raise ValueError(f"{fn}: offset must have shape {[n, 2 * taps, ho, wo]} ([N, 2 * deformable_groups * kh * kw,"
                         f" H_out, W_out]), got {offset.shape}")  # fmt: skip
    if mask is not None:
        check_float_tensor(mask, fn, "mask")
        if not _shape_fits(mask.shape, [n, taps, ho, wo]):
            raise ValueError(f"{fn}: mask must have shape {[n, taps, ho, wo]} ([N, deformable_groups * kh * kw, "
                             f"H_out, W_out]), got {mask.shape}")  # fmt: skip
    paddings = ((pads[0], pads[0]), (pads[1], pads[1]))
    cols = ops.deformable_im2col(x, offset, mask, (kh, kw), strides, paddings, dilations, deformable_groups)
    # the one GEMM: [groups, M/groups, C/groups*K] @ [N, groups, C/groups*K, L]
    cols = ops.reshape(cols, (-1, groups, c // groups * kh * kw, ho * wo))
    out = ops.matmul(ops.reshape(weight, (groups, o // groups, -1)), cols)
    return _add_bias(ops.reshape(out, (-1, o, ho, wo)), bias, fn)


def _shape_fits(shape, expected) -> bool:
    """shape equals expected, where a -1 (unknown in a static Program) in either matches anything."""
    return len(shape) == len(expected) and all(a == b or a < 0 or b < 0 for a, b in zip(shape, expected))
