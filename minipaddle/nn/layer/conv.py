"""Convolution layers: Conv1D/2D/3D and Conv1DTranspose/2DTranspose/3DTranspose (functions in nn/functional/conv.py).

Parameters as Paddle makes them: weight [out_channels, in_channels / groups, *kernel_size] (transposed:
[in_channels, out_channels / groups, *kernel_size]) and bias [out_channels]. A convolution's weight starts
Normal(0, sqrt(2 / (kernel_elements * in_channels))) (Kaiming normal); a transposed convolution's starts
XavierUniform; biases start at zero.
"""

from __future__ import annotations

import math

import numpy as np

from minipaddle.core.dtype import get_default_dtype
from minipaddle.nn import functional as F
from minipaddle.nn.functional.window_args import CHANNELS_FIRST, CHANNELS_LAST, ntuple
from minipaddle.nn.initializer import Normal
from minipaddle.nn.layer.layers import Layer

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose"]

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Layer):
    """What every convolution layer shares: checking the arguments, making the parameters, the repr."""

    nd = 2
    transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format=None,
                 output_padding=0) -> None:  # fmt: skip
        super().__init__()
        fn = type(self).__name__
        for arg, value in (("in_channels", in_channels), ("out_channels", out_channels)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"{fn}: {arg} must be a positive int, got {type(value).__name__}")
            if value <= 0:
                raise ValueError(f"{fn}: {arg} must be a positive int, got {value!r}")
        if data_format not in (CHANNELS_FIRST[self.nd], CHANNELS_LAST[self.nd]):
            raise ValueError(f"{fn}: data_format must be '{CHANNELS_FIRST[self.nd]}' or '{CHANNELS_LAST[self.nd]}', "
                             f"got {data_format!r}")  # fmt: skip
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"{fn}: padding_mode must be one of {_PADDING_MODES}, got {padding_mode!r}")
        groups = ntuple(groups, 1, fn, "groups")[0]
        if in_channels % groups:
            raise ValueError(f"{fn}: in_channels ({in_channels}) must be divisible by groups ({groups})")
        if out_channels % groups:
            raise ValueError(f"{fn}: out_channels ({out_channels}) must be divisible by groups ({groups})")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = list(ntuple(kernel_size, self.nd, fn, "kernel_size"))
        self._stride = list(ntuple(stride, self.nd, fn, "stride"))
        self._dilation = list(ntuple(dilation, self.nd, fn, "dilation"))
        self._padding, self._padding_mode, self._groups = padding, padding_mode, groups
        self._data_format, self.output_padding = data_format, output_padding
        self._param_attr, self._bias_attr = weight_attr, bias_attr
        self._pad_first = None  # for padding_mode != 'zeros': F.pad's argument, applied before the convolution
        if padding_mode != "zeros":
            if not isinstance(padding, int) or isinstance(padding, bool) or padding < 0:
                raise TypeError(f"{fn}: with padding_mode {padding_mode!r}, padding must be a non-negative int, got "
                                f"{padding!r}")  # fmt: skip
            per_axis = (padding,) * self.nd
            self._pad_first = [p for p in reversed(per_axis) for _ in range(2)]  # last axis first, as F.pad wants
        self._dtype = get_default_dtype()
        if self.transposed:
            shape = [in_channels, out_channels // groups, *self._kernel_size]
            init = None  # XavierUniform, the weights' default
        else:
            shape = [out_channels, in_channels // groups, *self._kernel_size]
            init = Normal(0.0, math.sqrt(2.0 / (math.prod(self._kernel_size) * in_channels)))
        self.weight = self.create_parameter(shape, attr=weight_attr, dtype=self._dtype, default_initializer=init)
        self.bias = self.create_parameter([out_channels], attr=bias_attr, dtype=self._dtype, is_bias=True)

    def _padded_input(self, x):
        """(x, padding for the convolution): padding_mode other than zeros pads x first, then convolves unpadded."""
        if self._pad_first is None:
            return x, self._padding
        return F.pad(x, self._pad_first, mode=self._padding_mode, data_format=self._data_format), 0

    def extra_repr(self) -> str:
        text = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * self.nd:
            text += f", stride={self._stride}"
        if self._padding != 0:
            text += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            text += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            text += f", output_padding={self.output_padding}"
        if self._dilation != [1] * self.nd:
            text += f", dilation={self._dilation}"
        if self._groups != 1:
            text += f", groups={self._groups}"
        return text + f", data_format={self._data_format}"


class _Conv(_ConvNd):
    conv = None  # the functional form, set by each subclass

    def forward(self, x):
        x, padding = self._padded_input(x)
        return type(self).conv(x, self.weight, self.bias, self._stride, padding, self._dilation, self._groups,
                               self._data_format)  # fmt: skip


class Conv1D(_Conv):
    """1-D convolution layer: x [N, in_channels, L] -> [N, out_channels, L_out] (see F.conv1d).

    Args:
        in_channels, out_channels: channels in and out.
        kernel_size, stride, dilation: an int or [int].
        padding: an int, [int], [before, after], 'same' or 'valid'.
        groups: connect each group of in_channels / groups inputs only to its own out_channels / groups outputs.
        padding_mode: 'zeros', or 'reflect' / 'replicate' / 'circular' to pad x that way first.
        weight_attr, bias_attr: ParamAttr for the weight and bias (bias_attr=False: no bias).
        data_format: 'NCL' or 'NLC'.

    Example:
        >>> conv = paddle.nn.Conv1D(3, 8, kernel_size=3, padding=1)
        >>> conv(paddle.rand([2, 3, 16])).shape
        [2, 8, 16]
    """

    nd = 1
    conv = staticmethod(F.conv1d)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NCL") -> None:  # fmt: skip
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, padding_mode,
                         weight_attr, bias_attr, data_format)  # fmt: skip


class Conv2D(_Conv):
    """2-D convolution layer: x [N, in_channels, H, W] -> [N, out_channels, H_out, W_out] (see F.conv2d).

    Args:
        in_channels, out_channels: channels in and out.
        kernel_size, stride, dilation: an int or [h, w].
        padding: an int, [ph, pw], [top, bottom, left, right], 'same' or 'valid'.
        groups: connect each group of in_channels / groups inputs only to its own out_channels / groups outputs.
        padding_mode: 'zeros', or 'reflect' / 'replicate' / 'circular' to pad x that way first.
        weight_attr, bias_attr: ParamAttr for the weight and bias (bias_attr=False: no bias).
        data_format: 'NCHW' or 'NHWC'.

    Example:
        >>> conv = paddle.nn.Conv2D(1, 6, 5)          # LeNet's first layer
        >>> conv(paddle.rand([64, 1, 28, 28])).shape
        [64, 6, 24, 24]
    """

    nd = 2
    conv = staticmethod(F.conv2d)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NCHW") -> None:  # fmt: skip
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, padding_mode,
                         weight_attr, bias_attr, data_format)  # fmt: skip


class Conv3D(_Conv):
    """3-D convolution layer: x [N, in_channels, D, H, W] -> [N, out_channels, D_out, H_out, W_out].

    Arguments as Conv2D, with three values per spatial argument; data_format 'NCDHW' or 'NDHWC'.

    Example:
        >>> paddle.nn.Conv3D(2, 4, 3)(paddle.rand([1, 2, 5, 5, 5])).shape
        [1, 4, 3, 3, 3]
    """

    nd = 3
    conv = staticmethod(F.conv3d)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NCDHW") -> None:  # fmt: skip
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, padding_mode,
                         weight_attr, bias_attr, data_format)  # fmt: skip


class _ConvTranspose(_ConvNd):
    transposed = True
    conv = None

    def forward(self, x, output_size=None):
        f = type(self).conv
        if self.nd == 2:  # conv2d_transpose orders dilation before groups; 1-D and 3-D the other way round
            return f(x, self.weight, self.bias, self._stride, self._padding, self.output_padding, self._dilation,
                     self._groups, output_size, self._data_format)  # fmt: skip
        return f(x, self.weight, self.bias, self._stride, self._padding, self.output_padding, self._groups,
                 self._dilation, output_size, self._data_format)  # fmt: skip


class Conv1DTranspose(_ConvTranspose):
    """1-D transposed convolution layer: x [N, in_channels, L] -> [N, out_channels, L_out] (see F.conv1d_transpose).

    Example:
        >>> paddle.nn.Conv1DTranspose(4, 2, 3, stride=2)(paddle.rand([1, 4, 5])).shape
        [1, 2, 11]
    """

    nd = 1
    conv = staticmethod(F.conv1d_transpose)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 dilation=1, weight_attr=None, bias_attr=None, data_format="NCL") -> None:  # fmt: skip
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, "zeros",
                         weight_attr, bias_attr, data_format, output_padding)  # fmt: skip


class Conv2DTranspose(_ConvTranspose):
    """2-D transposed convolution layer ("deconvolution"), which upsamples by `stride` (see F.conv2d_transpose).

    The weight has shape [in_channels, out_channels / groups, kh, kw]. forward(x, output_size=None) takes the
    output's [H, W] to resolve the ambiguity of strides > 1.

    Example:
        >>> up = paddle.nn.Conv2DTranspose(8, 4, kernel_size=2, stride=2)
        >>> up(paddle.rand([1, 8, 7, 7])).shape
        [1, 4, 14, 14]
    """

    nd = 2
    conv = staticmethod(F.conv2d_transpose)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, dilation=1,
                 groups=1, weight_attr=None, bias_attr=None, data_format="NCHW") -> None:  # fmt: skip
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, "zeros",
                         weight_attr, bias_attr, data_format, output_padding)  # fmt: skip


class Conv3DTranspose(_ConvTranspose):
    """3-D transposed convolution layer (see F.conv3d_transpose).

    Example:
        >>> paddle.nn.Conv3DTranspose(2, 1, 2, stride=2)(paddle.rand([1, 2, 2, 2, 2])).shape
        [1, 1, 4, 4, 4]
    """

    nd = 3
    conv = staticmethod(F.conv3d_transpose)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, dilation=1,
                 groups=1, weight_attr=None, bias_attr=None, data_format="NCDHW") -> None:  # fmt: skip
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, "zeros",
                         weight_attr, bias_attr, data_format, output_padding)  # fmt: skip
