"""The fake-quantization kernels keep x's dtype for float16 and bfloat16, in every mode (per tensor, per channel,
moving average in training and in inference, the range window, quantize_linear/dequantize_linear): numpy's
rounding, clipping and abs-max upcast bfloat16 to float32, so the levels are cast back to x's dtype. The built
Program's dtypes (infer_meta) agree with what the kernels give. The op table's AMP rows (tests/ops/
test_op_table_amp.py) check the same through auto_cast, with no bfloat16 exceptions left."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.ops import fake_quant as fq


def _calls(x, dtype):
    one = paddle.to_tensor(np.array([1.5], np.float32)).astype(dtype)
    zero = paddle.to_tensor(np.zeros(1, np.int32))
    it = paddle.to_tensor(np.array([0], np.int64))
    q, s = fq.fake_quantize_abs_max(x)
    return {
        "abs_max": (q, s),
        "dequantize_abs_max": fq.fake_quantize_dequantize_abs_max(x),
        "channel_wise": fq.fake_channel_wise_quantize_abs_max(x, quant_axis=1),
        "channel_wise_dequantize": fq.fake_channel_wise_quantize_dequantize_abs_max(x, quant_axis=1),
        "moving_average_train": fq.fake_quantize_moving_average_abs_max(x, one, one, one),
        "moving_average_test": fq.fake_quantize_moving_average_abs_max(x, one, one, one, is_test=True),
        "dequantize_moving_average": fq.fake_quantize_dequantize_moving_average_abs_max(x, one, one, one),
        "output_scale": fq.moving_average_abs_max_scale(x, one, one),
        "range_abs_max": fq.fake_quantize_range_abs_max(x, one, it, window_size=4),
        "dequantize_max_abs": (fq.fake_dequantize_max_abs(q, s),),
        "channel_wise_dequantize_max_abs": (fq.fake_channel_wise_dequantize_max_abs(q, [one.expand([3])]),),
        "quantize_linear": (fq.quantize_linear(x, one, zero),),
        "quantize_linear_train": fq.quantize_linear(x, one, zero, in_accum=one, in_state=one, is_test=False),
        "quantize_linear_channel": fq.quantize_linear(x, one.expand([3]), zero, quant_axis=0, is_test=False),
        "dequantize_linear": (fq.dequantize_linear(q, one, zero),),
    }


def _x():
    return np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32) * 3


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_fake_quant_kernels_keep_the_low_dtype(dtype):
    x = paddle.to_tensor(_x()).astype(dtype)
    outs = _calls(x, dtype)
    wrong = {k: [t.dtype.name for t in v if t.dtype.name != dtype] for k, v in outs.items()}
    assert {k: v for k, v in wrong.items() if v} == {}
    q = outs["abs_max"][0].astype("float32").numpy()
    assert np.array_equal(q, np.round(q)) and np.abs(q).max() == 127  # levels on the grid, max |x| at the end
    deq = outs["dequantize_abs_max"][0].astype("float32").numpy()
    step = np.abs(x.astype("float32").numpy()).max() / 127
    assert np.abs(deq - x.astype("float32").numpy()).max() <= step  # within a grid step (rounding in low precision)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_static_programs_give_the_dtypes_the_kernels_give(dtype):
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [3, 4], "float32").astype(dtype)
            outs = _calls(x, dtype)
        built = {k: [v.dtype.name for v in vs] for k, vs in outs.items()}
        fetch = [v for vs in outs.values() for v in vs]
        got = paddle.static.Executor().run(main, feed={"x": _x()}, fetch_list=fetch)
    finally:
        paddle.disable_static()
    ran = iter(np.asarray(a).dtype.name for a in got)
    assert built == {k: [next(ran) for _ in vs] for k, vs in built.items()}
    assert all(d == dtype for vs in built.values() for d in vs)
