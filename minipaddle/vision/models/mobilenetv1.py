"""MobileNetV1 (Howard et al., 2017): depthwise separable convolutions, as paddle.vision.models builds it."""

from __future__ import annotations

from minipaddle import nn
from minipaddle.tensor.manipulation import flatten
from minipaddle.vision.models._utils import ConvNormActivation
from minipaddle.vision.models.pretrained import with_weights

__all__ = ["MobileNetV1", "mobilenet_v1"]


class DepthwiseSeparable(nn.Layer):
    """A 3x3 depthwise convolution (one filter per channel), then a 1x1 pointwise convolution that mixes the
    channels; each with batch norm and ReLU."""

    def __init__(self, in_channels, out_channels1, out_channels2, num_groups, stride, scale):
        super().__init__()
        self._depthwise_conv = ConvNormActivation(in_channels, int(out_channels1 * scale), kernel_size=3,
                                                  stride=stride, padding=1, groups=int(num_groups * scale))  # fmt: skip
        self._pointwise_conv = ConvNormActivation(int(out_channels1 * scale), int(out_channels2 * scale),
                                                  kernel_size=1, stride=1, padding=0)  # fmt: skip

    def forward(self, x):
        return self._pointwise_conv(self._depthwise_conv(x))


# (name, in_channels, out_channels1, out_channels2, num_groups, stride): the blocks after the first convolution
_BLOCKS = [
    ("conv2_1", 32, 32, 64, 32, 1),
    ("conv2_2", 64, 64, 128, 64, 2),
    ("conv3_1", 128, 128, 128, 128, 1),
    ("conv3_2", 128, 128, 256, 128, 2),
    ("conv4_1", 256, 256, 256, 256, 1),
    ("conv4_2", 256, 256, 512, 256, 2),
    *[(f"conv5_{i}", 512, 512, 512, 512, 1) for i in range(1, 6)],
    ("conv5_6", 512, 512, 1024, 512, 2),
    ("conv6", 1024, 1024, 1024, 1024, 1),
]


class MobileNetV1(nn.Layer):
    """MobileNetV1.

    Args:
        scale: the width multiplier of every layer's channels.
        num_classes: the number of classes; 0 or less leaves out the final Linear layer.
        with_pool: end with global average pooling.

    Example:
        >>> net = paddle.vision.models.MobileNetV1(scale=0.25, num_classes=10)
        >>> net(paddle.rand([1, 3, 32, 32])).shape
        [1, 10]
    """

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.scale = scale
        self.dwsl = []
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.conv1 = ConvNormActivation(in_channels=3, out_channels=int(32 * scale), kernel_size=3, stride=2,
                                        padding=1)  # fmt: skip
        for name, in_channels, out1, out2, groups, stride in _BLOCKS:
            block = DepthwiseSeparable(int(in_channels * scale), out1, out2, groups, stride, scale)
            self.dwsl.append(self.add_sublayer(sublayer=block, name=name))
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x):
        x = self.conv1(x)
        for block in self.dwsl:
            x = block(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = flatten(x, 1)
            x = self.fc(x)
        return x


def mobilenet_v1(pretrained=False, scale=1.0, **kwargs) -> MobileNetV1:
    """MobileNetV1 with width multiplier `scale`; kwargs go to MobileNetV1 (num_classes, with_pool).
    pretrained=True loads Paddle's published weights."""
    return with_weights(f"mobilenetv1_{scale}", pretrained, lambda: MobileNetV1(scale=scale, **kwargs))
