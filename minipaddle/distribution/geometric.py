"""Geometric distribution: the number of failures before the first success."""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle.core.dtype import float32
from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.distribution import distribution
from minipaddle.tensor.creation import full
from minipaddle.tensor.math import any as tensor_any
from minipaddle.tensor.math import floor, log, log1p, sqrt
from minipaddle.tensor.math import pow as tensor_pow
from minipaddle.tensor.random import uniform as tensor_uniform

__all__ = ["Geometric"]


class Geometric(distribution.Distribution):
    r"""The geometric distribution: :math:`P(X = k) = (1 - p)^k p`, k = 0, 1, 2, ...

    Args:
        probs (float|Tensor): the success probability p, in (0, 1].

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Geometric
            >>> g = Geometric(0.5)
            >>> float(g.mean)
            1.0
    """

    def __init__(self, probs):
        if isinstance(probs, numbers.Real):
            probs = full(shape=(), fill_value=probs, dtype=float32)
        elif not isinstance(probs, Tensor):
            raise TypeError(f"Expected type of probs is Number.Real|Tensor|framework.Variable, but got {type(probs)}")
        if tensor_any(probs <= 0) or tensor_any(probs > 1):
            raise ValueError(
                "Expected parameter probs of distribution Geometric to satisfy the"
                "constraint Interval(lower_bound=0.0, upper_bound=1.0)"
            )
        self.probs = probs
        super().__init__(tuple(probs.shape))

    @property
    def mean(self):
        """The mean 1 / p - 1."""
        return 1.0 / self.probs - 1.0

    @property
    def variance(self):
        """The variance (1 / p - 1) / p."""
        return (1.0 / self.probs - 1.0) / self.probs

    @property
    def stddev(self):
        """The standard deviation."""
        return sqrt(self.variance)

    def pmf(self, k):
        """The probability of k failures: (1 - p)^k p."""
        return tensor_pow((1.0 - self.probs), _check_k(k, "pmf")) * self.probs

    def log_pmf(self, k):
        """log(pmf(k))."""
        return log(self.pmf(_check_k(k, "log_pmf")))

    def sample(self, shape=()):
        """Samples (float, in probs' dtype) of shape `shape + batch_shape`; no gradient."""
        with no_grad():
            return self.rsample(shape)

    def rsample(self, shape=()):
        """floor(log(u) / log(1 - p)), u uniform in [tiny, 1)."""
        uniform = tensor_uniform(
            shape=list(self._extend_shape(tuple(shape))),
            min=float(np.finfo(np.float32).tiny),
            max=1.0,
            dtype=self.probs.dtype,
        )
        return floor(log(uniform) / log1p(-(self.probs)))

    def entropy(self):
        """The entropy -((1 - p) log(1 - p) + p log p) / p."""
        x = (1.0 - self.probs) * log(1.0 - self.probs)
        y = self.probs * log(self.probs)
        return -(x + y) / self.probs

    def cdf(self, k):
        """P(X <= k) = 1 - (1 - p)^(k + 1)."""
        return 1.0 - tensor_pow((1.0 - self.probs), _check_k(k, "cdf") + 1)

    def kl_divergence(self, other):
        """KL(self || other) between two geometric distributions."""
        if not isinstance(other, Geometric):
            raise TypeError(f"Exected type of other is geometric.Geometric, but got {type(other)}")
        p, q = self.probs, other.probs
        return p * log(p / q) + (1.0 - p) * log((1.0 - p) / (1.0 - q))


def _check_k(k, fn: str):
    if not isinstance(k, (numbers.Integral, Tensor)):
        raise TypeError(f"Expected type of k is number.Real|framework.Variable, but got {type(k)}")
    return k
