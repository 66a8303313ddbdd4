"""The KL (entropy) calibration threshold of a histogram, as paddle/static/quantization/cal_kl_threshold.py.

Among the cuts of the histogram of |x| past its middle, the one whose clipped distribution P (the outliers added
to its last bin) loses least information (smallest KL(P || Q)) when merged into 2^(bits-1) - 1 levels Q. Used by
the static PostTrainingQuantization (algo='KL') and ImperativePTQ's KLQuantizer.
"""

from __future__ import annotations

import numpy as np

__all__ = ["cal_kl_threshold"]


def _kl_at(hist: np.ndarray, i: int, levels: int, p_sum: float) -> float:
    """KL(P || Q) for the cut after bin i: P = hist[:i] with the outliers added to its last bin, Q = hist[:i]
    merged into `levels` groups (the last one takes the remainder) and spread back evenly over each group's
    non-empty bins (Paddle's expand_quantized_bins and safe_entropy)."""
    p = hist[:i].astype(np.float64)
    p[i - 1] += float(np.sum(hist[i:], dtype=np.float64))
    merged = i // levels
    group = np.minimum(np.arange(i) // max(merged, 1), levels - 1) if merged else np.arange(i)
    sums = np.bincount(group, weights=hist[:i].astype(np.float64), minlength=levels)
    nonzero = np.bincount(group, weights=(p != 0).astype(np.float64), minlength=levels)
    q = np.where(p != 0, sums[group] / np.maximum(nonzero[group], 1), 0.0)
    q_sum = float(q.sum())
    keep = p != 0
    return float(np.sum(p[keep] * np.log(q_sum * p[keep])) - np.sum(p[keep] * np.log(p_sum * q[keep]))) / p_sum


def cal_kl_threshold(hist: np.ndarray, bin_width: float, bits: int) -> float:
    """The KL threshold of a histogram of |x| with bins of bin_width (Paddle's cal_kl_threshold)."""
    bins = hist.shape[0]
    start = int((bins - 1) * 0.5)
    levels = 2 ** (bits - 1) - 1
    p_sum = float(np.sum(hist))
    best, best_i = None, 0
    for i in range(start, bins):
        if hist[i - 1] == 0:
            continue
        kl = _kl_at(hist, i, levels, p_sum)
        if best is None or kl < best:
            best, best_i = kl, i
    if best_i == 0:
        while start > 0 and hist[start] == 0:
            start -= 1
        best_i = start
    return (best_i + 0.5) * bin_width
