"""A QAT-converted LeNet (the 2.6 API: quantize_linear / dequantize_linear with constant scales) exported to ONNX
end to end, directly and from the file paddle.jit.save wrote: QuantizeLinear -> DequantizeLinear at opset 13 on
every quantized activation, the weights as int8 initializers with a DequantizeLinear each (paddle2onnx's form),
checked by onnx.checker and run by onnxruntime with minipaddle's outputs."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import load_cases

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
CASES = load_cases("quantization")
SPEC = [paddle.static.InputSpec([None, 1, 28, 28], "float32", "image")]


@pytest.fixture(scope="module")
def converted():
    Q = paddle.quantization
    quanter = Q.quanters.FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    qat = Q.QAT(Q.QuantConfig(activation=quanter, weight=quanter))
    paddle.seed(CASES.SEED)
    net = paddle.vision.models.LeNet()
    CASES._weights(paddle, net, CASES.SEED)
    model = qat.quantize(net)
    CASES._train(paddle, model, 3, model.features[0].activation_quanter, {}, "")
    model.eval()
    return qat.convert(model)


def _run_onnx(path: str, x: np.ndarray) -> np.ndarray:
    model = onnx.load(path)
    onnx.checker.check_model(model)
    types = [n.op_type for n in model.graph.node]
    assert model.opset_import[0].version >= 13
    # the 9 quantized activations, and the 5 weights (2 conv, 3 linear) stored as int8 levels
    assert types.count("QuantizeLinear") == 9 and types.count("DequantizeLinear") == 14
    inits = {t.name: onnx.numpy_helper.to_array(t) for t in model.graph.initializer}
    made = {o: n.op_type for n in model.graph.node for o in n.output}
    dq = [n for n in model.graph.node if n.op_type == "DequantizeLinear"]
    assert sum(made.get(n.input[0]) == "QuantizeLinear" for n in dq) == 9  # reading the int8 tensor itself
    weights = [inits[n.input[0]] for n in dq if n.input[0] in inits]
    assert len(weights) == 5 and all(w.dtype == np.int8 and w.ndim in (2, 4) for w in weights)
    floats = [a for a in inits.values() if a.dtype == np.float32 and a.size > 64]
    assert sum(a.size for a in floats) < sum(w.size for w in weights) / 50  # (the biases: no float weight copies)
    outs = []
    for level in ("ORT_DISABLE_ALL", "ORT_ENABLE_ALL"):
        options = ort.SessionOptions()
        options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
        sess = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        outs.append(sess.run(None, {sess.get_inputs()[0].name: x})[0])
    return outs


def _images(n: int) -> np.ndarray:
    return np.random.default_rng(3).standard_normal((n, 1, 28, 28)).astype("float32")


def _compare(got: list, want: np.ndarray) -> None:
    """onnxruntime as the graph says (optimizations off) computes what minipaddle does, every quantized level the
    same (float rounding of the dequantize apart, x * (s / 127) there, x * s / 127 here). Its default graph
    optimizations rewrite the Q/DQ pairs (its QDQ fusions) and round differently: measured 0.08 at most on
    outputs of about 2, the same predictions."""
    exact, optimized = got
    np.testing.assert_allclose(exact, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(optimized, want, atol=0.05 * np.abs(want).max())
    np.testing.assert_array_equal(optimized.argmax(1), want.argmax(1))


def test_a_converted_lenet_exports_to_onnx_and_runs_in_onnxruntime(converted, tmp_path):
    path = paddle.onnx.export(converted, str(tmp_path / "lenet"), SPEC, opset_version=13)
    x = _images(16)
    _compare(_run_onnx(path, x), converted(paddle.to_tensor(x)).numpy())


def test_the_jit_saved_quantized_file_exports_the_same(converted, tmp_path):
    prefix = str(tmp_path / "lenet")
    paddle.jit.save(converted, prefix, input_spec=SPEC)
    path = paddle.onnx.export_model(prefix + ".pdmodel", prefix + ".pdiparams", str(tmp_path / "from_file.onnx"),
                                    opset_version=13)  # fmt: skip
    x = _images(8)
    _compare(_run_onnx(path, x), converted(paddle.to_tensor(x)).numpy())
