"""The fake-quantization ops of Paddle 2.6, under Paddle's own op names, so a quantized Program reads as Paddle's.

Fake quantization simulates int8 in floating point: x is mapped onto the integer grid q in [-bnt, bnt]
(bnt = 2^(bits-1) - 1 = 127 for 8 bits) with a scale s (the largest |x| the grid covers, not s / 127):

    q = round(bnt * (1 / s) * clip(x, -s, s))      round_type 1 (the fake ops' default): ties away from zero
    q = clip(round(bnt * (1 / s) * x), -bnt-1, bnt)   round_type 0: ties to even, the int8 range [-128, 127]
    quant-dequant: out = q * s / bnt

The order of the float operations is Paddle's (bnt * inv_s first, then times x), so results agree bit for bit.
Where s comes from names the op:
- abs_max: s = max |x| over the tensor; channel_wise_abs_max: one s per slice along quant_axis;
- moving_average_abs_max: state = rate * state + 1, accum = rate * accum + max |x|, s = accum / state (training);
  the stored s when is_test;
- moving_average_abs_max_scale records that moving average for an output and passes x through unchanged;
- range_abs_max: the largest abs-max of the last window_size batches (Paddle's static-graph activation default).
quantize_linear / dequantize_linear are the saved (ONNX-style) form with a given scale and zero point.

Gradients: the straight-through estimator (dx = dout; scales and statistics get none), as Paddle.
fake_dequantize_max_abs, fake_channel_wise_dequantize_max_abs, quantize_linear and dequantize_linear pass dout
straight through too, so a quantize -> dequantize pair inserted by static/quantization's transform passes (legacy
and V2) is straight-through as a whole: Paddle gives these no gradient (an empty grad maker) and instead points
the conv2d_grad / mul_grad of an existing backward at the dequantized variables; minipaddle's backward is built
from grad rules, so the rule carries the same gradient.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = [
    "fake_quantize_abs_max", "fake_quantize_dequantize_abs_max", "fake_channel_wise_quantize_abs_max",
    "fake_channel_wise_quantize_dequantize_abs_max", "fake_quantize_moving_average_abs_max",
    "fake_quantize_dequantize_moving_average_abs_max", "moving_average_abs_max_scale", "fake_dequantize_max_abs",
    "fake_channel_wise_dequantize_max_abs", "quantize_linear", "dequantize_linear", "fake_quantize_range_abs_max",
]  # fmt: skip


def bin_count(bit_length: int) -> int:
    """The largest level of a signed symmetric grid: 2^(bits-1) - 1 (127 for 8 bits)."""
    return (1 << (bit_length - 1)) - 1


def _inverse(s: np.ndarray) -> np.ndarray:
    """1 / s, with Paddle's guard for a zero scale (an all-zero tensor quantizes to zeros, not NaN)."""
    one = np.ones((), s.dtype)
    tiny = s <= 1e-30
    if not tiny.any():  # (the usual case, in a third of the instructions: a quantize op runs this every step)
        return one / s
    return np.where(tiny, one / (s + np.asarray(1e-6, s.dtype)), one / np.where(tiny, one, s))


def _round_away(v: np.ndarray) -> np.ndarray:
    """Round half away from zero (C's std::round): 0.5 -> 1, 2.5 -> 3, -2.5 -> -3."""
    return np.copysign(np.floor(np.abs(v) + np.asarray(0.5, v.dtype)), v)


_NATIVE_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def quantize_values(x: np.ndarray, s: np.ndarray, bit_length: int, round_type: int, out=None) -> np.ndarray:
    """The integer levels (in x's dtype) of x on the grid of scale s (s broadcast against x). Given `out` (an
    integer array of the result's shape, round_type 0 only), the rounding writes the levels there instead."""
    s = np.asarray(s, x.dtype)
    bnt = np.asarray(bin_count(bit_length), x.dtype)
    factor = bnt * _inverse(s)
    if round_type == 0 and x.dtype in _NATIVE_FLOATS and x.ndim:
        # One new array, worked on in place (the levels of an activation are computed every inference step).
        # Clipping before rounding gives what clip(round(v)) does, since the bounds are integers and rounding is
        # monotone; so the last pass can round straight into an integer `out`.
        q = np.multiply(factor, x)
        _clip_in_place(q, -bnt - 1, bnt)
        return np.rint(q, out=q) if out is None else np.rint(q, out=out, casting="unsafe")
    if round_type == 0:
        q = np.clip(np.round(factor * x), -bnt - 1, bnt)
    else:
        q = _round_away(factor * np.clip(x, -s, s))
    q = q.astype(x.dtype, copy=False)  # (numpy's rounding of bfloat16 comes back as float32)
    if out is not None:
        out[...] = q
        return out
    return q


def _clip_in_place(q: np.ndarray, low, high) -> None:
    """np.clip(q, low, high, out=q), skipping the clip when nothing is out of range: numpy's clip (like maximum /
    minimum against a scalar) costs ~2.5 instructions an element, its max and min reductions ~0.6 each, and an
    activation leaves its calibrated range only now and then. (`not <=` is true for a NaN maximum, so a q holding
    NaNs is clipped as np.clip would: NaNs stay, the rest is clipped.)"""
    if q.size and (not q.max() <= high or not q.min() >= low):
        np.clip(q, low, high, out=q)


def dequantize_values(q: np.ndarray, s: np.ndarray, bit_length: int) -> np.ndarray:
    """q * s / bnt (Paddle's order: the product first)."""
    s, bnt = np.asarray(s, q.dtype), np.asarray(bin_count(bit_length), q.dtype)
    if q.dtype not in _NATIVE_FLOATS or not q.ndim:
        return q * s / bnt
    y = np.multiply(q, s)
    return np.divide(y, bnt, out=y)  # (in place: one new array)


def channel_shape(x: np.ndarray, quant_axis: int) -> tuple:
    """The shape that puts one scale per slice of x along quant_axis: (1, C, 1, 1) for axis 1 of a 4-d x."""
    return tuple(x.shape[quant_axis] if i == quant_axis else 1 for i in range(x.ndim))


def channel_abs_max(x: np.ndarray, quant_axis: int) -> np.ndarray:
    """max |x| over every axis but quant_axis: [C]."""
    axes = tuple(i for i in range(x.ndim) if i != quant_axis)
    return np.abs(x).max(axis=axes) if x.size else np.zeros(x.shape[quant_axis], x.dtype)


def _abs_max(x: np.ndarray) -> np.ndarray:
    return np.asarray([np.abs(x).max() if x.size else 0], x.dtype)


class _StraightThrough(OpDef):
    """The fake ops' gradient: dout passes to x unchanged; the other inputs (scales, statistics) get none."""

    saves_inputs = False
    none_for_unused_outputs = True

    def grad(self, node, g, *rest):
        if g is None:
            return (None,) * len(node.inputs)
        return (g,) + (None,) * (len(node.inputs) - 1)


# ---- abs_max: one scale, the tensor's largest |x| ---------------------------------------------------------------


@register
class FakeQuantizeAbsMax(_StraightThrough):
    """(q, s): the levels of x on the grid of s = max |x|, and s as a [1] tensor."""

    name = "fake_quantize_abs_max"

    def kernel(self, x, bit_length=8, round_type=1):
        s = _abs_max(x)
        return quantize_values(x, s, bit_length, round_type), s

    def infer_meta(self, x: Meta, bit_length=8, round_type=1):
        return x, Meta((1,), x.dtype)


@register
class FakeQuantizeDequantizeAbsMax(_StraightThrough):
    """(x quantized and dequantized with s = max |x|, s)."""

    name = "fake_quantize_dequantize_abs_max"
    amp = "white"  # on paddle 2.6's float16 white list (ONLY_FP16_WHITE_LIST)

    def kernel(self, x, bit_length=8, round_type=1):
        s = _abs_max(x)
        return dequantize_values(quantize_values(x, s, bit_length, round_type), s, bit_length), s

    def infer_meta(self, x: Meta, bit_length=8, round_type=1):
        return x, Meta((1,), x.dtype)


# ---- channel_wise_abs_max: one scale per channel (weights) ---------------------------------------------------


@register
class FakeChannelWiseQuantizeAbsMax(_StraightThrough):
    """(q, s[C]): per slice along quant_axis (0 for conv weights [Cout, Cin, kh, kw], 1 for Linear's [in, out]).

    is_test with in_scale given: the stored scales are used, not recomputed (paddle 2.6's kernel reads its OutScale
    variable then; minipaddle's op reads that variable as the input in_scale). A QAT test Program thus quantizes
    the weights with the scales of the last training step."""

    name = "fake_channel_wise_quantize_abs_max"

    def kernel(self, x, in_scale, bit_length=8, round_type=1, quant_axis=0, is_test=False):
        if is_test and in_scale is not None:
            s = np.asarray(in_scale, x.dtype).reshape(-1)
        else:
            s = channel_abs_max(x, quant_axis)
        return quantize_values(x, s.reshape(channel_shape(x, quant_axis)), bit_length, round_type), s

    def infer_meta(self, x: Meta, in_scale=None, bit_length=8, round_type=1, quant_axis=0, is_test=False):
        return x, Meta((x.shape[quant_axis],), x.dtype)


@register
class FakeChannelWiseQuantizeDequantizeAbsMax(_StraightThrough):
    """(x quantized and dequantized per channel, s[C])."""

    name = "fake_channel_wise_quantize_dequantize_abs_max"

    def kernel(self, x, bit_length=8, round_type=1, quant_axis=0):
        s = channel_abs_max(x, quant_axis)
        per = s.reshape(channel_shape(x, quant_axis))
        return dequantize_values(quantize_values(x, per, bit_length, round_type), per, bit_length), s

    def infer_meta(self, x: Meta, bit_length=8, round_type=1, quant_axis=0):
        return x, Meta((x.shape[quant_axis],), x.dtype)


# ---- moving_average_abs_max: the scale follows a moving average of the batches' abs-max (activations) ---------


def moving_average(x: np.ndarray, in_accum, in_state, moving_rate: float) -> tuple:
    """(scale, state, accum) after one batch: state = rate * state + 1, accum = rate * accum + max |x|,
    scale = accum / state, in x's dtype (the rate is a float32 attribute in Paddle)."""
    rate = np.asarray(np.float32(moving_rate), x.dtype)
    state = rate * np.asarray(in_state, x.dtype) + np.asarray(1, x.dtype)
    accum = rate * np.asarray(in_accum, x.dtype) + _abs_max(x)
    return accum / state, state, accum


class _MovingAverage(_StraightThrough):
    """Inputs x, in_scale, in_accum, in_state; outputs (out, scale, state, accum). With is_test (or without the
    statistics) the stored in_scale is used and the statistics pass through."""

    dequantize = False

    def kernel(self, x, in_scale, in_accum, in_state, moving_rate=0.9, bit_length=8, round_type=1, is_test=False):
        if is_test or in_accum is None or in_state is None:
            s = np.asarray(in_scale, x.dtype).reshape(1)
            state = s if in_state is None else np.asarray(in_state, x.dtype)
            accum = s if in_accum is None else np.asarray(in_accum, x.dtype)
        else:
            s, state, accum = moving_average(x, in_accum, in_state, moving_rate)
        q = quantize_values(x, s, bit_length, round_type)
        out = dequantize_values(q, s, bit_length) if self.dequantize else q
        return out, s, state, accum

    def infer_meta(self, x: Meta, *rest, **attrs):
        one = Meta((1,), x.dtype)
        return x, one, one, one


@register
class FakeQuantizeMovingAverageAbsMax(_MovingAverage):
    name = "fake_quantize_moving_average_abs_max"


@register
class FakeQuantizeDequantizeMovingAverageAbsMax(_MovingAverage):
    name = "fake_quantize_dequantize_moving_average_abs_max"
    amp = "white"  # on paddle 2.6's float16 white list (ONLY_FP16_WHITE_LIST)
    dequantize = True


@register
class MovingAverageAbsMaxScale(OpDef):
    """(x unchanged, scale, state, accum): records the moving average abs-max of an output (for its output scale);
    with is_test (or without the statistics) nothing is updated and the scale is not computed (zeros)."""

    name = "moving_average_abs_max_scale"
    saves_inputs = False
    none_for_unused_outputs = True

    def kernel(self, x, in_accum, in_state, moving_rate=0.9, is_test=False):
        if is_test or in_accum is None or in_state is None:
            zero = np.zeros(1, x.dtype)
            return x.copy(), zero, zero if in_state is None else in_state, zero if in_accum is None else in_accum
        s, state, accum = moving_average(x, in_accum, in_state, moving_rate)
        return x.copy(), s, state, accum

    def grad(self, node, g, *rest):  # Out = X: the true derivative, so gradcheck holds
        return (g,) + (None,) * (len(node.inputs) - 1)

    def infer_meta(self, x: Meta, *rest, **attrs):
        one = Meta((1,), x.dtype)
        return x, one, one, one


# ---- range_abs_max: the scale is the largest abs-max of the last window_size batches (static training) --------


@register
class FakeQuantizeRangeAbsMax(_StraightThrough):
    """(q, scale, scales): x quantized with the largest max |x| of the last `window_size` batches.

    Inputs x, in_scale (the last scale, [1]), iter (the batch count, int64 [1]) and in_scales (the window,
    [window_size]; Paddle's OutScales variable, which its kernel updates in place). Training, as paddle 2.6's
    FindRangeAbsMaxFunctor: the batch's abs-max replaces the window's entry iter % window_size; the scale becomes
    it if it is larger than the last scale, else, when the entry replaced was the last scale (within 1e-6), the
    abs-max of the window's first min(iter, window_size) entries. is_test: in_scale unchanged."""

    name = "fake_quantize_range_abs_max"

    def kernel(self, x, in_scale, iter, in_scales, window_size=10000, bit_length=8, round_type=1,
               is_test=False):  # fmt: skip
        last = np.asarray(in_scale, x.dtype).reshape(1)
        scales = np.zeros(window_size, x.dtype) if in_scales is None else np.array(in_scales, x.dtype).reshape(-1)
        if is_test:
            return quantize_values(x, last, bit_length, round_type), last, scales
        it = int(np.asarray(iter).reshape(-1)[0])
        idx = it % window_size
        removed, current = scales[idx], _abs_max(x)[0]
        scales[idx] = current
        scale = last[0]
        if scale < current:
            scale = current
        elif abs(removed - scale) < 1e-6:
            size = window_size if it > window_size else it
            scale = np.abs(scales[: max(size, 1)]).max()  # (size 0: Paddle's max_element reads the first entry)
        scale = np.asarray([scale], x.dtype)
        return quantize_values(x, scale, bit_length, round_type), scale, scales

    def infer_meta(self, x: Meta, in_scale: Meta, iter, in_scales=None, window_size=10000, **attrs):
        return x, Meta((1,), x.dtype), Meta((window_size,), x.dtype)


# ---- dequantizing the saved integer form ---------------------------------------------------------------------


@register
class FakeDequantizeMaxAbs(_StraightThrough):
    """x * scale / max_range (the legacy dequantize of weights stored as integers). Gradient: straight through
    (the second half of a fake quantize -> dequantize pair, see the module docstring)."""

    name = "fake_dequantize_max_abs"

    def kernel(self, x, scale, max_range=127.0):
        return (x * np.asarray(scale, x.dtype).reshape(1) / np.asarray(np.float32(max_range), x.dtype)).astype(x.dtype)

    def infer_meta(self, x: Meta, scale: Meta, max_range=127.0):
        return x


@register
class FakeChannelWiseDequantizeMaxAbs(_StraightThrough):
    """x * scales[c] / bnt along quant_axis; with two scale tensors (weights per channel, then the activation's
    one scale) x * s0[c] * s1 / (bnt0 * bnt1) with c along x_num_col_dims, as Paddle."""

    name = "fake_channel_wise_dequantize_max_abs"

    def kernel(self, x, *scales, quant_bits=(8,), quant_axis=0, x_num_col_dims=1):
        # one scale tensor: a weight, channels along quant_axis; two: the output of a quantized conv / matmul
        # (QuantizationFreezePass), channels along x_num_col_dims, as paddle's kernel (quant_axis is not read)
        axis = quant_axis if len(scales) == 1 else x_num_col_dims
        s0 = np.asarray(scales[0], x.dtype).reshape(channel_shape(x, axis))
        out = x * s0 / np.asarray(bin_count(quant_bits[0]), x.dtype)
        if len(scales) > 1:
            out = out * np.asarray(scales[1], x.dtype).reshape(1) / np.asarray(bin_count(quant_bits[1]), x.dtype)
        return out.astype(x.dtype)

    def infer_meta(self, x: Meta, *scales, **attrs):
        return x


@register
class QuantizeLinear(_StraightThrough):
    """y = the levels of x for the given scale (per tensor with quant_axis -1, else per channel); zero_point is
    carried (0 in Paddle's symmetric scheme). round_type 0 (default): ties to even, clipped to [-bnt-1, bnt].

    Training (is_test False), as paddle 2.6's kernel: per tensor with in_accum and in_state, the moving average of
    max |x| is updated first (state = rate * state + 1, accum = rate * accum + max |x|, scale = accum / state), x is
    quantized with that new scale, and the op returns (y, state, accum, scale): Paddle's Y, OutState, OutAccum,
    OutScale; per channel, the scale is x's abs-max per channel now (the given one is not read), and the op
    returns (y, scale). only_observer: y = x unchanged (the statistics still update in training)."""

    name = "quantize_linear"

    def kernel(self, x, scale, zero_point, in_accum, in_state, quant_axis=0, bit_length=8, round_type=0,
               is_test=True, only_observer=False, moving_rate=0.9):  # fmt: skip
        mode = _training_mode(in_accum, in_state, quant_axis, is_test)
        if mode == "moving_average":
            s, state, accum = moving_average(x, in_accum, in_state, moving_rate)
        elif mode == "channel":
            s = channel_abs_max(x, quant_axis)
        else:
            s = np.asarray(scale, x.dtype)
        per = s.reshape(1) if quant_axis < 0 else s.reshape(channel_shape(x, quant_axis))
        y = x.copy() if only_observer else quantize_values(x, per, bit_length, round_type)
        if mode == "moving_average":
            return y, state, accum, s
        return (y, s) if mode == "channel" else y

    def infer_meta(self, x: Meta, scale: Meta, zero_point, in_accum=None, in_state=None, quant_axis=0,
                   is_test=True, **attrs):  # fmt: skip
        mode = _training_mode(in_accum, in_state, quant_axis, is_test)
        if mode == "moving_average":
            one = Meta((1,), x.dtype)
            return x, one, one, one
        if mode == "channel":
            return x, Meta((x.shape[quant_axis],), x.dtype)
        return x


def _training_mode(in_accum, in_state, quant_axis, is_test):
    """How quantize_linear finds its scale in training (None: it is given): a moving average per tensor (when it
    is given the statistics), the abs-max per channel."""
    if is_test:
        return None
    if quant_axis >= 0:
        return "channel"
    return "moving_average" if in_accum is not None and in_state is not None else None


@register
class DequantizeLinear(_StraightThrough):
    """y = x * scale / bnt (per tensor with quant_axis -1, else per channel along quant_axis)."""

    name = "dequantize_linear"

    def kernel(self, x, scale, zero_point, quant_axis=0, bit_length=8, round_type=0, is_test=True,
               only_observer=False):  # fmt: skip
        x = x.astype(np.asarray(scale).dtype) if x.dtype.kind != "f" else x
        s = np.asarray(scale, x.dtype)
        s = s.reshape(1) if quant_axis < 0 else s.reshape(channel_shape(x, quant_axis))
        if only_observer:
            return x.copy()
        return dequantize_values(x, s, bit_length)

    def infer_meta(self, x: Meta, scale: Meta, *rest, **attrs):
        return Meta(x.shape, scale.dtype)


# ---- the raw op functions ---------------------------------------------------------------------------------------


def _attrs(bit_length, round_type, **more) -> dict:
    return {"bit_length": int(bit_length), "round_type": int(round_type), **more}


def fake_quantize_abs_max(x: Tensor, bit_length: int = 8, round_type: int = 1) -> tuple:
    return apply(FakeQuantizeAbsMax, (x,), _attrs(bit_length, round_type))


def fake_quantize_dequantize_abs_max(x: Tensor, bit_length: int = 8, round_type: int = 1) -> tuple:
    return apply(FakeQuantizeDequantizeAbsMax, (x,), _attrs(bit_length, round_type))


def fake_channel_wise_quantize_abs_max(x: Tensor, bit_length: int = 8, round_type: int = 1, quant_axis: int = 0,
                                       in_scale=None, is_test: bool = False):  # fmt: skip
    attrs = _attrs(bit_length, round_type, quant_axis=int(quant_axis))
    if is_test:  # (the training op keeps the attributes it always had)
        attrs["is_test"] = True
    return apply(FakeChannelWiseQuantizeAbsMax, (x, in_scale), attrs)


def fake_channel_wise_quantize_dequantize_abs_max(x: Tensor, bit_length: int = 8, round_type: int = 1,
                                                  quant_axis: int = 0) -> tuple:  # fmt: skip
    attrs = _attrs(bit_length, round_type, quant_axis=int(quant_axis))
    return apply(FakeChannelWiseQuantizeDequantizeAbsMax, (x,), attrs)


def _moving_attrs(moving_rate, bit_length, round_type, is_test) -> dict:
    return _attrs(bit_length, round_type, moving_rate=float(moving_rate), is_test=bool(is_test))


def fake_quantize_moving_average_abs_max(x, in_scale, in_accum=None, in_state=None, moving_rate=0.9, bit_length=8,
                                         round_type=1, is_test=False) -> tuple:  # fmt: skip
    attrs = _moving_attrs(moving_rate, bit_length, round_type, is_test)
    return apply(FakeQuantizeMovingAverageAbsMax, (x, in_scale, in_accum, in_state), attrs)


def fake_quantize_dequantize_moving_average_abs_max(x, in_scale, in_accum=None, in_state=None, moving_rate=0.9,
                                                    bit_length=8, round_type=1, is_test=False) -> tuple:  # fmt: skip
    attrs = _moving_attrs(moving_rate, bit_length, round_type, is_test)
    return apply(FakeQuantizeDequantizeMovingAverageAbsMax, (x, in_scale, in_accum, in_state), attrs)


def moving_average_abs_max_scale(x, in_accum=None, in_state=None, moving_rate=0.9, is_test=False) -> tuple:
    attrs = {"moving_rate": float(moving_rate), "is_test": bool(is_test)}
    return apply(MovingAverageAbsMaxScale, (x, in_accum, in_state), attrs)


def fake_quantize_range_abs_max(x, in_scale, iter, in_scales=None, window_size=10000, bit_length=8, round_type=1,
                                is_test=False) -> tuple:  # fmt: skip
    if isinstance(window_size, bool) or not isinstance(window_size, int) or window_size <= 0:
        raise ValueError(f"fake_quantize_range_abs_max: window_size must be a positive int, got {window_size!r}")
    attrs = _attrs(bit_length, round_type, window_size=window_size, is_test=bool(is_test))
    return apply(FakeQuantizeRangeAbsMax, (x, in_scale, iter, in_scales), attrs)


def fake_dequantize_max_abs(x: Tensor, scale: Tensor, max_range: float = 127.0) -> Tensor:
    return apply(FakeDequantizeMaxAbs, (x, scale), {"max_range": float(max_range)})


def fake_channel_wise_dequantize_max_abs(x: Tensor, scales: list, quant_bits=(8,), quant_axis: int = 0,
                                         x_num_col_dims: int = 1) -> Tensor:  # fmt: skip
    attrs = {"quant_bits": tuple(int(b) for b in quant_bits), "quant_axis": int(quant_axis),
             "x_num_col_dims": int(x_num_col_dims)}  # fmt: skip
    return apply(FakeChannelWiseDequantizeMaxAbs, (x, *scales), attrs)


def _linear_attrs(quant_axis, bit_length, round_type) -> dict:
    return {"quant_axis": int(quant_axis), "bit_length": int(bit_length), "round_type": int(round_type)}


def quantize_linear(x, scale, zero_point, quant_axis: int = -1, bit_length: int = 8, round_type: int = 0,
                    in_accum=None, in_state=None, is_test: bool = True, only_observer: bool = False,
                    moving_rate: float = 0.9):  # fmt: skip
    """The levels of x (a Tensor); in training (is_test False) per tensor with in_accum and in_state:
    (y, state, accum, scale); in training per channel: (y, scale)."""
    attrs = _linear_attrs(quant_axis, bit_length, round_type)
    if not is_test or only_observer:  # (the attributes of the plain inference op stay Paddle's defaults)
        attrs.update(is_test=bool(is_test), only_observer=bool(only_observer), moving_rate=float(moving_rate))
    return apply(QuantizeLinear, (x, scale, zero_point, in_accum, in_state), attrs)


def dequantize_linear(x, scale, zero_point, quant_axis: int = -1, bit_length: int = 8, round_type: int = 0,
                      only_observer: bool = False) -> Tensor:  # fmt: skip
    attrs = _linear_attrs(quant_axis, bit_length, round_type)
    if only_observer:  # (the pair of an observer passes values through: Paddle's file says so on both ops)
        attrs["only_observer"] = True
    return apply(DequantizeLinear, (x, scale, zero_point), attrs)
