"""paddle.static's extra ops: auc (ROC-AUC counters) and spectral_normalize (behind static.nn.spectral_norm)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from minipaddle import ops
from tests.op_table.common import OpInfo, Sample, r


def _auc_value(predict, label, stat_pos, stat_neg, num_thresholds=4095, slide_steps=1, curve="ROC"):
    ops_out = ops.auc(predict, label, stat_pos, stat_neg, num_thresholds, slide_steps, curve)
    return ops_out[0]


def _roc_area(pos, neg):
    """The area by the definition: over every (positive, negative) pair, 1 if the positive's bucket is higher,
    1/2 on a tie."""
    p_idx, n_idx = np.repeat(np.arange(pos.size), pos), np.repeat(np.arange(neg.size), neg)
    if not p_idx.size or not n_idx.size:
        return np.asarray(0.0)
    diff = p_idx[:, None] - n_idx[None, :]
    return np.asarray(((diff > 0) + 0.5 * (diff == 0)).mean())


def auc_ref(predict, label, stat_pos, stat_neg, num_thresholds=4095, slide_steps=1, curve="ROC"):
    length = num_thresholds + 1
    bins = (predict[:, -1].astype(np.float64) * num_thresholds).astype(int)
    pos = np.bincount(bins[label[:, 0] > 0], minlength=length)
    neg = np.bincount(bins[label[:, 0] <= 0], minlength=length)
    if slide_steps == 0:
        return _roc_area(pos + stat_pos.reshape(-1)[:length], neg + stat_neg.reshape(-1)[:length])
    step = int(stat_pos[-1]) % slide_steps
    window = [stat_pos[i * length : (i + 1) * length] for i in range(slide_steps) if i != step]
    window_neg = [stat_neg[i * length : (i + 1) * length] for i in range(slide_steps) if i != step]
    return _roc_area(pos + sum(window, np.zeros(length, int)), neg + sum(window_neg, np.zeros(length, int)))


def auc_samples(rng):
    prob = rng.uniform(0, 1, size=(9, 1))
    predict = np.concatenate([1 - prob, prob], 1)
    label = rng.integers(0, 2, (9, 1)).astype(np.int64)
    t = 7
    history = rng.integers(0, 3, 3 * (t + 1) + 1).astype(np.int64)
    history[2 * (t + 1) : -1] = history[: t + 1] + history[t + 1 : 2 * (t + 1)]  # the sum bucket is the sum
    zeros = np.zeros((1, t + 1), np.int64)
    return [
        Sample((predict, label, history, history.copy()), {"num_thresholds": t, "slide_steps": 2}, "sliding"),
        Sample((predict, label, zeros, zeros.copy()), {"num_thresholds": t, "slide_steps": 0}, "global"),
        Sample((predict[:, 1:], label, zeros, zeros), {"num_thresholds": t, "slide_steps": 0}, "one column"),
    ]


def spectral_samples(rng):
    """Weights with one clearly largest singular value, so 40 rounds of power iteration converge."""
    fc = r(rng, 4, 3) + 3 * np.outer(np.ones(4), [1.0, 0.5, -0.5])
    conv = r(rng, 2, 3, 2) + 3 * np.array([1.0, -1.0, 0.5])[None, :, None]
    return [
        Sample((fc,), {"u": r(rng, 4), "v": r(rng, 3), "dim": 0, "power_iters": 40}, "fc weight"),
        Sample((conv,), {"u": r(rng, 3), "v": r(rng, 4), "dim": 1, "power_iters": 40}, "conv weight"),
    ]


def spectral_fn(w, u, v, dim, power_iters):
    const_u, const_v = paddle.to_tensor(u.astype(w.dtype.np)), paddle.to_tensor(v.astype(w.dtype.np))
    return ops.spectral_norm(w, const_u, const_v, dim, power_iters)[0]


def spectral_ref(w, u, v, dim, power_iters):
    """W / sigma with sigma the largest singular value (power iteration converges to it)."""
    matrix = np.moveaxis(w, dim, 0).reshape(w.shape[dim], -1)
    return (w / np.linalg.svd(matrix.astype(np.float64), compute_uv=False)[0]).astype(w.dtype)


ENTRIES: list[OpInfo] = [
    OpInfo("auc", _auc_value, auc_ref, auc_samples, grad=False),
    OpInfo("spectral_normalize", spectral_fn, spectral_ref, spectral_samples, atol=1e-4, rtol=1e-4),
]
