"""Gumbel distribution."""

from __future__ import annotations

import math

import numpy as np

from minipaddle.core.state import no_grad
from minipaddle.distribution._scalar import loc_and_scale
from minipaddle.distribution.transform import AffineTransform, ExpTransform
from minipaddle.distribution.transformed_distribution import TransformedDistribution
from minipaddle.distribution.uniform import Uniform
from minipaddle.tensor.creation import full, full_like, ones_like
from minipaddle.tensor.math import exp, log, sqrt
from minipaddle.tensor.math import pow as tensor_pow

__all__ = ["Gumbel"]


class Gumbel(TransformedDistribution):
    r"""The Gumbel (type-I extreme value) distribution:

    .. math:: pdf(x; \mu, \beta) = \frac{1}{\beta} e^{-(z + e^{-z})},\ z = \frac{x - \mu}{\beta}

    Args:
        loc (float|Tensor): the location :math:`\mu`.
        scale (float|Tensor): the scale :math:`\beta > 0`.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Gumbel
            >>> g = Gumbel(paddle.to_tensor(0.0), paddle.to_tensor(1.0))
            >>> float(g.mean)  # Euler's gamma
            0.5772157
    """

    def __init__(self, loc, scale):
        self.loc, self.scale = loc_and_scale(loc, scale)
        finfo = np.finfo(np.float32)
        self.base_dist = Uniform(full_like(self.loc, float(finfo.tiny)), full_like(self.loc, float(1 - finfo.eps)))
        self.transforms = ()
        super().__init__(self.base_dist, self.transforms)

    @property
    def mean(self):
        """The mean loc + scale * Euler's gamma."""
        return self.loc + self.scale * np.euler_gamma

    @property
    def variance(self):
        """The variance pi^2 scale^2 / 6."""
        temp = full(shape=self.loc.shape, fill_value=math.pi * math.pi, dtype=self.scale.dtype)
        return tensor_pow(self.scale, 2) * temp / 6

    @property
    def stddev(self):
        """The standard deviation."""
        return sqrt(self.variance)

    def prob(self, value):
        """The density of `value`."""
        y = (self.loc - value) / self.scale
        return exp(y - exp(y)) / self.scale

    def log_prob(self, value):
        """The log density of `value` (log of prob, as Paddle)."""
        return log(self.prob(value))

    def cdf(self, value):
        """The cumulative distribution exp(-exp(-(value - loc) / scale))."""
        return exp(-exp(-(value - self.loc) / self.scale))

    def entropy(self):
        """The entropy log(scale) + 1 + Euler's gamma."""
        return log(self.scale) + 1 + np.euler_gamma

    def sample(self, shape):
        """Samples of shape `shape + batch_shape`; no gradient."""
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape):
        """Reparameterized samples loc - scale * log(-log(u)), u uniform: gradients flow to loc and scale."""
        exp_trans = ExpTransform()
        affine_trans_1 = AffineTransform(
            full(shape=self.scale.shape, fill_value=0, dtype=self.loc.dtype), -ones_like(self.scale)
        )
        affine_trans_2 = AffineTransform(self.loc, -self.scale)
        return affine_trans_2.forward(
            exp_trans.inverse(affine_trans_1.forward(exp_trans.inverse(self._base.sample(shape))))
        )
