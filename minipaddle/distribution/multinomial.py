"""Multinomial distribution: counts of total_count categorical draws."""

from __future__ import annotations

from collections.abc import Iterable

from minipaddle.core.tensor import Tensor
from minipaddle.distribution import categorical, distribution
from minipaddle.nn.functional.input import one_hot
from minipaddle.tensor.attribute import is_integer
from minipaddle.tensor.creation import arange, full, zeros_like
from minipaddle.tensor.logic import isinf
from minipaddle.tensor.manipulation import broadcast_tensors, cast, where
from minipaddle.tensor.math import abs as tensor_abs
from minipaddle.tensor.math import exp, log, log1p
from minipaddle.tensor.special_math import lgamma

__all__ = ["Multinomial"]


class Multinomial(distribution.Distribution):
    r"""The multinomial distribution: the counts per category of `total_count` independent draws.

    .. math:: P(X = x) = \frac{n!}{\prod_i x_i!} \prod_i p_i^{x_i}

    Args:
        total_count (int): the number of draws n >= 1.
        probs (Tensor): the (unnormalized) category probabilities, on the last axis.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Multinomial
            >>> m = Multinomial(10, paddle.to_tensor([0.2, 0.3, 0.5]))
            >>> m.mean.numpy()
            array([2., 3., 5.], dtype=float32)
    """

    def __init__(self, total_count, probs):
        if not isinstance(total_count, int) or total_count < 1:
            raise ValueError("input parameter total_count must be int type and grater than zero.")
        if not isinstance(probs, Tensor):
            raise TypeError(f"Multinomial: probs must be a Tensor, got {type(probs).__name__}")
        if probs.dim() < 1:
            raise ValueError("probs parameter shoule not be none and over one dimension")
        self.probs = probs / probs.sum(-1, keepdim=True)
        self.total_count = total_count
        self._categorical = categorical.Categorical(logits=self._probs_to_logits(probs))
        super().__init__(probs.shape[:-1], probs.shape[-1:])

    @property
    def mean(self):
        """The mean n p."""
        return self.probs * self.total_count

    @property
    def variance(self):
        """The variance n p (1 - p)."""
        return self.total_count * self.probs * (1 - self.probs)

    def prob(self, value):
        """The probability of the counts `value`."""
        return exp(self.log_prob(value))

    def log_prob(self, value):
        """The log probability of the counts `value` (categories on the last axis)."""
        if is_integer(value):
            value = cast(value, self.probs.dtype)
        logits, value = broadcast_tensors([log(self.probs), value])
        # 0 * log(0) counts as 0: a category of probability 0 drawn 0 times costs nothing
        logits = where((value == 0) & isinf(logits), zeros_like(logits), logits)
        return lgamma(value.sum(-1) + 1) - lgamma(value + 1).sum(-1) + (value * logits).sum(-1)

    def sample(self, shape=()):
        """Counts (in probs' dtype) of shape `shape + batch_shape + event_shape`; no gradient."""
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        samples = self._categorical.sample([self.total_count] + list(shape))
        return one_hot(samples, self.probs.shape[-1]).cast(self.probs.dtype).sum(0)

    def entropy(self):
        """The entropy, summing over the binomial marginals of every category."""
        n = full(shape=[], fill_value=self.total_count, dtype=self.probs.dtype)
        support = arange(self.total_count + 1, dtype=self.probs.dtype).reshape([-1] + [1] * len(self.probs.shape))[1:]
        binomial_pmf = exp(self._binomial_logpmf(n, support))
        return (n * self._categorical.entropy() - lgamma(n + 1)) + ((binomial_pmf * lgamma(support + 1)).sum([0, -1]))

    def _binomial_logpmf(self, count, value):
        logits = self._probs_to_logits(self.probs, is_binary=True)
        factor_n = lgamma(count + 1)
        factor_k = lgamma(value + 1)
        factor_nmk = lgamma(count - value + 1)
        norm = count * _clip_by_zero(logits) + count * log1p(exp(-tensor_abs(logits))) - factor_n
        return value * logits - factor_k - factor_nmk - norm


def _clip_by_zero(x):
    return (x.clip(min=0) + x - x.clip(max=0)) / 2
