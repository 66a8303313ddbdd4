"""FakeQuanterWithAbsMaxObserver: the 2.6 API's default quanter: moving-average abs-max fake quantization."""

from __future__ import annotations

from minipaddle.nn.quant.quant_layers import check_bits, check_rate, moving_average_quant_dequant, state_parameter
from minipaddle.quantization.base_quanter import BaseQuanter
from minipaddle.quantization.factory import QuanterFactory

__all__ = ["FakeQuanterWithAbsMaxObserver", "FakeQuanterWithAbsMaxObserverLayer"]


class FakeQuanterWithAbsMaxObserver(QuanterFactory):
    """The factory: each quantized tensor gets a FakeQuanterWithAbsMaxObserverLayer with these arguments.

    Args:
        moving_rate: the decay of the moving average of the batches' abs-max (0.9).
        bit_length: bits of the grid (8).
        dtype: the state's dtype.
        name: the prefix of the state parameters' names (default 'quant_dequant').

    Example:
        >>> quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        >>> q_config = QuantConfig(activation=quanter, weight=quanter)
    """

    def __init__(self, moving_rate=0.9, bit_length=8, dtype="float32", name=None):
        check_rate(moving_rate, "FakeQuanterWithAbsMaxObserver")
        check_bits(bit_length, "FakeQuanterWithAbsMaxObserver", "bit_length")
        super().__init__(name=name, moving_rate=moving_rate, bit_length=bit_length, dtype=dtype)

    def _get_class(self):
        return FakeQuanterWithAbsMaxObserverLayer


class FakeQuanterWithAbsMaxObserverLayer(BaseQuanter):
    """Fake quantization with a moving-average abs-max scale: in training state = rate * state + 1,
    accum = rate * accum + max |x|, scale = accum / state (`_scale` starts at 0.001, `_state` and `_accum` at 1,
    as Paddle's code does); in eval the stored scale."""

    def __init__(self, layer, name=None, moving_rate=0.9, bit_length=8, dtype="float32"):
        super().__init__()
        self._moving_rate = moving_rate
        self._bit_length = bit_length
        prefix = name if name else "quant_dequant"
        self._scale = state_parameter(self, f"{prefix}.scale", [1], 0.001, dtype)
        self._state = state_parameter(self, f"{prefix}.state", [1], 1.0, dtype)
        self._accum = state_parameter(self, f"{prefix}.accum", [1], 1.0, dtype)

    def forward(self, input):
        return moving_average_quant_dequant(input, self._scale, self._state, self._accum, self._moving_rate,
                                            self._bit_length, self.training)  # fmt: skip

    def bit_length(self):
        return self._bit_length

    def quant_axis(self):
        return -1

    def scales(self):
        return self._scale

    def zero_points(self):
        return None
