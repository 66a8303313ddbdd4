"""Constant and Assign: initial values given by the user."""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.nn.initializer.initializer import Initializer

__all__ = ["Constant", "Assign"]


class Constant(Initializer):
    """Fill the parameter with `value` (0.0 by default: the default for biases).

    Example:
        >>> w = paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(2.0))
    """

    def __init__(self, value=0.0):
        if value is None:
            raise ValueError("Constant: value must not be None")
        if not isinstance(value, (numbers.Number, np.generic)):  # else it fails only when a parameter is made
            raise TypeError(f"Constant: value must be a number, got {type(value).__name__}")
        self._value = value

    def _values(self, shape, dtype):
        return np.full(shape, self._value, dtype=dtype)


class Assign(Initializer):
    """Fill the parameter with the given values (a numpy array, list, tuple or Tensor of the parameter's size).

    Example:
        >>> attr = paddle.ParamAttr(initializer=paddle.nn.initializer.Assign([[1.0, 2.0], [3.0, 4.0]]))
    """

    def __init__(self, value, name=None):
        if isinstance(value, Tensor):
            value = value.numpy()
        if not isinstance(value, (np.ndarray, list, tuple)):
            raise TypeError(f"Assign: value must be a numpy.ndarray, list, tuple or Tensor, got {type(value).__name__}")
        self._value = np.array(value)

    def _values(self, shape, dtype):
        if self._value.size != int(np.prod(shape)):
            raise ValueError(f"Assign: the value has shape {list(self._value.shape)} but the parameter {list(shape)}")
        return self._value.reshape(shape).astype(dtype)
