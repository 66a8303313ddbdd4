"""Ops that converted code needs: `shape` (a Tensor's shape as a Tensor, known only when the Program runs) and
`assert` (the `assert` statement on a Tensor, checked each time the Program runs)."""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["assert_true", "shape_of"]


@register
class ShapeOf(OpDef):
    """x's shape as a 1-D int32 array (Paddle's `shape` op), so sizes unknown when building are read at run time."""

    name = "shape"
    differentiable = False
    saves_inputs = False

    def kernel(self, x):
        return np.asarray(x.shape, dtype=np.int32)

    def infer_meta(self, x: Meta) -> Meta:
        return Meta((len(x.shape),), dtypes.to_dtype("int32"))


def shape_of(x: Tensor) -> Tensor:
    return apply(ShapeOf, (x,))


@register
class AssertTrue(OpDef):
    """Raise ValueError with `message` when `cond` holds a False value (Paddle's `assert` op); returns cond."""

    name = "assert"
    differentiable = False
    saves_inputs = False

    def kernel(self, cond, message=""):
        if not np.all(cond):
            raise ValueError(f"The condition of an assert is False{': ' + message if message else ''}")
        return np.asarray(cond).copy()

    def infer_meta(self, cond: Meta, message="") -> Meta:
        return cond


def assert_true(cond: Tensor, message: str = "") -> Tensor:
    return apply(AssertTrue, (cond,), {"message": message})
