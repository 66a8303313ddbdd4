"""SqueezeNet (Iandola et al., 2016), versions 1.0 and 1.1, as paddle.vision.models builds it: "fire" modules
that squeeze the channels with 1x1 convolutions and expand them again with parallel 1x1 and 3x3 ones; the
classifier is a 1x1 convolution followed by global average pooling."""

from __future__ import annotations

from minipaddle import nn
from minipaddle.nn import functional as F
from minipaddle.tensor.manipulation import concat, squeeze
from minipaddle.vision.models.pretrained import with_weights

__all__ = ["SqueezeNet", "squeezenet1_0", "squeezenet1_1"]


class MakeFireConv(nn.Layer):
    """A convolution followed by ReLU."""

    def __init__(self, input_channels, output_channels, filter_size, padding=0):
        super().__init__()
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, padding=padding)

    def forward(self, x):
        return F.relu(self._conv(x))


class MakeFire(nn.Layer):
    """A fire module: squeeze to `squeeze_channels` (1x1), then expand with a 1x1 and a 3x3 convolution side by
    side, concatenated along the channels."""

    def __init__(self, input_channels, squeeze_channels, expand1x1_channels, expand3x3_channels):
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze_channels, 1)
        self._conv_path1 = MakeFireConv(squeeze_channels, expand1x1_channels, 1)
        self._conv_path2 = MakeFireConv(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, inputs):
        x = self._conv(inputs)
        return concat([self._conv_path1(x), self._conv_path2(x)], axis=1)


# the eight fire modules (input, squeeze, expand 1x1, expand 3x3 channels); version 1.1 starts from 64 channels
_FIRES = [(16, 64, 64), (16, 64, 64), (32, 128, 128), (32, 128, 128), (48, 192, 192), (48, 192, 192),
          (64, 256, 256), (64, 256, 256)]  # fmt: skip


class SqueezeNet(nn.Layer):
    """SqueezeNet.

    Args:
        version: "1.0" (7x7 stem with 96 channels) or "1.1" (3x3 stem with 64 channels, pooling earlier: about 2.4x
            less computation).
        num_classes: the number of classes; 0 or less leaves out the final 1x1 convolution.
        with_pool: end with ReLU, global average pooling and squeezing to [N, C].

    Example:
        >>> net = paddle.vision.models.SqueezeNet("1.1", num_classes=10)
        >>> net(paddle.rand([1, 3, 64, 64])).shape
        [1, 10]
    """

    def __init__(self, version, num_classes=1000, with_pool=True):
        super().__init__()
        if version not in ("1.0", "1.1"):
            raise ValueError(f"SqueezeNet: version must be '1.0' or '1.1', got {version!r}")
        self.version = version
        self.num_classes = num_classes
        self.with_pool = with_pool
        if version == "1.0":
            self._conv = nn.Conv2D(3, 96, 7, stride=2)
            channels = 96
        else:
            self._conv = nn.Conv2D(3, 64, 3, stride=2, padding=1)
            channels = 64
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        for i, (squeeze_c, e1, e3) in enumerate(_FIRES, start=1):
            setattr(self, f"_conv{i}", MakeFire(channels, squeeze_c, e1, e3))
            channels = e1 + e3
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = nn.Conv2D(512, num_classes, 1)
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs):
        x = self._pool(F.relu(self._conv(inputs)))
        # max pooling comes after fires 3 and 7 in version 1.0, after fires 2 and 4 in version 1.1
        pool_after = (3, 7) if self.version == "1.0" else (2, 4)
        for i in range(1, 9):
            x = getattr(self, f"_conv{i}")(x)
            if i in pool_after:
                x = self._pool(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = self._avg_pool(F.relu(x))
            x = squeeze(x, axis=[2, 3])
        return x


def _squeezenet(arch: str, version: str, pretrained: bool, **kwargs) -> SqueezeNet:
    return with_weights(arch, pretrained, lambda: SqueezeNet(version, **kwargs))


def squeezenet1_0(pretrained=False, **kwargs) -> SqueezeNet:
    """SqueezeNet 1.0; kwargs go to SqueezeNet (num_classes, with_pool).
    pretrained=True loads Paddle's published weights."""
    return _squeezenet("squeezenet1_0", "1.0", pretrained, **kwargs)


def squeezenet1_1(pretrained=False, **kwargs) -> SqueezeNet:
    """SqueezeNet 1.1 (cheaper stem, earlier pooling)."""
    return _squeezenet("squeezenet1_1", "1.1", pretrained, **kwargs)
