"""ResNet (He et al., 2016, "Deep Residual Learning for Image Recognition"), as paddle.vision.models builds it:
resnet18/34 stack BasicBlocks, resnet50/101/152 BottleneckBlocks; the ResNeXts (Xie et al., 2017) are bottleneck
ResNets whose 3x3 convolutions are grouped (32 or 64 groups of width 4), the wide ResNets (Zagoruyko and
Komodakis, 2016) bottleneck ResNets of twice the width. The layer names match Paddle's, so Paddle's
state dicts load into these models."""

from __future__ import annotations

from minipaddle import nn
from minipaddle.tensor.manipulation import flatten
from minipaddle.vision.models.pretrained import with_weights

__all__ = [
    "BasicBlock",
    "BottleneckBlock",
    "ResNet",
    "resnet18",
    "resnet34",
    "resnet50",
    "resnet101",
    "resnet152",
    "resnext50_32x4d",
    "resnext50_64x4d",
    "resnext101_32x4d",
    "resnext101_64x4d",
    "resnext152_32x4d",
    "resnext152_64x4d",
    "wide_resnet50_2",
    "wide_resnet101_2",
]


class BasicBlock(nn.Layer):
    """Two 3x3 convolutions with batch norm, and the input added back (through `downsample` when the shape
    changes). Used by resnet18 and resnet34."""

    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64, dilation=1,
                 norm_layer=None):  # fmt: skip
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2D
        if dilation > 1:
            raise ValueError("BasicBlock: dilation > 1 is not supported (Paddle's BasicBlock has none)")
        self.conv1 = nn.Conv2D(inplanes, planes, 3, padding=1, stride=stride, bias_attr=False)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2D(planes, planes, 3, padding=1, bias_attr=False)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class BottleneckBlock(nn.Layer):
    """1x1 (narrow), 3x3, 1x1 (widen by 4) convolutions with batch norm, and the input added back. Used by
    resnet50, resnet101 and resnet152."""

    expansion = 4

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64, dilation=1,
                 norm_layer=None):  # fmt: skip
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2D
        width = int(planes * (base_width / 64.0)) * groups
        self.conv1 = nn.Conv2D(inplanes, width, 1, bias_attr=False)
        self.bn1 = norm_layer(width)
        self.conv2 = nn.Conv2D(width, width, 3, padding=dilation, stride=stride, groups=groups, dilation=dilation,
                               bias_attr=False)  # fmt: skip
        self.bn2 = norm_layer(width)
        self.conv3 = nn.Conv2D(width, planes * self.expansion, 1, bias_attr=False)
        self.bn3 = norm_layer(planes * self.expansion)
        self.relu = nn.ReLU()
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


_LAYERS = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3], 152: [3, 8, 36, 3]}


class ResNet(nn.Layer):
    """ResNet for 3-channel images.

    Args:
        block: BasicBlock or BottleneckBlock.
        depth: 18, 34, 50, 101 or 152 (how many blocks each of the four stages has).
        width: the base width of a bottleneck (64; ResNeXt and wide ResNets change it).
        num_classes: the number of classes; 0 or less leaves out the final Linear layer.
        with_pool: end with global average pooling.
        groups: groups of the bottleneck's 3x3 convolution.

    Example:
        >>> net = paddle.vision.models.ResNet(paddle.vision.models.resnet.BasicBlock, 18, num_classes=10)
        >>> net(paddle.rand([1, 3, 32, 32])).shape
        [1, 10]
    """

    def __init__(self, block, depth=50, width=64, num_classes=1000, with_pool=True, groups=1):
        super().__init__()
        if depth not in _LAYERS:
            raise ValueError(f"ResNet: depth must be one of {sorted(_LAYERS)}, got {depth!r}")
        layers = _LAYERS[depth]
        self.groups = groups
        self.base_width = width
        self.num_classes = num_classes
        self.with_pool = with_pool
        self._norm_layer = nn.BatchNorm2D
        self.inplanes = 64
        self.dilation = 1
        self.conv1 = nn.Conv2D(3, self.inplanes, kernel_size=7, stride=2, padding=3, bias_attr=False)
        self.bn1 = self._norm_layer(self.inplanes)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2)
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2)
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((1, 1))
        if num_classes > 0:
            self.fc = nn.Linear(512 * block.expansion, num_classes)

    def _make_layer(self, block, planes, blocks, stride=1, dilate=False):
        norm_layer = self._norm_layer
        downsample = None
        previous_dilation = self.dilation
        if dilate:
            self.dilation *= stride
            stride = 1
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(
                nn.Conv2D(self.inplanes, planes * block.expansion, 1, stride=stride, bias_attr=False),
                norm_layer(planes * block.expansion),
            )
        layers = [block(self.inplanes, planes, stride, downsample, self.groups, self.base_width, previous_dilation,
                        norm_layer)]  # fmt: skip
        self.inplanes = planes * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.inplanes, planes, groups=self.groups, base_width=self.base_width,
                                norm_layer=norm_layer))  # fmt: skip
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = flatten(x, 1)
            x = self.fc(x)
        return x


def _resnet(arch: str, block, depth: int, pretrained: bool, **kwargs) -> ResNet:
    return with_weights(arch, pretrained, lambda: ResNet(block, depth, **kwargs))


def resnet18(pretrained=False, **kwargs) -> ResNet:
    """ResNet-18 (BasicBlocks, [2, 2, 2, 2]). kwargs go to ResNet (num_classes, with_pool). pretrained=True
    loads Paddle's published weights."""
    return _resnet("resnet18", BasicBlock, 18, pretrained, **kwargs)


def resnet34(pretrained=False, **kwargs) -> ResNet:
    """ResNet-34 (BasicBlocks, [3, 4, 6, 3])."""
    return _resnet("resnet34", BasicBlock, 34, pretrained, **kwargs)


def resnet50(pretrained=False, **kwargs) -> ResNet:
    """ResNet-50 (BottleneckBlocks, [3, 4, 6, 3])."""
    return _resnet("resnet50", BottleneckBlock, 50, pretrained, **kwargs)


def resnet101(pretrained=False, **kwargs) -> ResNet:
    """ResNet-101 (BottleneckBlocks, [3, 4, 23, 3])."""
    return _resnet("resnet101", BottleneckBlock, 101, pretrained, **kwargs)


def resnet152(pretrained=False, **kwargs) -> ResNet:
    """ResNet-152 (BottleneckBlocks, [3, 8, 36, 3])."""
    return _resnet("resnet152", BottleneckBlock, 152, pretrained, **kwargs)


def _resnext(arch: str, depth: int, groups: int, pretrained: bool, **kwargs) -> ResNet:
    """A bottleneck ResNet whose 3x3 convolutions have `groups` groups of 4 channels per base width."""
    kwargs["groups"] = groups
    kwargs["width"] = 4
    return _resnet(arch, BottleneckBlock, depth, pretrained, **kwargs)


def resnext50_32x4d(pretrained=False, **kwargs) -> ResNet:
    """ResNeXt-50 with 32 groups of width 4. kwargs go to ResNet (num_classes, with_pool); groups and width are
    set here. pretrained=True loads Paddle's published weights."""
    return _resnext("resnext50_32x4d", 50, 32, pretrained, **kwargs)


def resnext50_64x4d(pretrained=False, **kwargs) -> ResNet:
    """ResNeXt-50 with 64 groups of width 4."""
    return _resnext("resnext50_64x4d", 50, 64, pretrained, **kwargs)


def resnext101_32x4d(pretrained=False, **kwargs) -> ResNet:
    """ResNeXt-101 with 32 groups of width 4."""
    return _resnext("resnext101_32x4d", 101, 32, pretrained, **kwargs)


def resnext101_64x4d(pretrained=False, **kwargs) -> ResNet:
    """ResNeXt-101 with 64 groups of width 4."""
    return _resnext("resnext101_64x4d", 101, 64, pretrained, **kwargs)


def resnext152_32x4d(pretrained=False, **kwargs) -> ResNet:
    """ResNeXt-152 with 32 groups of width 4."""
    return _resnext("resnext152_32x4d", 152, 32, pretrained, **kwargs)


def resnext152_64x4d(pretrained=False, **kwargs) -> ResNet:
    """ResNeXt-152 with 64 groups of width 4."""
    return _resnext("resnext152_64x4d", 152, 64, pretrained, **kwargs)


def wide_resnet50_2(pretrained=False, **kwargs) -> ResNet:
    """Wide ResNet-50-2: ResNet-50 with bottlenecks twice as wide (base width 128)."""
    kwargs["width"] = 64 * 2
    return _resnet("wide_resnet50_2", BottleneckBlock, 50, pretrained, **kwargs)


def wide_resnet101_2(pretrained=False, **kwargs) -> ResNet:
    """Wide ResNet-101-2: ResNet-101 with bottlenecks twice as wide (base width 128)."""
    kwargs["width"] = 64 * 2
    return _resnet("wide_resnet101_2", BottleneckBlock, 101, pretrained, **kwargs)
