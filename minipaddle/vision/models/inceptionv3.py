"""InceptionV3 (Szegedy et al., 2016, "Rethinking the Inception Architecture"), as paddle.vision.models builds
it: a convolutional stem, then inception blocks A (x3), B, C (x4), D and E (x2) with factorized (1xn, nx1)
convolutions. Every convolution is a Conv-BatchNorm-ReLU block. Inputs must be at least 75x75."""

from __future__ import annotations

import math

from minipaddle import nn
from minipaddle.nn.initializer import Uniform
from minipaddle.nn.param_attr import ParamAttr
from minipaddle.tensor.manipulation import concat, reshape
from minipaddle.vision.models._utils import ConvNormActivation
from minipaddle.vision.models.pretrained import with_weights

__all__ = ["InceptionV3", "inception_v3"]


def _cbr(in_channels, out_channels, kernel_size, stride=1, padding=0):
    """Conv2D (no bias) + BatchNorm2D + ReLU."""
    return ConvNormActivation(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                              activation_layer=nn.ReLU)  # fmt: skip


class InceptionStem(nn.Layer):
    """Five convolutions and two 3x3 max poolings: 3 -> 192 channels, about 1/8 of the size."""

    def __init__(self):
        super().__init__()
        self.conv_1a_3x3 = _cbr(3, 32, 3, stride=2)
        self.conv_2a_3x3 = _cbr(32, 32, 3)
        self.conv_2b_3x3 = _cbr(32, 64, 3, padding=1)
        self.max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        self.conv_3b_1x1 = _cbr(64, 80, 1)
        self.conv_4a_3x3 = _cbr(80, 192, 3)

    def forward(self, x):
        x = self.conv_2b_3x3(self.conv_2a_3x3(self.conv_1a_3x3(x)))
        x = self.max_pool(x)
        x = self.conv_4a_3x3(self.conv_3b_1x1(x))
        return self.max_pool(x)


class InceptionA(nn.Layer):
    """Branches 1x1 | 1x1, 5x5 | 1x1, 3x3, 3x3 | 3x3 average pooling, 1x1 -> 224 + pool_features channels."""

    def __init__(self, num_channels, pool_features):
        super().__init__()
        self.branch1x1 = _cbr(num_channels, 64, 1)
        self.branch5x5_1 = _cbr(num_channels, 48, 1)
        self.branch5x5_2 = _cbr(48, 64, 5, padding=2)
        self.branch3x3dbl_1 = _cbr(num_channels, 64, 1)
        self.branch3x3dbl_2 = _cbr(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _cbr(96, 96, 3, padding=1)
        self.branch_pool = nn.AvgPool2D(kernel_size=3, stride=1, padding=1, exclusive=False)
        self.branch_pool_conv = _cbr(num_channels, pool_features, 1)

    def forward(self, x):
        branch5x5 = self.branch5x5_2(self.branch5x5_1(x))
        branch3x3dbl = self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x)))
        branch_pool = self.branch_pool_conv(self.branch_pool(x))
        return concat([self.branch1x1(x), branch5x5, branch3x3dbl, branch_pool], axis=1)


class InceptionB(nn.Layer):
    """The first reduction: 3x3 stride 2 | 1x1, 3x3, 3x3 stride 2 | 3x3 max pooling stride 2."""

    def __init__(self, num_channels):
        super().__init__()
        self.branch3x3 = _cbr(num_channels, 384, 3, stride=2)
        self.branch3x3dbl_1 = _cbr(num_channels, 64, 1)
        self.branch3x3dbl_2 = _cbr(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _cbr(96, 96, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x):
        branch3x3dbl = self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x)))
        return concat([self.branch3x3(x), branch3x3dbl, self.branch_pool(x)], axis=1)


class InceptionC(nn.Layer):
    """7x7 convolutions factorized into 1x7 and 7x1: 1x1 | 1x1, 1x7, 7x1 | 1x1, (7x1, 1x7) twice | pooling, 1x1."""

    def __init__(self, num_channels, channels_7x7):
        super().__init__()
        c7 = channels_7x7
        self.branch1x1 = _cbr(num_channels, 192, 1)
        self.branch7x7_1 = _cbr(num_channels, c7, 1)
        self.branch7x7_2 = _cbr(c7, c7, (1, 7), padding=(0, 3))
        self.branch7x7_3 = _cbr(c7, 192, (7, 1), padding=(3, 0))
        self.branch7x7dbl_1 = _cbr(num_channels, c7, 1)
        self.branch7x7dbl_2 = _cbr(c7, c7, (7, 1), padding=(3, 0))
        self.branch7x7dbl_3 = _cbr(c7, c7, (1, 7), padding=(0, 3))
        self.branch7x7dbl_4 = _cbr(c7, c7, (7, 1), padding=(3, 0))
        self.branch7x7dbl_5 = _cbr(c7, 192, (1, 7), padding=(0, 3))
        self.branch_pool = nn.AvgPool2D(kernel_size=3, stride=1, padding=1, exclusive=False)
        self.branch_pool_conv = _cbr(num_channels, 192, 1)

    def forward(self, x):
        branch7x7 = self.branch7x7_3(self.branch7x7_2(self.branch7x7_1(x)))
        dbl = self.branch7x7dbl_2(self.branch7x7dbl_1(x))
        dbl = self.branch7x7dbl_5(self.branch7x7dbl_4(self.branch7x7dbl_3(dbl)))
        branch_pool = self.branch_pool_conv(self.branch_pool(x))
        return concat([self.branch1x1(x), branch7x7, dbl, branch_pool], axis=1)


class InceptionD(nn.Layer):
    """The second reduction: 1x1, 3x3 stride 2 | 1x1, 1x7, 7x1, 3x3 stride 2 | 3x3 max pooling stride 2."""

    def __init__(self, num_channels):
        super().__init__()
        self.branch3x3_1 = _cbr(num_channels, 192, 1)
        self.branch3x3_2 = _cbr(192, 320, 3, stride=2)
        self.branch7x7x3_1 = _cbr(num_channels, 192, 1)
        self.branch7x7x3_2 = _cbr(192, 192, (1, 7), padding=(0, 3))
        self.branch7x7x3_3 = _cbr(192, 192, (7, 1), padding=(3, 0))
        self.branch7x7x3_4 = _cbr(192, 192, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x):
        branch3x3 = self.branch3x3_2(self.branch3x3_1(x))
        b7 = self.branch7x7x3_2(self.branch7x7x3_1(x))
        b7 = self.branch7x7x3_4(self.branch7x7x3_3(b7))
        return concat([branch3x3, b7, self.branch_pool(x)], axis=1)


class InceptionE(nn.Layer):
    """The widest block, with 3x3 convolutions split into parallel 1x3 and 3x1 ones: 2048 output channels."""

    def __init__(self, num_channels):
        super().__init__()
        self.branch1x1 = _cbr(num_channels, 320, 1)
        self.branch3x3_1 = _cbr(num_channels, 384, 1)
        self.branch3x3_2a = _cbr(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3_2b = _cbr(384, 384, (3, 1), padding=(1, 0))
        self.branch3x3dbl_1 = _cbr(num_channels, 448, 1)
        self.branch3x3dbl_2 = _cbr(448, 384, 3, padding=1)
        self.branch3x3dbl_3a = _cbr(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3dbl_3b = _cbr(384, 384, (3, 1), padding=(1, 0))
        self.branch_pool = nn.AvgPool2D(kernel_size=3, stride=1, padding=1, exclusive=False)
        self.branch_pool_conv = _cbr(num_channels, 192, 1)

    def forward(self, x):
        b3 = self.branch3x3_1(x)
        b3 = concat([self.branch3x3_2a(b3), self.branch3x3_2b(b3)], axis=1)
        dbl = self.branch3x3dbl_2(self.branch3x3dbl_1(x))
        dbl = concat([self.branch3x3dbl_3a(dbl), self.branch3x3dbl_3b(dbl)], axis=1)
        branch_pool = self.branch_pool_conv(self.branch_pool(x))
        return concat([self.branch1x1(x), b3, dbl, branch_pool], axis=1)


class InceptionV3(nn.Layer):
    """InceptionV3.

    Args:
        num_classes: the number of classes; 0 or less leaves out the final Linear layer.
        with_pool: end with global average pooling.

    Example:
        >>> net = paddle.vision.models.InceptionV3(num_classes=10)
        >>> net(paddle.rand([1, 3, 75, 75])).shape
        [1, 10]
    """

    def __init__(self, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.layers_config = {
            "inception_a": [[192, 256, 288], [32, 64, 64]],
            "inception_b": [288],
            "inception_c": [[768, 768, 768, 768], [128, 160, 160, 192]],
            "inception_d": [768],
            "inception_e": [1280, 2048],
        }
        cfg = self.layers_config
        self.inception_stem = InceptionStem()
        self.inception_block_list = nn.LayerList()
        for channels, pool_features in zip(*cfg["inception_a"]):
            self.inception_block_list.append(InceptionA(channels, pool_features))
        for channels in cfg["inception_b"]:
            self.inception_block_list.append(InceptionB(channels))
        for channels, channels_7x7 in zip(*cfg["inception_c"]):
            self.inception_block_list.append(InceptionC(channels, channels_7x7))
        for channels in cfg["inception_d"]:
            self.inception_block_list.append(InceptionD(channels))
        for channels in cfg["inception_e"]:
            self.inception_block_list.append(InceptionE(channels))
        if with_pool:
            self.avg_pool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.dropout = nn.Dropout(p=0.2, mode="downscale_in_infer")
            stdv = 1.0 / math.sqrt(2048 * 1.0)
            self.fc = nn.Linear(2048, num_classes, weight_attr=ParamAttr(initializer=Uniform(-stdv, stdv)),
                                bias_attr=ParamAttr())  # fmt: skip

    def forward(self, x):
        x = self.inception_stem(x)
        for inception_block in self.inception_block_list:
            x = inception_block(x)
        if self.with_pool:
            x = self.avg_pool(x)
        if self.num_classes > 0:
            x = reshape(x, [-1, 2048])
            x = self.fc(self.dropout(x))
        return x


def inception_v3(pretrained=False, **kwargs) -> InceptionV3:
    """InceptionV3; kwargs go to InceptionV3 (num_classes, with_pool).
    pretrained=True loads Paddle's published weights."""
    return with_weights("inception_v3", pretrained, lambda: InceptionV3(**kwargs))
