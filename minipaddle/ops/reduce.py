"""Reductions over axes: sum, mean, max, min, and the NaN-ignoring median (nanmedian). `axis` is None (all axes)
or a tuple of non-negative ints.

sum and mean of float16/bfloat16 accumulate in float32 and round once, as paddle's GPU kernels do (their MPType):
numpy would add in the low dtype, where 4096 bfloat16 values of 0.1 sum to 32 instead of 410.
"""

from __future__ import annotations

import math

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.half_casts import from_float32, to_float32
from minipaddle.ops.kinds import ReduceOp
from minipaddle.ops.low_precision import LOW_CODES

__all__ = [
    "sum",
    "mean",
    "max",
    "min",
    "count_elements",
    "nanmedian",
]


def _same_order_in_float32(x: np.ndarray, axis) -> bool:
    """Whether numpy sums x over `axis` in float32 in the order it sums x's float16/bfloat16 values with
    dtype=float32, so both give the same bits. x must be C-contiguous. Then each output is a fold over the outer
    reduced axes of pairwise sums over the run of trailing reduced axes (contiguous in memory); the cast path
    buffers np.getbufsize() values at a time and cuts a longer run into pieces, whose pairwise sums round
    otherwise. So: the last axis kept (no run: a Linear's bias gradient), or a run within one buffer (a conv's
    bias gradient over (0, 2, 3): H*W values). tests/amp/test_low_precision_kernels.py pins this against numpy."""
    if x.ndim == 0 or not x.flags.c_contiguous:
        return False
    reduced = set(range(x.ndim)) if axis is None else {a % x.ndim for a in ((axis,) if isinstance(axis, int) else axis)}
    run, k = 1, x.ndim - 1
    while k >= 0 and k in reduced:
        run *= x.shape[k]
        k -= 1
    return run <= np.getbufsize()


def _restore(g: Tensor, node) -> Tensor:
    """Give the output gradient back the reduced axes (as size 1), then broadcast it to the input's shape."""
    x = node.inputs[0]
    axis, keepdim = node.attrs["axis"], node.attrs["keepdim"]
    if not keepdim and axis is not None:  # (a full reduction's 0-d gradient broadcasts as it is)
        g = ops.reshape(g, tuple(1 if i in axis else d for i, d in enumerate(x.shape)))
    return ops.broadcast_like(g, x)


@register
class Sum(ReduceOp):
    name = "sum"
    amp = "black"
    saves_inputs = False

    def kernel(self, x, axis=None, keepdim=False, dtype=None):
        if dtype is None and x.dtype.char in LOW_CODES:  # float32 accumulation (paddle's GPU kernels' MPType)
            if _same_order_in_float32(x, axis):  # numpy's cast goes element by element: convert on the bits first
                return from_float32(np.add.reduce(to_float32(x), axis=axis, keepdims=keepdim), x.dtype)
            return np.add.reduce(x, axis=axis, dtype=np.float32, keepdims=keepdim).astype(x.dtype)
        if dtype is None and x.dtype in (np.bool_, np.int32):
            dtype = np.int64  # Paddle sums bool and int32 into int64 (int8/uint8/int16 keep their dtype)
        return np.add.reduce(x, axis=axis, dtype=dtype, keepdims=keepdim)  # np.sum without its Python wrapper

    def grad(self, node, g):
        return (_restore(g, node),)

    def result_dtype(self, d):
        return dtypes.int64 if d in (dtypes.bool_, dtypes.int32) else d


def sum(x: Tensor, axis=None, keepdim: bool = False) -> Tensor:  # noqa: A001 (Paddle's name)
    return apply(Sum, (x,), {"axis": axis, "keepdim": keepdim})


@register
class Mean(ReduceOp):
    name = "mean"
    amp = "black"
    saves_inputs = False

    def kernel(self, x, axis=None, keepdim=False):
        if x.dtype.char in LOW_CODES:  # float32 accumulation, one rounding (paddle's GPU rule, as sum)
            return np.mean(x, axis=axis, keepdims=keepdim, dtype=np.float32).astype(x.dtype)
        if axis is None and not keepdim and x.size and x.dtype.kind == "f":  # a loss's mean, on every step:
            total = np.add.reduce(x, axis=None, dtype=x.dtype)  # np.mean's own arithmetic (the sum divided by an
            return total.dtype.type(total / np.intp(x.size))  # intp count), without its two Python frames
        return np.mean(x, axis=axis, keepdims=keepdim, dtype=x.dtype)

    def grad(self, node, g):
        x = node.inputs[0]
        sizes = [x.shape[i] for i in (range(len(x.shape)) if node.attrs["axis"] is None else node.attrs["axis"])]
        if -1 in sizes:  # static mode, size known only at run time: count the elements then
            return (ops.divide(_restore(g, node), ops.cast(ops.count_elements(x, node.attrs["axis"]), g.dtype)),)
        return (ops.scale(_restore(g, node), 1.0 / (math.prod(sizes) or 1)),)


def mean(x: Tensor, axis=None, keepdim: bool = False) -> Tensor:
    return apply(Mean, (x,), {"axis": axis, "keepdim": keepdim})


@register
class CountElements(OpDef):
    """How many elements x has along `axis` (all axes when None), as a 0-d int64 tensor; x's values are not read."""

    name = "count_elements"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, axis=None):
        return np.asarray(x.size if axis is None else math.prod(x.shape[a] for a in axis), dtype=np.int64)

    def infer_meta(self, x, axis=None) -> Meta:
        return Meta((), dtypes.int64)


def count_elements(x: Tensor, axis=None) -> Tensor:
    return apply(CountElements, (x,), {"axis": axis})


class _Extremum(ReduceOp):
    """max/min. The gradient goes to every element equal to the result (as Paddle's reduce_max_grad does)."""

    saves_outputs = True

    def grad(self, node, g):
        x = node.inputs[0]
        hit = ops.equal(x, _restore(node.output(0), node))
        return (ops.multiply(_restore(g, node), ops.cast(hit, x.dtype)),)


@register
class Max(_Extremum):
    name = "max"
    reducer = staticmethod(np.max)


@register
class Min(_Extremum):
    name = "min"
    reducer = staticmethod(np.min)


def max(x: Tensor, axis=None, keepdim: bool = False) -> Tensor:  # noqa: A001
    return apply(Max, (x,), {"axis": axis, "keepdim": keepdim})


def min(x: Tensor, axis=None, keepdim: bool = False) -> Tensor:  # noqa: A001
    return apply(Min, (x,), {"axis": axis, "keepdim": keepdim})


@register
class Nanmedian(OpDef):
    """The median of each line along the last axis, ignoring NaN, and the positions of its two middle values.

    With an even count of numbers the median is the mean of the two middle ones (for integers, truncated toward
    zero, as Paddle's C++ division), and each gets half the gradient; with an odd count both positions are the
    middle one. A line of only NaN gives NaN and no gradient. Ties are broken by position (a stable sort).
    Outputs: the medians (x's dtype, shape x.shape[:-1]) and the positions (int64, shape x.shape[:-1] + [2]).
    """

    name = "nanmedian"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        order = np.argsort(x, axis=-1, kind="stable")  # NaN sorts last
        count = np.full(x.shape[:-1], x.shape[-1])
        if x.dtype.kind not in "iub":
            count -= np.isnan(x).sum(axis=-1)
        middle = np.stack([np.maximum((count - 1) // 2, 0), count // 2], axis=-1)  # a NaN-only line: NaN at 0
        positions = np.take_along_axis(order, middle, axis=-1)
        low, high = np.moveaxis(np.take_along_axis(x, positions, axis=-1), -1, 0)
        if x.dtype.kind in "iu":
            median = np.trunc((low.astype(np.float64) + high) / 2).astype(x.dtype)
        else:
            median = ((low + high) / 2).astype(x.dtype)
        return median, positions.astype(np.int64)

    def grad(self, node, g, g_positions=None):
        x, median, positions = node.inputs[0], node.output(0), node.output(1)
        half = ops.where(ops.isnan(median), ops.full_like(g, 0), ops.scale(g, 0.5))  # all-NaN lines: none
        halves = ops.expand(ops.reshape(half, tuple(half.shape) + (1,)), tuple(positions.shape))
        return (ops.scatter_add_along_axis(halves, positions, -1, tuple(x.shape)),)


def nanmedian(x: Tensor) -> tuple:
    return apply(Nanmedian, (x,))
