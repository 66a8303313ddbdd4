"""QuantedConv2D: Conv2D with a weight quanter and an input (activation) quanter from a QuantConfig."""

from __future__ import annotations

from minipaddle.nn import functional as F
from minipaddle.nn.quant.format import ConvertibleQuantedLayer

__all__ = ["QuantedConv2D"]


class QuantedConv2D(ConvertibleQuantedLayer):
    """Conv2D whose input and weight go through the config's quanters (either may be None).

    Args:
        layer: the nn.Conv2D to wrap (its weight and bias are shared, and its stride, padding, ... kept).
        q_config: the layer's SingleLayerConfig.
    """

    def __init__(self, layer, q_config):
        super().__init__()
        self._groups, self._stride, self._dilation = layer._groups, layer._stride, layer._dilation
        self._padding, self._padding_mode, self._data_format = layer._padding, layer._padding_mode, layer._data_format
        self._pad_first = layer._pad_first
        self.weight = layer.weight
        self.bias = layer.bias
        self.weight_quanter = None if q_config.weight is None else q_config.weight._instance(layer)
        self.activation_quanter = None if q_config.activation is None else q_config.activation._instance(layer)

    def forward(self, input):
        x = input if self.activation_quanter is None else self.activation_quanter(input)
        w = self.weight if self.weight_quanter is None else self.weight_quanter(self.weight)
        padding = self._padding
        if self._pad_first is not None:
            x = F.pad(x, self._pad_first, mode=self._padding_mode, data_format=self._data_format)
            padding = 0
        return F.conv2d(x, w, self.bias, self._stride, padding, self._dilation, self._groups, self._data_format)

    def weights_to_quanters(self):
        return [("weight", "weight_quanter")]

    def activation_quanters(self):
        return ["activation_quanter"]
