"""MobileNetV3 (Howard et al., 2019), small and large, as paddle.vision.models builds it: MobileNetV2's inverted
residual blocks with squeeze-and-excitation and the hard-swish activation."""

from __future__ import annotations

from functools import partial

from minipaddle import nn
from minipaddle.tensor.manipulation import flatten
from minipaddle.vision.models._utils import ConvNormActivation, make_divisible
from minipaddle.vision.models.pretrained import with_weights

__all__ = ["MobileNetV3Small", "MobileNetV3Large", "mobilenet_v3_small", "mobilenet_v3_large"]

_ACTIVATIONS = {None: None, "relu": nn.ReLU, "hardswish": nn.Hardswish}


class SqueezeExcitation(nn.Layer):
    """Scale each channel by a gate computed from the globally pooled input: pool, 1x1 conv to
    `squeeze_channels`, activation, 1x1 conv back, scale_activation."""

    def __init__(self, input_channels, squeeze_channels, activation=nn.ReLU, scale_activation=nn.Sigmoid):
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2D(1)
        self.fc1 = nn.Conv2D(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2D(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def forward(self, input):
        scale = self.fc2(self.activation(self.fc1(self.avgpool(input))))
        return self.scale_activation(scale) * input


class InvertedResidualConfig:
    """One block's settings, with the channels scaled by `scale` and rounded to multiples of 8."""

    def __init__(self, in_channels, kernel, expanded_channels, out_channels, use_se, activation, stride, scale=1.0):
        if activation not in _ACTIVATIONS:
            raise ValueError(f"MobileNetV3: activation must be 'relu', 'hardswish' or None, got {activation!r}")
        self.in_channels = self.adjust_channels(in_channels, scale=scale)
        self.kernel = kernel
        self.expanded_channels = self.adjust_channels(expanded_channels, scale=scale)
        self.out_channels = self.adjust_channels(out_channels, scale=scale)
        self.use_se = use_se
        self.activation_layer = _ACTIVATIONS[activation]
        self.stride = stride

    @staticmethod
    def adjust_channels(channels, scale=1.0):
        return make_divisible(channels * scale, 8)


class InvertedResidual(nn.Layer):
    """Expand (1x1, when the width changes), depthwise filter, optional squeeze-and-excitation, project (1x1, no
    activation); add the input back when the shape allows it."""

    def __init__(self, in_channels, expanded_channels, out_channels, filter_size, stride, use_se, activation_layer,
                 norm_layer):  # fmt: skip
        super().__init__()
        self.use_res_connect = stride == 1 and in_channels == out_channels
        self.use_se = use_se
        self.expand = in_channels != expanded_channels
        if self.expand:
            self.expand_conv = ConvNormActivation(in_channels, expanded_channels, 1, 1, 0, norm_layer=norm_layer,
                                                  activation_layer=activation_layer)  # fmt: skip
        self.bottleneck_conv = ConvNormActivation(expanded_channels, expanded_channels, filter_size, stride,
                                                  (filter_size - 1) // 2, groups=expanded_channels,
                                                  norm_layer=norm_layer, activation_layer=activation_layer)  # fmt: skip
        if self.use_se:
            self.mid_se = SqueezeExcitation(expanded_channels, make_divisible(expanded_channels // 4),
                                            scale_activation=nn.Hardsigmoid)  # fmt: skip
        self.linear_conv = ConvNormActivation(expanded_channels, out_channels, 1, 1, 0, norm_layer=norm_layer,
                                              activation_layer=None)  # fmt: skip

    def forward(self, x):
        identity = x
        if self.expand:
            x = self.expand_conv(x)
        x = self.bottleneck_conv(x)
        if self.use_se:
            x = self.mid_se(x)
        x = self.linear_conv(x)
        if self.use_res_connect:
            x = identity + x
        return x


class MobileNetV3(nn.Layer):
    """MobileNetV3 from a list of InvertedResidualConfig (use MobileNetV3Small or MobileNetV3Large).

    Args:
        config: the blocks' settings.
        last_channel: the width of the classifier's hidden layer.
        scale: the width multiplier (already applied in `config`).
        num_classes: the number of classes; 0 or less leaves out the classifier.
        with_pool: end with global average pooling.
    """

    def __init__(self, config, last_channel, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.config = config
        self.scale = scale
        self.last_channel = last_channel
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.firstconv_in_channels = config[0].in_channels
        self.lastconv_in_channels = config[-1].in_channels
        self.lastconv_out_channels = self.lastconv_in_channels * 6
        norm_layer = partial(nn.BatchNorm2D, epsilon=0.001, momentum=0.99)
        self.conv = ConvNormActivation(3, self.firstconv_in_channels, 3, 2, 1, groups=1,
                                       activation_layer=nn.Hardswish, norm_layer=norm_layer)  # fmt: skip
        self.blocks = nn.Sequential(*[
            InvertedResidual(cfg.in_channels, cfg.expanded_channels, cfg.out_channels, cfg.kernel, cfg.stride,
                             cfg.use_se, cfg.activation_layer, norm_layer)
            for cfg in config
        ])  # fmt: skip
        self.lastconv = ConvNormActivation(self.lastconv_in_channels, self.lastconv_out_channels, 1, 1, 0, groups=1,
                                           norm_layer=norm_layer, activation_layer=nn.Hardswish)  # fmt: skip
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(self.lastconv_out_channels, self.last_channel),
                nn.Hardswish(),
                nn.Dropout(p=0.2),
                nn.Linear(self.last_channel, num_classes),
            )

    def forward(self, x):
        x = self.lastconv(self.blocks(self.conv(x)))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = flatten(x, 1)
            x = self.classifier(x)
        return x


# in, kernel, expanded, out, squeeze-and-excitation, activation, stride
_SMALL = [
    (16, 3, 16, 16, True, "relu", 2),
    (16, 3, 72, 24, False, "relu", 2),
    (24, 3, 88, 24, False, "relu", 1),
    (24, 5, 96, 40, True, "hardswish", 2),
    (40, 5, 240, 40, True, "hardswish", 1),
    (40, 5, 240, 40, True, "hardswish", 1),
    (40, 5, 120, 48, True, "hardswish", 1),
    (48, 5, 144, 48, True, "hardswish", 1),
    (48, 5, 288, 96, True, "hardswish", 2),
    (96, 5, 576, 96, True, "hardswish", 1),
    (96, 5, 576, 96, True, "hardswish", 1),
]
_LARGE = [
    (16, 3, 16, 16, False, "relu", 1),
    (16, 3, 64, 24, False, "relu", 2),
    (24, 3, 72, 24, False, "relu", 1),
    (24, 5, 72, 40, True, "relu", 2),
    (40, 5, 120, 40, True, "relu", 1),
    (40, 5, 120, 40, True, "relu", 1),
    (40, 3, 240, 80, False, "hardswish", 2),
    (80, 3, 200, 80, False, "hardswish", 1),
    (80, 3, 184, 80, False, "hardswish", 1),
    (80, 3, 184, 80, False, "hardswish", 1),
    (80, 3, 480, 112, True, "hardswish", 1),
    (112, 3, 672, 112, True, "hardswish", 1),
    (112, 5, 672, 160, True, "hardswish", 2),
    (160, 5, 960, 160, True, "hardswish", 1),
    (160, 5, 960, 160, True, "hardswish", 1),
]


class MobileNetV3Small(MobileNetV3):
    """MobileNetV3-Small.

    Args:
        scale: the width multiplier. num_classes: 0 or less leaves out the classifier. with_pool: end with
            global average pooling.

    Example:
        >>> net = paddle.vision.models.MobileNetV3Small(scale=0.5, num_classes=10)
        >>> net(paddle.rand([1, 3, 64, 64])).shape
        [1, 10]
    """

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        config = [InvertedResidualConfig(*row, scale) for row in _SMALL]
        super().__init__(config, last_channel=make_divisible(1024 * scale, 8), scale=scale, with_pool=with_pool,
                         num_classes=num_classes)  # fmt: skip


class MobileNetV3Large(MobileNetV3):
    """MobileNetV3-Large (arguments as MobileNetV3Small)."""

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        config = [InvertedResidualConfig(*row, scale) for row in _LARGE]
        super().__init__(config, last_channel=make_divisible(1280 * scale, 8), scale=scale, with_pool=with_pool,
                         num_classes=num_classes)  # fmt: skip


def mobilenet_v3_small(pretrained=False, scale=1.0, **kwargs) -> MobileNetV3Small:
    """MobileNetV3-Small with width multiplier `scale`; kwargs go to MobileNetV3Small (num_classes, with_pool).
    pretrained=True loads Paddle's published weights."""
    return with_weights(f"mobilenet_v3_small_x{scale}", pretrained, lambda: MobileNetV3Small(scale=scale, **kwargs))


def mobilenet_v3_large(pretrained=False, scale=1.0, **kwargs) -> MobileNetV3Large:
    """MobileNetV3-Large with width multiplier `scale`; kwargs go to MobileNetV3Large."""
    return with_weights(f"mobilenet_v3_large_x{scale}", pretrained, lambda: MobileNetV3Large(scale=scale, **kwargs))
