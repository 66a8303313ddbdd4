"""VGG (Simonyan and Zisserman, 2014), as paddle.vision.models builds it: stacks of 3x3 convolutions and max
pooling, then three Linear layers. vgg11/13/16/19 are configurations A, B, D, E of the paper."""

from __future__ import annotations

from minipaddle import nn
from minipaddle.tensor.manipulation import flatten
from minipaddle.vision.models.pretrained import with_weights

__all__ = ["VGG", "make_layers", "vgg11", "vgg13", "vgg16", "vgg19"]


class VGG(nn.Layer):
    """VGG: `features` (from make_layers), adaptive average pooling to 7x7, and the classifier.

    Args:
        features: the convolutional part, a Layer (usually `make_layers(cfg)`).
        num_classes: the number of classes; 0 or less leaves out the classifier.
        with_pool: pool the features to 7x7 before the classifier.

    Example:
        >>> features = paddle.vision.models.vgg.make_layers([64, "M", 128, "M"])
        >>> net = paddle.vision.models.VGG(features, num_classes=0)
    """

    def __init__(self, features, num_classes=1000, with_pool=True):
        super().__init__()
        self.features = features
        self.num_classes = num_classes
        self.with_pool = with_pool
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((7, 7))
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(512 * 7 * 7, 4096),
                nn.ReLU(),
                nn.Dropout(),
                nn.Linear(4096, 4096),
                nn.ReLU(),
                nn.Dropout(),
                nn.Linear(4096, num_classes),
            )

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = flatten(x, 1)
            x = self.classifier(x)
        return x


def make_layers(cfg, batch_norm=False) -> nn.Sequential:
    """The convolutional part from a configuration: a number is a 3x3 convolution with that many channels (and
    BatchNorm2D with batch_norm) followed by ReLU, "M" is 2x2 max pooling."""
    layers = []
    in_channels = 3
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2D(kernel_size=2, stride=2))
        else:
            layers.append(nn.Conv2D(in_channels, v, kernel_size=3, padding=1))
            if batch_norm:
                layers.append(nn.BatchNorm2D(v))
            layers.append(nn.ReLU())
            in_channels = v
    return nn.Sequential(*layers)


CFGS = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"],
}


def _vgg(arch: str, cfg: str, batch_norm: bool, pretrained: bool, **kwargs) -> VGG:
    return with_weights(
        arch + ("_bn" if batch_norm else ""),
        pretrained,
        lambda: VGG(make_layers(CFGS[cfg], batch_norm=batch_norm), **kwargs),
    )


def vgg11(pretrained=False, batch_norm=False, **kwargs) -> VGG:
    """VGG-11 (configuration A); batch_norm adds BatchNorm2D after each convolution. kwargs go to VGG
    (num_classes, with_pool). pretrained=True loads Paddle's published weights."""
    return _vgg("vgg11", "A", batch_norm, pretrained, **kwargs)


def vgg13(pretrained=False, batch_norm=False, **kwargs) -> VGG:
    """VGG-13 (configuration B)."""
    return _vgg("vgg13", "B", batch_norm, pretrained, **kwargs)


def vgg16(pretrained=False, batch_norm=False, **kwargs) -> VGG:
    """VGG-16 (configuration D)."""
    return _vgg("vgg16", "D", batch_norm, pretrained, **kwargs)


def vgg19(pretrained=False, batch_norm=False, **kwargs) -> VGG:
    """VGG-19 (configuration E)."""
    return _vgg("vgg19", "E", batch_norm, pretrained, **kwargs)
