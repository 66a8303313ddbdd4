"""Normal and TruncatedNormal: values drawn from a Gaussian."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.state import STATE
from minipaddle.nn.initializer.initializer import Initializer

__all__ = ["Normal", "TruncatedNormal"]


class Normal(Initializer):
    """Draw each value from N(mean, std^2).

    Example:
        >>> attr = paddle.ParamAttr(initializer=paddle.nn.initializer.Normal(mean=0.0, std=0.02))
    """

    def __init__(self, mean=0.0, std=1.0, name=None):
        if mean is None or std is None:
            raise ValueError("Normal: mean and std must not be None")
        self._mean, self._std = mean, std

    def _values(self, shape, dtype):
        return ops.gaussian(shape, dtype, float(self._mean), float(self._std), self._seed)


class TruncatedNormal(Initializer):
    """Draw from N(mean, std^2), redrawing any value farther than two standard deviations from the mean
    (Paddle's truncated_gaussian_random)."""

    def __init__(self, mean=0.0, std=1.0, name=None):
        if mean is None or std is None:
            raise ValueError("TruncatedNormal: mean and std must not be None")
        self._mean, self._std = mean, std

    def _values(self, shape, dtype):
        rng = np.random.default_rng(self._seed) if self._seed else STATE.rng
        values = rng.standard_normal(size=shape)
        outside = np.abs(values) > 2.0
        while outside.any():  # each round redraws only the values that fell outside; ~5% do the first time
            values[outside] = rng.standard_normal(size=int(outside.sum()))
            outside = np.abs(values) > 2.0
        return (self._mean + self._std * values).astype(dtype)
