"""Op-table section: the engine's first ops (issue 2): arithmetic, math, activations, reductions, matmul,
reshaping, comparisons."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
import minipaddle.nn.functional as F
from tests.op_table.common import (
    OpInfo,
    Sample,
    binary_samples,
    distinct,
    np_reduce,
    pos,
    r,
    reduce_samples,
    unary_samples,
)


def matmul_ref(x, y, transpose_x=False, transpose_y=False):
    t = lambda a: np.swapaxes(a, -1, -2) if a.ndim >= 2 else a  # noqa: E731
    return np.matmul(t(x) if transpose_x else x, t(y) if transpose_y else y)


def matmul_samples(rng):
    return [
        Sample((r(rng, 3, 4), r(rng, 4, 5)), {}, "2-d"),
        Sample((r(rng, 2, 3, 4), r(rng, 2, 4, 5)), {}, "batched"),
        Sample((r(rng, 2, 3, 4), r(rng, 4, 5)), {}, "broadcast batch"),
        Sample((r(rng, 4), r(rng, 4, 5)), {}, "vector @ matrix"),
        Sample((r(rng, 3, 4), r(rng, 4)), {}, "matrix @ vector"),
        Sample((r(rng, 4), r(rng, 4)), {}, "dot"),
        Sample((r(rng, 4, 3), r(rng, 4, 5)), {"transpose_x": True}, "transpose_x"),
        Sample((r(rng, 3, 4), r(rng, 5, 4)), {"transpose_y": True}, "transpose_y"),
        Sample((r(rng, 2, 4, 3), r(rng, 5, 4)), {"transpose_x": True, "transpose_y": True}, "both"),
    ]


def softmax_ref(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def axis_samples(rng):
    return [
        Sample((r(rng, 3, 4),), {}, "last axis"),
        Sample((r(rng, 3, 4),), {"axis": 0}, "axis 0"),
        Sample((r(rng, 2, 3, 4),), {"axis": 1}, "3-d axis 1"),
        Sample((r(rng, 5),), {}, "1-d"),
    ]


def concat_samples(rng):
    return [
        Sample(([r(rng, 2, 3), r(rng, 4, 3)],), {"axis": 0}, "axis 0"),
        Sample(([r(rng, 2, 3), r(rng, 2, 1), r(rng, 2, 2)],), {"axis": -1}, "three, axis -1"),
    ]


def stack_samples(rng):
    return [
        Sample(([r(rng, 2, 3), r(rng, 2, 3)],), {"axis": 0}, "axis 0"),
        Sample(([r(rng, 2, 3), r(rng, 2, 3), r(rng, 2, 3)],), {"axis": 2}, "axis 2"),
        Sample(([r(rng, 4)],), {"axis": -1}, "one tensor, axis -1"),
    ]


def where_samples(rng):
    return [
        Sample((rng.random((3, 4)) > 0.5, r(rng, 3, 4), r(rng, 3, 4)), {}, "same shape"),
        Sample((rng.random((3, 4)) > 0.5, r(rng, 4), r(rng, 3, 1)), {}, "broadcast"),
    ]


def getitem_samples(rng):
    x = r(rng, 4, 5, 3)
    return [
        Sample((x, (1,)), {}, "int"),
        Sample((x, (slice(1, 3), slice(None, None, -2))), {}, "slices with negative step"),
        Sample((x, (Ellipsis, 0)), {}, "ellipsis"),
        Sample((x, (None, slice(None), 2)), {}, "None"),
        Sample((x, (np.array([0, 2, 2]),)), {}, "int array with repeats"),
        Sample((x, (x[..., 0] > 0,)), {}, "bool mask"),
    ]


def cmp_samples(rng):
    a = rng.integers(0, 3, size=(3, 4)).astype(float)
    return [
        Sample((a, rng.integers(0, 3, size=(3, 4)).astype(float)), {}, "same shape"),
        Sample((a, rng.integers(0, 3, size=(4,)).astype(float)), {}, "broadcast"),
    ]


def _cmp(name, np_fn):
    return OpInfo(name, getattr(paddle, name), np_fn, cmp_samples, grad=False)


ENTRIES: list[OpInfo] = [
    # elementwise arithmetic
    OpInfo("add", paddle.add, np.add, binary_samples()),
    OpInfo("subtract", paddle.subtract, np.subtract, binary_samples()),
    OpInfo("multiply", paddle.multiply, np.multiply, binary_samples(), double_grad=True),
    OpInfo("divide", paddle.divide, np.divide, binary_samples(r, pos), double_grad=True),
    OpInfo("pow_scalar", lambda x, y: paddle.pow(x, y), np.power,
           lambda rng: [Sample((pos(rng, 3, 4), 3.0)), Sample((pos(rng, 5), -0.5)), Sample((pos(rng, 2, 2), 2))],
           double_grad=True),
    OpInfo("pow_tensor", paddle.pow, np.power, binary_samples(pos, r), double_grad=True),
    OpInfo("maximum", paddle.maximum, np.maximum, binary_samples(distinct, lambda rng, *s: distinct(rng, *s) + 0.01)),
    OpInfo("minimum", paddle.minimum, np.minimum, binary_samples(distinct, lambda rng, *s: distinct(rng, *s) + 0.01)),
    OpInfo("neg", paddle.neg, np.negative, unary_samples()),
    OpInfo("scale", paddle.scale, lambda x, scale=1.0, bias=0.0, bias_after_scale=True:
           x * scale + bias if bias_after_scale else (x + bias) * scale,
           lambda rng: [Sample((r(rng, 3, 4),), {"scale": 2.5, "bias": 1.0}),
                        Sample((r(rng, 3),), {"scale": -1.0, "bias": 0.5, "bias_after_scale": False})]),
    # elementwise math
    OpInfo("abs", paddle.abs, np.abs, unary_samples(distinct)),
    OpInfo("sign", paddle.sign, np.sign, unary_samples(distinct), grad=False),
    OpInfo("exp", paddle.exp, np.exp, unary_samples(), double_grad=True),
    OpInfo("log", paddle.log, np.log, unary_samples(pos), double_grad=True),
    OpInfo("sqrt", paddle.sqrt, np.sqrt, unary_samples(pos), double_grad=True),
    OpInfo("tanh", paddle.tanh, np.tanh, unary_samples(), double_grad=True),
    # activations
    OpInfo("sigmoid", F.sigmoid, lambda x: 1 / (1 + np.exp(-x)), unary_samples(), double_grad=True),
    OpInfo("relu", F.relu, lambda x: np.maximum(x, 0), unary_samples(distinct)),
    OpInfo("softmax", F.softmax, softmax_ref, axis_samples, double_grad=True),
    OpInfo("log_softmax", F.log_softmax, lambda x, axis=-1: np.log(softmax_ref(x, axis)), axis_samples,
           double_grad=True),
    # reductions
    OpInfo("sum", paddle.sum, np_reduce(np.sum), reduce_samples),
    OpInfo("mean", paddle.mean, np_reduce(np.mean), reduce_samples),
    OpInfo("max", paddle.max, np_reduce(np.max), reduce_samples),
    OpInfo("numel", paddle.numel, lambda x: np.asarray(x.size, dtype=np.int64), unary_samples(), grad=False),
    OpInfo("min", paddle.min, np_reduce(np.min), reduce_samples),
    # linear algebra
    OpInfo("matmul", paddle.matmul, matmul_ref, matmul_samples, double_grad=True, atol=1e-5, rtol=1e-4),
    # manipulation
    OpInfo("reshape", paddle.reshape, lambda x, shape: np.reshape(x, [x.shape[i] if d == 0 else d
                                                                      for i, d in enumerate(shape)]),
           lambda rng: [Sample((r(rng, 3, 4),), {"shape": [2, 6]}), Sample((r(rng, 3, 4),), {"shape": [-1]}),
                        Sample((r(rng, 2, 3, 4),), {"shape": [0, -1]}), Sample((r(rng, 1),), {"shape": []})]),
    OpInfo("transpose", paddle.transpose, lambda x, perm: np.transpose(x, perm),
           lambda rng: [Sample((r(rng, 3, 4),), {"perm": [1, 0]}), Sample((r(rng, 2, 3, 4),), {"perm": [2, 0, 1]})]),
    OpInfo("cast", lambda x, dtype: paddle.cast(x, dtype), lambda x, dtype: x.astype(dtype),
           lambda rng: [Sample((r(rng, 3, 4),), {"dtype": "float64"}), Sample((r(rng, 3),), {"dtype": "float32"})],
           grad_eps=1e-2),
    OpInfo("cast_to_int", lambda x, dtype: paddle.cast(x, dtype), lambda x, dtype: x.astype(dtype),
           lambda rng: [Sample((r(rng, 3, 4) * 5,), {"dtype": "int32"})], grad=False),
    OpInfo("concat", paddle.concat, lambda xs, axis=0: np.concatenate(xs, axis), concat_samples),
    OpInfo("stack", paddle.stack, lambda xs, axis=0: np.stack(xs, axis), stack_samples),
    OpInfo("where", paddle.where, np.where, where_samples),
    OpInfo("getitem", lambda x, index: x[index], lambda x, index: x[index], getitem_samples),
    OpInfo("clone", lambda x: x.clone(), lambda x: x.copy(), unary_samples()),
    OpInfo("unstack_iter", lambda x: paddle.stack([t * (i + 1) for i, t in enumerate(x)]),
           lambda x: np.stack([t * (i + 1) for i, t in enumerate(x)]), lambda rng: [Sample((r(rng, 3, 2),))]),
    # complex (forward only here; complex gradients are checked by the complex-number tests)
    OpInfo("conj", paddle.conj, np.conj,
           lambda rng: [Sample((r(rng, 3, 4) + 1j * r(rng, 3, 4),))], grad=False,
           dtypes=("complex128",)),
    # comparisons
    _cmp("equal", np.equal),
    _cmp("not_equal", np.not_equal),
    _cmp("less_than", np.less),
    _cmp("less_equal", np.less_equal),
    _cmp("greater_than", np.greater),
    _cmp("greater_equal", np.greater_equal),
]  # fmt: skip
