"""Activation functions (paddle.nn.functional)."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_tensor, normalize_axis
from minipaddle.tensor.math import tanh  # noqa: F401 (paddle.nn.functional.tanh is paddle.tanh)


def relu(x, name=None) -> Tensor:
    """max(x, 0), elementwise."""
    check_tensor(x, "relu")
    return ops.relu(x)


def sigmoid(x, name=None) -> Tensor:
    """1 / (1 + exp(-x)), elementwise."""
    check_tensor(x, "sigmoid")
    return ops.sigmoid(x)


def _softmax_input(x, axis, dtype, fn: str):
    check_tensor(x, fn)
    if dtype is not None:
        x = ops.cast(x, dtypes.to_dtype(dtype))
    if not (x.dtype.is_floating):
        raise TypeError(f"{fn}: x must be a float tensor, got {x.dtype.name}")
    return x, normalize_axis(axis, x.ndim, fn)


def softmax(x, axis=-1, dtype=None, name=None) -> Tensor:
    """exp(x) / sum(exp(x)) along `axis` (computed stably, shifting by the max)."""
    x, axis = _softmax_input(x, axis, dtype, "softmax")
    return ops.softmax(x, axis)


def log_softmax(x, axis=-1, dtype=None, name=None) -> Tensor:
    """log(softmax(x)) along `axis`, computed without forming softmax."""
    x, axis = _softmax_input(x, axis, dtype, "log_softmax")
    return ops.log_softmax(x, axis)
