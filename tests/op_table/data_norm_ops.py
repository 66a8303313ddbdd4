"""paddle.static.nn.data_norm's ops. data_norm's gradient check covers x, scale_w and bias (true derivatives) with
the statistics held as constants; the statistics' pseudo-gradients (the batch's count, sum and squared deviations,
not derivatives) are checked as values of data_norm_grad against numpy, with the gradient check off."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from minipaddle import ops
from tests.op_table.common import OpInfo, Sample, r

EPS = 1e-4


def _constants(x, stats):
    return [paddle.to_tensor(np.asarray(s, x.dtype.np)) for s in stats]


def norm_fn(x, *affine, stats, slot_dim=-1):
    scale_w, bias = affine if affine else (None, None)
    return ops.data_norm(x, *_constants(x, stats), scale_w, bias, EPS, slot_dim)


def _shown(x, slot_dim):
    if slot_dim <= 0:
        return np.ones_like(x, bool)
    return np.repeat(np.abs(x[:, ::slot_dim]) >= 1e-7, slot_dim, axis=1)


def norm_ref(x, *affine, stats, slot_dim=-1):
    size, total, square = (np.asarray(s, x.dtype) for s in stats)
    y = (x - total / size) * np.sqrt(size / square)
    if affine:
        y = y * affine[0] + affine[1]
    return np.where(_shown(x, slot_dim), y, 0).astype(x.dtype)


def _stats(rng, c):
    return (rng.uniform(2, 5, c), r(rng, c), rng.uniform(1, 3, c))


def _slotted(rng):
    x = r(rng, 5, 4)
    x[[0, 3], 0] = 0  # rows 0 and 3 do not show slot 0 (of slot_dim 2); nobody shows slot 1 ...
    x[:, 2] = 0
    return x


def norm_samples(rng):
    return [
        Sample((r(rng, 4, 3),), {"stats": _stats(rng, 3)}, "plain"),
        Sample((r(rng, 4, 3), r(rng, 3), r(rng, 3)), {"stats": _stats(rng, 3)}, "scale and shift"),
    ]


def slot_samples(rng):
    """Slots with empty rows: forward values only (a nudge of an exactly-zero show number would fill the slot)."""
    x = _slotted(rng)
    return [
        Sample((x,), {"stats": _stats(rng, 4), "slot_dim": 2}, "slots"),
        Sample((x, r(rng, 4), r(rng, 4)), {"stats": _stats(rng, 4), "slot_dim": 2}, "slots, scale and shift"),
    ]


def grad_fn(x, dy, *scale_w, stats, slot_dim=-1, out=0):
    return ops.data_norm_grad(x, dy, *_constants(x, stats), scale_w[0] if scale_w else None, EPS, slot_dim)[out]


def grad_ref(x, dy, *scale_w, stats, slot_dim=-1, out=0):
    size, total, square = (np.asarray(s, x.dtype) for s in stats)
    means, scales = total / size, np.sqrt(size / square)
    weight = _shown(x, slot_dim).astype(x.dtype) if slot_dim > 0 else np.ones_like(x)
    eps = np.asarray(np.float32(EPS), x.dtype)
    if scale_w:
        dx = dy * scales * scale_w[0] * weight
        d_scale, d_bias = ((x - means) * scales * dy * weight).sum(0), (dy * weight).sum(0)
    else:
        dx, d_scale, d_bias = dy * scales, np.zeros_like(means), np.zeros_like(means)
    count, s, sq = weight.sum(0), (x * weight).sum(0), ((x - means) ** 2 * weight).sum(0)
    if slot_dim > 0:
        seen = count >= 1
        s = np.where(seen, s / np.maximum(count, 1), 0)
        sq = np.where(seen, sq / np.maximum(count, 1) + count * eps, 0)
        count = seen.astype(x.dtype)
    else:
        sq = sq + count * eps
    return np.asarray((dx, count, s, sq, d_scale, d_bias)[out], x.dtype)


def grad_samples(rng):
    out = []
    x, slotted = r(rng, 4, 4), _slotted(rng)
    for i, what in enumerate(("dx", "batch size", "batch sum", "square sum", "d scale_w", "d bias")):
        stats = _stats(rng, 4)
        out.append(Sample((x, r(rng, 4, 4)), {"stats": stats, "out": i}, what))
        out.append(Sample((x, r(rng, 4, 4), r(rng, 4)), {"stats": stats, "out": i}, f"{what}, scale and shift"))
        out.append(Sample((slotted, r(rng, 5, 4), r(rng, 4)), {"stats": stats, "slot_dim": 2, "out": i},
                          f"{what}, slots"))  # fmt: skip
    return out


ENTRIES: list[OpInfo] = [
    OpInfo("data_norm", norm_fn, norm_ref, norm_samples),
    OpInfo("data_norm", norm_fn, norm_ref, slot_samples, grad=False),
    OpInfo("data_norm_grad", grad_fn, grad_ref, grad_samples, grad=False),
]
