"""The one argument checker of the public API (DESIGN.md, wall 3): public functions check, ops compute.

Every message names the function, what was expected and what came, in Python's own exception types.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import broadcast_shapes
from minipaddle.tensor.dtype_support import ANY_DTYPE, PASSING, check_accepted


def check_tensor(x, fn: str, arg: str = "x") -> Tensor:
    """x must be a Tensor, of a dtype paddle 2.6 accepts for `arg` of `fn` where it restricts them
    (tensor/dtype_support.py)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}: {arg} must be a Tensor, got {type(x).__name__}")
    passing = PASSING.get(fn)  # (lookups here, not a call: every public function checks its tensors)
    if passing is not None and x._data.dtype not in passing.get(arg, ANY_DTYPE):
        check_accepted(x, fn, arg)
    return x


def check_min_rank(x: Tensor, rank: int, fn: str, arg: str = "x") -> Tensor:
    """x must have at least `rank` dimensions (a 0-D tensor has no axis to gather along, no channels, ...)."""
    if x.ndim < rank:
        raise ValueError(f"{fn}: {arg} must have at least {rank} dimension(s), got a {x.ndim}-D tensor")
    return x


# The most elements a creation function makes: beyond it the request is a mistake, not a tensor (2**40 floats are
# 4 TiB); refused as a ValueError before numpy tries and fails with a raw MemoryError.
MAX_ELEMENTS = 2**40


def check_number(v, fn: str, arg: str):
    if isinstance(v, Tensor) and v.size == 1:
        return v.item()
    if not isinstance(v, numbers.Number):
        raise TypeError(f"{fn}: {arg} must be a number, got {type(v).__name__}")
    return v


def check_bool(v, fn: str, arg: str) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{fn}: {arg} must be a bool, got {type(v).__name__}")
    return bool(v)


def check_float_tensor(x, fn: str, arg: str = "x") -> Tensor:
    """x must be a Tensor of a floating dtype (activations, norms, random draws from x's values)."""
    check_tensor(x, fn, arg)
    if not x.dtype.is_floating:
        raise TypeError(f"{fn}: {arg} must be a float tensor, got {x.dtype.name}")
    return x


def check_inexact_tensor(x, fn: str, arg: str = "x") -> Tensor:
    """x must be a Tensor of a floating or complex dtype (activations that paddle 2.6 also runs on complex)."""
    check_tensor(x, fn, arg)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"{fn}: {arg} must be a float or complex tensor, got {x.dtype.name}")
    return x


def normalize_axis(axis: int, ndim: int, fn: str) -> int:
    """One axis, negative allowed, as a non-negative int; ValueError when out of range (as Paddle)."""
    if isinstance(axis, Tensor):
        axis = axis.item()
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"{fn}: axis must be an int, got {type(axis).__name__}")
    lo = -ndim if ndim else -1
    hi = ndim - 1 if ndim else 0
    if not lo <= axis <= hi:
        raise ValueError(f"{fn}: axis {axis} is out of range for a tensor with {ndim} dimensions "
                         f"(expected {lo} <= axis <= {hi})")  # fmt: skip
    return int(axis) % ndim if ndim else 0


def normalize_axes(axis, ndim: int, fn: str):
    """None (all axes) or an int/list/tuple/Tensor of axes, as None or a sorted tuple of non-negative ints."""
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        axis = axis.tolist()
    if isinstance(axis, (list, tuple)):
        if len(axis) == 0:
            return None
        axes = tuple(sorted({normalize_axis(a, ndim, fn) for a in axis}))
        if len(axes) != len(axis):
            raise ValueError(f"{fn}: axis {list(axis)} names the same dimension twice")
        return axes
    return (normalize_axis(axis, ndim, fn),)


def check_shape(shape, fn: str) -> tuple:
    """A shape given as an int, list/tuple of ints (or 1-element Tensors), or a 1-D int Tensor."""
    if isinstance(shape, Tensor):
        shape = shape.tolist()
        shape = [shape] if isinstance(shape, int) else shape
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = [shape]
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"{fn}: shape must be a list or tuple of ints, got {type(shape).__name__}")
    out = []
    for d in shape:
        if isinstance(d, Tensor):
            d = d.item()
        if not isinstance(d, (int, np.integer)) or isinstance(d, bool):
            raise TypeError(f"{fn}: shape must contain ints, got {list(shape)}")
        out.append(int(d))
    return tuple(out)


def check_size(shape: tuple, fn: str, error=ValueError) -> tuple:
    """A shape to create: no negative dimension, and not more than MAX_ELEMENTS elements."""
    if any(d < 0 for d in shape):
        raise error(f"{fn}: shape must not have negative dimensions, got {list(shape)}")
    if math.prod(shape) > MAX_ELEMENTS:
        raise error(f"{fn}: shape {list(shape)} has {math.prod(shape):.3g} elements, more than the "
                         f"{MAX_ELEMENTS:.3g} a tensor may hold here")  # fmt: skip
    return shape


def check_broadcast(x: Tensor, y: Tensor, fn: str, error=ValueError) -> None:
    """`error` (a ValueError) naming `fn` and both shapes when x and y do not broadcast (checked only when they
    differ)."""
    # A plain Tensor's shape is its array's (no lists built: every binary function calls this); a static Variable
    # (a subclass) has -1 for the sizes known only at run time, and Parameters say theirs the same way.
    xs = x._data.shape if type(x) is Tensor else tuple(x.shape)
    ys = y._data.shape if type(y) is Tensor else tuple(y.shape)
    if xs != ys:
        broadcast_shapes(xs, ys, fn, error)


def _as_dtype(t: Tensor, like: Tensor) -> Tensor:
    return t if t.dtype is like.dtype else ops.cast(t, like.dtype)


def _int_arg(v, fn: str, arg: str) -> int:
    if isinstance(v, Tensor) and v.size == 1:
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{fn}: {arg} must be an int, got {type(v).__name__}")
    return int(v)


def _int(v, fn: str, arg: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{fn}: {arg} must be an int, got {type(v).__name__}")
    return int(v)


def _int_list(v, fn: str, arg: str) -> list:
    if not isinstance(v, (list, tuple)):
        raise TypeError(f"{fn}: {arg} must be a list or tuple of ints, got {type(v).__name__}")
    return [_int(s, fn, f"{arg}[{i}]") for i, s in enumerate(v)]


# ---- shared helpers --------------------------------------------------------------------------------------------


def _int_scalar(v, fn: str, arg: str) -> int:
    """v as an int (a one-element Tensor gives its value)."""
    v = v.item() if isinstance(v, Tensor) and v.size == 1 else v
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{fn}: {arg} must be an int, got {type(v).__name__}")
    return int(v)


def check_dtype(dtype, fn: str, arg: str = "dtype"):
    """A dtype argument as a DType (a name, a numpy dtype, a Python type), the error naming `fn` and `arg`."""
    try:
        return dtypes.to_dtype(dtype)
    except TypeError as e:
        raise TypeError(f"{fn}: {arg}: {e}") from None


def check_float(v, fn: str, arg: str) -> float:
    """A real number argument (a Python or numpy number, or a one-element Tensor) as a float."""
    if isinstance(v, (Tensor, np.ndarray)) and v.size == 1:
        v = v.item()
    if not isinstance(v, numbers.Real):
        raise TypeError(f"{fn}: {arg} must be a number, got {type(v).__name__}")
    return float(v)


def check_nonnegative(v, fn: str, arg: str) -> float:
    """A number >= 0 (an epsilon added under a square root or a log: a negative one makes NaN silently)."""
    v = check_float(v, fn, arg)
    if not v >= 0:  # NaN too
        raise ValueError(f"{fn}: {arg} must be a number >= 0, got {v!r}")
    return v


INT64_MAX = 2**63 - 1


def check_int(v, fn: str, arg: str, low: int = -INT64_MAX - 1, high: int = INT64_MAX) -> int:
    """An int argument (a one-element Tensor gives its value) within [low, high], by default int64's range: a
    label value or a count beyond it cannot be compared with a tensor's values (numpy's OverflowError)."""
    v = _int_scalar(v, fn, arg)
    if not low <= v <= high:
        raise ValueError(f"{fn}: {arg} must be an int in [{low}, {high}], got {v}")
    return v


def check_in_range(v, fn: str, arg: str, low: float, high: float) -> float:
    """A real number within [low, high]; NaN is refused too (no comparison holds for it, so a check written as
    `v < low or v > high` lets it through)."""
    v = check_float(v, fn, arg)
    if not low <= v <= high:
        raise ValueError(f"{fn}: {arg} must be a number in [{low}, {high}], got {v!r}")
    return v


def check_probability(v, fn: str, arg: str) -> float:
    """A probability in [0, 1] (a dropout rate, a label-smoothing amount)."""
    return check_in_range(v, fn, arg, 0, 1)


# ---- what paddle's kernels refuse ------------------------------------------------------------------------------


class PreconditionNotMetError(ValueError, RuntimeError):
    """A value paddle 2.6 refuses in its kernels with PreconditionNotMet, a RuntimeError there, where Python's
    convention says ValueError: both, so code written for either catches it (as numpy's AxisError is both a
    ValueError and an IndexError)."""


def check_not_empty(x: Tensor, fn: str, arg: str = "x", error=ValueError) -> Tensor:
    """x must have elements: paddle 2.6 refuses to reduce, index with or multiply out an empty tensor."""
    if x.size == 0:
        raise error(f"{fn}: {arg} must not be empty, got a tensor of shape {list(x.shape)}")
    return x


def check_same_shape(x: Tensor, y: Tensor, fn: str, xarg: str = "x", yarg: str = "y", error=ValueError) -> None:
    """x and y must have one shape (the losses and binary ops paddle 2.6 does not broadcast)."""
    if tuple(x.shape) != tuple(y.shape):
        raise error(f"{fn}: {xarg} and {yarg} must have the same shape, got {list(x.shape)} and {list(y.shape)}")


def check_same_rank(x: Tensor, y: Tensor, fn: str, xarg: str = "x", yarg: str = "y") -> None:
    """x and y must have one rank (they broadcast only dimension by dimension, as paddle 2.6's atan2)."""
    if x.ndim != y.ndim:
        raise ValueError(f"{fn}: {xarg} and {yarg} must have the same rank, got {list(x.shape)} and "
                         f"{list(y.shape)}")  # fmt: skip


def check_flag(v, fn: str, arg: str) -> bool:
    """A switch paddle 2.6 passes to its C++ op as a bool attribute: a bool, an int or None (False), as paddle
    converts them; a string or a container is refused (paddle's 'must be bool' ValueError)."""
    if v is None:
        return False
    if not isinstance(v, (bool, np.bool_, int, np.integer)):
        raise TypeError(f"{fn}: {arg} must be a bool, got {type(v).__name__}")
    return bool(v)
