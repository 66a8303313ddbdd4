"""Variables: the domain and codomain of a transform (discrete or not, event rank, constraint)."""

from __future__ import annotations

from minipaddle.distribution import constraint
from minipaddle.tensor.manipulation import stack, unstack


class Variable:
    """A random variable's description: whether it is discrete, its event rank, its constraint."""

    def __init__(self, is_discrete=False, event_rank=0, constraint=None):
        self._is_discrete = is_discrete
        self._event_rank = event_rank
        self._constraint = constraint

    @property
    def is_discrete(self):
        return self._is_discrete

    @property
    def event_rank(self):
        return self._event_rank

    def constraint(self, value):
        return self._constraint(value)


class Real(Variable):
    """Real values of the given event rank."""

    def __init__(self, event_rank=0):
        super().__init__(False, event_rank, constraint.real)


class Positive(Variable):
    """Non-negative values of the given event rank."""

    def __init__(self, event_rank=0):
        super().__init__(False, event_rank, constraint.positive)


class Independent(Variable):
    """`base` with its rightmost `reinterpreted_batch_rank` batch axes read as event axes."""

    def __init__(self, base, reinterpreted_batch_rank):
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        super().__init__(base.is_discrete, base.event_rank + reinterpreted_batch_rank)

    def constraint(self, value):
        ret = self._base.constraint(value)
        if ret.dim() < self._reinterpreted_batch_rank:
            raise ValueError(f"Input dimensions must be equal or grater than  {self._reinterpreted_batch_rank}")
        return ret.reshape(list(ret.shape[: ret.dim() - self._reinterpreted_batch_rank]) + [-1]).all(-1)


class Stack(Variable):
    """Variables stacked along `axis`."""

    def __init__(self, vars, axis=0):  # noqa: A002 (Paddle's name)
        self._vars = vars
        self._axis = axis

    @property
    def is_discrete(self):
        return any(var.is_discrete for var in self._vars)

    @property
    def event_rank(self):
        rank = max(var.event_rank for var in self._vars)
        if self._axis + rank < 0:
            rank += 1
        return rank

    def constraint(self, value):
        if not (-value.dim() <= self._axis < value.dim()):
            raise ValueError(
                f"Input dimensions {value.dim()} should be grater than stack constraint axis {self._axis}."
            )
        return stack([var.constraint(v) for var, v in zip(self._vars, unstack(value, self._axis))], self._axis)


real = Real()
positive = Positive()
