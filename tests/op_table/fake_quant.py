"""The fake-quant ops (ops/fake_quant.py) against a plain numpy reference: the textbook formulas, written without
Paddle's operation order (tests/quantization/test_ops_golden.py checks that order bit for bit against paddle).

Their gradient is the straight-through estimator, not the derivative of the rounding (zero almost everywhere), so
gradcheck applies only where the op is smooth: moving_average_abs_max_scale (Out = X). The straight-through
gradients are checked in tests/quantization/test_fake_quant_ops.py; quantize_linear / dequantize_linear /
fake_dequantize_* have no gradient, as in Paddle 2.6.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from tests.op_table.common import OpInfo, Sample, r


def _bnt(bits):
    return 2 ** (bits - 1) - 1


def _levels(x, s, bits, round_type):
    if round_type == 0:
        return np.clip(np.round(x / s * _bnt(bits)), -_bnt(bits) - 1, _bnt(bits))
    v = np.clip(x, -s, s) / s * _bnt(bits)
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def _per_channel(x, axis):
    return np.abs(x).max(axis=tuple(i for i in range(x.ndim) if i != axis), keepdims=True)


def _pick(outs, out):
    return outs[out] if isinstance(outs, tuple) else outs


def abs_max_fn(x, bits=8, round_type=1, dequant=False, out=0):
    fn = ops.fake_quantize_dequantize_abs_max if dequant else ops.fake_quantize_abs_max
    return fn(x, bits, round_type)[out]


def abs_max_ref(x, bits=8, round_type=1, dequant=False, out=0):
    s = np.abs(x).max()
    q = _levels(x, s, bits, round_type)
    return [(q * s / _bnt(bits) if dequant else q).astype(x.dtype), np.asarray([s], x.dtype)][out]


def abs_max_samples(rng):
    return [Sample((r(rng, 4, 5) * 3,), {"bits": b, "round_type": t, "dequant": d, "out": o}, f"b{b} r{t} d{d} o{o}")
            for b in (8, 4) for t in (0, 1) for d in (False, True) for o in (0, 1)][:10]  # fmt: skip


def channel_fn(x, axis=0, round_type=1, dequant=False, out=0):
    fn = ops.fake_channel_wise_quantize_dequantize_abs_max if dequant else ops.fake_channel_wise_quantize_abs_max
    return fn(x, 8, round_type, axis)[out]


def channel_ref(x, axis=0, round_type=1, dequant=False, out=0):
    s = _per_channel(x, axis)
    q = _levels(x, s, 8, round_type)
    return [(q * s / 127 if dequant else q).astype(x.dtype), s.reshape(-1).astype(x.dtype)][out]


def channel_samples(rng):
    w = r(rng, 4, 3, 2, 2)
    return [
        Sample((w,), {"axis": 0, "out": 0}, "conv weight axis 0"),
        Sample((w,), {"axis": 1, "dequant": True, "out": 0}, "axis 1 dequant"),
        Sample((r(rng, 5, 3),), {"axis": 1, "round_type": 0, "dequant": True, "out": 0}, "linear weight r0"),
        Sample((w,), {"axis": 0, "out": 1}, "scales"),
        Sample((r(rng, 5, 3),), {"axis": 1, "dequant": True, "out": 1}, "scales axis 1"),
    ]


def moving_fn(x, in_scale, in_accum, in_state, is_test=False, dequant=True, out=0):
    fn = ops.fake_quantize_dequantize_moving_average_abs_max if dequant else ops.fake_quantize_moving_average_abs_max
    return fn(x, in_scale, in_accum, in_state, 0.9, 8, 1, is_test)[out]


def moving_ref(x, in_scale, in_accum, in_state, is_test=False, dequant=True, out=0):
    if is_test:
        s, state, accum = in_scale, in_state, in_accum
    else:
        state = 0.9 * in_state + 1
        accum = 0.9 * in_accum + np.abs(x).max()
        s = accum / state
    q = _levels(x, s, 8, 1)
    return [(q * s / 127 if dequant else q).astype(x.dtype), s, state, accum][out]


def moving_samples(rng):
    x = r(rng, 3, 4) * 2
    stats = (np.array([1.5]), np.array([3.0]), np.array([2.0]))
    return [Sample((x, *stats), {"is_test": t, "dequant": d, "out": o}, f"test{t} dequant{d} out{o}")
            for t in (False, True) for d in (True, False) for o in range(4) if not (t and o > 1)]  # fmt: skip


def scale_fn(x, in_accum, in_state, out=0):
    return ops.moving_average_abs_max_scale(x, in_accum, in_state, 0.9, False)[out]


def scale_ref(x, in_accum, in_state, out=0):
    state = 0.9 * in_state + 1
    accum = 0.9 * in_accum + np.abs(x).max()
    return [x, accum / state, state, accum][out]


def scale_samples(outs):
    def samples(rng):
        stats = (np.array([3.0]), np.array([2.0]))
        return [Sample((r(rng, 3, 4), *stats), {"out": o}, f"out{o}") for o in outs]

    return samples


def linear_fn(x, scale, axis=-1, round_type=0, dequant=False):
    zero = scale * 0
    fn = ops.dequantize_linear if dequant else ops.quantize_linear
    return fn(x, scale, zero, axis, 8, round_type)


def linear_ref(x, scale, axis=-1, round_type=0, dequant=False):
    s = scale if axis < 0 else scale.reshape([-1 if i == axis else 1 for i in range(x.ndim)])
    return (x * s / 127 if dequant else _levels(x, s, 8, round_type)).astype(x.dtype)


def linear_samples(rng):
    x = r(rng, 4, 3) * 3
    return [
        Sample((x, np.array([2.0])), {}, "per tensor, clipped to [-128, 127]"),
        Sample((x, np.array([2.0])), {"round_type": 1}, "ties away"),
        Sample((x, np.array([1.0, 2.0, 3.0])), {"axis": 1}, "per channel"),
        Sample((np.round(x * 10), np.array([2.0])), {"dequant": True}, "dequantize"),
        Sample((np.round(x * 10), np.array([1.0, 2.0, 3.0, 4.0])), {"axis": 0, "dequant": True}, "dequantize axis 0"),
    ]


def dequant_fn(x, *scales, channel=False):
    if channel:
        return ops.fake_channel_wise_dequantize_max_abs(x, list(scales), (8, 8)[: len(scales)], 1)
    return ops.fake_dequantize_max_abs(x, scales[0], 127.0)


def dequant_ref(x, *scales, channel=False):
    if not channel:
        return x * scales[0] / 127
    out = x * scales[0].reshape(1, -1) / 127
    return out * scales[1] / 127 if len(scales) > 1 else out


def dequant_samples(rng):
    q = np.round(r(rng, 4, 3) * 127)
    return [
        Sample((q, np.array([2.0])), {}, "max_abs"),
        Sample((q, np.array([1.0, 2.0, 3.0])), {"channel": True}, "channel-wise"),
        Sample((q, np.array([1.0, 2.0, 3.0]), np.array([4.0])), {"channel": True}, "channel-wise, two scales"),
    ]


ENTRIES: list[OpInfo] = [
    OpInfo("fake_quantize_abs_max", abs_max_fn, abs_max_ref, abs_max_samples, grad=False),
    OpInfo("fake_channel_wise_quantize_abs_max", channel_fn, channel_ref, channel_samples, grad=False),
    OpInfo("fake_quantize_moving_average_abs_max", moving_fn, moving_ref, moving_samples, grad=False),
    OpInfo("moving_average_abs_max_scale", scale_fn, scale_ref, scale_samples([0])),  # Out = X: gradcheck
    OpInfo("moving_average_abs_max_scale", scale_fn, scale_ref, scale_samples([1, 2, 3]), grad=False),  # statistics
    OpInfo("quantize_linear", linear_fn, linear_ref, linear_samples, grad=False),
    OpInfo("fake_dequantize_max_abs", dequant_fn, dequant_ref, dequant_samples, grad=False),
]
