"""Pooling layers: MaxPool/AvgPool 1D/2D/3D, their adaptive forms, and MaxUnPool 1D/2D/3D. Each holds its
arguments and calls its function in nn/functional/pooling.py (unpool.py for unpooling); they have no parameters."""

from __future__ import annotations

from minipaddle.nn import functional as F
from minipaddle.nn.layer.layers import Layer

__all__ = [
    "MaxPool1D",
    "MaxPool2D",
    "MaxPool3D",
    "AvgPool1D",
    "AvgPool2D",
    "AvgPool3D",
    "AdaptiveMaxPool1D",
    "AdaptiveMaxPool2D",
    "AdaptiveMaxPool3D",
    "AdaptiveAvgPool1D",
    "AdaptiveAvgPool2D",
    "AdaptiveAvgPool3D",
    "MaxUnPool1D",
    "MaxUnPool2D",
    "MaxUnPool3D",
]


class _Pool(Layer):
    def extra_repr(self) -> str:
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class MaxPool1D(_Pool):
    """Max pooling over the last axis of [N, C, L] (see F.max_pool1d).

    Example:
        >>> paddle.nn.MaxPool1D(2)(paddle.rand([1, 3, 8])).shape
        [1, 3, 4]
    """

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode, self.name = return_mask, ceil_mode, name

    def forward(self, input):
        return F.max_pool1d(input, self.ksize, self.stride, self.padding, self.return_mask, self.ceil_mode)


class MaxPool2D(_Pool):
    """Max pooling over windows of [N, C, H, W] (see F.max_pool2d); stride=None means stride = kernel_size.

    Example:
        >>> pool = paddle.nn.MaxPool2D(kernel_size=2)
        >>> pool(paddle.rand([1, 6, 24, 24])).shape
        [1, 6, 12, 12]
    """

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format="NCHW",
                 name=None):  # fmt: skip
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode, self.data_format, self.name = return_mask, ceil_mode, data_format, name

    def forward(self, x):
        return F.max_pool2d(x, self.ksize, self.stride, self.padding, self.return_mask, self.ceil_mode,
                            self.data_format)  # fmt: skip


class MaxPool3D(MaxPool2D):
    """Max pooling over windows of [N, C, D, H, W] (see F.max_pool3d).

    Example:
        >>> paddle.nn.MaxPool3D(2)(paddle.rand([1, 2, 4, 4, 4])).shape
        [1, 2, 2, 2, 2]
    """

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NCDHW", name=None):  # fmt: skip
        super().__init__(kernel_size, stride, padding, return_mask, ceil_mode, data_format, name)

    def forward(self, x):
        return F.max_pool3d(x, self.ksize, self.stride, self.padding, self.return_mask, self.ceil_mode,
                            self.data_format)  # fmt: skip


class AvgPool1D(_Pool):
    """Average pooling over the last axis of [N, C, L] (see F.avg_pool1d).

    Example:
        >>> paddle.nn.AvgPool1D(2)(paddle.rand([1, 3, 8])).shape
        [1, 3, 4]
    """

    def __init__(self, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False, name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.exclusive, self.ceil_mode, self.name = exclusive, ceil_mode, name

    def forward(self, x):
        return F.avg_pool1d(x, self.ksize, self.stride, self.padding, self.exclusive, self.ceil_mode)


class AvgPool2D(_Pool):
    """Average pooling over windows of [N, C, H, W] (see F.avg_pool2d).

    Example:
        >>> paddle.nn.AvgPool2D(2)(paddle.rand([1, 3, 8, 8])).shape
        [1, 3, 4, 4]
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
                 data_format="NCHW", name=None):  # fmt: skip
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.exclusive, self.divisor = ceil_mode, exclusive, divisor_override
        self.data_format, self.name = data_format, name

    def forward(self, x):
        return F.avg_pool2d(x, self.ksize, self.stride, self.padding, self.ceil_mode, self.exclusive, self.divisor,
                            self.data_format)  # fmt: skip


class AvgPool3D(AvgPool2D):
    """Average pooling over windows of [N, C, D, H, W] (see F.avg_pool3d).

    Example:
        >>> paddle.nn.AvgPool3D(2)(paddle.rand([1, 2, 4, 4, 4])).shape
        [1, 2, 2, 2, 2]
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
                 data_format="NCDHW", name=None):  # fmt: skip
        super().__init__(kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format, name)

    def forward(self, x):
        return F.avg_pool3d(x, self.ksize, self.stride, self.padding, self.ceil_mode, self.exclusive, self.divisor,
                            self.data_format)  # fmt: skip


class AdaptiveAvgPool1D(Layer):
    """Average pooling of [N, C, L] into output_size bins (see F.adaptive_avg_pool1d).

    Example:
        >>> paddle.nn.AdaptiveAvgPool1D(4)(paddle.rand([1, 3, 10])).shape
        [1, 3, 4]
    """

    def __init__(self, output_size, name=None):
        super().__init__()
        self._output_size, self._name = output_size, name

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self._output_size)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}"


class AdaptiveAvgPool2D(AdaptiveAvgPool1D):
    """Average pooling of [N, C, H, W] into an output_size grid, whatever the input's size (see
    F.adaptive_avg_pool2d). AdaptiveAvgPool2D(1) is global average pooling.

    Example:
        >>> paddle.nn.AdaptiveAvgPool2D(1)(paddle.rand([2, 8, 7, 7])).shape
        [2, 8, 1, 1]
    """

    def __init__(self, output_size, data_format="NCHW", name=None):
        super().__init__(output_size, name)
        self._data_format = data_format

    def forward(self, x):
        return F.adaptive_avg_pool2d(x, self._output_size, self._data_format)


class AdaptiveAvgPool3D(AdaptiveAvgPool2D):
    """Adaptive average pooling of [N, C, D, H, W] (see F.adaptive_avg_pool3d).

    Example:
        >>> paddle.nn.AdaptiveAvgPool3D(2)(paddle.rand([1, 2, 4, 4, 4])).shape
        [1, 2, 2, 2, 2]
    """

    def __init__(self, output_size, data_format="NCDHW", name=None):
        super().__init__(output_size, data_format, name)

    def forward(self, x):
        return F.adaptive_avg_pool3d(x, self._output_size, self._data_format)


class AdaptiveMaxPool1D(Layer):
    """The maximum of each adaptive bin of [N, C, L] (see F.adaptive_max_pool1d).

    Example:
        >>> paddle.nn.AdaptiveMaxPool1D(3)(paddle.rand([1, 2, 10])).shape
        [1, 2, 3]
    """

    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__()
        self._output_size, self._return_mask, self._name = output_size, return_mask, name

    def forward(self, input):
        return F.adaptive_max_pool1d(input, self._output_size, self._return_mask)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class AdaptiveMaxPool2D(AdaptiveMaxPool1D):
    """The maximum of each adaptive bin of [N, C, H, W] (see F.adaptive_max_pool2d).

    Example:
        >>> paddle.nn.AdaptiveMaxPool2D([2, 3])(paddle.rand([1, 2, 5, 7])).shape
        [1, 2, 2, 3]
    """

    def forward(self, x):
        return F.adaptive_max_pool2d(x, self._output_size, self._return_mask)


class AdaptiveMaxPool3D(AdaptiveMaxPool1D):
    """The maximum of each adaptive bin of [N, C, D, H, W] (see F.adaptive_max_pool3d).

    Example:
        >>> paddle.nn.AdaptiveMaxPool3D(2)(paddle.rand([1, 2, 4, 4, 4])).shape
        [1, 2, 2, 2, 2]
    """

    def forward(self, x):
        return F.adaptive_max_pool3d(x, self._output_size, self._return_mask)


class MaxUnPool1D(Layer):
    """The partial inverse of MaxPool1D: forward(x, indices) puts each value of x [N, C, L] back where indices says
    (see F.max_unpool1d).

    Example:
        >>> out, mask = F.max_pool1d(paddle.rand([1, 3, 16]), kernel_size=2, return_mask=True)
        >>> paddle.nn.MaxUnPool1D(kernel_size=2)(out, mask).shape
        [1, 3, 16]
    """

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCL", output_size=None, name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.data_format, self.output_size, self.name = data_format, output_size, name

    def forward(self, x, indices):
        return F.max_unpool1d(x, indices, self.ksize, self.stride, self.padding, self.data_format, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class MaxUnPool2D(MaxUnPool1D):
    """The partial inverse of MaxPool2D on [N, C, H, W] (see F.max_unpool2d).

    Example:
        >>> out, mask = F.max_pool2d(paddle.rand([1, 1, 6, 6]), kernel_size=2, return_mask=True)
        >>> paddle.nn.MaxUnPool2D(kernel_size=2, output_size=[7, 7])(out, mask).shape
        [1, 1, 7, 7]
    """

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCHW", output_size=None, name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)

    def forward(self, x, indices):
        return F.max_unpool2d(x, indices, self.ksize, self.stride, self.padding, self.data_format, self.output_size)


class MaxUnPool3D(MaxUnPool1D):
    """The partial inverse of MaxPool3D on [N, C, D, H, W] (see F.max_unpool3d).

    Example:
        >>> out, mask = F.max_pool3d(paddle.rand([1, 1, 4, 4, 6]), kernel_size=2, return_mask=True)
        >>> paddle.nn.MaxUnPool3D(kernel_size=2)(out, mask).shape
        [1, 1, 4, 4, 6]
    """

    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCDHW", output_size=None, name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)

    def forward(self, x, indices):
        return F.max_unpool3d(x, indices, self.ksize, self.stride, self.padding, self.data_format, self.output_size)
