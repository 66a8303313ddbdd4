"""PostTrainingQuantization(onnx_format=True) against paddle 2.6.2 on the same saved LeNet and calibration images
(tests/golden/quantization/make_ptq_onnx_golden.py): the saved model holds paddle's quantize_linear /
dequantize_linear pairs with its scales and int8 weights, and computes its logits."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT
from tests.quantization.test_post_training import G, quantize

O = np.load(GOLDEN_ROOT / "quantization" / "ptq_onnx.npz")  # noqa: E741
T = json.loads((GOLDEN_ROOT / "quantization" / "ptq_onnx.json").read_text())
# minipaddle's op for Paddle's (its fc is a matmul, its flatten a reshape; save_inference_model's scale an assign)
TYPES = {"matmul": "mul", "add": "elementwise_add", "max_pool": "pool2d", "reshape": "flatten_contiguous_range",
         "assign": "scale"}  # fmt: skip


@pytest.fixture(scope="module", params=["abs_max", "KL"])
def saved(request, tmp_path_factory):
    ptq, _, _ = quantize(request.param, onnx_format=True)
    folder = tmp_path_factory.mktemp(f"onnx_{request.param}")
    paddle.enable_static()
    try:
        ptq.save_quantized_model(str(folder))
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe = paddle.static.Executor()
            program, feeds, fetches = paddle.static.load_inference_model(str(folder / "model"), exe)
            values = dict(paddle.static.global_scope().vars)
            (logits,) = exe.run(program, feed={feeds[0]: G["evaluation"]}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    return request.param, program, values, logits, str(folder / "model")


def test_the_saved_pairs_and_scales_are_paddles(saved):
    algo, program, values, _, _ = saved
    types = [TYPES.get(op.type, op.type) for op in program.global_block().ops]
    # (minipaddle's flatten and its bias reshapes are all reshapes)
    mine = Counter(t for t in types if t != "flatten_contiguous_range")
    theirs = Counter(t for t in T[algo] if t != "flatten_contiguous_range")
    assert mine == theirs
    for pair in ("quantize_linear", "dequantize_linear"):
        assert types.count(pair) == T[algo].count(pair)
    params = {k.split("/param/", 1)[1]: O[k] for k in O if k.startswith(f"{algo}/param/")}
    common = [n for n in params if n.endswith("@scale") and n in values]
    assert len(common) >= 8  # the inputs and outputs of every quantized op, and the three weights' channel scales
    for name in common:  # (paddle's channel scales are [1, C] in its file, [C] as its Program declares here)
        np.testing.assert_allclose(np.reshape(values[name], -1), np.reshape(params[name], -1), rtol=1e-5, err_msg=name)
    for w in ("conv2d_0.w_0", "conv2d_1.w_0", "fc_0.w_0"):
        assert values[w].dtype == np.int8
        np.testing.assert_array_equal(values[w], params[w], err_msg=w)


def test_the_saved_model_computes_paddles_logits(saved):
    algo, _, _, logits, _ = saved
    np.testing.assert_allclose(logits, O[f"{algo}/logits"], rtol=1e-5, atol=1e-5)
