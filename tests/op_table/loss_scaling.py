"""Op-table section: loss scaling's fused ops (minipaddle/ops/loss_scaling.py), paddle's check_finite_and_unscale
and update_loss_scaling.

Both have several outputs; the table compares one Tensor, so each entry joins the outputs into one flat vector
(found_inf and the counters cast to the gradients' dtype). The references are the rules written out in numpy.
"""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from minipaddle import ops
from tests.op_table.common import OpInfo, Sample, r


def _joined(outs, dtype):
    return paddle.concat([paddle.flatten(paddle.cast(o, dtype)) for o in outs])


def _np_joined(outs, dtype):
    return np.concatenate([np.ravel(np.asarray(o).astype(dtype)) for o in outs])


def unscale_fn(grads, scale):
    return _joined(ops.check_finite_and_unscale(grads, scale), grads[0].dtype)


def unscale_ref(grads, scale):
    inverse = np.float32(1.0) / np.float32(scale.reshape(())).astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        outs = [g * inverse.astype(g.dtype) for g in grads]
    found = not all(np.isfinite(o).all() for o in outs)
    return _np_joined([*outs, np.array([found])], grads[0].dtype)


def unscale_samples(rng):
    bad = r(rng, 4)
    bad[2] = np.inf
    return [
        Sample(([r(rng, 3, 4), r(rng, 5)], np.array([1024.0])), {}, "two grads"),
        Sample(([r(rng, 2, 3)], np.array([3.0])), {}, "inexact inverse"),
        Sample(([r(rng, 3), bad, r(rng, 2)], np.array([8.0])), {}, "an Inf"),
    ]


def update_fn(grads, found_inf, scale, good, bad, **attrs):
    *outs, new_scale, new_good, new_bad = ops.update_loss_scaling(grads, found_inf, scale, good, bad, **attrs)
    return _joined([*outs, new_scale, new_good, new_bad], grads[0].dtype)


def update_ref(grads, found_inf, scale, good, bad, incr_every_n_steps, decr_every_n_nan_or_inf, incr_ratio,
               decr_ratio, stop_update=False):  # fmt: skip
    kind = scale.dtype.type  # the scale's own dtype decides whether growing it overflows
    scale, good, bad = scale[0], int(good[0]), int(bad[0])
    if found_inf[0]:
        grads = [np.zeros_like(g) for g in grads]
    if not stop_update:
        if found_inf[0]:
            good, bad = 0, bad + 1
            if bad == decr_every_n_nan_or_inf:
                scale, bad = max(scale * kind(decr_ratio), kind(1.0)), 0
        else:
            good, bad = good + 1, 0
            if good == incr_every_n_steps:
                with np.errstate(over="ignore"):
                    larger = scale * kind(incr_ratio)
                scale = larger if np.isfinite(larger) else scale
                good = 0
    return _np_joined([*grads, [scale], [good], [bad]], grads[0].dtype)


def _counters(good, bad):
    return np.array([good], np.int32), np.array([bad], np.int32)


ATTRS = {"incr_every_n_steps": 3, "decr_every_n_nan_or_inf": 2, "incr_ratio": 2.0, "decr_ratio": 0.5}


def update_samples(rng):
    g = lambda: [r(rng, 3, 4), r(rng, 5)]  # noqa: E731
    yes, no = np.array([True]), np.array([False])
    return [
        Sample((g(), no, np.array([64.0]), *_counters(0, 1)), ATTRS, "good step counted"),
        Sample((g(), no, np.array([64.0]), *_counters(2, 0)), ATTRS, "good step grows"),
        Sample((g(), no, np.array([3e38]), *_counters(2, 0)), ATTRS, "growth to Inf refused"),
        Sample((g(), yes, np.array([64.0]), *_counters(5, 0)), ATTRS, "bad step counted"),
        Sample((g(), yes, np.array([64.0]), *_counters(0, 1)), ATTRS, "bad step shrinks"),
        Sample((g(), yes, np.array([1.5]), *_counters(0, 1)), ATTRS, "shrink stops at 1"),
        Sample((g(), yes, np.array([64.0]), *_counters(0, 1)), {**ATTRS, "stop_update": True}, "stop_update"),
    ]


ENTRIES: list[OpInfo] = [
    OpInfo("check_finite_and_unscale", unscale_fn, unscale_ref, unscale_samples, grad=False),
    OpInfo("update_loss_scaling", update_fn, update_ref, update_samples, grad=False),
]
