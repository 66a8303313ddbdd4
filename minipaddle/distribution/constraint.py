"""Constraints: predicates telling whether values lie in a distribution's or a transform's support."""

from __future__ import annotations

from minipaddle.tensor.math import all as tensor_all


class Constraint:
    """A predicate on values; calling it returns whether the value satisfies it."""

    def __call__(self, value):
        raise NotImplementedError(f"{type(self).__name__} is abstract")


class Real(Constraint):
    """Every real number (and not nan)."""

    def __call__(self, value):
        return value == value


class Range(Constraint):
    """lower <= value <= upper."""

    def __init__(self, lower, upper):
        self._lower = lower
        self._upper = upper
        super().__init__()

    def __call__(self, value):
        return (self._lower <= value) & (value <= self._upper)


class Positive(Constraint):
    """value >= 0."""

    def __call__(self, value):
        return value >= 0.0


class Simplex(Constraint):
    """Non-negative entries along the last axis that sum to 1."""

    def __call__(self, value):
        return tensor_all(value >= 0, axis=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


real = Real()
positive = Positive()
simplex = Simplex()
