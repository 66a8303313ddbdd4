"""Running products and extrema, logcumsumexp, the NaN-ignoring median, and counting and searching in sorted
sequences: cumprod, cum_extremum_indices, logcumsumexp, nanmedian, bincount, searchsorted, logspace.

cummax/cummin need only the positions (an op without gradient here); their values are gathered at those
positions, so the gradient goes back to the arg positions through gather_along_axis.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import UnaryOp

__all__ = [
    "cumprod",
    "cum_extremum_indices",
    "logcumsumexp",
    "nanmedian",
    "bincount",
    "searchsorted",
    "logspace",
]  # the raw op functions; ops/__init__.py gathers them


@register
class Cumprod(UnaryOp):
    """out[i] = x[0] * ... * x[i] along `axis`; dtype is kept.

    The gradient is exact with zeros in x (as Paddle's): before a line's first zero, d/dx_j is the reversed
    running sum of g * out divided by x_j; at the first zero it is the same sum over the products taken with
    that zero read as 1; after it every product holds the zero, so the gradient is 0.
    """

    name = "cumprod"
    amp = "black"
    saves_outputs = True

    def kernel(self, x, axis):
        return np.cumprod(x, axis=axis, dtype=x.dtype)

    def grad(self, node, g):
        x, out, axis = node.inputs[0], node.output(0), node.attrs["axis"]
        is_zero = ops.equal(x, ops.full_like(x, 0))
        zeros_so_far = ops.cumsum(ops.cast(is_zero, np.int64), axis)
        before = ops.equal(zeros_so_far, ops.full_like(zeros_so_far, 0))
        first_zero = ops.logical_and(is_zero, ops.equal(zeros_so_far, ops.full_like(zeros_so_far, 1)))
        ones = ops.full_like(x, 1)
        nonzero_x = ops.where(is_zero, ones, x)  # (divided by only before the first zero)
        first_zero_as_one = ops.where(first_zero, ones, x)
        before_zero = ops.divide(ops.cumsum(ops.multiply(g, ops.conj(out)), axis, True), ops.conj(nonzero_x))
        at_zero = ops.cumsum(ops.multiply(g, ops.conj(cumprod(first_zero_as_one, axis))), axis, True)
        zero_grad = ops.full_like(g, 0)
        return (ops.where(before, before_zero, ops.where(first_zero, at_zero, zero_grad)),)


def cumprod(x: Tensor, axis: int) -> Tensor:
    return apply(Cumprod, (x,), {"axis": axis})


@register
class CumExtremumIndices(OpDef):
    """Where the running maximum (largest=True) or minimum of x along `axis` was found.

    As Paddle: a later element equal to the running extremum takes over the position, and once a NaN is met the
    extremum stays NaN, at the position of the latest NaN. Vectorized: mark each element that is (or ties) the
    running extremum where it stands, then carry the latest mark forward.
    """

    name = "cum_extremum_indices"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, axis, largest=True, dtype=np.int64):
        accumulate = np.maximum.accumulate if largest else np.minimum.accumulate  # both carry a NaN forward
        running = accumulate(x, axis=axis)
        mark = x == running
        if x.dtype.kind in "fc":
            mark |= np.isnan(x)
        shape = [1] * x.ndim
        shape[axis] = x.shape[axis]
        positions = np.where(mark, np.arange(x.shape[axis]).reshape(shape), 0)
        return np.maximum.accumulate(positions, axis=axis).astype(dtype)

    def infer_meta(self, x: Meta, axis, largest=True, dtype=np.int64) -> Meta:
        return Meta(x.shape, dtypes.from_numpy(np.dtype(dtype)))


def cum_extremum_indices(x: Tensor, axis: int, largest: bool, dtype) -> Tensor:
    return apply(CumExtremumIndices, (x,), {"axis": axis, "largest": largest, "dtype": dtype})


@register
class LogCumsumExp(UnaryOp):
    """out[i] = log(exp(x[0]) + ... + exp(x[i])) along `axis` (reverse=True: from the end), without overflow.

    As Paddle's kernel, which starts each running sum at the dtype's lowest value, a prefix of -inf gives that
    lowest value (-3.4e38 in float32) rather than -inf.
    """

    name = "logcumsumexp"
    saves_outputs = True

    def kernel(self, x, axis, reverse=False):
        if reverse:
            x = np.flip(x, axis)
        with np.errstate(invalid="ignore"):  # (-inf) - (-inf) inside logaddexp
            out = np.logaddexp.accumulate(x, axis=axis, dtype=x.dtype)
        out = np.maximum(out, np.finfo(x.dtype).min)  # keeps NaN
        return np.flip(out, axis).copy() if reverse else out

    def grad(self, node, g):
        # d/dx_j = sum over i >= j of g_i * exp(x_j - out_i). The sum is taken in log space, split into the
        # positive and negative parts of g, so that nothing overflows (Paddle's rule too).
        x, out, axis, reverse = node.inputs[0], node.output(0), node.attrs["axis"], node.attrs["reverse"]
        zeros = ops.full_like(g, 0)
        parts = []
        for part in (ops.maximum(g, zeros), ops.maximum(ops.neg(g), zeros)):
            log_sum = logcumsumexp(ops.subtract(ops.log(part), out), axis, not reverse)
            parts.append(ops.exp(ops.add(log_sum, x)))
        return (ops.subtract(parts[0], parts[1]),)


def logcumsumexp(x: Tensor, axis: int, reverse: bool = False) -> Tensor:
    return apply(LogCumsumExp, (x,), {"axis": axis, "reverse": reverse})


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


@register
class Bincount(OpDef):
    """How often each value 0, 1, ..., max(x) occurs in the 1-D non-negative int tensor x (at least `minlength`
    bins), or the sum of `weights` falling in each bin. As Paddle, an empty x gives an empty result."""

    name = "bincount"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, weights, minlength=0):  # (weights: None when not given)
        if x.size and x.min() < 0:
            raise ValueError(f"bincount: the elements of x must be non-negative, got {x.min()}")
        if weights is None:
            out_dtype = np.int64
        else:
            out_dtype = weights.dtype if weights.dtype.kind == "f" else np.float64  # int weights: float64
        if x.size == 0:
            return np.zeros(0, out_dtype)
        return np.bincount(x, weights=weights, minlength=minlength).astype(out_dtype)

    def infer_meta(self, x: Meta, weights, minlength=0) -> Meta:
        if weights is None:
            return Meta((-1,), dtypes.int64)
        return Meta((-1,), weights.dtype if weights.dtype.is_floating else dtypes.float64)


def bincount(x: Tensor, weights=None, minlength: int = 0) -> Tensor:
    return apply(Bincount, (x, weights), {"minlength": minlength})


@register
class Searchsorted(OpDef):
    """For each value, the position in `sorted_sequence` where it would be inserted to keep the order: the first
    such position (right=False) or the last. A 1-D sequence serves every value; an N-D sequence has one sorted
    row per row of values (their leading dimensions are equal). NaN counts as larger than every number, as in
    numpy and Paddle."""

    name = "searchsorted"
    differentiable = False
    saves_inputs = False

    def kernel(self, sorted_sequence, values, right=False, dtype=np.int64):
        side = "right" if right else "left"
        if sorted_sequence.ndim == 1:
            return np.searchsorted(sorted_sequence, values, side=side).astype(dtype)
        # One row each: count the row's elements that sort before the value (NaN-aware, all rows at once).
        seq, v = sorted_sequence[..., None, :], values[..., :, None]
        before = seq <= v if right else seq < v
        if values.dtype.kind == "f":
            before |= np.isnan(v) & (right | ~np.isnan(seq))
        return before.sum(axis=-1).astype(dtype)

    def infer_meta(self, sorted_sequence: Meta, values: Meta, right=False, dtype=np.int64) -> Meta:
        return Meta(values.shape, dtypes.from_numpy(np.dtype(dtype)))


def searchsorted(sorted_sequence: Tensor, values: Tensor, right: bool = False, dtype=np.int64) -> Tensor:
    return apply(Searchsorted, (sorted_sequence, values), {"right": right, "dtype": dtype})


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
