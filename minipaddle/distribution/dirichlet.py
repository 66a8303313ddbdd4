"""Dirichlet distribution over the probability simplex."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.distribution import exponential_family
from minipaddle.tensor.math import exp, log
from minipaddle.tensor.special_math import digamma, lgamma

__all__ = ["Dirichlet"]


class Dirichlet(exponential_family.ExponentialFamily):
    r"""The Dirichlet distribution with concentration :math:`\alpha` (the last axis is the event):

    .. math:: f(x; \alpha) = \frac{\Gamma(\sum_i \alpha_i)}{\prod_i \Gamma(\alpha_i)} \prod_i x_i^{\alpha_i - 1}

    Args:
        concentration (Tensor): at least 1-D, positive; batch shape concentration.shape[:-1], event shape
            concentration.shape[-1:].

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Dirichlet
            >>> d = Dirichlet(paddle.to_tensor([1.0, 2.0, 3.0]))
            >>> d.mean.numpy()
            array([0.16666667, 0.33333334, 0.5       ], dtype=float32)
    """

    def __init__(self, concentration):
        if not isinstance(concentration, Tensor):
            raise TypeError(f"Dirichlet: concentration must be a Tensor, got {type(concentration).__name__}")
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one dimensional")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:])

    @property
    def mean(self):
        """The mean: concentration / concentration.sum(-1)."""
        return self.concentration / self.concentration.sum(-1, keepdim=True)

    @property
    def variance(self):
        """The variance of each component."""
        concentration0 = self.concentration.sum(-1, keepdim=True)
        return (self.concentration * (concentration0 - self.concentration)) / (
            concentration0.pow(2) * (concentration0 + 1)
        )

    def sample(self, shape=()):
        """Points of the simplex, of shape `shape + batch_shape + event_shape`: Gamma(alpha_i, 1) draws
        divided by their sum. No gradient (Paddle 2.6 has no Dirichlet rsample)."""
        return _dirichlet(self.concentration.expand(self._extend_shape(tuple(shape))))

    def prob(self, value):
        """The density of `value`."""
        return exp(self.log_prob(value))

    def log_prob(self, value):
        """The log density of `value` (a point of the simplex, on the last axis)."""
        return (
            (log(value) * (self.concentration - 1.0)).sum(-1)
            + lgamma(self.concentration.sum(-1))
            - lgamma(self.concentration).sum(-1)
        )

    def entropy(self):
        """The entropy, in closed form with lgamma and digamma."""
        concentration0 = self.concentration.sum(-1)
        k = self.concentration.shape[-1]
        return (
            lgamma(self.concentration).sum(-1)
            - lgamma(concentration0)
            - (k - concentration0) * digamma(concentration0)
            - ((self.concentration - 1.0) * digamma(self.concentration)).sum(-1)
        )

    @property
    def _natural_parameters(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - lgamma(x.sum(-1))


def _dirichlet(concentration):
    """One Dirichlet draw per row of `concentration` (the last axis)."""
    with no_grad():
        gamma = ops.standard_gamma(concentration)
        return gamma / gamma.sum(-1, keepdim=True)
