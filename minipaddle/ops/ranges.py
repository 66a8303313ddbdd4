"""Ops that make a tensor from numbers alone (no input tensors): arange, linspace, logspace, eye.

They are ops, not plain numpy calls in the public functions, so that static mode records them in the Program.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = [
    "arange",
    "linspace",
    "eye",
    "logspace",
]


class _Source(OpDef):
    differentiable = False
    saves_inputs = False


@register
class Arange(_Source):
    """start, start + step, ... up to but excluding end."""

    name = "arange"

    def kernel(self, start, end, step, dtype):
        return np.arange(start, end, step).astype(dtype)

    def infer_meta(self, start, end, step, dtype) -> Meta:
        return Meta((max(int(np.ceil((end - start) / step)), 0),), dtypes.from_numpy(np.dtype(dtype)))


@register
class Linspace(_Source):
    """num evenly spaced values from start to stop, both included."""

    name = "linspace"

    def kernel(self, start, stop, num, dtype):
        out = np.linspace(start, stop, num)
        if np.dtype(dtype).kind in "iu":
            out = np.trunc(out)  # Paddle truncates toward zero: linspace(0, 10, 5, 'int64') -> 0 2 5 7 10
        return out.astype(dtype)

    def infer_meta(self, start, stop, num, dtype) -> Meta:
        return Meta((num,), dtypes.from_numpy(np.dtype(dtype)))


@register
class Eye(_Source):
    """Ones on the main diagonal of a num_rows x num_columns matrix, zeros elsewhere."""

    name = "eye"

    def kernel(self, num_rows, num_columns, dtype):
        return np.eye(num_rows, num_columns, dtype=dtype)

    def infer_meta(self, num_rows, num_columns, dtype) -> Meta:
        return Meta((num_rows, num_columns), dtypes.from_numpy(np.dtype(dtype)))


def arange(start, end, step, dtype) -> Tensor:
    return apply(Arange, (), {"start": start, "end": end, "step": step, "dtype": dtype})


def linspace(start, stop, num: int, dtype) -> Tensor:
    return apply(Linspace, (), {"start": start, "stop": stop, "num": num, "dtype": dtype})


def eye(num_rows: int, num_columns: int, dtype) -> Tensor:
    return apply(Eye, (), {"num_rows": num_rows, "num_columns": num_columns, "dtype": dtype})


@register
class Logspace(OpDef):
    """num values base ** e, e evenly spaced from start to stop (both included).

    As Paddle's kernel: start, stop and base are first cast to `dtype` (so integers truncate them), the first
    half counts up from start and the second half down from stop, and each power is cast to `dtype`.
    """

    name = "logspace"
    differentiable = False
    saves_inputs = False

    def kernel(self, start, stop, num, base, dtype):
        start, stop, base = (float(np.asarray(v).astype(dtype)) for v in (start, stop, base))
        i = np.arange(num)
        if num == 1:
            exponents = np.full(1, start)
        else:
            step = (stop - start) / (num - 1)
            exponents = np.where(i < num // 2, start + step * i, stop - step * (num - 1 - i))
        with np.errstate(invalid="ignore", over="ignore"):
            return np.power(base, exponents).astype(dtype)

    def infer_meta(self, start, stop, num, base, dtype) -> Meta:
        return Meta((num,), dtypes.from_numpy(np.dtype(dtype)))


def logspace(start, stop, num: int, base, dtype) -> Tensor:
    return apply(Logspace, (), {"start": start, "stop": stop, "num": num, "base": base, "dtype": dtype})
