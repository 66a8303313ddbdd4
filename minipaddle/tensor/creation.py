"""Making tensors: to_tensor, zeros, ones, full and their *_like forms (paddle.tensor.creation)."""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Place, Tensor
from minipaddle.tensor.checks import check_shape, check_tensor

__all__ = ["to_tensor", "full", "zeros", "ones", "full_like", "zeros_like", "ones_like"]


def _infer_array(data) -> np.ndarray:
    """Python data as a numpy array with Paddle's dtype inference (numpy arrays keep their dtype)."""
    if isinstance(data, Tensor):
        return data._data.copy()
    if isinstance(data, (np.ndarray, np.generic)):
        return np.array(data)
    if isinstance(data, (list, tuple)):
        data = [_infer_array(d) if isinstance(d, Tensor) else d for d in data]  # lists of Tensors
        try:
            arr = np.array(data)
        except ValueError as e:
            raise ValueError(f"to_tensor: the nested list is ragged (sub-lists of different lengths): {e}") from None
        if arr.dtype == object:
            raise ValueError("to_tensor: the nested list is ragged or holds non-numbers")
    elif isinstance(data, (numbers.Number, bool)):
        arr = np.array(data)
    else:
        raise TypeError(
            f"to_tensor: data must be a scalar, list, tuple, numpy.ndarray or Tensor, got {type(data).__name__}"
        )
    # Python floats become the default dtype, ints int64, complex numbers complex64 (complex128 under float64).
    if arr.dtype == np.float64:
        arr = arr.astype(dtypes.default_float().np)
    elif arr.dtype.kind in "iu":
        arr = arr.astype(np.int64)
    elif arr.dtype == np.complex128:
        arr = arr.astype(dtypes.to_dtype(complex).np)
    elif arr.dtype.kind in "US":
        raise TypeError(f"to_tensor: strings cannot become a tensor (got {data!r})")
    return arr


def to_tensor(data, dtype=None, place=None, stop_gradient: bool = True) -> Tensor:
    """Create a Tensor from a Python number, (nested) list or tuple, numpy array or Tensor.

    Args:
        data: the values. Python floats become `paddle.get_default_dtype()` (float32), ints int64, bools bool;
            a numpy array keeps its dtype.
        dtype: the dtype to cast to (a `paddle.float32`-style dtype or a string such as 'float32').
        place: accepted for compatibility; minipaddle always runs on the CPU.
        stop_gradient: True (the default) means no gradient is computed for this tensor.

    Example:
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    """
    _check_place(place, "to_tensor")
    arr = _infer_array(data)
    if dtype is not None:
        arr = arr.astype(dtypes.to_dtype(dtype).np, copy=False)
    return Tensor(arr, stop_gradient=bool(stop_gradient))


def _check_place(place, fn: str) -> None:
    if place is None or isinstance(place, Place):
        if place is not None and place.kind != "cpu":
            raise RuntimeError(f"{fn}: minipaddle runs on the CPU only, got place {place}")
        return
    if isinstance(place, str) and place.lower().startswith("cpu"):
        return
    raise ValueError(
        f"{fn}: minipaddle runs on the CPU only; place must be None, 'cpu' or paddle.CPUPlace(), got {place!r}"
    )


def _dtype_or(dtype, default) -> np.dtype:
    return dtypes.to_dtype(default if dtype is None else dtype).np


def full(shape, fill_value, dtype=None, name=None) -> Tensor:
    """A tensor of `shape` filled with `fill_value`, of the default dtype (float32) unless `dtype` is given."""
    shape = check_shape(shape, "full")
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    return Tensor(np.full(shape, fill_value, dtype=_dtype_or(dtype, STATE.default_dtype)))


def zeros(shape, dtype=None, name=None) -> Tensor:
    """A tensor of `shape` filled with 0 (float32 unless `dtype` says otherwise)."""
    return full(shape, 0, dtype)


def ones(shape, dtype=None, name=None) -> Tensor:
    """A tensor of `shape` filled with 1 (float32 unless `dtype` says otherwise)."""
    return full(shape, 1, dtype)


def full_like(x, fill_value, dtype=None, name=None) -> Tensor:
    """A tensor shaped like `x`, filled with `fill_value`, of x's dtype unless `dtype` is given."""
    check_tensor(x, "full_like")
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    return ops.full_like(x, fill_value, None if dtype is None else dtypes.to_dtype(dtype).np)


def zeros_like(x, dtype=None, name=None) -> Tensor:
    return full_like(x, 0, dtype)


def ones_like(x, dtype=None, name=None) -> Tensor:
    return full_like(x, 1, dtype)
