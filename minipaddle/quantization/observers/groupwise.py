"""GroupWiseWeightObserver: per-group abs-max scales of a 2-D weight, for weight-only (LLM) quantization."""

from __future__ import annotations

from minipaddle.quantization.base_observer import BaseObserver
from minipaddle.quantization.factory import ObserverFactory
from minipaddle.tensor import creation, manipulation
from minipaddle.tensor import math as tmath

__all__ = ["GroupWiseWeightObserver", "GroupWiseWeightObserverLayer"]


class GroupWiseWeightObserver(ObserverFactory):
    """The factory of GroupWiseWeightObserverLayer.

    Args:
        quant_bits: bits of the grid (4).
        group_size: rows per group, 64 or 128.
    """

    def __init__(self, quant_bits=4, group_size=128):
        if group_size not in (64, 128):
            raise ValueError(f"GroupWiseWeightObserver: group_size must be 64 or 128, got {group_size!r}")
        super().__init__(quant_bits=quant_bits, group_size=group_size)

    def _get_class(self):
        return GroupWiseWeightObserverLayer


class GroupWiseWeightObserverLayer(BaseObserver):
    """For a weight [in, out]: the abs-max of each group of `group_size` rows, per output column -> scales
    [in / group_size, out] (zeros become 1e-8). Passes the weight through."""

    def __init__(self, layer, quant_bits=4, group_size=128):
        super().__init__()
        self.quant_bits = quant_bits
        self.group_size = group_size
        self._layer = layer
        self._max = None
        self._scale = None
        self._zero_point = None

    def forward(self, inputs):
        self._max = self._cal_abs_max(inputs)
        return inputs

    def _cal_abs_max(self, inputs):
        if len(inputs.shape) != 2:
            raise ValueError(f"GroupWiseWeightObserver: only 2-D weights are supported, got shape {inputs.shape}")
        rows, cols = inputs.shape
        if rows % self.group_size:
            raise ValueError(f"GroupWiseWeightObserver: group_size ({self.group_size}) must divide the input "
                             f"channels ({rows})")  # fmt: skip
        grouped = manipulation.transpose(inputs.detach(), [1, 0])
        grouped = manipulation.reshape(grouped, [cols, rows // self.group_size, self.group_size])
        values = manipulation.cast(tmath.max(tmath.abs(grouped), axis=2), "float32")
        values = manipulation.where(values == 0, creation.full_like(values, 1e-8), values)
        return manipulation.transpose(values, [1, 0])

    def min_value(self) -> float:
        return 0.0

    def max_value(self):
        return self._max

    def bit_length(self):
        return self.quant_bits

    def quant_axis(self):
        return -1

    def cal_thresholds(self):
        if self._scale is None:
            self._scale = self._max
        self._zero_point = creation.zeros_like(self._scale)

    def scales(self):
        if self._scale is None:
            self.cal_thresholds()
        return self._scale

    def zero_points(self):
        if self._zero_point is None:
            self.cal_thresholds()
        return self._zero_point
