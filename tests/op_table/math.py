"""Op-table section: elementwise math (trigonometric, hyperbolic, rounding, erf, logarithms, powers, clip),
integer division, products of several tensors, and reductions (cumsum, prod, logsumexp, amax/amin, all/any)."""

from __future__ import annotations

import math

import numpy as np

import minipaddle as paddle
from tests.op_table.common import (
    OpInfo,
    Sample,
    distinct,
    np_reduce,
    pos,
    r,
    reduce_samples,
    unary_samples,
)


def within(low, high):
    def make(rng, *shape):
        return rng.uniform(low, high, size=shape)

    return make


def _float(fn_name, np_fn, make=r, double=False, **kw):
    return OpInfo(fn_name, getattr(paddle, fn_name), np_fn, unary_samples(make), double_grad=double, **kw)


def erf_ref(x):
    return np.vectorize(math.erf, otypes=[x.dtype])(x)


def round_ref(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def int_division_samples(rng):
    ints = lambda *s: rng.integers(-9, 10, size=s)  # noqa: E731
    nonzero = lambda *s: rng.choice([-4, -3, -2, -1, 1, 2, 3, 5], size=s)  # noqa: E731
    return [
        Sample((r(rng, 3, 4) * 5, pos(rng, 3, 4)), {}, "float"),
        Sample((r(rng, 3, 4) * 5, -pos(rng, 4)), {}, "float, negative divisor, broadcast"),
        Sample((ints(3, 4), nonzero(3, 4)), {}, "int"),
        Sample((ints(2, 3), nonzero(1, 3)), {}, "int broadcast"),
    ]


def clip_samples(rng):
    x = distinct(rng, 3, 4)
    return [
        Sample((x,), {"min": -0.3, "max": 0.4}, "both bounds"),
        Sample((x,), {"min": -0.3}, "min only"),
        Sample((x,), {"max": 0.4}, "max only"),
        Sample((distinct(rng, 5),), {}, "no bounds"),
    ]


def clip_ref(x, min=None, max=None):  # noqa: A002
    return np.clip(x, min, max)


def kron_samples(rng):
    return [
        Sample((r(rng, 2, 3), r(rng, 3, 2)), {}, "matrices"),
        Sample((r(rng, 3), r(rng, 2, 2)), {}, "vector and matrix"),
        Sample((r(rng, 2, 1, 2), r(rng, 2)), {}, "3-d and 1-d"),
    ]


def addmm_samples(rng):
    return [
        Sample((r(rng, 3, 4), r(rng, 3, 2), r(rng, 2, 4)), {"beta": 0.5, "alpha": 2.0}, "full input"),
        Sample((r(rng, 4), r(rng, 3, 2), r(rng, 2, 4)), {}, "broadcast row"),
    ]


def addmm_ref(inp, x, y, beta=1.0, alpha=1.0):
    return beta * inp + alpha * (x @ y)


def add_n_samples(rng):
    return [
        Sample(([r(rng, 3, 4), r(rng, 3, 4), r(rng, 3, 4)],), {}, "three"),
        Sample(([r(rng, 2)],), {}, "one"),
    ]


def multiplex_samples(rng):
    return [
        Sample(([r(rng, 4, 3), r(rng, 4, 3), r(rng, 4, 3)], np.array([[2], [0], [1], [2]])), {}, "three inputs"),
        Sample(([r(rng, 2, 2, 2), r(rng, 2, 2, 2)], np.array([[1], [1]])), {}, "3-d"),
    ]


def multiplex_ref(inputs, index):
    return np.stack([inputs[k][i] for i, k in enumerate(index[:, 0])])


def trace_samples(rng):
    return [
        Sample((r(rng, 4, 4),), {}, "square"),
        Sample((r(rng, 3, 5),), {"offset": 1}, "offset 1"),
        Sample((r(rng, 2, 3, 4),), {"offset": -1, "axis1": 1, "axis2": 2}, "batched, offset -1"),
        Sample((r(rng, 3, 2, 4),), {"axis1": 2, "axis2": 0}, "axes 2, 0"),
    ]


def trace_ref(x, offset=0, axis1=0, axis2=1):
    return np.trace(x, offset, axis1, axis2)


def cumsum_samples(rng):
    return [
        Sample((r(rng, 3, 4),), {"axis": 1}, "axis 1"),
        Sample((r(rng, 3, 4),), {"axis": -2}, "axis -2"),
        Sample((r(rng, 2, 3),), {}, "flattened"),
    ]


def cumsum_ref(x, axis=None):
    return np.cumsum(x, axis=axis)


def tie_reduce_samples(rng):
    x = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, -1.0]])
    return [Sample((x,), {}, "all axes, ties"), Sample((x,), {"axis": 1}, "axis 1, ties")]


ENTRIES: list[OpInfo] = [
    # trigonometric and hyperbolic
    _float("sin", np.sin, double=True),
    _float("cos", np.cos, double=True),
    _float("tan", np.tan),
    _float("asin", np.arcsin, within(-0.9, 0.9)),
    _float("acos", np.arccos, within(-0.9, 0.9)),
    _float("atan", np.arctan, double=True),
    _float("sinh", np.sinh),
    _float("cosh", np.cosh),
    _float("asinh", np.arcsinh),
    _float("acosh", np.arccosh, within(1.2, 3.0)),
    _float("atanh", np.arctanh, within(-0.9, 0.9)),
    OpInfo("stanh", paddle.stanh, lambda x, scale_a=0.67, scale_b=1.7159: scale_b * np.tanh(scale_a * x),
           lambda rng: [Sample((r(rng, 3, 4),)), Sample((r(rng, 5),), {"scale_a": 1.5, "scale_b": 0.5})]),
    # rounding (zero gradient), erf, logarithms, powers
    _float("floor", np.floor, within(-3, 3)),
    _float("ceil", np.ceil, within(-3, 3)),
    _float("round", round_ref, within(-3, 3)),
    _float("trunc", np.trunc, within(-3, 3)),
    _float("erf", erf_ref, within(-2.5, 2.5), double=True),
    _float("log2", np.log2, pos),
    _float("log10", np.log10, pos),
    _float("log1p", np.log1p, pos, double=True),
    _float("expm1", np.expm1),
    _float("rsqrt", lambda x: 1 / np.sqrt(x), pos, double=True),
    _float("reciprocal", np.reciprocal, pos, double=True),
    _float("square", np.square, double=True),
    OpInfo("clip", paddle.clip, clip_ref, clip_samples),
    OpInfo("increment", lambda x, value=1.0: paddle.increment(x, value),
           lambda x, value=1.0: (x + value).astype(x.dtype),
           lambda rng: [Sample((np.array([3]),), {"value": 2}), Sample((np.array([[-1]]),))], grad=False,
           static=False),  # in place, so it takes no leaf that requires grad (the static check feeds those)
    # integer division (no gradient)
    OpInfo("floor_divide", paddle.floor_divide, np.floor_divide, int_division_samples, grad=False),
    OpInfo("remainder", paddle.remainder, np.remainder, int_division_samples, grad=False),
    # products and sums of several tensors
    OpInfo("kron", paddle.kron, np.kron, kron_samples, double_grad=True),
    OpInfo("addmm", paddle.addmm, addmm_ref, addmm_samples, double_grad=True),
    OpInfo("add_n", paddle.add_n, lambda xs: np.sum(xs, axis=0), add_n_samples),
    OpInfo("multiplex", paddle.multiplex, multiplex_ref, multiplex_samples),
    OpInfo("trace", paddle.trace, trace_ref, trace_samples),
    # reductions
    OpInfo("cumsum", paddle.cumsum, cumsum_ref, cumsum_samples, double_grad=True),
    OpInfo("prod", paddle.prod, np_reduce(np.prod),
           lambda rng: [s for s in reduce_samples(rng) if s.args[0].ndim > 1] + [Sample((pos(rng, 4),))],
           double_grad=True),
    OpInfo("logsumexp", paddle.logsumexp, np_reduce(lambda x, axis, keepdims: np.log(np.sum(
        np.exp(x), axis=axis, keepdims=keepdims))), reduce_samples, double_grad=True),
    OpInfo("amax", paddle.amax, np_reduce(np.max), reduce_samples),
    OpInfo("amin", paddle.amin, np_reduce(np.min), reduce_samples),
    OpInfo("amax_ties", paddle.amax, np_reduce(np.max), tie_reduce_samples, grad=False),
    OpInfo("all", paddle.all, np_reduce(np.all),
           lambda rng: [Sample((rng.random((3, 4)) > 0.2,)), Sample((rng.random((3, 4)) > 0.5,), {"axis": 1})],
           grad=False),
    OpInfo("any", paddle.any, np_reduce(np.any),
           lambda rng: [Sample((rng.random((3, 4)) > 0.8,)), Sample((r(rng, 3, 4),), {"axis": [0], "keepdim": True})],
           grad=False),
]  # fmt: skip
