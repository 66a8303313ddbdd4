"""AlexNet (Krizhevsky et al., 2012), as paddle.vision.models builds it: five convolutions (three of them followed
by max pooling), then three Linear layers with dropout. For 224x224 images (the classifier expects 256x6x6)."""

from __future__ import annotations

import math

from minipaddle import nn
from minipaddle.nn import functional as F
from minipaddle.nn.initializer import Uniform
from minipaddle.nn.param_attr import ParamAttr
from minipaddle.tensor.manipulation import flatten
from minipaddle.vision.models.pretrained import with_weights

__all__ = ["AlexNet", "alexnet"]


def _uniform(fan_in: int) -> ParamAttr:
    """Paddle's AlexNet initializes every weight and bias uniformly in +-1/sqrt(fan_in)."""
    stdv = 1.0 / math.sqrt(fan_in)
    return ParamAttr(initializer=Uniform(-stdv, stdv))


class ConvPoolLayer(nn.Layer):
    """A convolution, an optional ReLU, then 3x3 max pooling with stride 2."""

    def __init__(self, input_channels, output_channels, filter_size, stride, padding, stdv, groups=1, act=None):
        super().__init__()
        self.relu = nn.ReLU() if act == "relu" else None
        weight, bias = (ParamAttr(initializer=Uniform(-stdv, stdv)) for _ in range(2))
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, stride=stride, padding=padding,
                               groups=groups, weight_attr=weight, bias_attr=bias)  # fmt: skip
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, inputs):
        x = self._conv(inputs)
        if self.relu is not None:
            x = self.relu(x)
        return self._pool(x)


class AlexNet(nn.Layer):
    """AlexNet.

    Args:
        num_classes: the number of classes; 0 or less leaves out the Linear layers (the network then returns the
            [N, 256, H, W] features, so any input of at least 63x63 works).

    Example:
        >>> net = paddle.vision.models.AlexNet(num_classes=0)
        >>> net(paddle.rand([1, 3, 64, 64])).shape
        [1, 256, 1, 1]
    """

    def __init__(self, num_classes=1000):
        super().__init__()
        self.num_classes = num_classes
        self._conv1 = ConvPoolLayer(3, 64, 11, 4, 2, 1.0 / math.sqrt(3 * 11 * 11), act="relu")
        self._conv2 = ConvPoolLayer(64, 192, 5, 1, 2, 1.0 / math.sqrt(64 * 5 * 5), act="relu")
        self._conv3 = nn.Conv2D(192, 384, 3, stride=1, padding=1, weight_attr=_uniform(192 * 3 * 3),
                                bias_attr=_uniform(192 * 3 * 3))  # fmt: skip
        self._conv4 = nn.Conv2D(384, 256, 3, stride=1, padding=1, weight_attr=_uniform(384 * 3 * 3),
                                bias_attr=_uniform(384 * 3 * 3))  # fmt: skip
        self._conv5 = ConvPoolLayer(256, 256, 3, 1, 1, 1.0 / math.sqrt(256 * 3 * 3), act="relu")
        if self.num_classes > 0:
            fan_in = 256 * 6 * 6  # (Paddle uses this bound for all three Linear layers)
            self._drop1 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = nn.Linear(256 * 6 * 6, 4096, weight_attr=_uniform(fan_in), bias_attr=_uniform(fan_in))
            self._drop2 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = nn.Linear(4096, 4096, weight_attr=_uniform(fan_in), bias_attr=_uniform(fan_in))
            self._fc8 = nn.Linear(4096, num_classes, weight_attr=_uniform(fan_in), bias_attr=_uniform(fan_in))

    def forward(self, inputs):
        x = self._conv2(self._conv1(inputs))
        x = F.relu(self._conv3(x))
        x = F.relu(self._conv4(x))
        x = self._conv5(x)
        if self.num_classes > 0:
            x = flatten(x, start_axis=1, stop_axis=-1)
            x = F.relu(self._fc6(self._drop1(x)))
            x = F.relu(self._fc7(self._drop2(x)))
            x = self._fc8(x)
        return x


def alexnet(pretrained=False, **kwargs) -> AlexNet:
    """AlexNet; kwargs go to AlexNet (num_classes). pretrained=True loads Paddle's published weights."""
    return with_weights("alexnet", pretrained, lambda: AlexNet(**kwargs))
