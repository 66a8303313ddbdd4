"""AbsmaxObserver: PTQ's simplest observer: the largest |x| over all calibration batches is the scale."""

from __future__ import annotations

import numpy as np

from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.nn.quant.quant_layers import write_state
from minipaddle.quantization.base_observer import BaseObserver
from minipaddle.quantization.factory import ObserverFactory
from minipaddle.tensor import math as tmath

__all__ = ["AbsmaxObserver", "AbsmaxObserverLayer"]


class AbsmaxObserver(ObserverFactory):
    """The factory of AbsmaxObserverLayer.

    Args:
        quant_bits: bits of the grid (8).

    Example:
        >>> observer = AbsmaxObserver(quant_bits=8)
        >>> ptq = PTQ(QuantConfig(activation=observer, weight=observer))
    """

    def __init__(self, quant_bits=8):
        super().__init__(quant_bits=quant_bits)

    def _get_class(self):
        return AbsmaxObserverLayer


class AbsmaxObserverLayer(BaseObserver):
    """Passes its input through and keeps abs_max_val = max(abs_max_val, max |x|) (starting at 1e-7)."""

    INIT_ABS_MAX = 1e-7

    def __init__(self, layer, quant_bits=8):
        super().__init__()
        self._quant_bits = quant_bits
        # a buffer (not persistable: out of state_dict, as Paddle's plain attribute) so that to_static's Program
        # reads and writes it
        self.register_buffer("abs_max_val", Tensor(np.asarray(self.INIT_ABS_MAX, "float32")), persistable=False)

    def forward(self, input):
        # in place, so the value also moves when the forward runs as a to_static Program (a rebinding there would
        # leave the observer at its start value: its traced Program updates the tensor it captured)
        with no_grad():
            write_state(self.abs_max_val, tmath.maximum(tmath.max(tmath.abs(input)), self.abs_max_val))
        return input

    def cal_thresholds(self):
        self.thresholds = self.abs_max_val

    def bit_length(self):
        return self._quant_bits

    def quant_axis(self):
        return -1

    def scales(self):
        return self.abs_max_val

    def zero_points(self):
        return None
