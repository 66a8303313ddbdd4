"""XavierNormal and XavierUniform (Glorot & Bengio, 2010): keep the variance of activations and gradients alike
across layers. The default for Linear weights is XavierUniform."""

from __future__ import annotations

import math

from minipaddle import ops
from minipaddle.nn.initializer.initializer import Initializer

__all__ = ["XavierNormal", "XavierUniform"]


class _Xavier(Initializer):
    def __init__(self, fan_in=None, fan_out=None, name=None):
        self._fan_in, self._fan_out = fan_in, fan_out

    def _fans(self, shape) -> tuple[float, float]:
        fan_in, fan_out = self._compute_fans(shape)
        return (
            float(fan_in if self._fan_in is None else self._fan_in),
            float(fan_out if self._fan_out is None else self._fan_out),
        )


class XavierUniform(_Xavier):
    """Draw uniformly from [-limit, limit] with limit = sqrt(6 / (fan_in + fan_out)).

    fan_in and fan_out come from the parameter's shape ([in, out] for a Linear weight, [out_c, in_c, k...] for a
    conv weight) unless given.
    """

    def _values(self, shape, dtype):
        fan_in, fan_out = self._fans(shape)
        limit = math.sqrt(6.0 / (fan_in + fan_out))
        return ops.uniform(shape, dtype, -limit, limit, self._seed)


class XavierNormal(_Xavier):
    """Draw from N(0, std^2) with std = sqrt(2 / (fan_in + fan_out))."""

    def _values(self, shape, dtype):
        fan_in, fan_out = self._fans(shape)
        return ops.gaussian(shape, dtype, 0.0, math.sqrt(2.0 / (fan_in + fan_out)), self._seed)
