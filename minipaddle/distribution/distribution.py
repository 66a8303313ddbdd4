"""Distribution: the base class of every probability distribution in paddle.distribution.

A distribution has a batch shape (independent, differently parametrized copies) and an event shape (the shape
of one draw). `sample(shape)` returns `shape + batch_shape + event_shape`. Everything is computed with
minipaddle's tensor functions, so gradients flow into the parameters wherever the maths allows.
"""

from __future__ import annotations

import warnings

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.activation import sigmoid, softmax
from minipaddle.tensor.creation import to_tensor
from minipaddle.tensor.manipulation import cast
from minipaddle.tensor.math import log, log1p

__all__ = ["Distribution"]


def sum_rightmost(value, n):
    """`value` summed over its last `n` axes (unchanged when n <= 0): folds batch axes that a transform or
    Independent reads as event axes into one log-density per event."""
    return value.sum(list(range(-n, 0))) if n > 0 else value


class Distribution:
    """The abstract base class of probability distributions.

    Args:
        batch_shape (Sequence[int], optional): the batch shape, i.e. how many independent distributions
            (of possibly different parameters) this object holds. Defaults to ().
        event_shape (Sequence[int], optional): the shape of one draw. Defaults to ().

    Subclasses implement `sample`, `rsample` (reparameterized, differentiable samples), `log_prob`,
    `entropy`, `mean`, `variance` and `kl_divergence`; `prob` is `exp(log_prob)`. The base class raises
    NotImplementedError for what a subclass does not provide, as Paddle does.
    """

    def __init__(self, batch_shape=(), event_shape=()):
        self._batch_shape = tuple(batch_shape)
        self._event_shape = tuple(event_shape)
        super().__init__()

    @property
    def batch_shape(self) -> tuple:
        """The batch shape (a tuple of ints)."""
        return self._batch_shape

    @property
    def event_shape(self) -> tuple:
        """The event shape (a tuple of ints)."""
        return self._event_shape

    @property
    def mean(self):
        """The mean of the distribution."""
        raise NotImplementedError(f"{type(self).__name__} has no mean")

    @property
    def variance(self):
        """The variance of the distribution."""
        raise NotImplementedError(f"{type(self).__name__} has no variance")

    def sample(self, shape=()):
        """Draw samples of shape `shape + batch_shape + event_shape` (no gradient)."""
        raise NotImplementedError(f"{type(self).__name__} has no sample")

    def rsample(self, shape=()):
        """Reparameterized samples: differentiable with respect to the parameters."""
        raise NotImplementedError(f"{type(self).__name__} has no rsample")

    def entropy(self):
        """The entropy of the distribution."""
        raise NotImplementedError(f"{type(self).__name__} has no entropy")

    def kl_divergence(self, other):
        """The Kullback-Leibler divergence KL(self || other)."""
        raise NotImplementedError(f"{type(self).__name__} has no kl_divergence")

    def prob(self, value):
        """The probability density (or mass) of `value`: exp(log_prob(value))."""
        return self.log_prob(value).exp()

    def log_prob(self, value):
        """The log probability density (or mass) of `value`."""
        raise NotImplementedError(f"{type(self).__name__} has no log_prob")

    def probs(self, value):
        """The probability of `value` (the older name that some subclasses define)."""
        raise NotImplementedError(f"{type(self).__name__} has no probs")

    def _extend_shape(self, sample_shape) -> tuple:
        """sample_shape + batch_shape + event_shape."""
        return tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape)

    def _validate_args(self, *args) -> bool:
        """True when every argument is a Tensor, False when none is; a mix is a ValueError (as Paddle)."""
        is_tensor = [isinstance(a, Tensor) for a in args]
        if any(is_tensor) and not all(is_tensor):
            raise ValueError("if one argument is Tensor, all arguments should be Tensor")
        return all(is_tensor)

    def _to_tensor(self, *args) -> tuple:
        """Numbers, lists and arrays as tensors broadcast to one shape: float32, or float64 when any of them is
        a float64 array or a list of Python floats (Paddle's rule; callers then cast to their own dtype)."""
        arrays = []
        for arg in args:
            if not isinstance(arg, (float, list, tuple, np.ndarray, Tensor)):
                raise TypeError(
                    "Type of input args must be float, list, tuple, numpy.ndarray or Tensor, "
                    f"but received type {type(arg)}"
                )
            array = np.array(arg.numpy() if isinstance(arg, Tensor) else arg)
            if array.dtype not in (np.float32, np.float64):
                warnings.warn(
                    "data type of argument only support float32 and float64, your argument will be convert to float32.",
                    stacklevel=3,
                )
                array = array.astype(np.float32)
            arrays.append(array)
        common = np.result_type(*arrays)
        return tuple(to_tensor(np.array(a, dtype=common)) for a in np.broadcast_arrays(*arrays))

    def _check_values_dtype_in_probs(self, param, value):
        """value cast to param's dtype (with Paddle's warning) when both are floats of different widths."""
        if value.dtype != param.dtype and value.dtype.name in ("float32", "float64"):
            warnings.warn(
                "dtype of input 'value' needs to be the same as parameters of distribution class. "
                "dtype of 'value' will be converted.",
                stacklevel=3,
            )
            return cast(value, param.dtype)
        return value

    def _probs_to_logits(self, probs, is_binary=False):
        """log-odds of probabilities (binary) or their logs (categorical)."""
        return (log(probs) - log1p(-probs)) if is_binary else log(probs)

    def _logits_to_probs(self, logits, is_binary=False):
        """sigmoid of logits (binary) or their softmax over the last axis (categorical)."""
        return sigmoid(logits) if is_binary else softmax(logits, axis=-1)
