"""warpctc: the CTC loss of a batch, with its gradient computed in the same kernel, as paddle's warpctc op does.

For each sample, the label l1..lL is extended with blanks (blank, l1, blank, l2, ..., blank: S = 2L + 1 positions)
and every alignment of the T input steps to it is summed in log space:

    alpha[t, s] = logsumexp(alpha[t-1, s], alpha[t-1, s-1], alpha[t-1, s-2] if l[s] != blank, l[s-2]) + log y[t, l[s]]
    beta[t, s]  = the same recursion run backwards from the last two positions
    loss        = -log p(label) = -logsumexp(alpha[T-1, S-1], alpha[T-1, S-2])

The posterior of position s at step t is exp(alpha + beta - log y - log p), and the gradient of the loss for the
unnormalized logits is softmax(logits) minus those posteriors summed per class (zero after a sample's length;
divided by the length with norm_by_times). Because the recursion reads the label values only in the kernel, the
op builds in static mode, where the labels arrive when the Program runs.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["warpctc"]

NEG = -1e30  # log(0): finite, so that unreachable positions stay finite through logaddexp


def _shift(v: np.ndarray, k: int) -> np.ndarray:
    """v moved k places to the right (k > 0) or left (k < 0), filled with NEG."""
    out = np.full_like(v, NEG)
    if k > 0:
        out[k:] = v[:-k] if k < len(v) else out[k:]
    else:
        out[:k] = v[-k:] if -k < len(v) else out[:k]
    return out


def _sample(logy: np.ndarray, label: np.ndarray, blank: int) -> tuple[float, np.ndarray]:
    """The loss of one sample and the posteriors per class, from its log-probabilities [T, C]."""
    steps, classes = logy.shape
    ext = np.full(2 * len(label) + 1, blank, dtype=np.int64)
    ext[1::2] = label
    positions = len(ext)
    skip = np.zeros(positions, dtype=bool)  # may come from s - 2: a label differing from the one two back
    skip[2:] = (ext[2:] != blank) & (ext[2:] != ext[:-2])
    emit = logy[:, ext]  # [T, S]
    alpha = np.full((steps, positions), NEG)
    alpha[0, :2] = emit[0, :2]
    for t in range(1, steps):
        prev = alpha[t - 1]
        alpha[t] = np.logaddexp(np.logaddexp(prev, _shift(prev, 1)), np.where(skip, _shift(prev, 2), NEG)) + emit[t]
    beta = np.full((steps, positions), NEG)
    beta[-1, -2:] = emit[-1, -2:]
    skip_from = np.concatenate([skip[2:], [False, False]])[:positions]  # s may go on to s + 2
    for t in range(steps - 2, -1, -1):
        nxt = beta[t + 1]
        beta[t] = np.logaddexp(np.logaddexp(nxt, _shift(nxt, -1)), np.where(skip_from, _shift(nxt, -2), NEG)) + emit[t]
    log_p = np.logaddexp.reduce(alpha[-1, -2:])
    posterior = np.exp(alpha + beta - emit - log_p)
    per_class = np.zeros((steps, classes))
    np.add.at(per_class.T, ext, posterior.T)
    return -log_p, per_class


@register
class Warpctc(OpDef):
    """The CTC loss [batch] of logits [time, batch, classes] (softmax applied inside) for int labels [batch, length]
    with lengths [batch]; its second output is the gradient for the logits, which the grad rule scales."""

    name = "warpctc"
    saves_inputs = False
    saves_outputs = True
    none_for_unused_outputs = True

    def kernel(self, logits, labels, input_lengths, label_lengths, blank=0, norm_by_times=False):
        steps, batch, _ = logits.shape
        x = logits.astype(np.float64)
        logy = x - x.max(axis=2, keepdims=True)
        logy = logy - np.log(np.exp(logy).sum(axis=2, keepdims=True))
        loss, grad = np.zeros(batch), np.zeros(x.shape)
        for b in range(batch):
            length, size = int(input_lengths[b]), int(label_lengths[b])
            if not (1 <= length <= steps and 0 <= size <= labels.shape[1]):
                raise ValueError(f"warpctc: sample {b} has input length {length} (of {steps} steps) and label length "
                                 f"{size} (of {labels.shape[1]})")  # fmt: skip
            loss[b], per_class = _sample(logy[:length, b], labels[b, :size].astype(np.int64), blank)
            grad[:length, b] = (np.exp(logy[:length, b]) - per_class) / (length if norm_by_times else 1)
        return loss.astype(logits.dtype), grad.astype(logits.dtype)

    def grad(self, node, g_loss, g_grad):
        batch = node.inputs[0].shape[1]
        return ops.multiply(node.output(1), ops.reshape(g_loss, (1, batch, 1))), None, None, None

    def infer_meta(self, logits: Meta, labels: Meta, input_lengths: Meta, label_lengths: Meta, **attrs) -> tuple:
        if not logits.dtype.is_floating:
            raise TypeError(f"warpctc: logits must be a float tensor, got {logits.dtype.name}")
        return Meta((logits.shape[1],), logits.dtype), logits


def warpctc(logits: Tensor, labels: Tensor, input_lengths: Tensor, label_lengths: Tensor, blank: int = 0,
            norm_by_times: bool = False) -> Tensor:  # fmt: skip
    """The per-sample CTC loss [batch] (the gradient output stays inside the op)."""
    return apply(
        Warpctc, (logits, labels, input_lengths, label_lengths), {"blank": blank, "norm_by_times": norm_by_times}
    )[0]
