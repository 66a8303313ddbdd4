"""PTQ: post-training quantization (paddle.quantization.PTQ, 2.6 API): observers watch calibration batches."""

from __future__ import annotations

import copy

from minipaddle.nn.layer.layers import Layer
from minipaddle.quantization.quantize import Quantization, check_model

__all__ = ["PTQ"]


class PTQ(Quantization):
    """Put observers into a trained model; run calibration batches through it; then `convert`.

    Args:
        config: a QuantConfig whose factories are observers (e.g. AbsmaxObserver) or quanters.

    Example:
        >>> net.eval()
        >>> ptq = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=AbsmaxObserver()))
        >>> observed = ptq.quantize(net)
        >>> for images, _ in calibration_loader: observed(images)
        >>> infer_model = ptq.convert(observed)
    """

    def quantize(self, model: Layer, inplace=False) -> Layer:
        """The model (a deep copy unless inplace) with observers in place. It must be in eval mode."""
        check_model(model, "PTQ.quantize")
        if model.training:
            raise RuntimeError("PTQ.quantize: post-training quantization works on a model in eval mode; call "
                               "model.eval() first")  # fmt: skip
        target = model if inplace else copy.deepcopy(model)
        target.eval()
        self._config._specify(target)
        self._convert_to_quant_layers(target, self._config)
        self._insert_activation_observers(target, self._config)
        return target
