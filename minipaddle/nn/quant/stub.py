"""Stub: a marker Layer that says "observe the tensor here" (paddle.nn.quant.Stub). QAT/PTQ replace it with a
QuanterStub holding the quanter of its own observer, or else of the config's activation."""

from __future__ import annotations

from minipaddle.nn.layer.layers import Layer

__all__ = ["Stub", "QuanterStub"]


class Stub(Layer):
    """An identity Layer marking where to quantize (e.g. a model's input).

    Args:
        observer: a quanter/observer factory for this spot (default: the config's activation quanter).

    Example:
        >>> self.quant_in = paddle.nn.quant.Stub()   # in __init__; then x = self.quant_in(x) in forward
    """

    def __init__(self, observer=None):
        super().__init__()
        self._observer = observer

    def forward(self, input):
        return input


class QuanterStub(Layer):
    """What a Stub becomes in QAT/PTQ: its observer (or the config's activation quanter) applied to the input."""

    def __init__(self, layer: Stub, q_config):
        super().__init__()
        self._observer = None
        if layer._observer is not None:
            self._observer = layer._observer._instance(layer)
        elif q_config.activation is not None:
            self._observer = q_config.activation._instance(layer)

    def forward(self, input):
        return self._observer(input) if self._observer is not None else input
