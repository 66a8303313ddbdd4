"""BaseQuanter: what every quanter Layer tells convert() and the views: scales, zero points, axis and bits."""

from __future__ import annotations

import abc

from minipaddle.nn.layer.layers import Layer

__all__ = ["BaseQuanter"]


class BaseQuanter(Layer, metaclass=abc.ABCMeta):
    """The base of quanters: a Layer that simulates quantization in forward and reports its parameters.

    Subclasses define forward(input), scales(), zero_points(), quant_axis() (-1 per tensor) and bit_length().
    """

    @abc.abstractmethod
    def forward(self, input):
        """The input quantized and dequantized (or observed and passed on)."""

    @abc.abstractmethod
    def scales(self):
        """The scale(s): a Tensor or array ([1] per tensor, [C] per channel)."""

    @abc.abstractmethod
    def zero_points(self):
        """The zero point(s), or None for a symmetric grid."""

    @abc.abstractmethod
    def quant_axis(self):
        """-1 per tensor, else the channel axis."""

    @abc.abstractmethod
    def bit_length(self):
        """Bits of the grid."""
