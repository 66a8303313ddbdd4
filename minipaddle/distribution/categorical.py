"""Categorical distribution over K categories, given by non-negative weights ("logits" in Paddle's naming)."""

from __future__ import annotations

import numpy as np

from minipaddle.distribution import distribution
from minipaddle.distribution._params import as_parameters
from minipaddle.tensor.indexing import gather, take_along_axis
from minipaddle.tensor.manipulation import reshape
from minipaddle.tensor.math import exp, log
from minipaddle.tensor.math import max as tensor_max
from minipaddle.tensor.math import sum as tensor_sum
from minipaddle.tensor.random import multinomial

__all__ = ["Categorical"]


class Categorical(distribution.Distribution):
    r"""The categorical distribution over the last axis of `logits`.

    Paddle 2.6 reads `logits` two ways, and so does this class: `probs` / `log_prob` treat it as
    unnormalized probabilities (:math:`p_k = logits_k / \sum_j logits_j`), while `sample`, `entropy` and
    `kl_divergence` treat it as logits (:math:`p_k = softmax(logits)_k`).

    Args:
        logits (list|tuple|numpy.ndarray|Tensor): the weights, categories on the last axis.
        name (str, optional): a name for the distribution. Defaults to None.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Categorical
            >>> c = Categorical(paddle.to_tensor([1.0, 2.0, 3.0]))
            >>> c.probs(paddle.to_tensor([0, 2])).numpy()
            array([0.16666667, 0.5       ], dtype=float32)
    """

    def __init__(self, logits, name=None):
        self.name = name if name is not None else "Categorical"
        (self.logits,), self.dtype, _ = as_parameters(self, logits, ints_as_floats=False)
        self._prob = self.logits / tensor_sum(self.logits, axis=-1, keepdim=True)
        # Paddle 2.6 forgets to call Distribution.__init__ here (batch_shape raises AttributeError); we set it
        super().__init__(self.logits.shape[:-1], ())

    def sample(self, shape):
        """Category indices (int64) of shape `shape + logits.shape[:-1]`, drawn from softmax(logits)."""
        shape = list(shape)
        num_samples = int(np.prod(np.array(shape)))
        logits_shape = list(self.logits.shape)
        if len(logits_shape) > 1:
            sample_shape = shape + logits_shape[:-1]
            logits = reshape(self.logits, [int(np.prod(logits_shape[:-1])), logits_shape[-1]])
        else:
            sample_shape = shape
            logits = self.logits
        index = multinomial(self._logits_to_probs(logits), num_samples, True)
        permute = list(range(index.dim()))
        permute.insert(0, permute.pop(-1))
        return reshape(index.transpose(permute), sample_shape)

    def kl_divergence(self, other):
        """KL(self || other) of the softmax distributions, keeping the last axis (size 1)."""
        if not isinstance(other, Categorical):
            raise TypeError(f"Categorical.kl_divergence: other must be a Categorical, got {type(other).__name__}")
        logits = self.logits - tensor_max(self.logits, axis=-1, keepdim=True)
        other_logits = other.logits - tensor_max(other.logits, axis=-1, keepdim=True)
        e_logits = exp(logits)
        other_e_logits = exp(other_logits)
        z = tensor_sum(e_logits, axis=-1, keepdim=True)
        other_z = tensor_sum(other_e_logits, axis=-1, keepdim=True)
        prob = e_logits / z
        return tensor_sum(prob * (logits - log(z) - other_logits + log(other_z)), axis=-1, keepdim=True)

    def entropy(self):
        """The entropy of softmax(logits), over the last axis."""
        logits = self.logits - tensor_max(self.logits, axis=-1, keepdim=True)
        e_logits = exp(logits)
        z = tensor_sum(e_logits, axis=-1, keepdim=True)
        prob = e_logits / z
        return -tensor_sum(prob * (logits - log(z)), axis=-1)

    def probs(self, value):
        """The probabilities (logits / sum) of the category indices in `value`.

        Without batch: `value` of any shape. With batch: a 1-D `value` gives every category in it for each
        batch member (shape batch_shape + [len(value)]); otherwise it is gathered along the last axis.
        """
        if len(self._prob.shape) == 1:
            return gather(self._prob, value.reshape([-1])).reshape(value.shape)
        if len(value.shape) == 1:
            index = reshape(value, (len(self._prob.shape) - 1) * [1] + [-1])
            return take_along_axis(self._prob, index, axis=-1)
        return take_along_axis(self._prob, value, axis=-1)

    def log_prob(self, value):
        """log of `probs(value)`."""
        return log(self.probs(value))
