"""Op-table section: paddle.nn.functional.rnnt_loss (the warprnnt op), against a loop-by-loop numpy reference of
the RNN-T lattice. Gradients are checked with fastemit_lambda=0 (FastEmit changes the gradient on purpose, so it
is no longer the loss's derivative; tests/nn/test_rnnt.py checks it against Paddle's)."""

from __future__ import annotations

import numpy as np

from minipaddle.nn import functional as F
from tests.op_table.common import OpInfo, Sample


def rnnt_loss_ref(x, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.0, reduction="mean"):
    """-log sum over lattice paths, one node (t, u) at a time, reading x as log-probabilities (as Paddle's CPU)."""
    losses = []
    for b in range(x.shape[0]):
        steps, labels = int(input_lengths[b]), int(label_lengths[b])
        alpha = np.full((steps, labels + 1), -np.inf)
        alpha[0, 0] = 0.0
        for t in range(steps):
            for u in range(labels + 1):
                if t > 0:
                    alpha[t, u] = np.logaddexp(alpha[t, u], alpha[t - 1, u] + x[b, t - 1, u, blank])
                if u > 0:
                    alpha[t, u] = np.logaddexp(alpha[t, u], alpha[t, u - 1] + x[b, t, u - 1, label[b, u - 1]])
        losses.append(-(alpha[steps - 1, labels] + x[b, steps - 1, labels, blank]))
    loss = np.array(losses, dtype=x.dtype)
    if reduction == "none":
        return loss
    return (loss.sum() / (x.shape[0] if reduction == "mean" else 1)).astype(x.dtype)


def _log_probs(rng, *shape):
    x = rng.normal(size=shape)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def _i32(*values):
    return np.array(values, dtype=np.int32)


def rnnt_samples(rng):
    label = rng.integers(1, 5, size=(3, 3)).astype(np.int32)
    return [
        Sample((_log_probs(rng, 3, 4, 4, 5), label, _i32(4, 2, 3), _i32(3, 1, 2)), {"fastemit_lambda": 0.0}, "mean"),
        Sample(
            (_log_probs(rng, 3, 4, 4, 5), label, _i32(4, 4, 1), _i32(3, 0, 2)),
            {"fastemit_lambda": 0.0, "reduction": "none"},
            "none, an empty label",
        ),  # fmt: skip
        Sample(
            (rng.normal(size=(2, 3, 3, 4)), np.array([[1, 2], [0, 0]], np.int32), _i32(3, 3), _i32(2, 1)),
            {"blank": 3, "fastemit_lambda": 0.0, "reduction": "sum"},
            "raw scores, blank 3",
        ),  # fmt: skip
    ]


ENTRIES = [
    OpInfo("rnnt_loss", F.rnnt_loss, rnnt_loss_ref, rnnt_samples),
]
