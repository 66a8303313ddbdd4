"""Quantization: what QAT and PTQ share: putting the QAT layers and observers into a model, and convert()."""

from __future__ import annotations

import abc
import copy

from minipaddle.jit.program_translator import StaticFunction
from minipaddle.nn.layer.layers import Layer
from minipaddle.nn.quant.format import ConvertibleQuantedLayer, LinearQuanterDequanter
from minipaddle.quantization.base_quanter import BaseQuanter
from minipaddle.quantization.config import QuantConfig

__all__ = ["Quantization"]


def check_model(model, fn: str) -> Layer:
    if not isinstance(model, Layer):
        raise TypeError(f"{fn}: model must be a paddle.nn.Layer, got {type(model).__name__}")
    return model


class Quantization(metaclass=abc.ABCMeta):
    """The base of QAT and PTQ. The config is copied, so one config can serve several models."""

    def __init__(self, config: QuantConfig):
        if not isinstance(config, QuantConfig):
            raise TypeError(f"{type(self).__name__}: config must be a QuantConfig, got {type(config).__name__}")
        self._config = copy.deepcopy(config)

    @abc.abstractmethod
    def quantize(self, model: Layer, inplace=False):
        """The model with quanters (QAT) or observers (PTQ) in place."""

    def convert(self, model: Layer, inplace=False, remain_weight=False) -> Layer:
        """The deployable form: every quanter becomes fixed quantize/dequantize layers with its scales; the weights
        of quantized layers become their integer levels (stored as floats) with a dequantizer only, unless
        remain_weight. A copy unless inplace.

        Example:
            >>> infer_model = qat.convert(model, inplace=True)
            >>> paddle.jit.save(infer_model, "./int8/model", input_spec=[...])
        """
        check_model(model, "convert")
        target = model if inplace else copy.deepcopy(model)
        replaced = {}
        for name, child in target.named_children():
            if isinstance(child, ConvertibleQuantedLayer):
                if child.converted or child.weight_quanter is None or child.weight_quanter.scales() is None:
                    continue
                child._convert(remain_weight=remain_weight)
            elif isinstance(child, BaseQuanter):
                replaced[name] = LinearQuanterDequanter.from_quanter(child)
            else:
                self.convert(child, inplace=True, remain_weight=remain_weight)
        for key, value in replaced.items():
            setattr(target, key, value)
        _forget_traced_programs(target)
        return target

    def _convert_to_quant_layers(self, model: Layer, config: QuantConfig) -> None:
        replaced = {}
        for name, child in model.named_children():
            if config._is_quantifiable(child) and type(child) in config.qat_layer_mappings:
                replaced[name] = config._get_qat_layer(child)
            else:
                self._convert_to_quant_layers(child, config)
        for key, value in replaced.items():
            setattr(model, key, value)

    def _insert_activation_observers(self, model: Layer, config: QuantConfig) -> None:
        replaced = {}
        for name, child in model.named_children():
            if config._need_observe(child):
                replaced[name] = config._get_observe_wrapper(child)
            else:
                self._insert_activation_observers(child, config)
        for key, value in replaced.items():
            setattr(model, key, value)

    def _details(self) -> str:
        return self._config.details()

    def __str__(self):
        return self._details()

    def __repr__(self):
        return self.__str__()


def _forget_traced_programs(model: Layer) -> None:
    """A model under to_static traced its Programs with the layers it had then; after convert they must be
    traced again, or a call (and jit.save) would run the quanters convert replaced (and, with the weights now
    integer levels, compute garbage). Paddle's jit.save traces again by itself; its calls do not."""
    for layer in model.sublayers(include_self=True):
        for value in list(vars(layer).values()) + [getattr(type(layer), "forward", None)]:
            if isinstance(value, StaticFunction):
                value._forget_traced_programs()
