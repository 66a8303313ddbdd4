"""Resizing, padding, patch extraction and rearranging channels and pixels (paddle.nn.functional): interpolate,
upsample, pad, zeropad2d, unfold, fold, pixel_shuffle, pixel_unshuffle, channel_shuffle."""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.window_args import (
    CHANNELS_FIRST,
    CHANNELS_LAST,
    check_input,
    ntuple,
    to_channels_first,
    to_channels_last,
)
from minipaddle.tensor.checks import PreconditionNotMetError, check_bool, check_float, check_tensor

__all__ = [
    "interpolate",
    "upsample",
    "pad",
    "zeropad2d",
    "unfold",
    "fold",
    "pixel_shuffle",
    "pixel_unshuffle",
    "channel_shuffle",
]

# ---- interpolate ----------------------------------------------------------------------------------------------------

_MODES = ("nearest", "linear", "bilinear", "trilinear", "bicubic", "area")
_MODE_DIMS = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}
_INTERP_FORMATS = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def _as_list(value, fn: str, arg: str):
    if isinstance(value, Tensor):
        value = value.tolist()
    return [v.item() if isinstance(v, Tensor) else v for v in value] if isinstance(value, (list, tuple)) else value


def _interp_sizes(x, nd, size, scale_factor, fn):
    """(output sizes, scales or None) from size or scale_factor (exactly one of them), as Paddle reads them."""
    if size is None and scale_factor is None:
        raise ValueError(f"{fn}: one of size and scale_factor must be given")
    if size is not None and scale_factor is not None:
        raise ValueError(f"{fn}: give only one of size and scale_factor")
    in_sizes = x.shape[2:]
    if size is not None:
        size = _as_list(size, fn, "size")
        if not isinstance(size, list) or len(size) != nd:
            raise TypeError(f"{fn}: size must be a list of {nd} ints for a {nd + 2}-D input, got {size!r}")
        return ntuple(size, nd, fn, "size"), None
    scales = _as_list(scale_factor, fn, "scale_factor")
    if isinstance(scales, numbers.Real) and not isinstance(scales, bool):
        scales = [scales] * nd
    if not isinstance(scales, list) or len(scales) != nd or not all(isinstance(s, numbers.Real) for s in scales):
        raise TypeError(f"{fn}: scale_factor must be a number or a list of {nd} numbers, got {scale_factor!r}")
    if any(not 0 < s < float("inf") for s in scales):
        raise ValueError(f"{fn}: scale_factor must be a finite number > 0, got {scale_factor!r}")
    sizes = tuple(int(d * float(s)) for d, s in zip(in_sizes, scales))
    if any(s < 1 for s in sizes):
        raise ValueError(f"{fn}: scale_factor {scale_factor!r} makes an empty output from spatial size {in_sizes}")
    return sizes, tuple(float(s) for s in scales)


def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
                data_format="NCHW", name=None) -> Tensor:  # fmt: skip
    """Resize the spatial axes of x: 3-D [N, C, W], 4-D [N, C, H, W] or 5-D [N, C, D, H, W] (or channels last).

    Args:
        size: the output's spatial size (a list, one int per axis), or
        scale_factor: a number or one per axis; the output size is int(in * scale) (give exactly one of them).
        mode: 'nearest' (4-D, 5-D), 'linear' (3-D), 'bilinear' (4-D), 'trilinear' (5-D), 'bicubic' (4-D) or
            'area' (adaptive average pooling).
        align_corners: map the corner pixels' centres onto each other (linear modes and bicubic only).
        align_mode: for linear modes without align_corners, 0 samples at half-pixel centres
            (src = (dst + 0.5) * ratio - 0.5), 1 at src = dst * ratio.
        data_format: 'NCW'/'NWC', 'NCHW'/'NHWC' or 'NCDHW'/'NDHWC', matching x's rank.

    Example:
        >>> x = paddle.rand([1, 3, 4, 4])
        >>> F.interpolate(x, scale_factor=2, mode='bilinear').shape
        [1, 3, 8, 8]
    """
    fn = "interpolate"
    check_tensor(x, fn)
    if not isinstance(mode, str) or mode.lower() not in _MODES:
        raise ValueError(f"{fn}: mode must be one of {', '.join(_MODES)}, got {mode!r}")
    mode = mode.lower()
    if x.ndim not in _INTERP_FORMATS:
        raise ValueError(f"{fn}: x must be a 3-D, 4-D or 5-D tensor, got shape {x.shape}")
    if mode in _MODE_DIMS and x.ndim != _MODE_DIMS[mode]:
        raise ValueError(f"{fn}: mode {mode!r} needs a {_MODE_DIMS[mode]}-D input, got shape {x.shape}")
    if mode == "nearest" and x.ndim == 3:
        raise ValueError(f"{fn}: mode 'nearest' needs a 4-D or 5-D input, got shape {x.shape}")
    align_corners = check_bool(align_corners, fn, "align_corners")  # (paddle 2.6 refuses None here too)
    if align_corners and mode in ("nearest", "area"):
        raise ValueError(f"{fn}: align_corners can only be set with the modes linear, bilinear, bicubic, trilinear")
    if align_mode not in (0, 1):
        raise ValueError(f"{fn}: align_mode must be 0 or 1, got {align_mode!r}")
    if data_format not in _INTERP_FORMATS[x.ndim]:
        raise ValueError(f"{fn}: data_format must be one of {_INTERP_FORMATS[x.ndim]} for a {x.ndim}-D input, got "
                         f"{data_format!r}")  # fmt: skip
    check_input(x, x.ndim - 2, fn, ints=mode == "nearest")  # paddle 2.6 has int kernels for nearest only
    last = data_format == _INTERP_FORMATS[x.ndim][1]
    x = to_channels_first(x, last)
    sizes, scales = _interp_sizes(x, x.ndim - 2, size, scale_factor, fn)
    if mode == "area":
        out = ops.adaptive_avg_pool(x, sizes)
    else:
        kind = "nearest" if mode == "nearest" else "bicubic" if mode == "bicubic" else "linear"
        out = ops.interpolate(x, sizes, kind, bool(align_corners), int(align_mode), scales)
    return to_channels_last(out, last)


def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0, data_format="NCHW",
             name=None) -> Tensor:  # fmt: skip
    """The same as interpolate."""
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format, name)


# ---- pad -------------------------------------------------------------------------------------------------------------

_PAD_MODES = ("constant", "reflect", "replicate", "circular")


def pad(x, pad, mode="constant", value=0.0, data_format="NCHW", name=None) -> Tensor:
    """Pad x with a constant, a mirror image of its edge (reflect), copies of its edge (replicate) or its other
    side (circular).

    Args:
        pad: a list of ints (or a 1-D Tensor).
            - constant mode with 2 * x.ndim values: [before, after] for every axis from the first to the last;
            - otherwise (x 3-D, 4-D or 5-D) the spatial axes from the last one backwards:
              [left, right] (3-D), [left, right, top, bottom] (4-D), [left, right, top, bottom, front, back] (5-D).
        mode: 'constant', 'reflect' (pads must be smaller than the axis), 'replicate' or 'circular'.
        value: the constant mode's fill value.
        data_format: which axes are spatial: 'NCL'/'NLC', 'NCHW'/'NHWC', 'NCDHW'/'NDHWC', matching x's rank.

    Example:
        >>> x = paddle.ones([1, 1, 2, 3])
        >>> F.pad(x, [1, 1, 0, 2]).shape    # 1 left, 1 right, 0 top, 2 bottom
        [1, 1, 4, 5]
    """
    value = check_float(value, "pad", "value")
    fn = "pad"
    check_tensor(x, fn)
    if mode not in _PAD_MODES:
        raise ValueError(f"{fn}: mode must be one of {', '.join(_PAD_MODES)}, got {mode!r}")
    widths = _as_list(pad, fn, "pad")
    if not isinstance(widths, list) or not all(isinstance(p, numbers.Integral) for p in widths):
        raise TypeError(f"{fn}: pad must be a list of ints, got {pad!r}")
    widths = [int(p) for p in widths]
    if any(p < 0 for p in widths):  # (paddle 2.6: ValueError, or PreconditionNotMet for a negative size: both)
        raise PreconditionNotMetError(f"{fn}: pad must be >= 0, got {widths}")
    if mode == "constant" and len(widths) == 2 * x.ndim:  # every axis, first to last
        pairs = tuple((widths[2 * i], widths[2 * i + 1]) for i in range(x.ndim))
        return ops.pad(x, pairs, mode, float(value))
    if x.ndim not in (3, 4, 5):
        raise ValueError(
            f"{fn}: x must be 3-D, 4-D or 5-D unless pad gives [before, after] for all {x.ndim} axes in constant "
            f"mode; got shape {x.shape} and {len(widths)} pad values"
        )
    nd = x.ndim - 2
    if data_format not in (CHANNELS_FIRST[nd], CHANNELS_LAST[nd]):
        raise ValueError(f"{fn}: data_format must be {CHANNELS_FIRST[nd]!r} or {CHANNELS_LAST[nd]!r} for a "
                         f"{x.ndim}-D input, got {data_format!r}")  # fmt: skip
    if len(widths) != 2 * nd:
        raise ValueError(f"{fn}: pad must have {2 * nd} values for a {x.ndim}-D input (or {2 * x.ndim} in constant "
                         f"mode), got {len(widths)}")  # fmt: skip
    spatial = [(widths[2 * i], widths[2 * i + 1]) for i in range(nd)][::-1]  # given last axis first
    last = data_format == CHANNELS_LAST[nd]
    sizes = x.shape[1:-1] if last else x.shape[2:]
    for d, (b, a) in zip(sizes, spatial):
        if mode == "reflect" and max(b, a) >= d:
            raise ValueError(f"{fn}: in reflect mode each pad must be smaller than its axis ({d}), got {widths}")
        if mode in ("replicate", "circular") and d == 0:
            raise ValueError(f"{fn}: cannot pad an empty axis in {mode} mode")
    pairs = ((0, 0), *spatial, (0, 0)) if last else ((0, 0), (0, 0), *spatial)
    return ops.pad(x, pairs, mode, float(value))


def zeropad2d(x, padding, data_format="NCHW", name=None) -> Tensor:
    """Pad the H and W axes of a 4-D x with zeros; padding is an int or [left, right, top, bottom].

    Example:
        >>> F.zeropad2d(paddle.ones([1, 1, 2, 2]), [1, 0, 0, 1]).shape
        [1, 1, 3, 3]
    """
    widths = _as_list(padding, "zeropad2d", "padding")
    if isinstance(widths, numbers.Integral):
        widths = [int(widths)] * 4
    return pad(x, widths, "constant", 0.0, data_format)


# ---- unfold / fold ---------------------------------------------------------------------------------------------------


def _unfold_paddings(paddings, fn):
    """Paddle's unfold/fold paddings, an int, [ph, pw] or [top, left, bottom, right], as
    ((top, bottom), (left, right))."""
    p = _as_list(paddings, fn, "paddings")
    if isinstance(p, numbers.Integral) and not isinstance(p, bool):
        p = [int(p)] * 2
    if isinstance(p, list) and len(p) == 2 and all(isinstance(v, numbers.Integral) for v in p):
        p = [p[0], p[1], p[0], p[1]]
    if not (isinstance(p, list) and len(p) == 4 and all(isinstance(v, numbers.Integral) for v in p)):
        raise TypeError(f"{fn}: paddings must be an int, [ph, pw] or [top, left, bottom, right], got {paddings!r}")
    if any(v < 0 for v in p):
        raise ValueError(f"{fn}: paddings must be >= 0, got {paddings!r}")
    return ((int(p[0]), int(p[2])), (int(p[1]), int(p[3])))


def _unfold_geometry(kernel_sizes, strides, paddings, dilations, fn):
    return (
        ntuple(kernel_sizes, 2, fn, "kernel_sizes"),
        ntuple(strides, 2, fn, "strides"),
        _unfold_paddings(paddings, fn),
        ntuple(dilations, 2, fn, "dilations"),
    )


def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None) -> Tensor:
    """im2col: every kernel_sizes window of x [N, C, H, W] as a column of [N, C*kh*kw, L].

    Args:
        kernel_sizes, strides, dilations: an int or [h, w].
        paddings: an int, [ph, pw] or [top, left, bottom, right].

    Returns:
        [N, C*kh*kw, L], L = out_h * out_w; rows run over channels, then kernel rows, then kernel columns.

    Example:
        >>> F.unfold(paddle.rand([2, 3, 4, 4]), kernel_sizes=2).shape
        [2, 12, 9]
    """
    fn = "unfold"
    x = check_input(x, 2, fn)
    kernel, strides, pads, dilations = _unfold_geometry(kernel_sizes, strides, paddings, dilations, fn)
    for d, k, dl, (b, a) in zip(x.shape[2:], kernel, dilations, pads):
        if d + b + a < dl * (k - 1) + 1:
            raise ValueError(f"{fn}: the padded input ({d + b + a}) is smaller than the dilated kernel "
                             f"({dl * (k - 1) + 1}); x has shape {x.shape}")  # fmt: skip
    return ops.im2col(x, kernel, strides, pads, dilations)


def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None) -> Tensor:
    """col2im, the adjoint of unfold: columns [N, C*kh*kw, L] summed back into an image [N, C, *output_sizes].

    Example:
        >>> F.fold(paddle.ones([1, 4, 9]), output_sizes=[4, 4], kernel_sizes=2).shape
        [1, 1, 4, 4]
    """
    fn = "fold"
    check_tensor(x, fn)
    if x.ndim != 3:
        raise ValueError(f"{fn}: x must be a 3-D tensor [N, C*kh*kw, L], got shape {x.shape}")
    sizes = ntuple(_as_list(output_sizes, fn, "output_sizes"), 2, fn, "output_sizes")
    kernel, strides, pads, dilations = _unfold_geometry(kernel_sizes, strides, paddings, dilations, fn)
    if x.shape[1] % (kernel[0] * kernel[1]):
        raise ValueError(f"{fn}: x.shape[1] ({x.shape[1]}) must be divisible by kh*kw ({kernel[0] * kernel[1]})")
    blocks = 1
    for d, k, s, dl, (b, a) in zip(sizes, kernel, strides, dilations, pads):
        blocks *= (d + b + a - dl * (k - 1) - 1) // s + 1
    if x.shape[2] != blocks:
        raise ValueError(f"{fn}: x has {x.shape[2]} columns but output_sizes {list(sizes)} with these kernel, "
                         f"stride, padding and dilation give {blocks} windows")  # fmt: skip
    return ops.col2im(x, sizes, kernel, strides, pads, dilations)


# ---- pixel shuffle ---------------------------------------------------------------------------------------------------


def pixel_shuffle(x, upscale_factor, data_format="NCHW", name=None) -> Tensor:
    """Rearrange [N, C*r*r, H, W] into [N, C, H*r, W*r] (r = upscale_factor): channel c*r*r + i*r + j becomes
    the pixel at offset (i, j) of each r x r block (sub-pixel convolution's upsampling).

    Example:
        >>> F.pixel_shuffle(paddle.rand([1, 8, 3, 3]), 2).shape
        [1, 2, 6, 6]
    """
    fn = "pixel_shuffle"
    x = check_input(x, 2, fn)
    r = ntuple(upscale_factor, 1, fn, "upscale_factor")[0]
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{fn}: data_format must be 'NCHW' or 'NHWC', got {data_format!r}")
    last = data_format == "NHWC"
    x = to_channels_first(x, last)
    n, c, h, w = x.shape
    if c % (r * r):
        raise ValueError(f"{fn}: the channels ({c}) must be divisible by upscale_factor squared ({r * r})")
    blocks = ops.reshape(x, (n, c // (r * r), r, r, h, w))
    out = ops.reshape(ops.transpose(blocks, (0, 1, 4, 2, 5, 3)), (n, c // (r * r), h * r, w * r))
    return to_channels_last(out, last)


def check_positive_int(v, fn: str, arg: str) -> int:
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
        raise TypeError(f"{fn}: {arg} must be an int, got {type(v).__name__}")
    if v <= 0:
        raise ValueError(f"{fn}: {arg} must be positive, got {v}")
    return int(v)


def check_image_format(data_format, fn: str) -> bool:
    """True for 'NHWC' (channels last), False for 'NCHW'."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{fn}: data_format must be 'NCHW' or 'NHWC', got {data_format!r}")
    return data_format == "NHWC"


# ---- rearranging channels and pixels ----------------------------------------------------------------------------


def pixel_unshuffle(x, downscale_factor, data_format="NCHW", name=None) -> Tensor:
    """The inverse of pixel_shuffle: [N, C, H, W] into [N, C*r*r, H/r, W/r] (r = downscale_factor); the pixel at
    offset (i, j) of each r x r block goes to channel c*r*r + i*r + j.

    Example:
        >>> F.pixel_unshuffle(paddle.rand([2, 1, 12, 12]), 3).shape
        [2, 9, 4, 4]
    """
    fn = "pixel_unshuffle"
    x = check_input(x, 2, fn)
    r = check_positive_int(downscale_factor, fn, "downscale_factor")
    last = check_image_format(data_format, fn)
    h, w = x.shape[1:3] if last else x.shape[2:4]
    if h % r or w % r:
        raise ValueError(f"{fn}: downscale_factor ({r}) must divide both the height ({h}) and the width ({w})")
    if last:  # [N, H, W, C] -> [N, H/r, W/r, C*r*r], channel c*r*r + i*r + j
        blocks = ops.reshape(x, (-1, h // r, r, w // r, r, x.shape[3]))
        return ops.reshape(ops.transpose(blocks, (0, 1, 3, 5, 2, 4)), (-1, h // r, w // r, x.shape[3] * r * r))
    blocks = ops.reshape(x, (-1, x.shape[1], h // r, r, w // r, r))
    return ops.reshape(ops.transpose(blocks, (0, 1, 3, 5, 2, 4)), (-1, x.shape[1] * r * r, h // r, w // r))


def channel_shuffle(x, groups, data_format="NCHW", name=None) -> Tensor:
    """ShuffleNet's channel shuffle: split the C channels into `groups` groups and interleave them, so channel
    g * (C/groups) + k moves to k * groups + g. The shape is kept.

    Example:
        >>> x = paddle.arange(6, dtype='float32').reshape([1, 6, 1, 1])
        >>> F.channel_shuffle(x, 3).flatten().tolist()
        [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]
    """
    fn = "channel_shuffle"
    x = check_input(x, 2, fn)
    groups = check_positive_int(groups, fn, "groups")
    last = check_image_format(data_format, fn)
    c = x.shape[3] if last else x.shape[1]
    if c % groups:
        raise ValueError(f"{fn}: groups ({groups}) must divide the number of channels ({c})")
    shape = tuple(x.shape)
    if last:
        split = ops.reshape(x, (*shape[:3], groups, c // groups))
        return ops.reshape(ops.transpose(split, (0, 1, 2, 4, 3)), shape)
    split = ops.reshape(x, (shape[0], groups, c // groups, *shape[2:]))
    return ops.reshape(ops.transpose(split, (0, 2, 1, 3, 4)), shape)
