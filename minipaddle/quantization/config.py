"""QuantConfig: which quanter each layer of a model gets (paddle.quantization.QuantConfig, 2.6 API).

A config holds quanter factories: a global pair (activation, weight), and pairs for particular layers, full layer
names and layer types. When QAT/PTQ apply it (`_specify(model)`), each sublayer gets, in rising priority:
its parent's config (the global one at the top) < its type's < its name's (a layer's config is its full name's).
A layer is replaced by its QAT form when its type is in the mapping (Linear -> QuantedLinear, Conv2D ->
QuantedConv2D, Stub -> QuanterStub, plus add_qat_layer_mapping); other leaves (no sublayers, or ReLU, AvgPool2D,
or add_customized_leaf types) with an activation quanter get an ObserveWrapper.
"""

from __future__ import annotations

import copy

from minipaddle import nn
from minipaddle.nn.layer.layers import Layer
from minipaddle.nn.quant.qat import QuantedConv2D, QuantedLinear
from minipaddle.nn.quant.stub import QuanterStub, Stub
from minipaddle.quantization.factory import QuanterFactory
from minipaddle.quantization.wrapper import ObserveWrapper

__all__ = ["QuantConfig", "SingleLayerConfig", "DEFAULT_QAT_LAYER_MAPPINGS", "DEFAULT_LEAVES"]

DEFAULT_QAT_LAYER_MAPPINGS = {Stub: QuanterStub, nn.Linear: QuantedLinear, nn.Conv2D: QuantedConv2D}
DEFAULT_LEAVES = [nn.ReLU, nn.AvgPool2D]


def _check_factory(value, fn: str, arg: str):
    if value is not None and not isinstance(value, QuanterFactory):
        raise TypeError(f"{fn}: {arg} must be a quanter factory (e.g. FakeQuanterWithAbsMaxObserver()) or None, "
                        f"got {type(value).__name__}")  # fmt: skip
    return value


class SingleLayerConfig:
    """The activation and weight quanter factories of one layer."""

    def __init__(self, activation: QuanterFactory, weight: QuanterFactory):
        self._activation = activation
        self._weight = weight

    @property
    def activation(self):
        return self._activation

    @property
    def weight(self):
        return self._weight

    def __str__(self):
        return f"activation: {self._activation}\nweight: {self._weight}"


class QuantConfig:
    """How to quantize a model: the global activation and weight quanters, and overrides.

    Args:
        activation: the quanter factory for activations (layer inputs), or None.
        weight: the quanter factory for weights, or None.

    Example:
        >>> quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        >>> q_config = QuantConfig(activation=quanter, weight=quanter)
        >>> q_config.add_type_config(paddle.nn.Linear, activation=None, weight=quanter)   # weights only for Linear
    """

    def __init__(self, activation: QuanterFactory, weight: QuanterFactory):
        _check_factory(activation, "QuantConfig", "activation")
        _check_factory(weight, "QuantConfig", "weight")
        self._global_config = None if activation is None and weight is None else SingleLayerConfig(activation, weight)
        self._layer2config = {}
        self._prefix2config = {}
        self._type2config = {}
        self._model = None
        self._qat_layer_mapping = copy.copy(DEFAULT_QAT_LAYER_MAPPINGS)
        self._customized_qat_layer_mapping = {}
        self._customized_leaves = []

    def add_layer_config(self, layer, activation=None, weight=None) -> None:
        """Quanters for one layer (or a list of layers) of the model, found by their full names."""
        if isinstance(layer, (list, tuple)):
            for element in layer:
                self.add_layer_config(element, activation=activation, weight=weight)
            return
        if not isinstance(layer, Layer):
            raise TypeError(f"add_layer_config: layer must be a Layer or a list of Layers, got {type(layer).__name__}")
        self.add_name_config(layer.full_name(), activation=activation, weight=weight)

    def add_name_config(self, layer_name, activation=None, weight=None) -> None:
        """Quanters for the layer(s) with this full name (`layer.full_name()`, e.g. 'linear_0')."""
        if isinstance(layer_name, (list, tuple)):
            for element in layer_name:
                self.add_name_config(element, activation=activation, weight=weight)
            return
        if not isinstance(layer_name, str):
            raise TypeError(f"add_name_config: layer_name must be a str or a list of str, got {layer_name!r}")
        _check_factory(activation, "add_name_config", "activation")
        _check_factory(weight, "add_name_config", "weight")
        self._prefix2config[layer_name] = SingleLayerConfig(activation, weight)

    def add_type_config(self, layer_type, activation=None, weight=None) -> None:
        """Quanters for every layer of this type (or these types)."""
        if isinstance(layer_type, (list, tuple)):
            for element in layer_type:
                self.add_type_config(element, activation=activation, weight=weight)
            return
        if not (isinstance(layer_type, type) and issubclass(layer_type, Layer)):
            raise TypeError(f"add_type_config: layer_type must be a Layer subclass or a list of them, got "
                            f"{layer_type!r}")  # fmt: skip
        _check_factory(activation, "add_type_config", "activation")
        _check_factory(weight, "add_type_config", "weight")
        self._type2config[layer_type] = SingleLayerConfig(activation, weight)

    def add_qat_layer_mapping(self, source: type, target: type) -> None:
        """Replace layers of type `source` by `target(layer, q_config)` in QAT."""
        for arg, value in (("source", source), ("target", target)):
            if not (isinstance(value, type) and issubclass(value, Layer)):
                raise TypeError(f"add_qat_layer_mapping: {arg} must be a Layer subclass, got {value!r}")
        self._qat_layer_mapping[source] = target
        self._customized_qat_layer_mapping[source] = target

    def add_customized_leaf(self, layer_type: type) -> None:
        """Treat layers of this type as leaves: observe them whole, never look inside."""
        if not (isinstance(layer_type, type) and issubclass(layer_type, Layer)):
            raise TypeError(f"add_customized_leaf: layer_type must be a Layer subclass, got {layer_type!r}")
        self._customized_leaves.append(layer_type)

    @property
    def customized_leaves(self):
        return self._customized_leaves

    @property
    def qat_layer_mappings(self):
        return self._qat_layer_mapping

    @property
    def default_qat_layer_mapping(self):
        return DEFAULT_QAT_LAYER_MAPPINGS

    @property
    def global_config(self) -> SingleLayerConfig:
        return self._global_config

    # ---- applying it to a model ---------------------------------------------------------------------------------

    def _need_observe(self, layer: Layer) -> bool:
        return self._is_leaf(layer) and self._has_observer_config(layer)

    def _get_qat_layer(self, layer: Layer):
        q_config = self._get_config_by_layer(layer)
        target = self._customized_qat_layer_mapping.get(type(layer), self.qat_layer_mappings.get(type(layer)))
        return target(layer, q_config)

    def _has_observer_config(self, layer: Layer) -> bool:
        config = self._get_config_by_layer(layer)
        return config is not None and config.activation is not None

    def _is_leaf(self, layer: Layer) -> bool:
        return type(layer) in DEFAULT_LEAVES or not layer._sub_layers or type(layer) in self._customized_leaves

    def _get_observer(self, layer: Layer):
        config = self._get_config_by_layer(layer)
        observer = None if config is None else config.activation
        return None if observer is None else observer._instance(layer)

    def _get_observe_wrapper(self, layer: Layer):
        return ObserveWrapper(self._get_observer(layer), layer)

    def _get_config_by_layer(self, layer) -> SingleLayerConfig:
        return self._layer2config.get(id(layer), (None, None))[1]

    def _is_quantifiable(self, layer: Layer) -> bool:
        return id(layer) in self._layer2config

    def _specify(self, model: Layer) -> None:
        """Give every sublayer of `model` its config (parent < type < name)."""
        self._model = model
        self._specify_helper(model)

    def _specify_helper(self, model: Layer):
        for child in model.children():
            config = self._layer2config.get(id(model), (None, self.global_config))[1]
            config = self._type2config.get(type(child), config)
            config = self._prefix2config.get(child.full_name(), config)
            if config is not None:
                self._layer2config[id(child)] = (child, config)  # (the layer kept alive, so its id stays its own)
            self._specify_helper(child)
        return self

    def details(self) -> str:
        """The model's tree with each configured layer's quanters (after QAT/PTQ applied the config)."""
        return str(self) if self._model is None else self._details_helper(self._model)

    def _details_helper(self, layer: Layer) -> str:
        lines = []
        for name, sublayer in layer.named_children():
            text = self._addindent(self._details_helper(sublayer), 2)
            if id(sublayer) in self._layer2config:
                lines.append(f"({name}): {text}, {self._layer2config[id(sublayer)][1]}")
        final = layer.__class__.__name__ + "("
        if lines:
            final += "\n  " + "\n  ".join(lines) + "\n"
        return final + ")"

    @staticmethod
    def _addindent(string: str, indent: int) -> str:
        lines = string.split("\n")
        if len(lines) == 1:
            return string
        return lines[0] + "\n" + "\n".join(" " * indent + line for line in lines[1:])

    def __str__(self):
        result = f"Global config:\n{self._global_config}\n"
        if self._type2config:
            result += f"Layer type config:\n{self._type2config}\n"
        if self._prefix2config:
            result += f"Layer prefix config: \n{self._prefix2config}\n"
        return result
