"""Which layers ImperativePTQ calibrates, and Paddle's names of their ops' input / weight / output slots (for the
threshold attributes: `Input0_threshold`, `Output0_threshold`, ...)."""

from __future__ import annotations

from typing import NamedTuple

from minipaddle import nn
from minipaddle.nn.quant import functional_layers, quant_layers

__all__ = ["LayerInfo", "PTQRegistry"]


class LayerInfo(NamedTuple):
    layer: type
    input_names: list
    weight_names: list
    output_names: list


PTQ_LAYERS_INFO = [
    LayerInfo(nn.Conv2D, ["Input"], ["Filter"], ["Output"]),
    LayerInfo(nn.Linear, ["X"], ["Y"], ["Out"]),
    LayerInfo(nn.BatchNorm2D, ["X"], [], ["Y"]),
    *(LayerInfo(t, ["X"], [], ["Out"]) for t in (nn.AdaptiveMaxPool2D, nn.AdaptiveAvgPool2D, nn.AvgPool2D,
                                                 nn.MaxPool2D, nn.ReLU, nn.ReLU6, nn.Hardswish, nn.Swish,
                                                 nn.Sigmoid, nn.Softmax, nn.Tanh)),
    LayerInfo(functional_layers.add, ["X", "Y"], [], ["Out"]),
]  # fmt: skip
QUANT_LAYERS_INFO = [
    LayerInfo(quant_layers.QuantizedConv2D, ["Input"], ["Filter"], ["Output"]),
    LayerInfo(quant_layers.QuantizedLinear, ["X"], ["Y"], ["Out"]),
]
SIMULATED_LAYERS = (nn.Conv2D, nn.Linear)


class PTQRegistry:
    """Lookups over the tables above."""

    supported_layers_map = {info.layer: info for info in PTQ_LAYERS_INFO}
    registered_layers_map = {info.layer: info for info in PTQ_LAYERS_INFO + QUANT_LAYERS_INFO}

    @classmethod
    def is_supported_layer(cls, layer) -> bool:
        return isinstance(layer, tuple(cls.supported_layers_map))

    @classmethod
    def is_registered_layer(cls, layer) -> bool:
        return isinstance(layer, tuple(cls.registered_layers_map))

    @classmethod
    def is_simulated_quant_layer(cls, layer) -> bool:
        return isinstance(layer, SIMULATED_LAYERS)

    @classmethod
    def layer_info(cls, layer) -> LayerInfo:
        for key, info in cls.registered_layers_map.items():
            if isinstance(layer, key):
                return info
        raise ValueError(f"PTQRegistry: {type(layer).__name__} is not a registered layer")
