"""paddle 2.6's further layers: PixelUnshuffle, ChannelShuffle and Unflatten. Each holds its arguments (checked
when the layer is made, as paddle does) and calls its function."""

from __future__ import annotations

from minipaddle.nn.functional.extra import channel_shuffle, check_image_format, check_positive_int, pixel_unshuffle
from minipaddle.nn.layer.layers import Layer
from minipaddle.tensor.manipulation import unflatten

__all__ = ["PixelUnshuffle", "ChannelShuffle", "Unflatten"]


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
