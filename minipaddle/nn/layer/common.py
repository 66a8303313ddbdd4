"""Resizing, padding, patch and rearranging layers: Upsample, UpsamplingNearest2D, UpsamplingBilinear2D,
Pad1D/2D/3D, ZeroPad2D, Unfold, Fold, PixelShuffle, PixelUnshuffle, ChannelShuffle, Unflatten. Each holds its
arguments (checked when the layer is made, as paddle does) and calls its function (nn/functional/common.py,
paddle.unflatten)."""

from __future__ import annotations

import numbers

from minipaddle.nn import functional as F
from minipaddle.nn.functional.common import channel_shuffle, check_image_format, check_positive_int, pixel_unshuffle
from minipaddle.nn.layer.layers import Layer
from minipaddle.tensor.manipulation import unflatten

__all__ = [
    "Upsample",
    "UpsamplingNearest2D",
    "UpsamplingBilinear2D",
    "Pad1D",
    "Pad2D",
    "Pad3D",
    "ZeroPad2D",
    "Unfold",
    "Fold",
    "PixelShuffle",
    "PixelUnshuffle",
    "ChannelShuffle",
    "Unflatten",
]


class Upsample(Layer):
    """Resize the spatial axes (see F.interpolate for the modes and arguments).

    Example:
        >>> up = paddle.nn.Upsample(scale_factor=2, mode='bilinear')
        >>> up(paddle.rand([1, 3, 4, 4])).shape
        [1, 3, 8, 8]
    """

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
                 data_format="NCHW", name=None):  # fmt: skip
        super().__init__()
        if not isinstance(mode, str):
            raise TypeError(f"Upsample: mode must be a str such as 'nearest' or 'bilinear', got {type(mode).__name__}")
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode, self.data_format, self.name = align_corners, align_mode, data_format, name

    def forward(self, x):
        return F.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners, self.align_mode,
                             self.data_format)  # fmt: skip

    def extra_repr(self) -> str:
        what = f"scale_factor={self.scale_factor}" if self.scale_factor is not None else f"size={self.size}"
        return (f"{what}, mode={self.mode}, align_corners={self.align_corners}, align_mode={self.align_mode}, "
                f"data_format={self.data_format}")  # fmt: skip


class UpsamplingNearest2D(Layer):
    """Nearest-neighbour resize of [N, C, H, W] to `size` or by `scale_factor`.

    Example:
        >>> paddle.nn.UpsamplingNearest2D(scale_factor=2)(paddle.rand([1, 1, 2, 3])).shape
        [1, 1, 4, 6]
    """

    mode, align_corners = "nearest", False

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__()
        self.size, self.scale_factor, self.data_format, self.name = size, scale_factor, data_format, name

    def forward(self, x):
        return F.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners, 0, self.data_format)

    def extra_repr(self) -> str:
        what = f"scale_factor={self.scale_factor}" if self.scale_factor is not None else f"size={self.size}"
        return f"{what}, data_format={self.data_format}"


class UpsamplingBilinear2D(UpsamplingNearest2D):
    """Bilinear resize of [N, C, H, W] with align_corners=True (as Paddle's layer does).

    Example:
        >>> paddle.nn.UpsamplingBilinear2D(size=[4, 4])(paddle.rand([1, 1, 2, 2])).shape
        [1, 1, 4, 4]
    """

    mode, align_corners = "bilinear", True


class _PadNd(Layer):
    nd = 2

    def __init__(self, padding, mode="constant", value=0.0, data_format=None, name=None):
        super().__init__()
        if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
            padding = [int(padding)] * (2 * self.nd)
        self._pad, self._mode, self._value, self._data_format, self._name = padding, mode, value, data_format, name

    def forward(self, x):
        return F.pad(x, self._pad, self._mode, self._value, self._data_format)

    def extra_repr(self) -> str:
        return f"padding={self._pad}, mode={self._mode}, value={self._value}, data_format={self._data_format}"


class Pad1D(_PadNd):
    """Pad the last axis of [N, C, L]: padding is an int or [left, right] (see F.pad for the modes).

    Example:
        >>> paddle.nn.Pad1D([1, 2], mode='reflect')(paddle.rand([1, 2, 5])).shape
        [1, 2, 8]
    """

    nd = 1

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCL", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad2D(_PadNd):
    """Pad H and W of [N, C, H, W]: padding is an int or [left, right, top, bottom] (see F.pad for the modes).

    Example:
        >>> paddle.nn.Pad2D([1, 1, 2, 0])(paddle.rand([1, 2, 3, 3])).shape
        [1, 2, 5, 5]
    """

    nd = 2

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad3D(_PadNd):
    """Pad D, H and W of [N, C, D, H, W]: padding is an int or [left, right, top, bottom, front, back].

    Example:
        >>> paddle.nn.Pad3D(1)(paddle.rand([1, 1, 2, 2, 2])).shape
        [1, 1, 4, 4, 4]
    """

    nd = 3

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCDHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


class ZeroPad2D(_PadNd):
    """Pad H and W of [N, C, H, W] with zeros: padding is an int or [left, right, top, bottom].

    Example:
        >>> paddle.nn.ZeroPad2D([1, 0, 0, 1])(paddle.rand([1, 1, 2, 2])).shape
        [1, 1, 3, 3]
    """

    nd = 2

    def __init__(self, padding, data_format="NCHW", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)

    def extra_repr(self) -> str:
        return f"padding={self._pad}, data_format={self._data_format}"


class Unfold(Layer):
    """im2col: every kernel_sizes window of [N, C, H, W] as a column of [N, C*kh*kw, L] (see F.unfold).

    Example:
        >>> paddle.nn.Unfold(kernel_sizes=2)(paddle.rand([1, 3, 4, 4])).shape
        [1, 12, 9]
    """

    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self.kernel_sizes, self.dilations, self.paddings, self.strides = kernel_sizes, dilations, paddings, strides
        self.name = name

    def forward(self, input):
        return F.unfold(input, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, padding={self.paddings}, "
                f"stride={self.strides}")  # fmt: skip


class Fold(Unfold):
    """col2im: columns [N, C*kh*kw, L] summed back into an image [N, C, *output_sizes] (see F.fold).

    Example:
        >>> paddle.nn.Fold([4, 4], 2)(paddle.rand([1, 12, 9])).shape
        [1, 3, 4, 4]
    """

    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__(kernel_sizes, dilations, paddings, strides, name)
        self.output_sizes = output_sizes

    def forward(self, input):
        return F.fold(input, self.output_sizes, self.kernel_sizes, self.strides, self.paddings, self.dilations)


class PixelShuffle(Layer):
    """[N, C*r*r, H, W] -> [N, C, H*r, W*r] with r = upscale_factor (see F.pixel_shuffle).

    Example:
        >>> paddle.nn.PixelShuffle(2)(paddle.rand([1, 8, 3, 3])).shape
        [1, 2, 6, 6]
    """

    def __init__(self, upscale_factor, data_format="NCHW", name=None):
        super().__init__()
        self._upscale_factor, self._data_format, self._name = upscale_factor, data_format, name

    def forward(self, x):
        return F.pixel_shuffle(x, self._upscale_factor, self._data_format)

    def extra_repr(self) -> str:
        fmt = f", data_format={self._data_format}" if self._data_format != "NCHW" else ""
        return f"upscale_factor={self._upscale_factor}{fmt}"


def _format_repr(data_format: str) -> str:
    return f", data_format={data_format}" if data_format != "NCHW" else ""


def _name_repr(name) -> str:
    return f", name={name}" if name else ""


class PixelUnshuffle(Layer):
    """[N, C, H, W] -> [N, C*r*r, H/r, W/r] with r = downscale_factor (see F.pixel_unshuffle).

    Example:
        >>> paddle.nn.PixelUnshuffle(3)(paddle.rand([2, 1, 12, 12])).shape
        [2, 9, 4, 4]
    """

    def __init__(self, downscale_factor, data_format="NCHW", name=None):
        super().__init__()
        check_positive_int(downscale_factor, "PixelUnshuffle", "downscale_factor")
        check_image_format(data_format, "PixelUnshuffle")
        self._downscale_factor, self._data_format, self._name = downscale_factor, data_format, name

    def forward(self, x):
        return pixel_unshuffle(x, self._downscale_factor, self._data_format, self._name)

    def extra_repr(self) -> str:
        return f"downscale_factor={self._downscale_factor}{_format_repr(self._data_format)}{_name_repr(self._name)}"


class ChannelShuffle(Layer):
    """Interleave the channels of `groups` groups, keeping the shape (see F.channel_shuffle).

    Example:
        >>> paddle.nn.ChannelShuffle(3)(paddle.rand([1, 6, 2, 2])).shape
        [1, 6, 2, 2]
    """

    def __init__(self, groups, data_format="NCHW", name=None):
        super().__init__()
        check_positive_int(groups, "ChannelShuffle", "groups")
        check_image_format(data_format, "ChannelShuffle")
        self._groups, self._data_format, self._name = groups, data_format, name

    def forward(self, x):
        return channel_shuffle(x, self._groups, self._data_format, self._name)

    def extra_repr(self) -> str:
        return f"groups={self._groups}{_format_repr(self._data_format)}{_name_repr(self._name)}"


class Unflatten(Layer):
    """Expand the dimension `axis` into `shape` (see paddle.unflatten).

    Example:
        >>> paddle.nn.Unflatten(1, [2, 3])(paddle.rand([4, 6, 8])).shape
        [4, 2, 3, 8]
    """

    def __init__(self, axis, shape, name=None):
        super().__init__()
        self.axis, self.shape, self.name = axis, shape, name

    def forward(self, input):  # noqa: A002 (Paddle's name)
        return unflatten(input, axis=self.axis, shape=self.shape, name=self.name)

    def extra_repr(self) -> str:
        return f"axis={self.axis}, shape={self.shape}{_name_repr(self.name)}"
