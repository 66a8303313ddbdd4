"""What several vision models share: channel rounding and the Conv-Norm-Activation block (pretrained weights
are in pretrained.py)."""

from __future__ import annotations

from minipaddle import nn

__all__ = []


def make_divisible(v: float, divisor: int = 8, min_value: int | None = None) -> int:
    """`v` rounded to the nearest multiple of `divisor` (at least min_value), never more than 10% below `v`."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class ConvNormActivation(nn.Sequential):
    """Conv2D, then a norm layer, then an activation (paddle.vision.ops.ConvNormActivation): the building block
    of the MobileNets. Being a Sequential, its parameters are named `0.weight`, `1.weight`, ...

    Args:
        in_channels, out_channels: the convolution's channels.
        kernel_size, stride, groups, dilation: the convolution's.
        padding: None pads to keep the size: (kernel_size - 1) // 2 * dilation.
        norm_layer: the norm class (None: no norm); activation_layer: the activation class (None: none).
        bias: a bias in the convolution (default: only when there is no norm layer).
    """

    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, padding=None, groups=1,
                 norm_layer=nn.BatchNorm2D, activation_layer=nn.ReLU, dilation=1, bias=None):  # fmt: skip
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [
            nn.Conv2D(
                in_channels,
                out_channels,
                kernel_size,
                stride,
                padding,
                dilation=dilation,
                groups=groups,
                bias_attr=bias,
            )  # fmt: skip
        ]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)
