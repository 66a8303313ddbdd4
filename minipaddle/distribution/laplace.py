"""Laplace distribution."""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle.core.dtype import complex128, float64
from minipaddle.core.state import no_grad
from minipaddle.distribution import distribution
from minipaddle.distribution._scalar import real_or_tensor
from minipaddle.tensor.creation import full
from minipaddle.tensor.manipulation import broadcast_tensors, cast
from minipaddle.tensor.math import abs as tensor_abs
from minipaddle.tensor.math import exp, expm1, log, log1p
from minipaddle.tensor.random import uniform as tensor_uniform

__all__ = ["Laplace"]


class Laplace(distribution.Distribution):
    r"""The Laplace distribution:

    .. math:: pdf(x; \mu, b) = \frac{1}{2b} e^{-\frac{|x - \mu|}{b}}

    Args:
        loc (float|Tensor): the location :math:`\mu`.
        scale (float|Tensor): the scale :math:`b > 0`.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Laplace
            >>> m = Laplace(paddle.to_tensor(0.0), paddle.to_tensor(1.0))
            >>> float(m.entropy())  # 1 + log(2)
            1.6931472
    """

    def __init__(self, loc, scale):
        loc = real_or_tensor(loc, "loc")
        scale = real_or_tensor(scale, "scale")
        if (len(scale.shape) > 0 or len(loc.shape) > 0) and loc.dtype == scale.dtype:
            self.loc, self.scale = broadcast_tensors([loc, scale])
        else:
            self.loc, self.scale = loc, scale
        super().__init__(self.loc.shape)

    @property
    def mean(self):
        """The mean: loc."""
        return self.loc

    @property
    def stddev(self):
        """The standard deviation sqrt(2) * scale."""
        return (2**0.5) * self.scale

    @property
    def variance(self):
        """The variance 2 * scale ** 2."""
        return self.stddev.pow(2)

    def _validate_value(self, value):
        if isinstance(value, numbers.Real):
            value = full(shape=(), fill_value=value)
        if value.dtype != self.scale.dtype:
            value = cast(value, self.scale.dtype)
        if len(self.scale.shape) > 0 or len(self.loc.shape) > 0 or len(value.shape) > 0:
            return broadcast_tensors([self.loc, self.scale, value])
        return self.loc, self.scale, value

    def log_prob(self, value):
        """The log density of `value`."""
        loc, scale, value = self._validate_value(value)
        return -log(2 * scale) - tensor_abs(value - loc) / scale

    def entropy(self):
        """The entropy 1 + log(2 * scale)."""
        return 1 + log(2 * self.scale)

    def cdf(self, value):
        """The cumulative distribution function at `value`."""
        loc, scale, value = self._validate_value(value)
        return 0.5 - 0.5 * (value - loc).sign() * expm1(-(value - loc).abs() / scale)

    def icdf(self, value):
        """The inverse cumulative distribution function at probability `value`."""
        loc, scale, value = self._validate_value(value)
        term = value - 0.5
        return loc - scale * term.sign() * log1p(-2 * term.abs())

    def sample(self, shape=()):
        """Samples of shape `shape + batch_shape`; no gradient."""
        with no_grad():
            return self.rsample(tuple(shape))

    def rsample(self, shape):
        """Reparameterized samples loc - scale * sign(u) * log(1 - |u|), u uniform in (-1, 1)."""
        eps = 2.22045e-16 if self.loc.dtype in (float64, complex128) else 1.19209e-07
        uniform = tensor_uniform(
            shape=list(self._extend_shape(tuple(shape))),
            min=float(np.nextafter(-1, 1)) + eps / 2,
            max=1.0 - eps / 2,
            dtype=self.loc.dtype,
        )
        return self.loc - self.scale * uniform.sign() * log1p(-uniform.abs())

    def kl_divergence(self, other):
        """KL(self || other) between two Laplace distributions."""
        var_ratio = other.scale / self.scale
        t = tensor_abs(self.loc - other.loc)
        term1 = (self.scale * exp(-t / self.scale) + t) / other.scale
        return term1 + log(var_ratio) - 1
