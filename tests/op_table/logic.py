"""Op-table section: logical and bitwise ops, isnan/isinf/isfinite, isclose/allclose, equal_all (no gradients)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, r


def truth_samples(rng):
    return [
        Sample((rng.random((3, 4)) > 0.5, rng.random((3, 4)) > 0.5), {}, "bool"),
        Sample((rng.random((3, 4)) > 0.5, rng.random(4) > 0.5), {}, "bool, broadcast"),
        Sample((rng.integers(0, 3, (2, 3)), rng.integers(0, 3, (2, 3))), {}, "int"),
        Sample((np.where(rng.random((3, 1)) > 0.5, r(rng, 3, 1), 0.0), np.where(rng.random(4) > 0.5, 1.0, 0.0)), {},
               "float, broadcast both"),
    ]  # fmt: skip


def bits_samples(rng):
    return [
        Sample((rng.integers(-50, 50, (3, 4)), rng.integers(-50, 50, (3, 4))), {}, "int"),
        Sample((rng.integers(0, 255, (2, 3)), rng.integers(0, 255, (3,))), {}, "int, broadcast"),
        Sample((rng.random((3, 4)) > 0.5, rng.random((3, 4)) > 0.5), {}, "bool"),
    ]


def special_values(rng):
    x = r(rng, 3, 4)
    x[0, 1], x[1, 2], x[2, 0] = np.nan, np.inf, -np.inf
    return [Sample((x,), {}, "nan and inf"), Sample((rng.integers(0, 5, (3,)),), {}, "int")]


def close_samples(rng):
    x = r(rng, 3, 4)
    y = x + rng.choice([0.0, 1e-9, 1e-3], size=x.shape)
    y[0, 0] = x[0, 0] = np.nan
    return [
        Sample((x, y), {}, "default tolerances"),
        Sample((x, y), {"rtol": 1e-2, "atol": 1e-3, "equal_nan": True}, "loose, equal_nan"),
    ]


def _logical(name, np_fn, samples):
    return OpInfo(name, getattr(paddle, name), np_fn, samples, grad=False)


ENTRIES: list[OpInfo] = [
    _logical("logical_and", np.logical_and, truth_samples),
    _logical("logical_or", np.logical_or, truth_samples),
    _logical("logical_xor", np.logical_xor, truth_samples),
    _logical("logical_not", np.logical_not, lambda rng: [Sample((s.args[0],)) for s in truth_samples(rng)]),
    _logical("bitwise_and", np.bitwise_and, bits_samples),
    _logical("bitwise_or", np.bitwise_or, bits_samples),
    _logical("bitwise_xor", np.bitwise_xor, bits_samples),
    _logical("bitwise_not", np.invert, lambda rng: [Sample((s.args[0],)) for s in bits_samples(rng)]),
    _logical("isnan", np.isnan, special_values),
    _logical("isinf", np.isinf, special_values),
    _logical("isfinite", np.isfinite, special_values),
    _logical("isclose", np.isclose, close_samples),
    _logical("allclose", lambda x, y, **kw: np.asarray(np.allclose(x, y, **kw)), close_samples),
    _logical("equal_all", lambda x, y: np.asarray(x.shape == y.shape and bool(np.all(x == y))),
             lambda rng: [Sample((np.arange(4.0), np.arange(4.0)), {}, "equal"),
                          Sample((np.arange(4.0), np.arange(4.0) * 2), {}, "different values"),
                          Sample((np.arange(4.0), np.arange(3.0)), {}, "different shapes")]),
]  # fmt: skip
