"""Ops that make a tensor from numbers alone (no input tensors): arange, linspace, eye.

They are ops, not plain numpy calls in the public functions, so that static mode records them in the Program.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["arange", "linspace", "eye"]  # the raw op functions; ops/__init__.py gathers them


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
