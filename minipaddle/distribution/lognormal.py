"""LogNormal distribution: exp of a Normal."""

from __future__ import annotations

from minipaddle.distribution.normal import Normal
from minipaddle.distribution.transform import ExpTransform
from minipaddle.distribution.transformed_distribution import TransformedDistribution
from minipaddle.tensor.math import exp, expm1

__all__ = ["LogNormal"]


class LogNormal(TransformedDistribution):
    r"""The distribution of exp(X), X ~ Normal(loc, scale):

    .. math:: pdf(x; \mu, \sigma) = \frac{1}{\sigma x \sqrt{2\pi}} e^{-\frac{(\ln x - \mu)^2}{2\sigma^2}}

    Args:
        loc (int|float|list|tuple|numpy.ndarray|Tensor): the mean of the underlying Normal.
        scale (int|float|list|tuple|numpy.ndarray|Tensor): its standard deviation.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import LogNormal
            >>> d = LogNormal(0.0, 1.0)
            >>> float(d.mean)  # exp(1/2)
            1.6487212
    """

    def __init__(self, loc, scale):
        self._base = Normal(loc=loc, scale=scale)
        self.loc = self._base.loc
        self.scale = self._base.scale
        super().__init__(self._base, [ExpTransform()])

    @property
    def mean(self):
        """The mean exp(loc + scale^2 / 2)."""
        return exp(self._base.mean + self._base.variance / 2)

    @property
    def variance(self):
        """The variance (exp(scale^2) - 1) exp(2 loc + scale^2)."""
        return expm1(self._base.variance) * exp(2 * self._base.mean + self._base.variance)

    def entropy(self):
        """The entropy: the Normal's entropy + loc."""
        return self._base.entropy() + self._base.mean

    def probs(self, value):
        """The density of `value`."""
        return exp(self.log_prob(value))

    def kl_divergence(self, other):
        """KL(self || other): that of the underlying Normals."""
        return self._base.kl_divergence(other._base)
