"""Uniform: values drawn evenly from [low, high)."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.nn.initializer.initializer import Initializer

__all__ = ["Uniform"]


class Uniform(Initializer):
    """Draw each value uniformly from [low, high).

    Example:
        >>> attr = paddle.ParamAttr(initializer=paddle.nn.initializer.Uniform(low=-0.5, high=0.5))
    """

    def __init__(self, low=-1.0, high=1.0, name=None):
        if low is None or high is None:
            raise ValueError("Uniform: low and high must not be None")
        if low > high:
            raise ValueError(f"Uniform: low ({low}) must not be larger than high ({high})")
        self._low, self._high = low, high

    def _values(self, shape, dtype):
        return ops.uniform(shape, dtype, float(self._low), float(self._high), self._seed)
