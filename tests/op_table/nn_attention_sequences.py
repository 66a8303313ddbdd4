"""Op-table section: paddle 2.6's further nn functions
(minipaddle/nn/functional/{attention,common,sequence,margin_loss}.py; ops/sequence_ops.py, nn_loss.py).

Each numpy reference is written independently of minipaddle's composition: attention with einsum, the pixel and
channel rearrangements by explicit index arithmetic, temporal_shift frame by frame, gather_tree and sequence_mask
with loops, margin_cross_entropy as paddle's GPU kernel describes it. The values were checked against paddle 2.6
(tests/nn/test_attention_sequences.py holds the recorded ones).
"""

from __future__ import annotations

import numpy as np

import minipaddle.nn.functional as F
from tests.op_table.common import OpInfo, Sample, r


def sdpa_ref(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, training=True):
    scores = np.einsum("bqhd,bkhd->bhqk", q, k) * q.shape[-1] ** -0.5
    if attn_mask is not None:
        scores = scores + attn_mask
    if is_causal:
        scores = np.where(np.triu(np.ones(scores.shape[-2:], bool), 1), -np.inf, scores)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    return np.einsum("bhqk,bkhd->bqhd", weights, v)


def sdpa_samples(rng):
    q, k, v = r(rng, 2, 3, 2, 4), r(rng, 2, 5, 2, 4), r(rng, 2, 5, 2, 3)
    mask = np.where(rng.random((2, 1, 3, 5)) < 0.3, -1e4, 0.0)
    sq = r(rng, 1, 4, 1, 2)
    return [
        Sample((q, k, v), {}, "cross"),
        Sample((q, k, v, mask), {}, "mask"),
        Sample((sq, sq.copy(), r(rng, 1, 4, 1, 3)), {"is_causal": True}, "causal"),
        Sample((q, k, v), {"dropout_p": 0.5, "training": False}, "dropout eval"),
    ]


def pixel_unshuffle_ref(x, downscale_factor, data_format="NCHW"):
    if data_format == "NHWC":
        return pixel_unshuffle_ref(x.transpose(0, 3, 1, 2), downscale_factor).transpose(0, 2, 3, 1)
    n, c, h, w = x.shape
    rr = downscale_factor
    out = np.empty((n, c * rr * rr, h // rr, w // rr), x.dtype)
    for ch in range(c):
        for i in range(rr):
            for j in range(rr):
                out[:, ch * rr * rr + i * rr + j] = x[:, ch, i::rr, j::rr]
    return out


def pixel_unshuffle_samples(rng):
    return [
        Sample((r(rng, 2, 2, 4, 6), 2), {}, "r2"),
        Sample((r(rng, 1, 1, 6, 3), 3), {}, "r3"),
        Sample((r(rng, 2, 4, 6, 3), 2), {"data_format": "NHWC"}, "NHWC"),
    ]


def channel_shuffle_ref(x, groups, data_format="NCHW"):
    if data_format == "NHWC":
        return channel_shuffle_ref(x.transpose(0, 3, 1, 2), groups).transpose(0, 2, 3, 1)
    c = x.shape[1]
    out = np.empty_like(x)
    for g in range(groups):
        for k in range(c // groups):
            out[:, k * groups + g] = x[:, g * (c // groups) + k]
    return out


def channel_shuffle_samples(rng):
    return [
        Sample((r(rng, 2, 6, 2, 3), 3), {}, "g3"),
        Sample((r(rng, 1, 8, 1, 2), 2), {}, "g2"),
        Sample((r(rng, 2, 3, 2, 12), 4), {"data_format": "NHWC"}, "NHWC"),
    ]


def temporal_shift_ref(x, seg_num, shift_ratio=0.25, data_format="NCHW"):
    if data_format == "NHWC":
        return temporal_shift_ref(x.transpose(0, 3, 1, 2), seg_num, shift_ratio).transpose(0, 2, 3, 1)
    clips = x.reshape(-1, seg_num, *x.shape[1:])
    c = x.shape[1]
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    out = np.zeros_like(clips)
    for t in range(seg_num):
        if t > 0:
            out[:, t, :c1] = clips[:, t - 1, :c1]
        if t < seg_num - 1:
            out[:, t, c1:c2] = clips[:, t + 1, c1:c2]
        out[:, t, c2:] = clips[:, t, c2:]
    return out.reshape(x.shape)


def temporal_shift_samples(rng):
    return [
        Sample((r(rng, 6, 4, 2, 2), 2), {"shift_ratio": 0.25}, "T2"),
        Sample((r(rng, 6, 5, 1, 2), 3), {"shift_ratio": 0.2}, "T3"),
        Sample((r(rng, 4, 2, 1, 8), 4), {"shift_ratio": 0.3, "data_format": "NHWC"}, "NHWC"),
    ]


def sequence_mask_ref(x, maxlen=None, dtype="int64"):
    width = int(x.max()) if maxlen is None or maxlen < 0 else maxlen
    out = np.zeros((*x.shape, width), dtype=dtype)
    for idx in np.ndindex(*x.shape):
        for j in range(width):
            out[idx + (j,)] = j < x[idx]
    return out


def sequence_mask_samples(rng):
    return [
        Sample((np.array([[1, 3], [0, 2]], dtype=np.int64),), {}, "2-d, maxlen from x"),
        Sample((np.array([2, 1, 4], dtype=np.int32),), {"maxlen": 6, "dtype": "float32"}, "maxlen, float mask"),
        Sample((np.array([2, 0], dtype=np.int64),), {"maxlen": -1, "dtype": "bool"}, "negative maxlen, bool"),
    ]


def gather_tree_ref(ids, parents):
    out = np.empty_like(ids)
    steps, batch, beam = ids.shape
    for b in range(batch):
        for k in range(beam):
            parent = k
            for t in range(steps - 1, -1, -1):
                out[t, b, k] = ids[t, b, parent]
                parent = parents[t, b, parent]
    return out


def gather_tree_samples(rng):
    ids = rng.integers(0, 10, size=(4, 3, 3))
    parents = rng.integers(0, 3, size=(4, 3, 3))
    return [
        Sample((ids, parents), {}, "int64"),
        Sample((ids.astype(np.int32), parents.astype(np.int32)), {}, "int32"),
    ]


def margin_ce_ref(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0, reduction="mean"):
    label = label.reshape(-1)
    rows = np.arange(len(label))
    z = logits.copy()
    z[rows, label] = np.cos(margin1 * np.arccos(z[rows, label]) + margin2) - margin3
    z = z * scale
    log_probs = z - z.max(-1, keepdims=True)
    log_probs = log_probs - np.log(np.exp(log_probs).sum(-1, keepdims=True))
    loss = -log_probs[rows, label][:, None]
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def margin_ce_samples(rng):
    logits = r(rng, 4, 5, low=-0.9, high=0.9)
    label = rng.integers(0, 5, size=4)
    return [
        Sample((logits, label), {"scale": 4.0}, "arcface mean"),
        Sample(
            (logits, label[:, None].astype(np.int32)),
            {"margin1": 1.2, "margin2": 0.1, "margin3": 0.2, "scale": 2.0, "reduction": "none"},
            "combined, none",
        ),  # fmt: skip
        Sample(
            (logits, label),
            {"margin1": 1.0, "margin2": 0.0, "margin3": 0.35, "scale": 3.0, "reduction": "sum"},
            "cosface sum",
        ),  # fmt: skip
    ]


def class_center_ref(label, num_classes, num_samples, part):
    """With every class of `label` kept and num_samples no larger than their count, nothing is drawn at random."""
    centers = np.unique(label)
    remapped = np.searchsorted(centers, label)
    return (remapped if part == 0 else centers).astype(label.dtype)


def class_center_samples(rng):
    label = np.array([7, 2, 7, 9, 4], dtype=np.int64)
    return [
        Sample((label,), {"num_classes": 12, "num_samples": 4, "part": 0}, "remapped"),
        Sample((label.astype(np.int32),), {"num_classes": 10, "num_samples": 2, "part": 1}, "centers"),
    ]


def class_center_fn(label, num_classes, num_samples, part):
    return F.class_center_sample(label, num_classes, num_samples)[part]


ENTRIES = [
    OpInfo("scaled_dot_product_attention", F.scaled_dot_product_attention, sdpa_ref, sdpa_samples),
    OpInfo("pixel_unshuffle", F.pixel_unshuffle, pixel_unshuffle_ref, pixel_unshuffle_samples),
    OpInfo("channel_shuffle", F.channel_shuffle, channel_shuffle_ref, channel_shuffle_samples),
    OpInfo("temporal_shift", F.temporal_shift, temporal_shift_ref, temporal_shift_samples),
    OpInfo("sequence_mask", F.sequence_mask, sequence_mask_ref, sequence_mask_samples, grad=False),
    OpInfo("gather_tree", F.gather_tree, gather_tree_ref, gather_tree_samples, grad=False),
    OpInfo("margin_cross_entropy", F.margin_cross_entropy, margin_ce_ref, margin_ce_samples, atol=1e-6),
    OpInfo("class_center_sample", class_center_fn, class_center_ref, class_center_samples, grad=False),
]
