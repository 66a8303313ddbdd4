"""assign_value: a constant held in the op itself, so a static Program carries its own constants as data."""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["assign_value"]


@register
class AssignValue(OpDef):
    """Produce the constant `values` (a flat list) with `shape` and `dtype`. Takes no inputs."""

    name = "assign_value"
    differentiable = False
    saves_inputs = False

    def kernel(self, values, shape, dtype):
        d = dtypes.to_dtype(dtype).np
        if d.kind == "c":
            pairs = np.asarray(values, dtype=np.float64).reshape(-1, 2)
            return (pairs[:, 0] + 1j * pairs[:, 1]).astype(d).reshape(shape)
        return np.asarray(values, dtype=d).reshape(shape)

    def infer_meta(self, values, shape, dtype) -> Meta:
        return Meta(tuple(shape), dtypes.to_dtype(dtype))


def assign_value_attrs(array: np.ndarray) -> dict:
    """The attributes of the assign_value op that produces `array` (static passes make such ops too)."""
    array = np.asarray(array)
    values = array.reshape(-1).tolist()
    if array.dtype.kind == "c":  # JSON has no complex numbers: store [real, imag] pairs
        values = [[v.real, v.imag] for v in values]
    return {"values": values, "shape": tuple(array.shape), "dtype": dtypes.from_numpy(array.dtype).name}


def assign_value(array: np.ndarray) -> Tensor:
    """A constant tensor (in static mode: an op that produces it when the Program runs)."""
    return apply(AssignValue, (), assign_value_attrs(array))
