"""What an op-table entry is (OpInfo, Sample) and the sample makers every section shares.

The op table (DESIGN.md, Testing) has one entry per public op, with sample inputs and a numpy reference.

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
    static: bool = True  # also check that static mode (Program + Executor) gives the same values and gradients
    no_grad_args: tuple = ()  # positions of float inputs that get no gradient, as in paddle (a loss's label)


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


def np_reduce(fn):
    def ref(x, axis=None, keepdim=False):
        axis = tuple(axis) if isinstance(axis, list) else axis
        return fn(x, axis=axis, keepdims=keepdim)

    return ref
