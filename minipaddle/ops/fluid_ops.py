"""Ops behind paddle.static's fluid-era functions: auc (running ROC-AUC counters) and spectral_norm (a weight divided
by its largest singular value, estimated by power iteration)."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["auc", "spectral_norm"]  # the raw op functions; ops/__init__.py gathers them


def _area_under_roc(pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """Paddle's calcAuc: walk the buckets from the highest threshold down, adding trapezoids of the
    (false positives, true positives) curve; 0 when either class is missing."""
    pos, neg = pos[::-1].astype(np.float64), neg[::-1].astype(np.float64)
    tp = np.cumsum(pos)
    tp_prev = tp - pos
    total_pos, total_neg = tp[-1] if tp.size else 0.0, float(neg.sum())
    if total_pos <= 0 or total_neg <= 0:
        return np.asarray(0.0)
    return np.asarray(float(np.sum(neg * (tp + tp_prev) / 2.0)) / total_pos / total_neg)


@register
class Auc(OpDef):
    """ROC-AUC over counters kept between runs: stat_pos / stat_neg count the positive and negative samples whose
    predicted probability (the last column of predict) falls in each of num_thresholds + 1 buckets.

    slide_steps = 0: the counters ([1, T + 1]) add up every batch ever seen. slide_steps = k > 0: the counters
    ([(k + 1) * (T + 1) + 1]) hold the last k batches' buckets, their sum, and a batch number at the end; the AUC
    is over those k batches. Outputs: (auc as a float64 0-d array, new stat_pos, new stat_neg).
    """

    name = "auc"
    differentiable = False

    def kernel(self, predict, label, stat_pos, stat_neg, num_thresholds=4095, slide_steps=1, curve="ROC"):
        length = num_thresholds + 1
        bins = (predict.reshape(predict.shape[0], -1)[:, -1].astype(np.float64) * num_thresholds).astype(np.int64)
        positive = label.reshape(-1) > 0
        batch_pos = np.bincount(bins[positive], minlength=length)[:length].astype(np.int64)
        batch_neg = np.bincount(bins[~positive], minlength=length)[:length].astype(np.int64)
        pos, neg = stat_pos.astype(np.int64).copy(), stat_neg.astype(np.int64).copy()
        if slide_steps == 0:  # the counters come out as [1, T + 1] whatever shape they came in (as Paddle)
            pos = pos.reshape(-1)[:length].reshape(1, length) + batch_pos
            neg = neg.reshape(-1)[:length].reshape(1, length) + batch_neg
            return _area_under_roc(pos[0], neg[0]), pos, neg
        step = int(pos[slide_steps * length + length]) % slide_steps
        cur, total = (
            slice(step * length, step * length + length),
            slice(slide_steps * length, slide_steps * length + length),
        )
        for stats, batch in ((pos, batch_pos), (neg, batch_neg)):
            stats[total] += batch - stats[cur]  # the oldest batch leaves the window, this one comes in
            stats[cur] = batch
            stats[-1] += 1
        return _area_under_roc(pos[total], neg[total]), pos, neg

    def infer_meta(self, predict: Meta, label: Meta, stat_pos: Meta, stat_neg: Meta, num_thresholds=4095,
                   slide_steps=1, curve="ROC"):  # fmt: skip
        return Meta((), dtypes.float64), stat_pos, stat_neg


def auc(predict: Tensor, label: Tensor, stat_pos: Tensor, stat_neg: Tensor, num_thresholds: int = 4095,
        slide_steps: int = 1, curve: str = "ROC"):  # fmt: skip
    attrs = {"num_thresholds": num_thresholds, "slide_steps": slide_steps, "curve": curve}
    return apply(Auc, (predict, label, stat_pos, stat_neg), attrs)


def _unit(v: np.ndarray, eps: float) -> np.ndarray:
    return v / (np.sqrt(np.sum(v * v)) + eps)


@register
class SpectralNorm(OpDef):
    """weight / sigma, sigma = u^T W v after `power_iters` rounds of v = unit(W^T u), u = unit(W v), where W is the
    weight with axis `dim` moved first and the rest flattened. u and v are read, not written back (as Paddle).

    Outputs: (the normalized weight, the final u, the final v); the gradient reaches the weight only, with the final
    u and v counted as constants: d(W / sigma) = G / sigma - sum(G * W) / sigma^2 * u v^T.
    """

    name = "spectral_normalize"  # not "spectral_norm": that counter names the layer's parameters (spectral_norm_0.w_0)
    saves_outputs = True

    def kernel(self, weight, u, v, dim=0, power_iters=1, eps=1e-12):
        matrix = np.moveaxis(weight, dim, 0).reshape(weight.shape[dim], -1)
        for _ in range(power_iters):
            v = _unit(matrix.T @ u, eps)
            u = _unit(matrix @ v, eps)
        sigma = u @ matrix @ v
        return (weight / sigma).astype(weight.dtype), u.astype(weight.dtype), v.astype(weight.dtype)

    def infer_meta(self, weight: Meta, u: Meta, v: Meta, dim=0, power_iters=1, eps=1e-12):
        return weight, u, v

    def grad(self, node, g, gu=None, gv=None):
        w, u, v = node.inputs[0], node.output(1), node.output(2)
        dim = node.attrs["dim"]
        perm = (dim, *(i for i in range(w.ndim) if i != dim))
        matrix = ops.reshape(ops.transpose(w, perm), (w.shape[dim], -1))
        sigma = ops.sum(ops.multiply(u, ops.matmul(matrix, v)))
        outer = ops.multiply(ops.reshape(u, (-1, 1)), ops.reshape(v, (1, -1)))  # d sigma / d W, as a matrix
        moved = ops.reshape(outer, tuple(w.shape[i] for i in perm))
        dsigma = ops.transpose(moved, tuple(perm.index(i) for i in range(w.ndim)))
        coef = ops.divide(ops.sum(ops.multiply(g, w)), ops.multiply(sigma, sigma))
        return ops.subtract(ops.divide(g, sigma), ops.multiply(coef, dsigma)), None, None


def spectral_norm(weight: Tensor, u: Tensor, v: Tensor, dim: int = 0, power_iters: int = 1, eps: float = 1e-12):
    return apply(SpectralNorm, (weight, u, v), {"dim": dim, "power_iters": power_iters, "eps": eps})
