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


def test_it_exports_to_onnx_as_qdq_nodes_that_onnxruntime_runs_the_same(saved, tmp_path):
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    algo, _, _, logits, prefix = saved
    path = paddle.onnx.export_model(prefix + ".pdmodel", prefix + ".pdiparams", str(tmp_path / "ptq.onnx"),
                                    opset_version=13)  # fmt: skip
    model = onnx.load(path)
    onnx.checker.check_model(model)
    types = [n.op_type for n in model.graph.node]
    # the V2 pairs on the quantized ops' inputs are QDQ nodes, the three weights int8 with a DequantizeLinear each;
    # the observer pairs on the outputs (only_observer) are Identity, as they compute nothing in paddle either
    program = saved[1]
    real = [
        op for op in program.global_block().ops if op.type == "quantize_linear" and not op.attrs.get("only_observer")
    ]
    assert types.count("QuantizeLinear") == len(real) > 0
    assert types.count("DequantizeLinear") == len(real) + 3
    got, optimized = (run_onnxruntime(path, G["evaluation"], level) for level in ("ORT_DISABLE_ALL", "ORT_ENABLE_ALL"))
    config = paddle.inference.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    predictor = paddle.inference.create_predictor(config)
    predictor.get_input_handle(predictor.get_input_names()[0]).copy_from_cpu(G["evaluation"])
    predictor.run()
    want = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    np.testing.assert_array_equal(want, logits)
    # every level the same; only the dequantize's float rounding differs (x * (s / 127) there, x * s / 127 here)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # With its graph optimizations on, onnxruntime folds the Identity pairs and turns MatMul + Add into Gemm, but
    # fuses no integer kernel (QLinearConv needs a QuantizeLinear after the conv, and the output pairs are
    # Identity): the same float computation, measured 7e-7 at most (abs_max and KL, outputs up to 4.9)
    np.testing.assert_allclose(optimized, want, rtol=1e-5, atol=1e-5)


def run_onnxruntime(path: str, x: np.ndarray, level: str) -> np.ndarray:
    """onnxruntime's outputs at a graph optimization level (ORT_DISABLE_ALL: the graph as written)."""
    ort = pytest.importorskip("onnxruntime")
    options = ort.SessionOptions()
    options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    sess = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    return sess.run(None, {sess.get_inputs()[0].name: x})[0]
