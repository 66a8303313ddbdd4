"""ShuffleNetV2 (Ma et al., 2018), as paddle.vision.models builds it: blocks that split the channels in two, run
one half through a 1x1 / depthwise 3x3 / 1x1 branch, concatenate, and shuffle the channels so that the halves mix
in the next block."""

from __future__ import annotations

from minipaddle import nn
from minipaddle.tensor.manipulation import concat, flatten, reshape, split, transpose
from minipaddle.vision.models._utils import ConvNormActivation
from minipaddle.vision.models.pretrained import with_weights

__all__ = [
    "ShuffleNetV2",
    "shufflenet_v2_x0_25",
    "shufflenet_v2_x0_33",
    "shufflenet_v2_x0_5",
    "shufflenet_v2_x1_0",
    "shufflenet_v2_x1_5",
    "shufflenet_v2_x2_0",
    "shufflenet_v2_swish",
]

_ACTIVATIONS = {"relu": nn.ReLU, "swish": nn.Swish, None: None}

# the channels after the stem, the three stages and the last 1x1 convolution, by width multiplier
_STAGE_OUT_CHANNELS = {
    0.25: [24, 24, 48, 96, 512],
    0.33: [24, 32, 64, 128, 512],
    0.5: [24, 48, 96, 192, 1024],
    1.0: [24, 116, 232, 464, 1024],
    1.5: [24, 176, 352, 704, 1024],
    2.0: [24, 224, 488, 976, 2048],
}
_STAGE_REPEATS = [4, 8, 4]


def channel_shuffle(x, groups: int):
    """[N, groups * k, H, W] -> the channels reordered as k groups of `groups` (a transpose of the group axis)."""
    n, c, h, w = x.shape[0:4]
    x = reshape(x, [n, groups, c // groups, h, w])
    x = transpose(x, [0, 2, 1, 3, 4])
    return reshape(x, [n, c, h, w])


class InvertedResidual(nn.Layer):
    """The stride-1 block: half of the channels pass unchanged, the other half go through 1x1, depthwise 3x3
    (no activation) and 1x1 convolutions; then the channels are shuffled."""

    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_pw = ConvNormActivation(in_channels // 2, half, 1, 1, 0, activation_layer=activation_layer)
        self._conv_dw = ConvNormActivation(half, half, 3, stride, 1, groups=half, activation_layer=None)
        self._conv_linear = ConvNormActivation(half, half, 1, 1, 0, activation_layer=activation_layer)

    def forward(self, inputs):
        x1, x2 = split(inputs, num_or_sections=[inputs.shape[1] // 2, inputs.shape[1] // 2], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    """The downsampling block: both branches see the whole input, each with a stride-2 depthwise convolution, and
    each gives half of the output channels; then the channels are shuffled."""

    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_dw_1 = ConvNormActivation(in_channels, in_channels, 3, stride, 1, groups=in_channels,
                                             activation_layer=None)  # fmt: skip
        self._conv_linear_1 = ConvNormActivation(in_channels, half, 1, 1, 0, activation_layer=activation_layer)
        self._conv_pw_2 = ConvNormActivation(in_channels, half, 1, 1, 0, activation_layer=activation_layer)
        self._conv_dw_2 = ConvNormActivation(half, half, 3, stride, 1, groups=half, activation_layer=None)
        self._conv_linear_2 = ConvNormActivation(half, half, 1, 1, 0, activation_layer=activation_layer)

    def forward(self, inputs):
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


class ShuffleNetV2(nn.Layer):
    """ShuffleNetV2.

    Args:
        scale: the width multiplier: 0.25, 0.33, 0.5, 1.0, 1.5 or 2.0.
        act: the activation, "relu" or "swish".
        num_classes: the number of classes; 0 or less leaves out the final Linear layer.
        with_pool: end with global average pooling.

    Example:
        >>> net = paddle.vision.models.ShuffleNetV2(scale=0.25, num_classes=10)
        >>> net(paddle.rand([1, 3, 64, 64])).shape
        [1, 10]
    """

    def __init__(self, scale=1.0, act="relu", num_classes=1000, with_pool=True):
        super().__init__()
        if scale not in _STAGE_OUT_CHANNELS:
            raise ValueError(f"ShuffleNetV2: scale must be one of {sorted(_STAGE_OUT_CHANNELS)}, got {scale!r}")
        if act not in _ACTIVATIONS:
            raise ValueError(f"ShuffleNetV2: act must be 'relu', 'swish' or None, got {act!r}")
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        activation_layer = _ACTIVATIONS[act]
        channels = _STAGE_OUT_CHANNELS[scale]
        self._conv1 = ConvNormActivation(3, channels[0], 3, 2, 1, activation_layer=activation_layer)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        # the blocks are sublayers named "2_1", "2_2", ... (stage, block), as in Paddle
        self._block_list = []
        for stage_id, num_repeat in enumerate(_STAGE_REPEATS):
            for i in range(num_repeat):
                if i == 0:
                    block = InvertedResidualDS(channels[stage_id], channels[stage_id + 1], 2, activation_layer)
                else:
                    block = InvertedResidual(channels[stage_id + 1], channels[stage_id + 1], 1, activation_layer)
                self._block_list.append(self.add_sublayer(f"{stage_id + 2}_{i + 1}", block))
        self._last_conv = ConvNormActivation(channels[-2], channels[-1], 1, 1, 0, activation_layer=activation_layer)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = channels[-1]
            self._fc = nn.Linear(channels[-1], num_classes)

    def forward(self, inputs):
        x = self._max_pool(self._conv1(inputs))
        for block in self._block_list:
            x = block(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = flatten(x, start_axis=1, stop_axis=-1)
            x = self._fc(x)
        return x


def _shufflenet_v2(arch: str, pretrained: bool, **kwargs) -> ShuffleNetV2:
    return with_weights(arch, pretrained, lambda: ShuffleNetV2(**kwargs))


def shufflenet_v2_x0_25(pretrained=False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 with width multiplier 0.25; kwargs go to ShuffleNetV2 (num_classes, with_pool).
    pretrained=True loads Paddle's published weights."""
    return _shufflenet_v2("shufflenet_v2_x0_25", pretrained, scale=0.25, **kwargs)


def shufflenet_v2_x0_33(pretrained=False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 with width multiplier 0.33."""
    return _shufflenet_v2("shufflenet_v2_x0_33", pretrained, scale=0.33, **kwargs)


def shufflenet_v2_x0_5(pretrained=False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 with width multiplier 0.5."""
    return _shufflenet_v2("shufflenet_v2_x0_5", pretrained, scale=0.5, **kwargs)


def shufflenet_v2_x1_0(pretrained=False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 with width multiplier 1.0."""
    return _shufflenet_v2("shufflenet_v2_x1_0", pretrained, scale=1.0, **kwargs)


def shufflenet_v2_x1_5(pretrained=False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 with width multiplier 1.5."""
    return _shufflenet_v2("shufflenet_v2_x1_5", pretrained, scale=1.5, **kwargs)


def shufflenet_v2_x2_0(pretrained=False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 with width multiplier 2.0."""
    return _shufflenet_v2("shufflenet_v2_x2_0", pretrained, scale=2.0, **kwargs)


def shufflenet_v2_swish(pretrained=False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 with width multiplier 1.0 and the swish activation."""
    return _shufflenet_v2("shufflenet_v2_swish", pretrained, scale=1.0, act="swish", **kwargs)
