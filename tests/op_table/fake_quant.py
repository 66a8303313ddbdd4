"""The fake-quant ops (ops/fake_quant.py) against a plain numpy reference: the textbook formulas, written without
Paddle's operation order (tests/quantization/test_ops_golden.py checks that order bit for bit against paddle).

Their gradient is the straight-through estimator, not the derivative of the rounding (zero almost everywhere), so
gradcheck applies only where the op is smooth: moving_average_abs_max_scale (Out = X). The straight-through
gradients (fake_dequantize_* included: the second half of a quantize -> dequantize pair) are checked in
tests/quantization/test_fake_quant_ops.py (quantize_linear / dequantize_linear in test_transform_v2.py).
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


def linear_train_fn(x, scale, in_accum, in_state, axis=-1, only_observer=False, out=0):
    zero = ops.full_like(scale, 0.0)
    outs = ops.quantize_linear(x, scale, zero, axis, 8, 0, in_accum, in_state, False, only_observer, 0.9)
    return outs[out]


def linear_train_ref(x, scale, in_accum, in_state, axis=-1, only_observer=False, out=0):
    """Training: a moving average per tensor (y, state, accum, scale); per channel, x's abs-max (y, scale)."""
    if axis >= 0:
        s = _per_channel(x, axis)
        return [x if only_observer else _levels(x, s, 8, 0).astype(x.dtype), s.reshape(-1)][out]
    state = 0.9 * in_state + 1
    accum = 0.9 * in_accum + np.abs(x).max()
    s = accum / state
    return [x if only_observer else _levels(x, s, 8, 0).astype(x.dtype), state, accum, s][out]


def linear_train_samples(rng):
    x = r(rng, 4, 3) * 3
    stats = (np.array([2.0]), np.array([3.0]), np.array([2.0]))
    per_tensor = [Sample((x, *stats), {"out": o}, f"moving average, out {o}") for o in range(4)]
    return per_tensor + [
        Sample((x, *stats), {"only_observer": True}, "only_observer: x unchanged"),
        Sample((x, *stats), {"only_observer": True, "out": 3}, "only_observer: the scale still updates"),
        Sample((x, np.ones(3), *stats[1:]), {"axis": 1}, "per channel: x's abs-max"),
        Sample((x, np.ones(3), *stats[1:]), {"axis": 1, "out": 1}, "per channel: the scales"),
    ]


def range_fn(x, in_scale, in_scales, iteration, out=0):
    step = ops.cast(iteration, "int64")
    return ops.fake_quantize_range_abs_max(x, in_scale, step, in_scales, 3, 8, 1, False)[out]


def range_ref(x, in_scale, in_scales, iteration, out=0):
    """The window keeps the last 3 batch abs-maxes; the scale grows at once and shrinks when its batch leaves."""
    it = int(iteration[0])
    scales = in_scales.copy()
    removed, current = scales[it % 3], np.abs(x).max()
    scales[it % 3] = current
    if in_scale[0] < current:
        s = current
    elif abs(removed - in_scale[0]) < 1e-6:
        s = np.abs(scales[: max(min(it, 3), 1)]).max()
    else:
        s = in_scale[0]
    s = np.array([s], x.dtype)
    return [_levels(x, s, 8, 1).astype(x.dtype), s, scales][out]


def range_samples(rng):
    x = r(rng, 3, 4)
    big = np.array([4.0])
    window = np.array([4.0, 0.5, 0.25])
    first = [Sample((x, np.array([0.001]), np.zeros(3), np.array([0.0])), {"out": o}, f"first batch, out {o}")
             for o in range(3)]  # fmt: skip
    return first + [
        Sample((x, big, window, np.array([3.0])), {"out": 1}, "the largest leaves: the window's max"),
        Sample((x, big, window, np.array([4.0])), {"out": 2}, "the window after the step"),
        Sample((x * 9, np.array([0.5]), window, np.array([5.0])), {"out": 1}, "a larger batch: its abs-max"),
        Sample((x, big, window, np.array([4.0])), {"out": 0}, "quantized with the kept scale"),
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
    OpInfo("quantize_linear", linear_train_fn, linear_train_ref, linear_train_samples, grad=False),  # training
    OpInfo("fake_quantize_range_abs_max", range_fn, range_ref, range_samples, grad=False),
    OpInfo("fake_dequantize_max_abs", dequant_fn, dequant_ref, dequant_samples, grad=False),
]


# ---- the int8 ops of static/passes/int8.py (integers in, exact integers out; no gradient) --------------------


def _int8(rng, *shape):
    return rng.integers(-128, 128, size=shape).astype(np.int8)


def quantize_int8_fn(x, scale, axis=-1):
    return ops.quantize_int8(x, scale, axis)


def quantize_int8_ref(x, scale, axis=-1):
    s = scale if axis < 0 else scale.reshape([-1 if i == axis else 1 for i in range(x.ndim)])
    return _levels(x, s, 8, 0).astype(np.int8)


def quantize_int8_samples(rng):
    return [
        Sample((r(rng, 4, 3) * 3, np.array([2.0])), {}, "per tensor, clipped"),
        Sample((r(rng, 4, 3), np.array([0.5, 1.0, 2.0])), {"axis": 1}, "per channel"),
    ]


def matmul_int8_fn(x, y):
    return ops.matmul_int8(x, y)


def matmul_int8_ref(x, y):
    return (x.astype(np.int64) @ y.astype(np.int64)).astype(np.int32)


def matmul_int8_samples(rng):
    return [
        Sample((_int8(rng, 3, 5), _int8(rng, 5, 4)), {}, "2-d"),
        Sample((_int8(rng, 2, 3, 6), _int8(rng, 6, 2)), {}, "batched"),
    ]


def conv_int8_fn(x, w, padding=0):
    return ops.conv2d_int8(x, w, (1, 1), ((padding, padding), (padding, padding)), (1, 1), 1)


def conv_int8_ref(x, w, padding=0):
    x = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (padding, padding), (padding, padding)))
    kh, kw = w.shape[2:]
    oh, ow = x.shape[2] - kh + 1, x.shape[3] - kw + 1
    out = np.zeros((x.shape[0], w.shape[0], oh, ow), np.int64)
    for i in range(oh):
        for j in range(ow):
            out[:, :, i, j] = np.einsum("nchw,ochw->no", x[:, :, i : i + kh, j : j + kw], w.astype(np.int64))
    return out.astype(np.int32)


def conv_int8_samples(rng):
    return [Sample((_int8(rng, 2, 3, 5, 5), _int8(rng, 4, 3, 3, 3)), {}, "valid"),
            Sample((_int8(rng, 1, 2, 4, 4), _int8(rng, 3, 2, 3, 3)), {"padding": 1}, "padded")]  # fmt: skip


def dequantize_int32_fn(acc, x_scale, w_scale, axis=-1):
    return ops.dequantize_int32(acc, x_scale, w_scale, axis)


def dequantize_int32_ref(acc, x_scale, w_scale, axis=-1):
    ws = w_scale if w_scale.size == 1 else w_scale.reshape([-1 if i == axis % acc.ndim else 1 for i in range(acc.ndim)])
    return (acc * (x_scale / 127) * (ws / 127)).astype(np.float32)


def dequantize_int32_samples(rng):
    acc = rng.integers(-(2**20), 2**20, size=(2, 3, 2, 2)).astype(np.int32)
    return [
        Sample((acc, np.array([2.0], "float32"), np.array([0.5, 1.0, 1.5], "float32")), {"axis": 1}, "conv output"),
        Sample((acc[0, 0], np.array([2.0], "float32"), np.array([3.0], "float32")), {}, "one weight scale"),
    ]


ENTRIES += [
    OpInfo("quantize_int8", quantize_int8_fn, quantize_int8_ref, quantize_int8_samples, grad=False),
    OpInfo("matmul_int8", matmul_int8_fn, matmul_int8_ref, matmul_int8_samples, grad=False, dtypes=("float32",)),
    OpInfo("conv2d_int8", conv_int8_fn, conv_int8_ref, conv_int8_samples, grad=False, dtypes=("float32",)),
    OpInfo(
        "dequantize_int32",
        dequantize_int32_fn,
        dequantize_int32_ref,
        dequantize_int32_samples,
        grad=False,
        dtypes=("float32",),
    ),  # fmt: skip
]
