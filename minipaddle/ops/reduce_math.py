"""More reductions over axes: prod, logsumexp, and the boolean all/any.

They share the conventions of ops/reduce.py: `axis` is None (all axes) or a tuple of non-negative ints, and
`_restore` broadcasts an output-shaped gradient back to the input's shape.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import ReduceOp
from minipaddle.ops.reduce import _restore

__all__ = ["prod", "logsumexp", "amax", "amin", "all", "any"]  # the raw op functions; ops/__init__.py gathers them


@register
class Prod(ReduceOp):
    """The product over `axis`; dtype is kept (int32 stays int32, as in Paddle)."""

    name = "prod"
    amp = "black"
    saves_outputs = True

    def kernel(self, x, axis=None, keepdim=False):
        return np.prod(x, axis=axis, keepdims=keepdim, dtype=x.dtype)

    def grad(self, node, g):
        # d(prod)/dx_i = prod / x_i, Paddle's rule (it gives nan where x_i is 0, as Paddle's does).
        x = node.inputs[0]
        out = _restore(node.output(0), node)
        return (ops.divide(ops.multiply(_restore(g, node), ops.conj(out)), ops.conj(x)),)


@register
class Logsumexp(ReduceOp):
    """log(sum(exp(x))) over `axis`, computed as m + log(sum(exp(x - m))) with m the max, so exp cannot overflow."""

    name = "logsumexp"
    saves_outputs = True

    def kernel(self, x, axis=None, keepdim=False):
        m = np.max(x, axis=axis, keepdims=True)
        m = np.where(np.isfinite(m), m, 0)  # rows of -inf (or +inf) need no shift, and must not give inf - inf
        with np.errstate(divide="ignore", over="ignore"):
            out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
        return out if keepdim else np.squeeze(out, axis=axis)

    def grad(self, node, g):
        # d/dx_i = exp(x_i) / sum(exp(x)) = exp(x_i - out): the softmax over the reduced axes.
        x = node.inputs[0]
        return (ops.multiply(_restore(g, node), ops.exp(ops.subtract(x, _restore(node.output(0), node)))),)


class _SharedExtremum(ReduceOp):
    """amax/amin: like max/min, but tied extrema share the gradient equally (max/min give each the whole)."""

    saves_outputs = True

    def grad(self, node, g):
        x = node.inputs[0]
        hit = ops.cast(ops.equal(x, _restore(node.output(0), node)), x.dtype)
        ties = ops.sum(hit, node.attrs["axis"], True)  # how many elements share each extremum
        return (ops.multiply(_restore(g, node), ops.divide(hit, ops.expand(ties, tuple(x.shape)))),)


@register
class Amax(_SharedExtremum):
    name = "amax"
    reducer = staticmethod(np.max)


@register
class Amin(_SharedExtremum):
    name = "amin"
    reducer = staticmethod(np.min)


class _BoolReduce(ReduceOp):
    differentiable = False
    saves_inputs = False

    def result_dtype(self, d):
        return dtypes.bool_


@register
class All(_BoolReduce):
    name = "all"
    reducer = staticmethod(np.all)


@register
class Any(_BoolReduce):
    name = "any"
    reducer = staticmethod(np.any)


def prod(x: Tensor, axis=None, keepdim: bool = False) -> Tensor:
    return apply(Prod, (x,), {"axis": axis, "keepdim": keepdim})


def logsumexp(x: Tensor, axis=None, keepdim: bool = False) -> Tensor:
    return apply(Logsumexp, (x,), {"axis": axis, "keepdim": keepdim})


def amax(x: Tensor, axis=None, keepdim: bool = False) -> Tensor:
    return apply(Amax, (x,), {"axis": axis, "keepdim": keepdim})


def amin(x: Tensor, axis=None, keepdim: bool = False) -> Tensor:
    return apply(Amin, (x,), {"axis": axis, "keepdim": keepdim})


def all(x: Tensor, axis=None, keepdim: bool = False) -> Tensor:  # noqa: A001 (Paddle's name)
    return apply(All, (x,), {"axis": axis, "keepdim": keepdim})


def any(x: Tensor, axis=None, keepdim: bool = False) -> Tensor:  # noqa: A001
    return apply(Any, (x,), {"axis": axis, "keepdim": keepdim})
