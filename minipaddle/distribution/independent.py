"""Independent: reinterpret some batch axes of a distribution as event axes."""

from __future__ import annotations

from minipaddle.distribution import distribution

__all__ = ["Independent"]


class Independent(distribution.Distribution):
    r"""Reinterpret the rightmost `reinterpreted_batch_rank` batch axes of `base` as event axes: log_prob and
    entropy are summed over them.

    Args:
        base (Distribution): the base distribution.
        reinterpreted_batch_rank (int): how many batch axes become event axes, 0 < it <= len(base.batch_shape).

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> from minipaddle.distribution import Beta, Independent
            >>> beta = Beta(paddle.to_tensor([0.5, 0.5]), paddle.to_tensor([0.5, 0.5]))
            >>> reinterpreted = Independent(beta, 1)
            >>> reinterpreted.batch_shape, reinterpreted.event_shape
            ((), (2,))
    """

    def __init__(self, base, reinterpreted_batch_rank):
        if not isinstance(base, distribution.Distribution):
            raise TypeError(f"Expected type of 'base' is Distribution, but got {type(base)}")
        if not (0 < reinterpreted_batch_rank <= len(base.batch_shape)):
            raise ValueError(
                f"Expected 0 < reinterpreted_batch_rank <= {len(base.batch_shape)}, but got {reinterpreted_batch_rank}"
            )
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        shape = tuple(base.batch_shape) + tuple(base.event_shape)
        split = len(base.batch_shape) - reinterpreted_batch_rank
        super().__init__(batch_shape=shape[:split], event_shape=shape[split:])

    @property
    def mean(self):
        """The base distribution's mean."""
        return self._base.mean

    @property
    def variance(self):
        """The base distribution's variance."""
        return self._base.variance

    def sample(self, shape=()):
        """The base distribution's samples."""
        return self._base.sample(shape)

    def log_prob(self, value):
        """The base log_prob summed over the reinterpreted axes."""
        return distribution.sum_rightmost(self._base.log_prob(value), self._reinterpreted_batch_rank)

    def prob(self, value):
        """exp(log_prob(value))."""
        return self.log_prob(value).exp()

    def entropy(self):
        """The base entropy summed over the reinterpreted axes."""
        return distribution.sum_rightmost(self._base.entropy(), self._reinterpreted_batch_rank)
