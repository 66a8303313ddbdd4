"""Uniform distribution on [low, high)."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.distribution import distribution
from minipaddle.distribution._params import as_parameters
from minipaddle.tensor.creation import zeros
from minipaddle.tensor.manipulation import cast
from minipaddle.tensor.math import add, log

__all__ = ["Uniform"]


class Uniform(distribution.Distribution):
    r"""The uniform distribution on the interval [low, high):

    .. math:: pdf(x; a, b) = \frac{1}{b - a},\ a \le x < b

    Args:
        low (int|float|list|tuple|numpy.ndarray|Tensor): the lower bound (included).
        high (int|float|list|tuple|numpy.ndarray|Tensor): the upper bound (excluded).
        name (str, optional): a name for the distribution. Defaults to None.

    The arguments become tensors as in :class:`Normal`. The batch shape is low's shape.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Uniform
            >>> u = Uniform(0.0, 2.0)
            >>> u.log_prob(paddle.to_tensor([1.0, 3.0])).numpy()
            array([-0.6931472,       -inf], dtype=float32)
    """

    def __init__(self, low, high, name=None):
        self.name = name if name is not None else "Uniform"
        self.batch_size_unknown = False
        (self.low, self.high), self.dtype, self.all_arg_is_float = as_parameters(self, low, high)
        super().__init__(self.low.shape)

    def sample(self, shape, seed=0):
        """Samples of shape `shape + batch_shape` (low + u * (high - low), u uniform in [0, 1))."""
        output_shape = list(shape) + list((self.low + self.high).shape)
        u = ops.uniform(output_shape, self.dtype, 0.0, 1.0, seed)
        output = u * (zeros(output_shape, dtype=self.dtype) + (self.high - self.low))
        return add(output, self.low)

    def log_prob(self, value):
        """log(1 / (high - low)) inside [low, high) — strictly inside, as Paddle — and -inf outside."""
        value = self._check_values_dtype_in_probs(self.low, value)
        lb = cast(self.low < value, value.dtype)
        ub = cast(value < self.high, value.dtype)
        return log(lb * ub) - log(self.high - self.low)

    def probs(self, value):
        """1 / (high - low) inside (low, high), 0 outside."""
        value = self._check_values_dtype_in_probs(self.low, value)
        lb = cast(self.low < value, value.dtype)
        ub = cast(value < self.high, value.dtype)
        return (lb * ub) / (self.high - self.low)

    def entropy(self):
        r"""The entropy :math:`\log(b - a)`."""
        return log(self.high - self.low)
