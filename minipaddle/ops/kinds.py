"""Kinds of op that share a shape rule: elementwise unary, broadcasting binary, reduction.

Each base class gives `infer_meta` (static mode's shape/dtype rule) once for all ops of its kind; the kinds whose
kernel is one numpy function (BinaryUfuncOp, and ReduceOp with a `reducer`) give the kernel too. This file also
holds `as_tensor`, which lets grad rules write Python numbers (`multiply(g, 2.0)`).
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.op import Meta, OpDef
from minipaddle.core.tensor import Tensor


class UnaryOp(OpDef):
    """y = f(x), elementwise: y has x's shape and dtype."""

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x


class BinaryOp(OpDef):
    """z = f(x, y) with numpy broadcasting; x and y already have the same dtype (the public API promotes)."""

    out_dtype = None  # e.g. bool for comparisons; None means the inputs' dtype

    def infer_meta(self, x: Meta, y: Meta, **attrs) -> Meta:
        shape = broadcast_shapes(x.shape, y.shape, self.name)
        return Meta(shape, self.out_dtype or x.dtype)


class BinaryUfuncOp(BinaryOp):
    """z = ufunc(x, y) for the numpy ufunc named on the class, with no gradient: comparisons, logic, bits.

    The result is bool; an op whose result keeps the inputs' dtype sets `out_dtype = None`.
    """

    differentiable = False
    saves_inputs = False
    out_dtype = dtypes.bool_
    ufunc = None

    def kernel(self, x, y):
        return self.ufunc(x, y)


class ReduceOp(OpDef):
    """Reduce over `axis` (None = all axes, else a tuple of non-negative ints) with `keepdim`.

    Where the kernel is one numpy reduction (np.max, np.all, ...), the op names it as `reducer`.
    """

    reducer = None

    def kernel(self, x, axis=None, keepdim=False):
        return self.reducer(x, axis=axis, keepdims=keepdim)

    def infer_meta(self, x: Meta, axis=None, keepdim=False, **attrs) -> Meta:
        axes = range(len(x.shape)) if axis is None else axis
        shape = tuple((1 if keepdim else None) if i in axes else d for i, d in enumerate(x.shape))
        return Meta(tuple(d for d in shape if d is not None), self.result_dtype(x.dtype))

    def result_dtype(self, d: dtypes.DType) -> dtypes.DType:
        return d


def broadcast_shapes(a: tuple, b: tuple, op_name: str, error=ValueError) -> tuple:
    """numpy's broadcasting rule, with -1 (unknown in static mode) allowed; raises `error` (a ValueError) naming
    the op."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        da = a[-i] if i <= len(a) else 1
        db = b[-i] if i <= len(b) else 1
        if da == 1:
            out.append(db)
        elif db == 1 or da == db:
            out.append(da)
        elif da == -1 or db == -1:
            out.append(max(da, db))
        else:
            raise error(
                f"{op_name}: shapes {list(a)} and {list(b)} cannot be broadcast together (dimension {-i}: {da} vs {db})"
            )
    return tuple(reversed(out))


def as_tensor(value, like: Tensor) -> Tensor:
    """A Python number as a 0-d Tensor of `like`'s dtype, so grad rules can write `multiply(g, 2.0)`."""
    if isinstance(value, Tensor):
        return value
    return Tensor(np.asarray(value, dtype=like._data.dtype))
