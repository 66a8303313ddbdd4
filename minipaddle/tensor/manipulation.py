"""Reshaping and joining of the public API (paddle.tensor.manipulation)."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_shape, check_tensor, normalize_axis
from minipaddle.tensor.math import binary_operands

__all__ = ["reshape", "transpose", "cast", "concat", "stack", "where", "assign"]


def reshape(x, shape, name=None) -> Tensor:
    """Give x a new shape with the same number of elements. 0 keeps x's dimension; one -1 is inferred."""
    check_tensor(x, "reshape")
    shape = check_shape(shape, "reshape")
    if shape.count(-1) > 1:
        raise ValueError(f"reshape: only one dimension can be -1, got {list(shape)}")
    for i, d in enumerate(shape):
        if d < -1:
            raise ValueError(f"reshape: dimensions must be >= -1, got {list(shape)}")
        if d == 0 and i >= x.ndim:
            raise ValueError(f"reshape: 0 at position {i} copies x's dimension {i}, but x has shape {x.shape}")
    return ops.reshape(x, shape)


def transpose(x, perm, name=None) -> Tensor:
    """Permute x's dimensions: output dimension i is x's dimension perm[i]."""
    check_tensor(x, "transpose")
    perm = check_shape(perm, "transpose")
    if len(perm) != x.ndim or sorted(p % max(x.ndim, 1) for p in perm) != list(range(x.ndim)):
        raise ValueError(
            f"transpose: perm must be a permutation of 0..{x.ndim - 1}, got {list(perm)} for shape {x.shape}"
        )
    return ops.transpose(x, tuple(p % x.ndim for p in perm))


def cast(x, dtype) -> Tensor:
    """x converted to `dtype` (gradients flow back, cast to x's dtype)."""
    check_tensor(x, "cast")
    return ops.cast(x, dtypes.to_dtype(dtype))


def _tensor_list(xs, fn: str) -> list:
    if isinstance(xs, Tensor) or not isinstance(xs, (list, tuple)):
        raise TypeError(f"{fn}: x must be a list or tuple of Tensors, got {type(xs).__name__}")
    if not xs:
        raise ValueError(f"{fn}: x is empty; give at least one Tensor")
    for i, t in enumerate(xs):
        check_tensor(t, fn, f"x[{i}]")
    # Promote all to one dtype, as a chain of binary promotions.
    d = xs[0].dtype
    for t in xs[1:]:
        d = dtypes.promote_types(d, t.dtype)
    return [t if t.dtype is d else ops.cast(t, d) for t in xs]


def concat(x, axis=0, name=None) -> Tensor:
    """Join tensors along an existing axis."""
    xs = _tensor_list(x, "concat")
    axis = normalize_axis(axis, xs[0].ndim, "concat")
    first = xs[0].shape
    for i, t in enumerate(xs[1:], 1):
        if t.ndim != len(first) or any(a != b for k, (a, b) in enumerate(zip(first, t.shape)) if k != axis):
            raise ValueError(
                f"concat: x[{i}] has shape {t.shape} but x[0] has {first}; all dimensions except axis {axis} must match"
            )
    return ops.concat(xs, axis)


def stack(x, axis=0, name=None) -> Tensor:
    """Join same-shaped tensors along a new axis."""
    xs = _tensor_list(x, "stack")
    for i, t in enumerate(xs[1:], 1):
        if t.shape != xs[0].shape:
            raise ValueError(f"stack: x[{i}] has shape {t.shape} but x[0] has {xs[0].shape}; all must match")
    return ops.stack(xs, normalize_axis(axis, xs[0].ndim + 1, "stack"))


def where(condition, x=None, y=None, name=None) -> Tensor:
    """Elements of x where condition is True, else of y (all broadcast together)."""
    check_tensor(condition, "where", "condition")
    if x is None and y is None:
        raise ValueError("where: give both x and y (paddle.nonzero finds the True positions)")
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        raise TypeError("where: at least one of x and y must be a Tensor")
    x, y = binary_operands(x, y, "where")
    if condition.dtype is not dtypes.bool_:
        condition = ops.cast(condition, dtypes.bool_)
    return ops.where(condition, x, y)


def assign(x, output=None) -> Tensor:
    """A copy of x (a Tensor, numpy array or nested list); gradients flow through it."""
    if not isinstance(x, Tensor):
        from minipaddle.tensor.creation import to_tensor

        x = to_tensor(np.asarray(x))
    if output is not None:
        check_tensor(output, "assign", "output")
        return apply_inplace(get_op("assign"), output, (x,))
    return ops.assign(x)
