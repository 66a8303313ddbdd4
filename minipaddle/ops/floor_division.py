"""Division that rounds down: floor_divide (`//`) and remainder (`%`, mod), with Python's sign rules.

`-3 // 2 == -2` and `-3 % 2 == 1`, for integers and floats alike, as in Python and paddle 2.6. Paddle records
no gradient for either (the result is piecewise constant in x, and remainder's slope in y is rarely wanted).
An integer division by zero raises a ValueError (paddle 2.6: InvalidArgumentError) instead of numpy's silent 0.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.op import register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.elementwise import _binary
from minipaddle.ops.kinds import BinaryUfuncOp

__all__ = ["floor_divide", "remainder"]  # the raw op functions; ops/__init__.py gathers them


class _FloorDivision(BinaryUfuncOp):
    out_dtype = None  # the inputs' dtype

    def kernel(self, x, y):
        if x.dtype.kind in "iub" and np.any(y == 0):
            raise ValueError(f"{self.name}: integer division by zero (y has a 0 element)")
        with np.errstate(divide="ignore", invalid="ignore"):
            return self.ufunc(x, y).astype(x.dtype, copy=False)  # numpy makes bool // bool int8; keep x's dtype


@register
class FloorDivide(_FloorDivision):
    name = "floor_divide"
    ufunc = staticmethod(np.floor_divide)


@register
class Remainder(_FloorDivision):
    name = "remainder"
    ufunc = staticmethod(np.remainder)


def floor_divide(x, y) -> Tensor:
    return _binary(FloorDivide, x, y)


def remainder(x, y) -> Tensor:
    return _binary(Remainder, x, y)
