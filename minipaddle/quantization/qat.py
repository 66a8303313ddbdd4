"""QAT: quantization-aware training (paddle.quantization.QAT, 2.6 API)."""

from __future__ import annotations

import copy

from minipaddle.nn.layer.layers import Layer
from minipaddle.quantization.quantize import Quantization, check_model

__all__ = ["QAT"]


class QAT(Quantization):
    """Put fake quanters into a model so that training sees the rounding (then `convert` for deployment).

    Args:
        config: a QuantConfig.

    Example:
        >>> quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        >>> qat = QAT(QuantConfig(activation=quanter, weight=quanter))
        >>> quant_model = qat.quantize(model, inplace=False)   # train quant_model as usual
    """

    def quantize(self, model: Layer, inplace=False) -> Layer:
        """Linear/Conv2D (and mapped types) become QAT layers with weight and activation quanters; other leaves
        with an activation quanter get an ObserveWrapper. The model must be in training mode; a deep copy is
        quantized unless inplace."""
        check_model(model, "QAT.quantize")
        if not model.training:
            raise RuntimeError("QAT.quantize: quantization-aware training works on a model in training mode; "
                               "call model.train() first")  # fmt: skip
        target = model if inplace else copy.deepcopy(model)
        self._config._specify(target)
        self._convert_to_quant_layers(target, self._config)
        self._insert_activation_observers(target, self._config)
        return target
