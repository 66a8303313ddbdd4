"""Running sums, products, extrema and log-sums along an axis: cumsum (its gradient is the running sum taken from
the other end), cumprod, cum_extremum_indices (the positions of cummax / cummin: their values are gathered there,
so the gradient goes back through gather_along_axis) and logcumsumexp."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import UnaryOp

__all__ = [
    "cumsum",
    "cumprod",
    "cum_extremum_indices",
    "logcumsumexp",
]


@register
class Cumsum(UnaryOp):
    """out[i] = x[0] + ... + x[i] along `axis` (or x[i] + ... + x[n-1] with reverse=True). dtype is kept."""

    name = "cumsum"
    amp = "black"
    saves_inputs = False

    def kernel(self, x, axis, reverse=False):
        if reverse:
            return np.flip(np.cumsum(np.flip(x, axis), axis=axis, dtype=x.dtype), axis)
        return np.cumsum(x, axis=axis, dtype=x.dtype)

    def grad(self, node, g):
        # Each x[j] appears in out[j], out[j+1], ...: its gradient sums g from j to the end.
        return (cumsum(g, node.attrs["axis"], not node.attrs["reverse"]),)


def cumsum(x: Tensor, axis: int, reverse: bool = False) -> Tensor:
    return apply(Cumsum, (x,), {"axis": axis, "reverse": reverse})


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
