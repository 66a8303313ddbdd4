"""DenseNet (Huang et al., 2017), as paddle.vision.models builds it: dense blocks in which every layer sees the
concatenation of all earlier layers' outputs, joined by transition layers that halve the channels and the size.
The norms are Paddle's older nn.BatchNorm with a fused ReLU (`act='relu'`)."""

from __future__ import annotations

import math

from minipaddle import nn
from minipaddle.nn.initializer import Uniform
from minipaddle.nn.param_attr import ParamAttr
from minipaddle.tensor.manipulation import concat, flatten
from minipaddle.vision.models.pretrained import with_weights

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201", "densenet264"]

# layers -> (stem channels, growth rate, layers in each of the four dense blocks)
_SPEC = {
    121: (64, 32, [6, 12, 24, 16]),
    161: (96, 48, [6, 12, 36, 24]),
    169: (64, 32, [6, 12, 32, 32]),
    201: (64, 32, [6, 12, 48, 32]),
    264: (64, 32, [6, 12, 64, 48]),
}


class BNACConvLayer(nn.Layer):
    """Batch norm with ReLU, then a convolution without bias (the pre-activation order)."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1, act="relu"):
        super().__init__()
        self._batch_norm = nn.BatchNorm(num_channels, act=act)
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride, padding=pad, groups=groups,
                               bias_attr=False)  # fmt: skip

    def forward(self, input):
        return self._conv(self._batch_norm(input))


class DenseLayer(nn.Layer):
    """A 1x1 bottleneck (bn_size * growth_rate channels) and a 3x3 convolution giving growth_rate new channels,
    concatenated after the input."""

    def __init__(self, num_channels, growth_rate, bn_size, dropout):
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = BNACConvLayer(num_channels, bn_size * growth_rate, 1, pad=0, stride=1)
        self.bn_ac_func2 = BNACConvLayer(bn_size * growth_rate, growth_rate, 3, pad=1, stride=1)
        if dropout:
            self.dropout_func = nn.Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, input):
        conv = self.bn_ac_func2(self.bn_ac_func1(input))
        if self.dropout:
            conv = self.dropout_func(conv)
        return concat([input, conv], axis=1)


class DenseBlock(nn.Layer):
    """`num_layers` DenseLayers, registered as `{name}_1`, `{name}_2`, ... (Paddle's names)."""

    def __init__(self, num_channels, num_layers, bn_size, growth_rate, dropout, name=None):
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = []
        pre_channel = num_channels
        for layer in range(num_layers):
            sub = DenseLayer(pre_channel, growth_rate, bn_size, dropout)
            self.dense_layer_func.append(self.add_sublayer(f"{name}_{layer + 1}", sub))
            pre_channel = pre_channel + growth_rate

    def forward(self, input):
        conv = input
        for func in self.dense_layer_func:
            conv = func(conv)
        return conv


class TransitionLayer(nn.Layer):
    """Batch norm with ReLU, a 1x1 convolution to `num_output_features`, 2x2 average pooling."""

    def __init__(self, num_channels, num_output_features):
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels, num_output_features, 1, pad=0, stride=1)
        self.pool2d_avg = nn.AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, input):
        return self.pool2d_avg(self.conv_ac_func(input))


class ConvBNLayer(nn.Layer):
    """A convolution without bias, then batch norm with ReLU (the stem)."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1, act="relu"):
        super().__init__()
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride, padding=pad, groups=groups,
                               bias_attr=False)  # fmt: skip
        self._batch_norm = nn.BatchNorm(num_filters, act=act)

    def forward(self, input):
        return self._batch_norm(self._conv(input))


class DenseNet(nn.Layer):
    """DenseNet.

    Args:
        layers: 121, 161, 169, 201 or 264.
        bn_size: the bottleneck width, as a multiple of the growth rate.
        dropout: the dropout rate after each dense layer (0: none).
        num_classes: the number of classes; 0 or less leaves out the final Linear layer.
        with_pool: end with global average pooling.

    Example:
        >>> net = paddle.vision.models.DenseNet(121, num_classes=10)
        >>> net(paddle.rand([1, 3, 64, 64])).shape
        [1, 10]
    """

    def __init__(self, layers=121, bn_size=4, dropout=0.0, num_classes=1000, with_pool=True):
        super().__init__()
        if layers not in _SPEC:
            raise ValueError(f"DenseNet: layers must be one of {sorted(_SPEC)}, got {layers!r}")
        self.num_classes = num_classes
        self.with_pool = with_pool
        num_init_features, growth_rate, block_config = _SPEC[layers]
        self.conv1_func = ConvBNLayer(3, num_init_features, 7, stride=2, pad=3, act="relu")
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.block_config = block_config
        self.dense_block_func_list = []
        self.transition_func_list = []
        num_features = num_init_features
        for i, num_layers in enumerate(block_config):
            block = DenseBlock(num_features, num_layers, bn_size, growth_rate, dropout, name=f"conv{i + 2}")
            self.dense_block_func_list.append(self.add_sublayer(f"db_conv_{i + 2}", block))
            num_features = num_features + num_layers * growth_rate
            if i != len(block_config) - 1:
                transition = TransitionLayer(num_features, num_features // 2)
                self.transition_func_list.append(self.add_sublayer(f"tr_conv{i + 2}_blk", transition))
                num_features = num_features // 2
        self.batch_norm = nn.BatchNorm(num_features, act="relu")
        if self.with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if self.num_classes > 0:
            stdv = 1.0 / math.sqrt(num_features * 1.0)
            self.out = nn.Linear(num_features, num_classes, weight_attr=ParamAttr(initializer=Uniform(-stdv, stdv)),
                                 bias_attr=ParamAttr())  # fmt: skip

    def forward(self, input):
        conv = self.pool2d_max(self.conv1_func(input))
        for i in range(len(self.block_config)):
            conv = self.dense_block_func_list[i](conv)
            if i != len(self.block_config) - 1:
                conv = self.transition_func_list[i](conv)
        y = self.batch_norm(conv)
        if self.with_pool:
            y = self.pool2d_avg(y)
        if self.num_classes > 0:
            y = flatten(y, start_axis=1, stop_axis=-1)
            y = self.out(y)
        return y


def _densenet(arch: str, layers: int, pretrained: bool, **kwargs) -> DenseNet:
    return with_weights(arch, pretrained, lambda: DenseNet(layers=layers, **kwargs))


def densenet121(pretrained=False, **kwargs) -> DenseNet:
    """DenseNet-121; kwargs go to DenseNet (bn_size, dropout, num_classes, with_pool).
    pretrained=True loads Paddle's published weights."""
    return _densenet("densenet121", 121, pretrained, **kwargs)


def densenet161(pretrained=False, **kwargs) -> DenseNet:
    """DenseNet-161 (growth rate 48)."""
    return _densenet("densenet161", 161, pretrained, **kwargs)


def densenet169(pretrained=False, **kwargs) -> DenseNet:
    """DenseNet-169."""
    return _densenet("densenet169", 169, pretrained, **kwargs)


def densenet201(pretrained=False, **kwargs) -> DenseNet:
    """DenseNet-201."""
    return _densenet("densenet201", 201, pretrained, **kwargs)


def densenet264(pretrained=False, **kwargs) -> DenseNet:
    """DenseNet-264."""
    return _densenet("densenet264", 264, pretrained, **kwargs)
