"""The fake-quant ops' gradients (straight-through), their errors, and the quant layers' state updates."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import ops
from minipaddle.nn.quant import quant_layers


def _channel_pair(x):
    q, s = ops.fake_channel_wise_quantize_abs_max(x, quant_axis=1)
    return q, [s], (8,), 1


def _ste(fn):
    x = paddle.to_tensor(np.linspace(-3, 3, 12).reshape(3, 4), stop_gradient=False)
    out = fn(x)
    (out if not isinstance(out, tuple) else out[0]).multiply(paddle.arange(12.0).reshape([3, 4])).sum().backward()
    return x.grad.numpy()


@pytest.mark.parametrize("fn", [
    lambda x: ops.fake_quantize_dequantize_abs_max(x),
    lambda x: ops.fake_quantize_abs_max(x),
    lambda x: ops.fake_channel_wise_quantize_dequantize_abs_max(x, quant_axis=1),
    lambda x: ops.fake_quantize_dequantize_moving_average_abs_max(x, paddle.ones([1]), paddle.ones([1]),
                                                                  paddle.ones([1])),
    lambda x: ops.fake_quantize_dequantize_moving_average_abs_max(x, paddle.ones([1]), is_test=True),
    lambda x: ops.fake_dequantize_max_abs(ops.fake_quantize_abs_max(x)[0], paddle.full([1], 2.0)),
    lambda x: ops.fake_channel_wise_dequantize_max_abs(*_channel_pair(x)),
], ids=["abs_max", "abs_max quantize only", "channel-wise", "moving average", "moving average, test",
        "quantize -> dequantize pair", "channel-wise pair"])  # fmt: skip
def test_straight_through_gradient(fn):
    """dx = dout, even where x was clipped (the moving-average scale 1 clips |x| > 1), as Paddle's kernels."""
    np.testing.assert_array_equal(_ste(fn), np.arange(12.0).reshape(3, 4))


def test_straight_through_in_static_mode():
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3], "float32")
            x.stop_gradient = False
            y, _ = ops.fake_quantize_dequantize_abs_max(x)
            (g,) = paddle.static.gradients([paddle.sum(y * 3.0)], [x])
        (gx,) = paddle.static.Executor().run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[g])
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(gx, np.full((2, 3), 3.0))


def test_zero_tensor_quantizes_to_zero():
    out, scale = ops.fake_quantize_dequantize_abs_max(paddle.zeros([2, 3]))
    assert np.all(out.numpy() == 0) and scale.numpy()[0] == 0


def test_moving_average_layer_updates_in_training_only():
    layer = quant_layers.FakeQuantMovingAverageAbsMax()
    x = paddle.to_tensor([[1.0, -4.0]])
    for _ in range(3):
        layer(x)
    np.testing.assert_allclose(layer._state.numpy(), [3.439], rtol=1e-6)  # 1 + 0.9 (1 + 0.9 (1 + 0.9))
    np.testing.assert_allclose(layer._scale.numpy(), layer._accum.numpy() / layer._state.numpy(), rtol=1e-6)
    layer.eval()
    before = layer._scale.numpy().copy()
    layer(x * 10)
    np.testing.assert_array_equal(layer._scale.numpy(), before)


def test_output_scale_layer_passes_input_through():
    layer = quant_layers.MovingAverageAbsMaxScale()
    x = paddle.to_tensor([[0.5, -2.0]])
    np.testing.assert_array_equal(layer(x).numpy(), x.numpy())
    np.testing.assert_allclose(layer._scale.numpy(), [2.0])  # from zeros: state 1, accum 2


def test_errors_name_the_function():
    with pytest.raises(ValueError, match="channel_num"):
        quant_layers.FakeQuantChannelWiseAbsMax(quant_on_weight=True)
    with pytest.raises(ValueError, match="quant_bits"):
        quant_layers.FakeQuantAbsMax(quant_bits=40)
    with pytest.raises(ValueError, match="activation_quantize_type"):
        paddle.quantization.ImperativeQuantAware(activation_quantize_type="range_abs_max")
    with pytest.raises(ValueError, match="weight_quantize_type"):
        paddle.quantization.ImperativeQuantAware(weight_quantize_type="moving_average_abs_max")
    with pytest.raises(RuntimeError, match="eval mode"):
        cfg = paddle.quantization.QuantConfig(activation=None, weight=paddle.quantization.observers.AbsmaxObserver())
        paddle.quantization.PTQ(cfg).quantize(paddle.nn.Linear(2, 2))
    with pytest.raises(TypeError, match="quanter factory"):
        paddle.quantization.QuantConfig(activation="abs_max", weight=None)


def _levels_by_the_formula(x, s, bits):
    """round_type 0's levels as written: clip(round(bnt / s * x), -bnt - 1, bnt), in x's dtype (Paddle's order)."""
    bnt = np.asarray((1 << (bits - 1)) - 1, x.dtype)
    return np.clip(np.round(bnt * (np.ones((), x.dtype) / s) * x), -bnt - 1, bnt)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_in_place_levels_equal_the_formula_bit_for_bit(dtype):
    """quantize_values' in-place path (clip skipped when nothing leaves the range, clip before rounding, rounding
    into int8 for quantize_int8) gives the formula's bits: ties, -0.0, NaN, +-inf, values far out of range, per
    channel, and a tensor that stays inside its range (where the clip is skipped)."""
    from minipaddle.core.op import OPS
    from minipaddle.ops.fake_quant import dequantize_values, quantize_values

    rng = np.random.default_rng(0)
    x = (rng.standard_normal((4, 3, 5, 5)) * 3).astype(dtype)
    x.flat[:10] = [0.5, -0.5, 2.5, -2.5, -0.0, np.nan, np.inf, -np.inf, 1e30, -1e30]
    inside = rng.uniform(-1, 1, (64, 7)).astype(dtype)
    ties = (np.arange(-600, 600) / 4).astype(dtype)
    cases = [(x, np.asarray([3.0], dtype)), (x, np.abs(x[0, :, 0, 0]).reshape(1, 3, 1, 1) + 1),
             (inside, np.asarray([1.0], dtype)), (ties, dtype(127))]  # fmt: skip
    for arr, s in cases:
        for bits in (8, 4):
            got, want = quantize_values(arr, s, bits, 0), _levels_by_the_formula(arr, s, bits)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
            np.testing.assert_array_equal(
                dequantize_values(got, s, bits), want * s / np.asarray(2 ** (bits - 1) - 1, dtype)
            )
        finite = np.nan_to_num(arr)
        q8 = OPS["quantize_int8"].kernel(finite, np.asarray(s).reshape(-1), quant_axis=1 if np.size(s) > 1 else -1)
        assert q8.dtype == np.int8
        np.testing.assert_array_equal(q8, _levels_by_the_formula(finite, s, 8).astype(np.int8))


def test_dequantize_int32_bit_for_bit():
    """The rescale with the per-channel scales spelled out over the trailing axes is acc * (sx/127 * sw[c]/127)
    elementwise in float32, as with [1, C, 1, 1] broadcasting: same bits, conv ([N, C, H, W], axis 1) and matmul
    ([N, C], axis -1), and one scale."""
    from minipaddle.core.op import OPS

    rng = np.random.default_rng(0)
    kernel = OPS["dequantize_int32"].kernel
    xs = np.float32(0.7)
    for shape, axis in (((4, 6, 5, 5), 1), ((4, 9), -1), ((2, 3, 4), 1)):
        acc = rng.integers(-(2**23), 2**23, shape).astype(np.int32)
        ws = rng.uniform(0.01, 2, shape[axis]).astype(np.float32)
        per = [shape[axis] if i == axis % len(shape) else 1 for i in range(len(shape))]
        want = acc.astype(np.float32) * ((xs / np.float32(127)) * (ws / np.float32(127))).reshape(per)
        assert kernel(acc, xs, ws, axis=axis).tobytes() == want.tobytes()
        one = kernel(acc, xs, ws[:1], axis=axis)
        assert (
            one.tobytes() == (acc.astype(np.float32) * ((xs / np.float32(127)) * (ws[:1] / np.float32(127)))).tobytes()
        )
