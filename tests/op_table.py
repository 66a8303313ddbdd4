"""The op table (DESIGN.md, Testing): one entry per public op, with sample inputs and a numpy reference.

tests/ops/test_op_table.py runs every check that applies to all ops over this table: forward against numpy,
float64 gradcheck, double backward. A new op gets all the checks by adding one entry here; a new subsystem
(static mode, AMP, ONNX) adds one check that loops over the same entries.

An entry's `samples(rng)` returns a list of `Sample(args, kwargs)`: args are numpy arrays (they become
Tensors) or other values (passed as they are). Floating arrays are made float64 for gradcheck and cast to
each dtype in `dtypes` for the forward check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import minipaddle as paddle
import minipaddle.nn.functional as F


@dataclass
class Sample:
    args: tuple
    kwargs: dict = field(default_factory=dict)
    label: str = ""


@dataclass
class OpInfo:
    name: str
    fn: Callable  # the public minipaddle function, called with Tensors
    ref: Callable  # the numpy reference, called with arrays
    samples: Callable  # rng -> list[Sample]
    grad: bool = True  # check gradients with gradcheck (float64)
    double_grad: bool = False  # also check second derivatives (gradgradcheck)
    dtypes: tuple = ("float32", "float64")
    atol: float = 1e-5
    rtol: float = 1e-5
    grad_eps: float = 1e-6  # gradcheck's nudge (larger for ops that pass through float32 on the way)


def r(rng, *shape, low=-1.0, high=1.0):
    return rng.uniform(low, high, size=shape)


def pos(rng, *shape):
    return rng.uniform(0.5, 2.0, size=shape)


def unary_samples(make=r):
    def samples(rng):
        return [
            Sample((make(rng, 3, 4),), label="2-d"),
            Sample((make(rng, 5),), label="1-d"),
            Sample((np.asarray(make(rng, 1)[0]),), label="0-d"),
            Sample((make(rng, 2, 3, 2),), label="3-d"),
        ]

    return samples


def binary_samples(make_x=r, make_y=r):
    def samples(rng):
        return [
            Sample((make_x(rng, 3, 4), make_y(rng, 3, 4)), label="same shape"),
            Sample((make_x(rng, 3, 4), make_y(rng, 4)), label="broadcast y row"),
            Sample((make_x(rng, 3, 1), make_y(rng, 1, 4)), label="broadcast both"),
            Sample((make_x(rng, 2, 3, 4), make_y(rng, 3, 1)), label="broadcast 3-d"),
            Sample((np.asarray(make_x(rng, 1)[0]), make_y(rng, 2, 2)), label="0-d x"),
        ]

    return samples


def distinct(rng, *shape):
    """Values with no ties (max/min/maximum gradients are only defined away from ties)."""
    n = int(np.prod(shape)) if shape else 1
    return (rng.permutation(n) / n * 2 - 1 + 0.05).reshape(shape)


def reduce_samples(rng):
    x = distinct(rng, 3, 4, 2)
    return [
        Sample((x,), {}, "all axes"),
        Sample((x,), {"axis": 1}, "axis=1"),
        Sample((x,), {"axis": -1, "keepdim": True}, "axis=-1 keepdim"),
        Sample((x,), {"axis": [0, 2]}, "axis list"),
        Sample((distinct(rng, 5),), {"axis": 0}, "1-d"),
    ]


def _np_reduce(fn):
    def ref(x, axis=None, keepdim=False):
        axis = tuple(axis) if isinstance(axis, list) else axis
        return fn(x, axis=axis, keepdims=keepdim)

    return ref


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


OP_TABLE: list[OpInfo] = [
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
    OpInfo("sum", paddle.sum, _np_reduce(np.sum), reduce_samples),
    OpInfo("mean", paddle.mean, _np_reduce(np.mean), reduce_samples),
    OpInfo("max", paddle.max, _np_reduce(np.max), reduce_samples),
    OpInfo("min", paddle.min, _np_reduce(np.min), reduce_samples),
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
