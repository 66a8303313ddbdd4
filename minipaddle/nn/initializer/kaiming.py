"""KaimingNormal and KaimingUniform (He et al., 2015): scaled for rectifier activations, from fan_in only."""

from __future__ import annotations

import math

from minipaddle import ops
from minipaddle.nn.initializer.initializer import Initializer, calculate_gain

__all__ = ["KaimingNormal", "KaimingUniform"]


class _Kaiming(Initializer):
    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity="relu"):
        self._fan_in = fan_in
        self._gain = calculate_gain(nonlinearity, negative_slope)

    def _fan(self, shape) -> float:
        fan = self._compute_fans(shape)[0] if self._fan_in is None else self._fan_in
        return float(fan)


class KaimingNormal(_Kaiming):
    """Draw from N(0, std^2) with std = gain / sqrt(fan_in) (gain = sqrt(2) for relu).

    Example:
        >>> attr = paddle.ParamAttr(initializer=paddle.nn.initializer.KaimingNormal())
    """

    def _values(self, shape, dtype):
        return ops.gaussian(shape, dtype, 0.0, self._gain / math.sqrt(self._fan(shape)), self._seed)


class KaimingUniform(_Kaiming):
    """Draw uniformly from [-limit, limit] with limit = gain * sqrt(3 / fan_in)."""

    def _values(self, shape, dtype):
        limit = self._gain * math.sqrt(3.0 / self._fan(shape))
        return ops.uniform(shape, dtype, -limit, limit, self._seed)
