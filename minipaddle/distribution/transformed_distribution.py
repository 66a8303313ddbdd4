"""TransformedDistribution: a base distribution pushed through a sequence of transforms."""

from __future__ import annotations

import typing

from minipaddle.distribution import distribution, independent, transform

__all__ = ["TransformedDistribution"]


class TransformedDistribution(distribution.Distribution):
    r"""The distribution of :math:`y = f_n(\dots f_1(x))` with x drawn from `base`. Its log density follows
    from the change of variables: :math:`\log p(y) = \log p(x) - \sum_i \log|\det J_{f_i}|`.

    Args:
        base (Distribution): the base distribution.
        transforms (Sequence[Transform]): the transforms, applied first to last.

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import AffineTransform, Normal, TransformedDistribution
            >>> affine = AffineTransform(paddle.to_tensor(1.0), paddle.to_tensor(2.0))
            >>> d = TransformedDistribution(Normal(0.0, 1.0), [affine])
            >>> float(d.log_prob(paddle.to_tensor(1.0)))  # Normal(1, 2) at its mean
            -1.6120857
    """

    def __init__(self, base, transforms):
        if not isinstance(base, distribution.Distribution):
            raise TypeError(f"Expected type of 'base' is Distribution, but got {type(base)}.")
        if not isinstance(transforms, typing.Sequence):
            raise TypeError(
                f"Expected type of 'transforms' is Sequence[Transform] or Chain, but got {type(transforms)}."
            )
        if not all(isinstance(t, transform.Transform) for t in transforms):
            raise TypeError("All element of transforms must be Transform type.")
        chain = transform.ChainTransform(transforms)
        base_shape = tuple(base.batch_shape) + tuple(base.event_shape)
        self._base = base
        self._transforms = transforms
        if not transforms:
            super().__init__(base.batch_shape, base.event_shape)
            return
        if len(base_shape) < chain._domain.event_rank:
            raise ValueError(
                f"'base' needs to have shape with size at least {chain._domain.event_rank}, bug got {len(base_shape)}."
            )
        if chain._domain.event_rank > len(base.event_shape):
            base = independent.Independent(base, chain._domain.event_rank - len(base.event_shape))
        transformed_shape = chain.forward_shape(tuple(base.batch_shape) + tuple(base.event_shape))
        transformed_event_rank = chain._codomain.event_rank + max(len(base.event_shape) - chain._domain.event_rank, 0)
        split = len(transformed_shape) - transformed_event_rank
        super().__init__(transformed_shape[:split], transformed_shape[split:])

    def sample(self, shape=()):
        """Base samples pushed through the transforms (no gradient when the base's sample has none)."""
        x = self._base.sample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def rsample(self, shape=()):
        """Reparameterized base samples pushed through the transforms."""
        x = self._base.rsample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def log_prob(self, value):
        """The log density of `value` by the change of variables."""
        log_prob = 0.0
        y = value
        event_rank = len(self.event_shape)
        for t in reversed(self._transforms):
            x = t.inverse(y)
            event_rank += t._domain.event_rank - t._codomain.event_rank
            log_prob = log_prob - distribution.sum_rightmost(
                t.forward_log_det_jacobian(x), event_rank - t._domain.event_rank
            )
            y = x
        log_prob += distribution.sum_rightmost(self._base.log_prob(y), event_rank - len(self._base.event_shape))
        return log_prob
