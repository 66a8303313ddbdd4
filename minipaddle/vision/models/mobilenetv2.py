"""MobileNetV2 (Sandler et al., 2018): inverted residual blocks with linear bottlenecks, as
paddle.vision.models builds it."""

from __future__ import annotations

from minipaddle import nn
from minipaddle.tensor.manipulation import flatten
from minipaddle.vision.models._utils import ConvNormActivation, make_divisible
from minipaddle.vision.models.pretrained import with_weights

__all__ = ["MobileNetV2", "mobilenet_v2"]


class InvertedResidual(nn.Layer):
    """Widen with a 1x1 convolution (by expand_ratio), filter with a 3x3 depthwise one, narrow with a 1x1 one and
    no activation (the linear bottleneck); add the input back when the shape allows it."""

    def __init__(self, inp, oup, stride, expand_ratio, norm_layer=nn.BatchNorm2D):
        super().__init__()
        if stride not in (1, 2):
            raise ValueError(f"InvertedResidual: stride must be 1 or 2, got {stride}")
        self.stride = stride
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = self.stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(ConvNormActivation(inp, hidden_dim, kernel_size=1, norm_layer=norm_layer,
                                             activation_layer=nn.ReLU6))  # fmt: skip
        layers += [
            ConvNormActivation(
                hidden_dim,
                hidden_dim,
                stride=stride,
                groups=hidden_dim,
                norm_layer=norm_layer,
                activation_layer=nn.ReLU6,
            ),  # fmt: skip
            nn.Conv2D(hidden_dim, oup, 1, 1, 0, bias_attr=False),
            norm_layer(oup),
        ]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


# expand ratio t, output channels c, repeats n, first stride s
_SETTING = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]]


class MobileNetV2(nn.Layer):
    """MobileNetV2.

    Args:
        scale: the width multiplier (channels are rounded to multiples of 8).
        num_classes: the number of classes; 0 or less leaves out the classifier.
        with_pool: end with global average pooling.

    Example:
        >>> net = paddle.vision.models.MobileNetV2(scale=0.5, num_classes=10)
        >>> net(paddle.rand([1, 3, 32, 32])).shape
        [1, 10]
    """

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        norm_layer = nn.BatchNorm2D
        input_channel = make_divisible(32 * scale, 8)
        self.last_channel = make_divisible(1280 * max(1.0, scale), 8)
        features = [ConvNormActivation(3, input_channel, stride=2, norm_layer=norm_layer,
                                       activation_layer=nn.ReLU6)]  # fmt: skip
        for t, c, n, s in _SETTING:
            output_channel = make_divisible(c * scale, 8)
            for i in range(n):
                features.append(InvertedResidual(input_channel, output_channel, s if i == 0 else 1, expand_ratio=t,
                                                 norm_layer=norm_layer))  # fmt: skip
                input_channel = output_channel
        features.append(ConvNormActivation(input_channel, self.last_channel, kernel_size=1, norm_layer=norm_layer,
                                           activation_layer=nn.ReLU6))  # fmt: skip
        self.features = nn.Sequential(*features)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if self.num_classes > 0:
            self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(self.last_channel, num_classes))

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = flatten(x, 1)
            x = self.classifier(x)
        return x


def mobilenet_v2(pretrained=False, scale=1.0, **kwargs) -> MobileNetV2:
    """MobileNetV2 with width multiplier `scale`; kwargs go to MobileNetV2 (num_classes, with_pool).
    pretrained=True loads Paddle's published weights."""
    return with_weights(f"mobilenetv2_{scale}", pretrained, lambda: MobileNetV2(scale=scale, **kwargs))
