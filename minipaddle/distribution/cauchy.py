"""Cauchy distribution."""

from __future__ import annotations

import numpy as np

from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.distribution import distribution
from minipaddle.distribution._scalar import loc_and_scale
from minipaddle.tensor.creation import full
from minipaddle.tensor.manipulation import broadcast_tensors
from minipaddle.tensor.math import add, atan, divide, multiply, square, subtract, tan
from minipaddle.tensor.math import pow as tensor_pow
from minipaddle.tensor.random import rand

__all__ = ["Cauchy"]


class Cauchy(distribution.Distribution):
    r"""The Cauchy distribution:

    .. math:: pdf(x; x_0, \gamma) = \frac{1}{\pi\gamma[1 + ((x - x_0)/\gamma)^2]}

    Args:
        loc (float|Tensor): the location :math:`x_0`.
        scale (float|Tensor): the scale :math:`\gamma > 0`.
        name (str, optional): a name for the distribution. Defaults to None.

    It has no mean, variance or stddev (asking raises ValueError).

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Cauchy
            >>> c = Cauchy(0.0, 1.0)
            >>> float(c.entropy())  # log(4 pi)
            2.5310242
    """

    def __init__(self, loc, scale, name=None):
        self.name = name if name is not None else "Cauchy"
        self.loc, self.scale = loc_and_scale(loc, scale)
        self.dtype = self.loc.dtype
        super().__init__(batch_shape=self.loc.shape, event_shape=())

    @property
    def mean(self):
        raise ValueError("Cauchy distribution has no mean.")

    @property
    def variance(self):
        raise ValueError("Cauchy distribution has no variance.")

    @property
    def stddev(self):
        raise ValueError("Cauchy distribution has no stddev.")

    def sample(self, shape, name=None):
        """Samples of shape `shape + batch_shape`; no gradient."""
        with no_grad():
            return self.rsample(shape, name)

    def rsample(self, shape, name=None):
        """Reparameterized samples loc + scale * tan(pi * (u - 0.5)), u uniform in [0, 1)."""
        if not isinstance(shape, (np.ndarray, Tensor, list, tuple)):
            raise TypeError(f"Expected type of shape is Sequence[int], but got {type(shape)}")
        shape = list(self._extend_shape(tuple(shape)))
        loc = self.loc.expand(shape)
        scale = self.scale.expand(shape)
        uniforms = rand(shape, dtype=self.dtype)
        return add(loc, multiply(scale, tan(np.pi * (uniforms - 0.5))))

    def prob(self, value):
        """The density of `value` (a Tensor)."""
        return self.log_prob(_check_value(value)).exp()

    def log_prob(self, value):
        """The log density of `value` (a Tensor)."""
        value = self._check_values_dtype_in_probs(self.loc, _check_value(value))
        loc, scale, value = broadcast_tensors([self.loc, self.scale, value])
        return subtract(
            -(square(divide(subtract(value, loc), scale))).log1p(),
            add(full(loc.shape, np.log(np.pi), dtype=self.dtype), scale.log()),
        )

    def cdf(self, value):
        """The cumulative distribution function at `value` (a Tensor)."""
        value = self._check_values_dtype_in_probs(self.loc, _check_value(value))
        loc, scale, value = broadcast_tensors([self.loc, self.scale, value])
        return atan(divide(subtract(value, loc), scale)) / np.pi + 0.5

    def entropy(self):
        """The entropy log(4 pi scale)."""
        return add(full(self.loc.shape, np.log(4 * np.pi), dtype=self.dtype), self.scale.log())

    def kl_divergence(self, other):
        """KL(self || other) between two Cauchy distributions."""
        if not isinstance(other, Cauchy):
            raise TypeError(f"Expected type of other is Cauchy, but got {type(other)}")
        t1 = add(tensor_pow(add(self.scale, other.scale), 2), tensor_pow(subtract(self.loc, other.loc), 2)).log()
        t2 = (4 * multiply(self.scale, other.scale)).log()
        return subtract(t1, t2)


def _check_value(value):
    if not isinstance(value, Tensor):
        raise TypeError(f"Expected type of value is Variable, but got {type(value)}")
    return value
