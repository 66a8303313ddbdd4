"""paddle.static.nn.nce's sampling op (nce_sample), checked where it is deterministic: a custom distribution with
all its mass on one class, so every drawn negative is that class."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from minipaddle import ops
from tests.op_table.common import OpInfo, Sample

N_CLASSES, K, ONLY = 6, 3, 4


def _tables():
    from minipaddle.static.nn.nce import _alias_table

    dist = np.zeros(N_CLASSES)
    dist[ONLY] = 1.0
    alias, alias_probs = _alias_table(dist, N_CLASSES)
    return [paddle.to_tensor(a) for a in (dist.astype(np.float32), alias, alias_probs)]


def sample_fn(label, out):
    return ops.nce_sample(label, *_tables(), N_CLASSES, K, "custom_dist", 0)[out]


def sample_ref(label, out):
    samples = np.concatenate([label, np.full((label.shape[0], K), ONLY)], axis=1)
    probs = np.where(samples == ONLY, 1.0, 0.0).astype(np.float32) * K
    return samples if out == 0 else probs


def samples(rng):
    label = rng.integers(0, N_CLASSES, (5, 2)).astype(np.int64)
    return [Sample((label,), {"out": 0}, "sample labels"), Sample((label,), {"out": 1}, "scaled probabilities")]


ENTRIES: list[OpInfo] = [OpInfo("nce_sample", sample_fn, sample_ref, samples, grad=False)]
