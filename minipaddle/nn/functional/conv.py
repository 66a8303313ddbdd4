"""Convolutions (paddle.nn.functional): conv1d/2d/3d and their transposes.

The ops (minipaddle/ops/conv.py) work channels first on 2-D or 3-D images; these functions read Paddle's
arguments, transpose NHWC input, run 1-D convolutions as 2-D ones on a height-1 image (as Paddle does), and add
the bias.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.window_args import (
    channel_last,
    check_input,
    ntuple,
    padding_pairs,
    resolve_padding,
    to_channels_first,
    to_channels_last,
)

__all__ = ["conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose", "conv3d_transpose"]


def _check_weight(x: Tensor, weight, nd: int, fn: str) -> Tensor:
    if not isinstance(weight, Tensor):
        raise TypeError(f"{fn}: weight must be a Tensor, got {type(weight).__name__}")
    if weight.ndim != nd + 2:
        raise ValueError(f"{fn}: weight must be a {nd + 2}-D tensor, got shape {weight.shape}")
    if weight.dtype != x.dtype and STATE.amp is None:  # (under auto_cast the AMP hook casts both to one dtype)
        raise TypeError(f"{fn}: x ({x.dtype.name}) and weight ({weight.dtype.name}) must have the same dtype")
    return weight


def _add_bias(out: Tensor, bias, fn: str) -> Tensor:
    """out [N, C, *spatial] + bias [C]."""
    if bias is None:
        return out
    if not isinstance(bias, Tensor):
        raise TypeError(f"{fn}: bias must be a Tensor or None, got {type(bias).__name__}")
    if bias.shape != [out.shape[1]]:
        raise ValueError(
            f"{fn}: bias must have shape [{out.shape[1]}] (one value per output channel), got {bias.shape}"
        )
    return ops.add(out, ops.reshape(bias, (1, -1) + (1,) * (out.ndim - 2)))


def _lift_1d(t: Tensor) -> Tensor:
    """[N, C, L] -> [N, C, 1, L]: a 1-D signal as a height-1 image."""
    return ops.reshape(t, (*t.shape[:2], 1, t.shape[2]))


def _drop_1d(t: Tensor) -> Tensor:
    return ops.reshape(t, (*t.shape[:2], t.shape[3]))


def _geometry(x, kernel, stride, padding, dilation, nd, last, fn):
    """strides, paddings (pairs), dilations for channels-first x, resolving 'same' / 'valid'."""
    strides = ntuple(stride, nd, fn, "stride")
    dilations = ntuple(dilation, nd, fn, "dilation")
    pads = padding_pairs(padding, nd, last, fn)
    sizes = tuple(x.shape[2:])
    return strides, *resolve_padding(pads, sizes, kernel, strides, dilations)


def _conv(x, weight, bias, stride, padding, dilation, groups, data_format, nd, fn) -> Tensor:
    x = check_input(x, nd, fn)
    weight = _check_weight(x, weight, nd, fn)
    last = channel_last(data_format, nd, fn)
    x = to_channels_first(x, last)
    groups = ntuple(groups, 1, fn, "groups")[0]
    c, o = x.shape[1], weight.shape[0]
    if c % groups or o % groups:
        raise ValueError(f"{fn}: in_channels ({c}) and out_channels ({o}) must both be divisible by groups ({groups})")
    if weight.shape[1] * groups != c:
        raise ValueError(
            f"{fn}: x has {c} channels, but weight of shape {weight.shape} with groups={groups} expects "
            f"{weight.shape[1] * groups} (weight.shape[1] * groups)"
        )
    kernel = tuple(weight.shape[2:])
    strides, paddings, dilations = _geometry(x, kernel, stride, padding, dilation, nd, last, fn)
    for d, k, dl, (b, a) in zip(x.shape[2:], kernel, dilations, paddings):
        if d + b + a < dl * (k - 1) + 1:
            raise ValueError(
                f"{fn}: the padded input ({d + b + a}) is smaller than the dilated kernel ({dl * (k - 1) + 1}); "
                f"x has shape {x.shape}, weight {weight.shape}"
            )
    if nd == 1:
        out = ops.conv2d(_lift_1d(x), _lift_1d(weight), (1, *strides), ((0, 0), *paddings), (1, *dilations), groups)
        out = _drop_1d(out)
    elif nd == 2:
        out = ops.conv2d(x, weight, strides, paddings, dilations, groups)
    else:
        out = ops.conv3d(x, weight, strides, paddings, dilations, groups)
    return to_channels_last(_add_bias(out, bias, fn), last)


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCL", name=None) -> Tensor:
    """1-D convolution of x [N, C, L] (or [N, L, C] for 'NLC') with weight [O, C/groups, k].

    Args:
        x: the input, float32 or float64.
        weight: the kernels; bias: [O] or None.
        stride, dilation: an int or [int].
        padding: an int, [int], [before, after], 'same' or 'valid'.
        groups: split the channels into this many groups, each convolved with its own kernels.
        data_format: 'NCL' or 'NLC'.

    Returns:
        [N, O, L_out] (or [N, L_out, O]).

    Example:
        >>> x = paddle.rand([2, 3, 10])
        >>> w = paddle.rand([4, 3, 3])
        >>> F.conv1d(x, w, padding=1).shape
        [2, 4, 10]
    """
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, 1, "conv1d")


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW", name=None) -> Tensor:
    """2-D convolution of x [N, C, H, W] (or NHWC) with weight [O, C/groups, kh, kw]: im2col + one GEMM.

    Args:
        x: the input, float32 or float64.
        weight: the kernels; bias: [O] or None.
        stride, dilation: an int or [int, int].
        padding: an int, [ph, pw], [top, bottom, left, right], [[0,0],[0,0],[top,bottom],[left,right]],
            'same' (output size ceil(in / stride); dilation is then taken as 1, as in Paddle) or 'valid'.
        groups: split the channels into this many groups, each convolved with its own kernels.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        [N, O, H_out, W_out] (or NHWC), with H_out = (H + top + bottom - dilation*(kh-1) - 1) // stride + 1.

    Example:
        >>> x = paddle.rand([1, 1, 28, 28])
        >>> w = paddle.rand([6, 1, 5, 5])
        >>> F.conv2d(x, w).shape
        [1, 6, 24, 24]
    """
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, 2, "conv2d")


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCDHW", name=None) -> Tensor:
    """3-D convolution of x [N, C, D, H, W] (or NDHWC) with weight [O, C/groups, kd, kh, kw].

    Arguments as conv2d, with three values per spatial argument.

    Example:
        >>> F.conv3d(paddle.rand([1, 2, 4, 5, 5]), paddle.rand([3, 2, 2, 3, 3])).shape
        [1, 3, 3, 3, 3]
    """
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, 3, "conv3d")


# ---- transposed convolution ---------------------------------------------------------------------------------------


def _transpose_sizes(x, kernel, strides, paddings, dilations, output_padding, output_size, nd, fn):
    """The output's spatial size: (in - 1)*stride - pads + dilation*(k - 1) + 1 + output_padding, or output_size
    (which must lie in [that, that + stride))."""
    base = [
        (d - 1) * s - b - a + dl * (k - 1) + 1
        for d, k, s, (b, a), dl in zip(x.shape[2:], kernel, strides, paddings, dilations)
    ]
    if output_size is not None:
        if isinstance(output_size, Tensor):
            output_size = output_size.tolist()
        if output_padding != 0 and output_padding != [0] * nd:
            raise ValueError(f"{fn}: give output_padding or output_size, not both")
        sizes = ntuple(output_size, nd, fn, "output_size")
        for want, lo, s in zip(sizes, base, strides):
            if not lo <= want < lo + s:
                raise ValueError(
                    f"{fn}: output_size {list(sizes)} is out of range; each size must lie in "
                    f"[{lo}, {lo + s}) for this input, kernel, stride and padding"
                )
        return sizes
    extra = ntuple(output_padding, nd, fn, "output_padding", minimum=0)
    for e, s, dl in zip(extra, strides, dilations):
        if e >= max(s, dl):
            raise ValueError(f"{fn}: output_padding ({list(extra)}) must be smaller than stride or dilation")
    return tuple(b + e for b, e in zip(base, extra))


def _conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation, output_size, data_format,
                    nd, fn) -> Tensor:  # fmt: skip
    x = check_input(x, nd, fn)
    weight = _check_weight(x, weight, nd, fn)
    last = channel_last(data_format, nd, fn)
    x = to_channels_first(x, last)
    groups = ntuple(groups, 1, fn, "groups")[0]
    if weight.shape[0] != x.shape[1]:
        raise ValueError(
            f"{fn}: x has {x.shape[1]} channels but weight's first dimension is {weight.shape[0]}; a transposed "
            "convolution's weight has shape [in_channels, out_channels / groups, *kernel]"
        )
    if x.shape[1] % groups:
        raise ValueError(f"{fn}: in_channels ({x.shape[1]}) must be divisible by groups ({groups})")
    kernel = tuple(weight.shape[2:])
    strides = ntuple(stride, nd, fn, "stride")
    dilations = ntuple(dilation, nd, fn, "dilation")
    pads = padding_pairs(padding, nd, last, fn)
    pads, dilations = resolve_padding(pads, tuple(x.shape[2:]), kernel, strides, dilations)  # 'same' as conv's
    sizes = _transpose_sizes(x, kernel, strides, pads, dilations, output_padding, output_size, nd, fn)
    if nd == 1:
        out = ops.conv2d_grad_input(_lift_1d(x), _lift_1d(weight), (1, *sizes), (1, *strides), ((0, 0), *pads),
                                    (1, *dilations), groups)  # fmt: skip
        out = _drop_1d(out)
    elif nd == 2:
        out = ops.conv2d_grad_input(x, weight, sizes, strides, pads, dilations, groups)
    else:
        out = ops.conv3d_grad_input(x, weight, sizes, strides, pads, dilations, groups)
    return to_channels_last(_add_bias(out, bias, fn), last)


def conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     output_size=None, data_format="NCL", name=None) -> Tensor:  # fmt: skip
    """1-D transposed convolution of x [N, C, L] with weight [C, O/groups, k] (the gradient of conv1d with
    respect to its input). See conv2d_transpose.

    Example:
        >>> F.conv1d_transpose(paddle.rand([1, 2, 5]), paddle.rand([2, 3, 3]), stride=2).shape
        [1, 3, 11]
    """
    return _conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation, output_size,
                           data_format, 1, "conv1d_transpose")  # fmt: skip


def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1, groups=1,
                     output_size=None, data_format="NCHW", name=None) -> Tensor:  # fmt: skip
    """2-D transposed convolution ("deconvolution") of x [N, C, H, W] with weight [C, O/groups, kh, kw].

    It is the gradient of conv2d with respect to its input: each input pixel spreads its value, weighted by the
    kernel, over a kh x kw patch of the output (col2im), so it upsamples by `stride`.

    Args:
        x: the input, float32 or float64; weight: [in_channels, out_channels / groups, kh, kw]; bias: [O] or None.
        stride, dilation, groups: as conv2d.
        padding: as conv2d; it trims the output ('same': the padding conv2d would use on x, dilation 1).
        output_padding: extra rows/columns at the end of the output (each < stride or dilation).
        output_size: the output's [H, W] instead of output_padding (it must lie in [minimal, minimal + stride)).
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        [N, O, H_out, W_out] with H_out = (H - 1)*stride - top - bottom + dilation*(kh - 1) + 1 + output_padding.

    Example:
        >>> F.conv2d_transpose(paddle.rand([1, 2, 4, 4]), paddle.rand([2, 3, 3, 3]), stride=2).shape
        [1, 3, 9, 9]
    """
    return _conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation, output_size,
                           data_format, 2, "conv2d_transpose")  # fmt: skip


def conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     output_size=None, data_format="NCDHW", name=None) -> Tensor:  # fmt: skip
    """3-D transposed convolution of x [N, C, D, H, W] with weight [C, O/groups, kd, kh, kw]. See conv2d_transpose.

    Example:
        >>> F.conv3d_transpose(paddle.rand([1, 2, 2, 3, 3]), paddle.rand([2, 1, 2, 2, 2])).shape
        [1, 1, 3, 4, 4]
    """
    return _conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation, output_size,
                           data_format, 3, "conv3d_transpose")  # fmt: skip
