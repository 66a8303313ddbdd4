"""Bernoulli distribution: 1 with probability `probs`, else 0."""

from __future__ import annotations

import numpy as np

from minipaddle.core.dtype import get_default_dtype
from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.distribution import exponential_family
from minipaddle.nn.functional import binary_cross_entropy_with_logits, sigmoid, softplus
from minipaddle.tensor.creation import full, ones_like, zeros_like
from minipaddle.tensor.logic import isnan
from minipaddle.tensor.manipulation import broadcast_tensors, where
from minipaddle.tensor.math import add, clip, divide, multiply, subtract
from minipaddle.tensor.math import any as tensor_any
from minipaddle.tensor.random import bernoulli, rand

__all__ = ["Bernoulli"]

# probabilities are kept eps away from 0 and 1 so that the logits stay finite (as Paddle)
_EPS = {"float32": float(np.finfo(np.float32).eps), "float64": float(np.finfo(np.float64).eps)}


def _clip_probs(probs, dtype):
    eps = _EPS.get(dtype)
    return clip(probs, min=eps, max=1 - eps).astype(dtype)


class Bernoulli(exponential_family.ExponentialFamily):
    r"""The Bernoulli distribution: :math:`P(X = 1) = p`, :math:`P(X = 0) = 1 - p`.

    Args:
        probs (float|Tensor): the probability p of 1, in [0, 1]. A float becomes a tensor of the default
            dtype; probabilities are clipped to [eps, 1 - eps] of their dtype.
        name (str, optional): a name for the distribution. Defaults to None.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Bernoulli
            >>> b = Bernoulli(0.3)
            >>> float(b.log_prob(paddle.to_tensor(1.0)))  # log(0.3)
            -1.2039728
    """

    def __init__(self, probs, name=None):
        self.name = name or "Bernoulli"
        if self._validate_args(probs):
            self.probs = probs
            self.dtype = probs.dtype.name
        else:
            [self.probs] = self._to_tensor(probs)
            self.dtype = get_default_dtype()
        if tensor_any(self.probs < 0) or tensor_any(self.probs > 1) or tensor_any(isnan(self.probs)):
            raise ValueError("The arg of `probs` must be in range [0, 1].")
        self.probs = _clip_probs(self.probs, self.dtype)
        self.logits = self._probs_to_logits(self.probs, is_binary=True)
        super().__init__(batch_shape=self.probs.shape, event_shape=())

    @property
    def mean(self):
        """The mean: probs."""
        return self.probs

    @property
    def variance(self):
        """The variance: probs * (1 - probs)."""
        return multiply(self.probs, (1 - self.probs))

    def sample(self, shape):
        """0/1 samples (in probs' dtype) of shape `shape + batch_shape`; no gradient."""
        shape = self._extend_shape(tuple(_check_shape(shape, "sample")))
        with no_grad():
            return bernoulli(self.probs.expand(shape))

    def rsample(self, shape, temperature=1.0):
        """Relaxed (Gumbel-softmax / binary-concrete) samples: the logits of a relaxed draw,
        (log u - log(1-u) + logits) / temperature with u uniform; differentiable in probs. Apply a sigmoid
        to get values in (0, 1)."""
        shape = self._extend_shape(tuple(_check_shape(shape, "rsample")))
        temperature = full(shape=(), fill_value=temperature, dtype=self.dtype)
        probs = self.probs.expand(shape)
        uniforms = rand(shape, dtype=self.dtype)
        return divide(
            add(
                subtract(uniforms.log(), (-uniforms).log1p()),
                subtract(probs.log(), (-probs).log1p()),
            ),
            temperature,
        )

    def cdf(self, value):
        """The cumulative distribution: 0 below 0, 1 - probs on [0, 1), 1 from 1 on."""
        value = self._check_values_dtype_in_probs(self.probs, _check_value(value, "cdf"))
        probs, value = broadcast_tensors([self.probs, value])
        zeros = zeros_like(probs)
        ones = ones_like(probs)
        return where(value < 0, zeros, where(value < 1, subtract(ones, probs), ones))

    def log_prob(self, value):
        """The log probability of `value` (0 or 1): -binary_cross_entropy_with_logits(logits, value)."""
        value = self._check_values_dtype_in_probs(self.probs, _check_value(value, "log_prob"))
        logits, value = broadcast_tensors([self.logits, value])
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def prob(self, value):
        """The probability of `value`: exp(log_prob(value))."""
        return self.log_prob(_check_value(value, "prob")).exp()

    def entropy(self):
        """The entropy -p log p - (1-p) log(1-p)."""
        # softplus(l) - l p, the binary cross-entropy of the logits against the probabilities, written out: as the
        # loss function its label (here p) gets no gradient (paddle's choice), and the entropy's gradient needs it
        return softplus(self.logits) - self.logits * self.probs

    def kl_divergence(self, other):
        """KL(self || other) between two Bernoullis."""
        if not isinstance(other, Bernoulli):
            raise TypeError(f"Bernoulli.kl_divergence: other must be a Bernoulli, got {type(other).__name__}")
        a_logits, b_logits = self.logits, other.logits
        log_pa = -softplus(-a_logits)
        log_pb = -softplus(-b_logits)
        pa = sigmoid(a_logits)
        one_minus_pa = sigmoid(-a_logits)
        log_one_minus_pa = -softplus(a_logits)
        log_one_minus_pb = -softplus(b_logits)
        return add(
            subtract(multiply(log_pa, pa), multiply(log_pb, pa)),
            subtract(multiply(log_one_minus_pa, one_minus_pa), multiply(log_one_minus_pb, one_minus_pa)),
        )


def _check_shape(shape, fn: str):
    if not isinstance(shape, (np.ndarray, Tensor, list, tuple)):
        raise TypeError(f"Bernoulli.{fn}: shape must be a list or tuple of ints, got {type(shape).__name__}")
    return shape


def _check_value(value, fn: str):
    if not isinstance(value, Tensor):
        raise TypeError(f"Bernoulli.{fn}: value must be a Tensor, got {type(value).__name__}")
    return value
