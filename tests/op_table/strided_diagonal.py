"""Op-table section: paddle 2.6's remaining Tensor-API functions: renorm, cdist, as_strided (op as_strided and its
gradient op), fill_diagonal_ (op fill_diagonal), fill_diagonal_tensor and linalg.householder_product.
polar has a complex result and is checked in tests/tensor/test_strided_diagonal.py.

The numpy references follow Paddle 2.6's kernels; the values were compared against paddle 2.6 itself."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, r


def _renorm_ref(x, p, axis, max_norm):
    others = tuple(i for i in range(x.ndim) if i != axis % x.ndim)
    norm = (np.abs(x) ** p).sum(axis=others, keepdims=True) ** (1.0 / p)
    return x * np.where(norm > max_norm, max_norm / norm, 1.0)


def _renorm_samples(rng):
    return [
        Sample((r(rng, 3, 4, 2, low=-2, high=2),), {"p": 2.0, "axis": 1, "max_norm": 1.5}, "p=2 middle axis"),
        Sample((r(rng, 4, 3, low=-2, high=2),), {"p": 1.5, "axis": -1, "max_norm": 1.0}, "p=1.5 last axis"),
        Sample((r(rng, 5),), {"p": 3.0, "axis": 0, "max_norm": 0.5}, "1-d"),
    ]


def _cdist_ref(x, y, p=2.0, compute_mode=None):
    d = np.abs(x[..., :, None, :] - y[..., None, :, :])
    if p == 0:
        return (d != 0).sum(-1).astype(x.dtype)
    if p == np.inf:
        return d.max(-1)
    return (d**p).sum(-1) ** (1.0 / p)


def _cdist_samples(rng):
    return [
        Sample((r(rng, 4, 3), r(rng, 5, 3)), {}, "p=2 direct"),
        Sample((r(rng, 30, 3), r(rng, 4, 3)), {}, "p=2 through matmul (P > 25)"),
        Sample((r(rng, 2, 4, 3), r(rng, 5, 3)), {"p": 1.0}, "p=1 batch broadcast"),
        Sample((r(rng, 3, 2), r(rng, 2, 2)), {"p": 3.0, "compute_mode": "donot_use_mm_for_euclid_dist"}, "p=3"),
        Sample((r(rng, 3, 2), r(rng, 4, 2)), {"p": float("inf")}, "p=inf"),
    ]


def _as_strided_ref(x, shape, stride, offset=0):
    flat = x.reshape(-1)
    index = offset // x.itemsize + sum(
        np.arange(n).reshape([-1 if i == d else 1 for i in range(len(shape))]) * s
        for d, (n, s) in enumerate(zip(shape, stride))
    )
    return flat[index]


def _as_strided_samples(rng):
    return [
        Sample((r(rng, 3, 4),), {"shape": [3, 3], "stride": [1, 1]}, "overlapping windows"),
        Sample((r(rng, 3, 4),), {"shape": [2, 2], "stride": [1, 4], "offset": 8}, "transposed block, offset"),
        Sample((r(rng, 6),), {"shape": [2, 3], "stride": [3, 1]}, "reshape"),
    ]


def _fill_diagonal(x, value, offset=0, wrap=False):
    return (x * 1.0).fill_diagonal_(value, offset, wrap)  # on a copy: x itself is a leaf that requires grad


def _fill_diagonal_ref(x, value, offset=0, wrap=False):
    out = x.copy()
    rows = np.arange(x.shape[0])
    if x.ndim == 2:
        block = x.shape[1] + 1 if wrap else None  # np.fill_diagonal's wrap: one blank row between blocks
        cols = rows % block if wrap else rows
        keep = (cols < x.shape[1]) & (cols + offset >= 0) & (cols + offset < x.shape[1])
        if not wrap:
            keep &= rows < x.shape[1]
        out[rows[keep], cols[keep] + offset] = value
        return out
    idx = np.arange(min(x.shape))
    out[(idx,) * x.ndim] = value
    return out


def _fill_diagonal_samples(rng):
    return [
        Sample((r(rng, 3, 4), 2.0), {}, "wide"),
        Sample((r(rng, 3, 4), 2.0), {"offset": 1}, "offset 1"),
        Sample((r(rng, 4, 3), -1.0), {"offset": -1}, "offset -1"),
        Sample((r(rng, 7, 3), 0.5), {"wrap": True}, "tall, wrap"),
        Sample((r(rng, 7, 3), 0.5), {}, "tall"),
        Sample((r(rng, 3, 3, 3), 5.0), {}, "3-d"),
    ]


def _fill_diagonal_tensor_ref(x, y, offset=0, dim1=0, dim2=1):
    out = x.copy()
    moved = np.moveaxis(out, (dim1, dim2), (-2, -1))
    n = min(moved.shape[-2] - max(-offset, 0), moved.shape[-1] - max(offset, 0))
    i = np.arange(n)
    moved[..., i + max(-offset, 0), i + max(offset, 0)] = y
    return out


def _fill_diagonal_tensor_samples(rng):
    return [
        Sample((r(rng, 3, 4), r(rng, 3)), {}, "matrix"),
        Sample((r(rng, 3, 4), r(rng, 3)), {"offset": 1}, "offset 1"),
        Sample((r(rng, 2, 3, 4), r(rng, 3, 2)), {"offset": 1, "dim1": 0, "dim2": 2}, "3-d dims 0, 2"),
    ]


def _householder_ref(x, tau):
    m, n = x.shape[-2:]
    out = np.empty(x.shape, dtype=x.dtype)
    for b in np.ndindex(x.shape[:-2]):
        q = np.eye(m, dtype=x.dtype)
        for i in range(tau.shape[-1]):
            v = np.concatenate([[1.0], x[b][i + 1 :, i]])[:, None]
            h = np.eye(m) - tau[b][i] * np.pad(v, ((i, 0), (0, 0))) @ np.pad(v, ((i, 0), (0, 0))).T
            q = q @ h
        out[b] = q[:, :n]
    return out


def _householder_samples(rng):
    return [
        Sample((r(rng, 4, 3), r(rng, 3)), {}, "square k = n"),
        Sample((r(rng, 2, 5, 3), r(rng, 2, 2)), {}, "batch, k < n"),
    ]


ENTRIES = [
    OpInfo("renorm", paddle.renorm, _renorm_ref, _renorm_samples),
    OpInfo("cdist", paddle.cdist, _cdist_ref, _cdist_samples),
    OpInfo("as_strided", paddle.as_strided, _as_strided_ref, _as_strided_samples, double_grad=True),
    OpInfo("fill_diagonal_", _fill_diagonal, _fill_diagonal_ref, _fill_diagonal_samples, static=False),
    OpInfo(
        "fill_diagonal_tensor",
        paddle.Tensor.fill_diagonal_tensor,
        _fill_diagonal_tensor_ref,
        _fill_diagonal_tensor_samples,
    ),  # fmt: skip
    OpInfo("householder_product", paddle.linalg.householder_product, _householder_ref, _householder_samples),
]
