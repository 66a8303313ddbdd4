"""Gumbel distribution."""

from __future__ import annotations

import math

import numpy as np

import minipaddle as paddle
from minipaddle.distribution._scalar import loc_and_scale
from minipaddle.distribution.transformed_distribution import TransformedDistribution

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
        from minipaddle.distribution.uniform import Uniform

        self.loc, self.scale = loc_and_scale(loc, scale)
        finfo = np.finfo(np.float32)
        self.base_dist = Uniform(
            paddle.full_like(self.loc, float(finfo.tiny)), paddle.full_like(self.loc, float(1 - finfo.eps))
        )
        self.transforms = ()
        super().__init__(self.base_dist, self.transforms)

    @property
    def mean(self):
        """The mean loc + scale * Euler's gamma."""
        return self.loc + self.scale * np.euler_gamma

    @property
    def variance(self):
        """The variance pi^2 scale^2 / 6."""
        temp = paddle.full(shape=self.loc.shape, fill_value=math.pi * math.pi, dtype=self.scale.dtype)
        return paddle.pow(self.scale, 2) * temp / 6

    @property
    def stddev(self):
        """The standard deviation."""
        return paddle.sqrt(self.variance)

    def prob(self, value):
        """The density of `value`."""
        y = (self.loc - value) / self.scale
        return paddle.exp(y - paddle.exp(y)) / self.scale

    def log_prob(self, value):
        """The log density of `value` (log of prob, as Paddle)."""
        return paddle.log(self.prob(value))

    def cdf(self, value):
        """The cumulative distribution exp(-exp(-(value - loc) / scale))."""
        return paddle.exp(-paddle.exp(-(value - self.loc) / self.scale))

    def entropy(self):
        """The entropy log(scale) + 1 + Euler's gamma."""
        return paddle.log(self.scale) + 1 + np.euler_gamma

    def sample(self, shape):
        """Samples of shape `shape + batch_shape`; no gradient."""
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape):
        """Reparameterized samples loc - scale * log(-log(u)), u uniform: gradients flow to loc and scale."""
        from minipaddle.distribution.transform import AffineTransform, ExpTransform

        exp_trans = ExpTransform()
        affine_trans_1 = AffineTransform(
            paddle.full(shape=self.scale.shape, fill_value=0, dtype=self.loc.dtype), -paddle.ones_like(self.scale)
        )
        affine_trans_2 = AffineTransform(self.loc, -self.scale)
        return affine_trans_2.forward(
            exp_trans.inverse(affine_trans_1.forward(exp_trans.inverse(self._base.sample(shape))))
        )
