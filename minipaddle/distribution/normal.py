"""Normal (Gaussian) distribution."""

from __future__ import annotations

import math
from collections.abc import Iterable

from minipaddle import ops
from minipaddle.distribution import distribution
from minipaddle.distribution._params import as_parameters
from minipaddle.tensor.creation import full, zeros
from minipaddle.tensor.math import add, divide, exp, log, subtract
from minipaddle.tensor.random import normal

__all__ = ["Normal"]


class Normal(distribution.Distribution):
    r"""The Normal distribution with location `loc` and scale `scale`:

    .. math:: pdf(x; \mu, \sigma) = \frac{1}{\sqrt{2\pi}\sigma} e^{-\frac{(x - \mu)^2}{2\sigma^2}}

    Args:
        loc (int|float|list|tuple|numpy.ndarray|Tensor): the mean.
        scale (int|float|list|tuple|numpy.ndarray|Tensor): the standard deviation.
        name (str, optional): a name for the distribution. Defaults to None.

    Numbers, lists and arrays become float32 tensors (float64 for a float64 array) broadcast to one shape;
    Tensors are used as given (then both must be Tensors). The batch shape is loc's shape.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Normal
            >>> n = Normal(0.0, 2.0)
            >>> n.sample([3]).shape
            [3]
            >>> float(n.entropy())  # 0.5 + 0.5 * log(2 pi) + log(2)
            2.1120857
    """

    def __init__(self, loc, scale, name=None):
        self.name = name if name is not None else "Normal"
        (self.loc, self.scale), self.dtype, self.all_arg_is_float = as_parameters(self, loc, scale)
        super().__init__(self.loc.shape)

    @property
    def mean(self):
        """The mean: loc."""
        return self.loc

    @property
    def variance(self):
        """The variance: scale ** 2."""
        return self.scale.pow(2)

    def sample(self, shape=(), seed=0):
        """Samples of shape `shape + batch_shape`, drawn from the RNG (or from `seed` when nonzero)."""
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        output_shape = list(shape) + list((self.loc + self.scale).shape)
        noise = ops.gaussian(output_shape, self.dtype, 0.0, 1.0, seed)
        output = noise * (zeros(output_shape, dtype=self.dtype) + self.scale)
        return add(output, self.loc)

    def rsample(self, shape=()):
        """Reparameterized samples loc + eps * scale, eps ~ N(0, 1): gradients flow to loc and scale."""
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        eps = normal(shape=list(self._extend_shape(tuple(shape))))
        return self.loc + eps * self.scale

    def entropy(self):
        r"""The entropy :math:`0.5 + 0.5 \log(2\pi) + \log(\sigma)`, of shape loc + scale."""
        zero = full(list((self.loc + self.scale).shape), 0.0, self.dtype)
        return add(0.5 + zero, 0.5 * math.log(2 * math.pi) + log(self.scale + zero))

    def log_prob(self, value):
        """The log density of `value` (cast to the parameters' float dtype)."""
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        log_scale = log(self.scale)
        return subtract(
            -1.0 * ((value - self.loc) * (value - self.loc)) / (2.0 * var),
            log_scale + math.log(math.sqrt(2.0 * math.pi)),
        )

    def probs(self, value):
        """The density of `value`."""
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        return divide(
            exp(-1.0 * ((value - self.loc) * (value - self.loc)) / (2.0 * var)),
            math.sqrt(2 * math.pi) * self.scale,
        )

    def kl_divergence(self, other):
        r"""KL(self || other) between two Normals:
        :math:`0.5 (r + ((\mu_0 - \mu_1) / \sigma_1)^2 - 1 - \log r)`, :math:`r = (\sigma_0 / \sigma_1)^2`."""
        if not isinstance(other, Normal):
            raise TypeError(f"Normal.kl_divergence: other must be a Normal, got {type(other).__name__}")
        var_ratio = self.scale / other.scale
        var_ratio = var_ratio * var_ratio
        t1 = (self.loc - other.loc) / other.scale
        t1 = t1 * t1
        return add(0.5 * var_ratio, 0.5 * (t1 - 1.0 - log(var_ratio)))
