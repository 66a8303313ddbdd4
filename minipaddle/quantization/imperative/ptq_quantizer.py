"""ImperativePTQ's quantizers: how a threshold (scale) is chosen from the values seen during calibration.

- AbsmaxQuantizer: the largest |x| seen; PerChannelAbsmaxQuantizer: per output channel (weights);
- HistQuantizer: a histogram of |x| (1024 bins, re-binned as the range grows); the threshold where the cumulative
  share reaches hist_percent (0.99999), cutting off the rarest outliers;
- KLQuantizer: the threshold whose 8-bit quantized histogram is closest to the real one in KL divergence
  (TensorRT's calibration), searched over the upper half of the bins.
"""

from __future__ import annotations

import abc
import math

import numpy as np

from minipaddle import nn
from minipaddle.ops.fake_quant import channel_abs_max
from minipaddle.static.quantization.cal_kl_threshold import cal_kl_threshold

__all__ = ["BaseQuantizer", "AbsmaxQuantizer", "PerChannelAbsmaxQuantizer", "BaseHistQuantizer", "HistQuantizer",
           "KLQuantizer", "SUPPORT_ACT_QUANTIZERS", "SUPPORT_WT_QUANTIZERS", "cal_kl_threshold"]  # fmt: skip


def _array(t) -> np.ndarray:
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def abs_max_value(tensor) -> float:
    return float(np.abs(_array(tensor)).max())


def merge_max_value(old: list, new: list) -> list:
    """Element-wise max of two (nested) lists of maxima; `old` empty: `new`."""
    if old:
        if len(old) != len(new):
            raise ValueError(f"PTQ: {len(new)} tensors seen where {len(old)} were before")
        new = [merge_max_value(o, n) if isinstance(o, list) else max(o, n) for o, n in zip(old, new)]
    return new


def combine_abs_max_and_hist(tensor, origin_max: float, origin_hist, bins: int, upsample_bins: int) -> tuple:
    """Add a batch to a histogram of |x| over [0, origin_max]: when the batch reaches further, the old histogram is
    upsampled (each bin split in upsample_bins) and summed into wider bins covering the new range."""
    values = np.abs(_array(tensor))
    new_max = float(values.max())
    if new_max == 0.0:
        return origin_max, origin_hist
    if origin_max == 0.0:
        return new_max, np.histogram(values, range=(0, new_max), bins=bins)[0].astype(np.float32)
    if new_max <= origin_max:
        hist = np.histogram(values, range=(0, origin_max), bins=bins)[0].astype(np.float32)
        return origin_max, hist + origin_hist
    bin_width = origin_max / (bins * upsample_bins)
    down = int(math.ceil(new_max / (bins * bin_width)))
    new_max = bins * bin_width * down
    expanded = np.zeros(bins * down, dtype=np.float32)
    expanded[: bins * upsample_bins] = np.repeat(origin_hist, upsample_bins)
    cumsum = np.cumsum(expanded, dtype=np.float64)[down - 1 :: down]
    shifted = np.zeros(bins, dtype=np.float64)
    shifted[1:] = cumsum[:-1]
    sampled = ((cumsum - shifted) / upsample_bins).astype(np.float32)
    hist = np.histogram(values, range=(0, new_max), bins=bins)[0].astype(np.float32)
    return new_max, hist + sampled


class BaseQuantizer(metaclass=abc.ABCMeta):
    """Collects statistics of tensors (sample_data) and turns them into thresholds (cal_thresholds)."""

    def __init__(self, quant_bits=8):
        if isinstance(quant_bits, bool) or not isinstance(quant_bits, int) or not 0 < quant_bits <= 16:
            raise ValueError(f"{type(self).__name__}: quant_bits must be an int from 1 to 16, got {quant_bits!r}")
        self.quant_bits = quant_bits
        self.abs_max_vals = []
        self.thresholds = []

    @abc.abstractmethod
    def sample_data(self, layer, tensors):
        """Record the statistics of a tuple of tensors (a layer's inputs, outputs or weights)."""

    @abc.abstractmethod
    def cal_thresholds(self):
        """Compute self.thresholds from what was recorded."""


class AbsmaxQuantizer(BaseQuantizer):
    """The threshold is the largest |x| seen."""

    def sample_data(self, layer, tensors):
        self.abs_max_vals = merge_max_value(self.abs_max_vals, [abs_max_value(t) for t in tensors])

    def cal_thresholds(self):
        self.thresholds = self.abs_max_vals


class PerChannelAbsmaxQuantizer(BaseQuantizer):
    """One threshold per output channel: axis 1 of Linear / Conv2DTranspose weights, axis 0 otherwise."""

    def sample_data(self, layer, tensors):

        axis = 1 if isinstance(layer, (nn.Linear, nn.Conv2DTranspose)) else 0
        values = []
        for t in tensors:
            values.append([float(v) for v in channel_abs_max(_array(t), axis)])
        self.abs_max_vals = merge_max_value(self.abs_max_vals, values)

    def cal_thresholds(self):
        self.thresholds = self.abs_max_vals


class BaseHistQuantizer(BaseQuantizer, metaclass=abc.ABCMeta):
    """Keeps one histogram of |x| per tensor, over [0, its abs-max so far]."""

    def __init__(self, quant_bits=8, bins=1024, upsample_bins=64):
        super().__init__(quant_bits)
        self.bins = bins
        self.upsample_bins = upsample_bins
        self.hists = []

    def sample_data(self, layer, tensors):
        if not self.abs_max_vals:
            self.abs_max_vals = [abs_max_value(t) for t in tensors]
            for t, m in zip(tensors, self.abs_max_vals):
                hist = None if m == 0.0 else np.histogram(np.abs(_array(t)), range=(0.0, m), bins=self.bins)[0]
                self.hists.append(None if hist is None else hist.astype(np.float32))
            return
        for i, t in enumerate(tensors):
            self.abs_max_vals[i], self.hists[i] = combine_abs_max_and_hist(
                t, self.abs_max_vals[i], self.hists[i], self.bins, self.upsample_bins
            )


class HistQuantizer(BaseHistQuantizer):
    """The threshold where the histogram's cumulative share first reaches hist_percent."""

    def __init__(self, quant_bits=8, bins=1024, upsample_bins=64, hist_percent=0.99999):
        super().__init__(quant_bits, bins, upsample_bins)
        if not 0 < hist_percent < 1:
            raise ValueError(f"HistQuantizer: hist_percent must be in (0, 1), got {hist_percent!r}")
        self.hist_percent = hist_percent

    def cal_thresholds(self):
        for m, hist in zip(self.abs_max_vals, self.hists):
            if hist is None:
                self.thresholds.append(m)
                continue
            share = np.cumsum(hist / np.sum(hist, dtype=np.float64))
            index = int(np.argwhere(share >= self.hist_percent)[0][0])
            self.thresholds.append(float((index - 0.5) * (m / hist.shape[0])))


class KLQuantizer(BaseHistQuantizer):
    """The threshold minimizing the KL divergence between the histogram and its quantized form."""

    def cal_thresholds(self):
        for m, hist in zip(self.abs_max_vals, self.hists):
            self.thresholds.append(m if hist is None else cal_kl_threshold(hist, m / hist.shape[0], self.quant_bits))


SUPPORT_ACT_QUANTIZERS = [AbsmaxQuantizer, HistQuantizer, KLQuantizer]
SUPPORT_WT_QUANTIZERS = [AbsmaxQuantizer, PerChannelAbsmaxQuantizer]
