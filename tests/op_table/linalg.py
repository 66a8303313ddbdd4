"""Op-table section: linear algebra (bmm, dot, mv, norm, dist, cross, inverse, cholesky, cond, det,
matrix_power, multi_dot) and histogram."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, distinct, r


def well_conditioned(rng, *shape):
    """Random square matrices kept far from singular: noise plus 3 times the identity."""
    return r(rng, *shape) + 3 * np.eye(shape[-1])


def norm_samples(rng):
    x = distinct(rng, 3, 4)
    return [
        Sample((x,), {}, "fro, all"),
        Sample((x,), {"p": 2, "axis": 1}, "p=2, axis 1"),
        Sample((x,), {"p": 1, "axis": 0, "keepdim": True}, "p=1, keepdim"),
        Sample((x,), {"p": np.inf, "axis": -1}, "p=inf"),
        Sample((x,), {"p": -np.inf}, "p=-inf, all"),
        Sample((x,), {"p": 3, "axis": [0, 1]}, "p=3, two axes"),
        Sample((x,), {"p": "fro", "axis": [0, 1]}, "fro, two axes"),
        Sample((distinct(rng, 2, 3, 2),), {"p": 0.5, "axis": 1}, "p=0.5, 3-d"),
    ]


def norm_ref(x, p="fro", axis=None, keepdim=False):
    axis = tuple(axis) if isinstance(axis, list) else axis
    p = 2 if p == "fro" else p
    a = np.abs(x)
    if p == np.inf:
        return np.max(a, axis=axis, keepdims=keepdim)
    if p == -np.inf:
        return np.min(a, axis=axis, keepdims=keepdim)
    return np.sum(a**p, axis=axis, keepdims=keepdim) ** (1.0 / p)


def dist_samples(rng):
    return [
        Sample((r(rng, 3, 4), r(rng, 3, 4)), {}, "p=2"),
        Sample((r(rng, 3, 4), r(rng, 4)), {"p": 1}, "p=1, broadcast"),
        Sample((distinct(rng, 2, 3), np.zeros(3)), {"p": np.inf}, "p=inf"),
        Sample((r(rng, 5), r(rng, 5)), {"p": 3.5}, "p=3.5"),
    ]


def dist_ref(x, y, p=2):
    d = np.abs(x - y).reshape(-1)
    if p == 0:
        return np.asarray(np.count_nonzero(d), dtype=x.dtype)
    if p == np.inf:
        return np.max(d)
    return np.sum(d**p) ** (1.0 / p)


def cross_samples(rng):
    return [
        Sample((r(rng, 3), r(rng, 3)), {}, "vectors"),
        Sample((r(rng, 4, 3), r(rng, 4, 3)), {"axis": 1}, "rows"),
        Sample((r(rng, 3, 2), r(rng, 3, 2)), {}, "default axis: the first of size 3"),
    ]


def cross_ref(x, y, axis=None):
    axis = next(i for i, d in enumerate(x.shape) if d == 3) if axis is None else axis
    return np.cross(x, y, axis=axis)


def spd_cholesky(a, upper=False):
    """cholesky of the symmetric positive-definite a a^T + n I (so gradcheck may move every entry of a)."""
    n = a.shape[-1]
    spd = paddle.add(paddle.matmul(a, a, transpose_y=True), paddle.to_tensor(n * np.eye(n), dtype=a.dtype))
    return paddle.cholesky(spd, upper=upper)


def spd_cholesky_ref(a, upper=False):
    low = np.linalg.cholesky(a @ np.swapaxes(a, -1, -2) + a.shape[-1] * np.eye(a.shape[-1]))
    return (np.swapaxes(low, -1, -2) if upper else low).astype(a.dtype)


def cond_samples(rng):
    return [
        Sample((well_conditioned(rng, 3, 3),), {}, "p=None"),
        Sample((well_conditioned(rng, 3, 3),), {"p": -2}, "p=-2"),
        Sample((well_conditioned(rng, 3, 3),), {"p": "fro"}, "fro"),
        Sample((well_conditioned(rng, 2, 3, 3),), {"p": 1}, "p=1, batched"),
        Sample((well_conditioned(rng, 3, 3),), {"p": -np.inf}, "p=-inf"),
        Sample((well_conditioned(rng, 3, 3),), {"p": "nuc"}, "nuc"),
    ]


def cond_ref(x, p=None):
    return np.linalg.cond(x, p)


def histogram_samples(rng):
    return [
        Sample((r(rng, 20) * 3,), {"bins": 5}, "data range"),
        Sample((r(rng, 4, 5) * 3,), {"bins": 4, "min": -1, "max": 2}, "given range"),
    ]


def histogram_ref(x, bins=100, min=0, max=0):  # noqa: A002
    lo, hi = (x.min(), x.max()) if min == max == 0 else (min, max)
    return np.histogram(x, bins=bins, range=(lo, hi))[0].astype(np.int64)


ENTRIES: list[OpInfo] = [
    OpInfo("bmm", paddle.bmm, np.matmul, lambda rng: [Sample((r(rng, 2, 3, 4), r(rng, 2, 4, 5)))],
           double_grad=True),
    OpInfo("dot", paddle.dot, lambda x, y: np.sum(x * y, axis=-1),
           lambda rng: [Sample((r(rng, 4), r(rng, 4)), {}, "vectors"),
                        Sample((r(rng, 3, 4), r(rng, 3, 4)), {}, "rows")],
           double_grad=True),
    OpInfo("mv", paddle.mv, np.matmul, lambda rng: [Sample((r(rng, 3, 4), r(rng, 4)))]),
    OpInfo("norm", paddle.norm, norm_ref, norm_samples),
    OpInfo("norm_p0", lambda x: paddle.norm(x, p=0), lambda x: np.asarray(np.count_nonzero(x), x.dtype),
           lambda rng: [Sample((np.array([[1.0, 0.0], [-2.0, 0.0]]),))], grad=False),
    OpInfo("dist", paddle.dist, dist_ref, dist_samples),
    OpInfo("cross", paddle.cross, cross_ref, cross_samples, double_grad=True),
    OpInfo("inverse", paddle.inverse, np.linalg.inv,
           lambda rng: [Sample((well_conditioned(rng, 3, 3),)), Sample((well_conditioned(rng, 2, 4, 4),))],
           double_grad=True, atol=1e-5, rtol=1e-4),
    OpInfo("cholesky", spd_cholesky, spd_cholesky_ref,
           lambda rng: [Sample((r(rng, 3, 3),)), Sample((r(rng, 2, 4, 4),), {"upper": True})],
           double_grad=True, atol=1e-5, rtol=1e-4),
    OpInfo("cond", lambda x, **kw: paddle.linalg.cond(x, **kw), cond_ref, cond_samples, atol=1e-5, rtol=1e-4),
    OpInfo("det", paddle.linalg.det, np.linalg.det,
           lambda rng: [Sample((well_conditioned(rng, 3, 3),)), Sample((r(rng, 2, 2, 2),))], double_grad=True),
    OpInfo("matrix_power", paddle.linalg.matrix_power, np.linalg.matrix_power,
           lambda rng: [Sample((r(rng, 3, 3), 3)), Sample((well_conditioned(rng, 2, 2), -2)),
                        Sample((r(rng, 2, 2, 2), 0))]),
    OpInfo("multi_dot", paddle.linalg.multi_dot, np.linalg.multi_dot,
           lambda rng: [Sample(([r(rng, 2, 3), r(rng, 3, 4), r(rng, 4)],))]),
    OpInfo("histogram", paddle.histogram, histogram_ref, histogram_samples, grad=False),
]  # fmt: skip
