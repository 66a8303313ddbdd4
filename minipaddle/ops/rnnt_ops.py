"""The RNN-Transducer loss as one op, warprnnt, as Paddle 2.6's CPU kernel (warp-transducer) computes it.

For one sample with T input steps and U labels, the lattice has a node (t, u) for t < T, u <= U: at (t, u) the
model either emits blank (moving to t + 1) or the next label label[u] (moving to u + 1). Paddle's CPU kernel reads
`input` itself as the log-probabilities of those moves (it applies no log_softmax). The forward variable alpha and
the backward variable beta are each one recursion over the anti-diagonals t + u = n of the lattice, vectorized
over the batch and over the nodes of a diagonal:

    alpha[t, u] = logaddexp(alpha[t-1, u] + blank[t-1, u],  alpha[t, u-1] + emit[t, u-1])
    beta[t, u]  = logaddexp(beta[t+1, u] + blank[t, u],     beta[t, u+1] + emit[t, u])
    loss = -beta[0, 0]                    (beta past the last node, [T, U], is 0)

The kernel returns the loss and its gradient w.r.t. `input` (Paddle's op does the same); the grad rule scales that
saved gradient by the loss's incoming gradient. FastEmit (arXiv 2010.11148) changes only the gradient: label
emissions get (1 + fastemit_lambda) times their share, the loss value stays the plain RNN-T loss.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register

__all__ = ["warprnnt"]  # the raw op function; ops/__init__.py gathers it


def _diagonal(n: int, rows: int, cols: int):
    """The (t, u) indices of anti-diagonal t + u = n inside a rows x cols lattice."""
    t = np.arange(max(0, n - cols + 1), min(n, rows - 1) + 1)
    return t, n - t


@register
class Warprnnt(OpDef):
    """(loss [B], gradient [B, T, U + 1, V]) of the RNN-T loss; input [B, T, U + 1, V] log-probabilities."""

    name = "warprnnt"
    amp = "fp32"
    saves_inputs = False
    saves_outputs = True
    none_for_unused_outputs = True

    def kernel(self, logp, label, input_lengths, label_lengths, blank, fastemit_lambda):
        batch, steps, nodes, _ = logp.shape
        t_len, u_len = input_lengths.astype(np.int64), label_lengths.astype(np.int64)
        positions = np.arange(nodes - 1)
        label = np.where(positions[None] < u_len[:, None], label, 0).astype(np.int64)  # padding read as class 0
        b_index = np.arange(batch)[:, None]
        t_index, u_index = np.arange(steps)[:, None], np.arange(nodes)[None, :]
        valid = (t_index[None] < t_len[:, None, None]) & (u_index[None] <= u_len[:, None, None])
        blank_lp = logp[..., blank]  # [B, T, U+1]
        emit_lp = np.full_like(blank_lp, -np.inf)  # emit[t, u]: log p of label[u] at (t, u); none at u = U
        emit_lp[:, :, :-1] = np.take_along_axis(logp[:, :, :-1], label[:, None, :, None], axis=3)[..., 0]

        # alpha, with a leading -inf row and column so that alpha[t-1] and alpha[u-1] exist at the edges
        alpha = np.full((batch, steps + 1, nodes + 1), -np.inf, dtype=logp.dtype)
        alpha[:, 1, 1] = 0.0
        with np.errstate(invalid="ignore"):  # -inf + -inf stays -inf
            for n in range(1, steps + nodes - 1):
                t, u = _diagonal(n, steps, nodes)
                from_blank = alpha[:, t, u + 1] + np.where(t > 0, blank_lp[:, t - 1, u], -np.inf)
                from_emit = alpha[:, t + 1, u] + np.where(u > 0, emit_lp[:, t, u - 1], -np.inf)
                alpha[:, t + 1, u + 1] = np.logaddexp(from_blank, from_emit)
            alpha = alpha[:, 1:, 1:]

            # beta, with a trailing row and column: 0 just past each sample's last node, -inf elsewhere
            beta = np.full((batch, steps + 1, nodes + 1), -np.inf, dtype=logp.dtype)
            beta[np.arange(batch), t_len, u_len] = 0.0
            for n in range(steps + nodes - 2, -1, -1):
                t, u = _diagonal(n, steps, nodes)
                step = np.logaddexp(beta[:, t + 1, u] + blank_lp[:, t, u], beta[:, t, u + 1] + emit_lp[:, t, u])
                beta[:, t, u] = np.where(valid[:, t, u], step, beta[:, t, u])  # keeps the 0s past the ends
            log_like = beta[:, 0, 0]
            norm = log_like[:, None, None]
            # each move's share of the probability, minus: d loss / d log p of that move
            d_blank = -np.exp(alpha + blank_lp + beta[:, 1:, :-1] - norm) * valid
            scale = 1.0 + float(np.float32(fastemit_lambda))  # Paddle's attr is a float32
            d_emit = -scale * np.exp(alpha + emit_lp + beta[:, :-1, 1:] - norm) * valid
        grad = np.zeros_like(logp)
        grad[..., blank] = d_blank
        at_label = (b_index[:, :, None], t_index[None], positions[None, None], label[:, None, :])
        grad[at_label] += d_emit[:, :, :-1]
        return (-log_like).astype(logp.dtype), grad

    def grad(self, node, g_loss, g_grad):
        if not node.needs_grad(0) or g_loss is None:
            return None, None, None, None
        saved = node.output(1)
        return ops.multiply(saved, ops.reshape(g_loss, (-1, 1, 1, 1))), None, None, None

    def infer_meta(self, logp: Meta, label: Meta, input_lengths: Meta, label_lengths: Meta, blank, fastemit_lambda):
        return Meta((logp.shape[0],), logp.dtype), logp


def warprnnt(logp, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001):
    return apply(Warprnnt, (logp, label, input_lengths, label_lengths),
                 {"blank": blank, "fastemit_lambda": fastemit_lambda})  # fmt: skip
