"""paddle.sparse.nn Conv3D, SubmConv3D, Conv2D, SubmConv2D: Layers holding the weight [*kernel, C_in, C_out] and
bias [C_out] of the sparse convolutions (functional/conv.py), initialized as paddle 2.6's: the weight from
Normal(0, sqrt(2 / (prod(kernel) * C_in))), the bias from the usual bias default (zeros)."""

from __future__ import annotations

import math

from minipaddle.nn.initializer.normal import Normal
from minipaddle.nn.layer.layers import Layer
from minipaddle.sparse.nn.functional import conv as F
from minipaddle.sparse.nn.functional.conv import FORMATS, as_list

__all__ = ["Conv3D", "SubmConv3D", "Conv2D", "SubmConv2D"]


class _SparseConv(Layer):
    def __init__(self, dims, subm, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, key,
                 padding_mode, weight_attr, bias_attr, data_format):  # fmt: skip
        super().__init__()
        name = type(self).__name__
        if weight_attr is False:
            raise ValueError(f"paddle.sparse.nn.{name}: weight_attr should not be False in Conv")
        if padding_mode != "zeros":
            raise ValueError(f"paddle.sparse.nn.{name}: only padding_mode='zeros' is supported, got {padding_mode!r}")
        if groups != 1:
            raise ValueError(f"paddle.sparse.nn.{name}: only groups=1 is supported (as paddle 2.6), got {groups}")
        if data_format != FORMATS[dims]:
            raise ValueError(f"paddle.sparse.nn.{name}: data_format must be '{FORMATS[dims]}', got {data_format!r}")
        for what, v in (("in_channels", in_channels), ("out_channels", out_channels)):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise TypeError(f"paddle.sparse.nn.{name}: {what} must be a positive int, got {v!r}")
        self._dims, self._subm, self._key = dims, subm, key
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = as_list(kernel_size, dims, name, "kernel_size")
        self._stride = as_list(stride, dims, name, "stride")
        self._dilation = as_list(dilation, dims, name, "dilation")
        self._padding = padding
        self._data_format = data_format
        std = math.sqrt(2.0 / (math.prod(self._kernel_size) * in_channels))
        self.weight = self.create_parameter(self._kernel_size + [in_channels, out_channels], attr=weight_attr,
                                            default_initializer=Normal(0.0, std))  # fmt: skip
        self.bias = self.create_parameter([out_channels], attr=bias_attr, is_bias=True)

    def forward(self, x):
        fn = {(3, False): F.conv3d, (3, True): F.subm_conv3d, (2, False): F.conv2d, (2, True): F.subm_conv2d}
        return fn[self._dims, self._subm](x, self.weight, bias=self.bias, stride=self._stride, padding=self._padding,
                                          dilation=self._dilation, data_format=self._data_format)  # fmt: skip

    def extra_repr(self) -> str:
        return (f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}, stride={self._stride}, "
                f"padding={self._padding}, data_format={self._data_format}")  # fmt: skip


class Conv3D(_SparseConv):
    """Conv3D(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
    padding_mode='zeros', weight_attr=None, bias_attr=None, data_format='NDHWC'): a sparse 3-D convolution."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NDHWC"):  # fmt: skip
        super().__init__(3, False, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, None,
                         padding_mode, weight_attr, bias_attr, data_format)  # fmt: skip


class SubmConv3D(_SparseConv):
    """SubmConv3D(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
    padding_mode='zeros', key=None, weight_attr=None, bias_attr=None, data_format='NDHWC'): a submanifold 3-D
    convolution (outputs only at the input's points)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", key=None, weight_attr=None, bias_attr=None, data_format="NDHWC"):  # fmt: skip
        super().__init__(3, True, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, key,
                         padding_mode, weight_attr, bias_attr, data_format)  # fmt: skip


class Conv2D(_SparseConv):
    """Conv2D(in_channels, out_channels, kernel_size, ..., data_format='NHWC'): a sparse 2-D convolution."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", weight_attr=None, bias_attr=None, data_format="NHWC"):  # fmt: skip
        super().__init__(2, False, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, None,
                         padding_mode, weight_attr, bias_attr, data_format)  # fmt: skip


class SubmConv2D(_SparseConv):
    """SubmConv2D(in_channels, out_channels, kernel_size, ..., key=None, data_format='NHWC'): a submanifold 2-D
    convolution."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode="zeros", key=None, weight_attr=None, bias_attr=None, data_format="NHWC"):  # fmt: skip
        super().__init__(2, True, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, key,
                         padding_mode, weight_attr, bias_attr, data_format)  # fmt: skip
