"""QuantedLinear: Linear with a weight quanter and an input (activation) quanter from a QuantConfig."""

from __future__ import annotations

from minipaddle.nn import functional as F
from minipaddle.nn.quant.format import ConvertibleQuantedLayer

__all__ = ["QuantedLinear"]


class QuantedLinear(ConvertibleQuantedLayer):
    """Linear whose input and weight go through the config's quanters (either may be None).

    Args:
        layer: the nn.Linear to wrap (its weight and bias are shared, not copied).
        q_config: the layer's SingleLayerConfig (activation and weight quanter factories).
    """

    def __init__(self, layer, q_config):
        super().__init__()
        self.weight = layer.weight
        self.bias = layer.bias
        self.name = getattr(layer, "name", None)
        self.weight_quanter = None if q_config.weight is None else q_config.weight._instance(layer)
        self.activation_quanter = None if q_config.activation is None else q_config.activation._instance(layer)

    def forward(self, input):
        x = input if self.activation_quanter is None else self.activation_quanter(input)
        w = self.weight if self.weight_quanter is None else self.weight_quanter(self.weight)
        return F.linear(x, w, self.bias)

    def weights_to_quanters(self):
        return [("weight", "weight_quanter")]

    def activation_quanters(self):
        return ["activation_quanter"]
