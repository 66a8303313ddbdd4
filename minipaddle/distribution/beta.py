"""Beta distribution on [0, 1], a Dirichlet over two categories."""

from __future__ import annotations

import numbers

from minipaddle.distribution import dirichlet, exponential_family
from minipaddle.tensor.creation import full
from minipaddle.tensor.manipulation import broadcast_tensors, squeeze, stack
from minipaddle.tensor.math import exp
from minipaddle.tensor.special_math import lgamma

__all__ = ["Beta"]


class Beta(exponential_family.ExponentialFamily):
    r"""The Beta distribution:

    .. math:: f(x; \alpha, \beta) = \frac{x^{\alpha - 1}(1 - x)^{\beta - 1}}{B(\alpha, \beta)}

    Args:
        alpha (float|Tensor): the first concentration, > 0 (a number becomes a 0-D float32 tensor).
        beta (float|Tensor): the second concentration, > 0. alpha and beta broadcast together.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Beta
            >>> b = Beta(2.0, 3.0)
            >>> float(b.mean)
            0.4
    """

    def __init__(self, alpha, beta):
        if isinstance(alpha, numbers.Real):
            alpha = full(shape=[], fill_value=alpha)
        if isinstance(beta, numbers.Real):
            beta = full(shape=[], fill_value=beta)
        self.alpha, self.beta = broadcast_tensors([alpha, beta])
        self._dirichlet = dirichlet.Dirichlet(stack([self.alpha, self.beta], -1))
        super().__init__(self._dirichlet._batch_shape)

    @property
    def mean(self):
        """The mean alpha / (alpha + beta)."""
        return self.alpha / (self.alpha + self.beta)

    @property
    def variance(self):
        """The variance alpha beta / ((alpha + beta)^2 (alpha + beta + 1))."""
        total = self.alpha + self.beta
        return self.alpha * self.beta / (total.pow(2) * (total + 1))

    def prob(self, value):
        """The density of `value`."""
        return exp(self.log_prob(value))

    def log_prob(self, value):
        """The log density of `value` in (0, 1)."""
        return self._dirichlet.log_prob(stack([value, 1.0 - value], -1))

    def sample(self, shape=()):
        """Samples (the first component of a Dirichlet draw); no gradient. The shape is
        `shape + batch_shape` with a last axis of size 1 squeezed away, as Paddle 2.6 does."""
        first = self._dirichlet.sample(tuple(shape))[..., 0]
        return squeeze(first, axis=-1) if first.dim() > 0 else first

    def entropy(self):
        """The entropy (that of the two-category Dirichlet)."""
        return self._dirichlet.entropy()

    @property
    def _natural_parameters(self):
        return (self.alpha, self.beta)

    def _log_normalizer(self, x, y):
        return lgamma(x) + lgamma(y) - lgamma(x + y)
