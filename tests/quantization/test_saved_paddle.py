"""Quantized models saved as Paddle's own .pdmodel: ImperativeQuantAware's legacy format (fake quant-dequant ops,
thresholds as op attributes) holds the ops and thresholds paddle 2.6.2 writes for the same trained LeNet
(tests/golden/quantization/saved_legacy.json, make_saved_golden.py), and paddle 2.6.2 itself (when installed)
loads minipaddle's legacy, onnx_format and 2.6-format (jit.save of a converted model) files and computes
minipaddle's outputs with load_inference_model and with its inference predictor."""

from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static import pdmodel
from tests.golden_files import GOLDEN_ROOT, load_cases
from tests.quantization.training_tolerance import assert_trained_value_follows

CASES = load_cases("quantization")
GOLDEN = json.loads((GOLDEN_ROOT / "quantization" / "saved_legacy.json").read_text())
PADDLE_PYTHON = "/work/paddle-venv/bin/python"
SPEC = [paddle.static.InputSpec([None, 1, 28, 28], "float32")]
# The two places where minipaddle's LeNet builds another op than paddle's for the same computation: its flatten is
# a reshape, and jit.save's output copy is read back as an assign (paddle's is a scale by 1.0).
SAME = {("reshape2", "flatten_contiguous_range"), ("assign", "scale")}


def _ops(prefix: str) -> list:
    """The saved .pdmodel's ops as the golden lists them (feed and fetch left out)."""
    desc = pdmodel.ProgramDesc()
    desc.ParseFromString(open(prefix + ".pdmodel", "rb").read())
    ops = []
    for op in desc.blocks[0].ops:
        if op.type in ("feed", "fetch"):
            continue
        notes = pdmodel.quant_attrs_of({a.name: pdmodel._attr_value(a) for a in op.attrs})
        inputs = sorted(v.parameter for v in op.inputs if v.arguments)
        outputs = sorted(v.parameter for v in op.outputs if v.arguments)
        ops.append({"type": op.type, "inputs": inputs, "outputs": outputs, "quant_attrs": notes})
    return ops


def _run(prefix: str, x: np.ndarray) -> np.ndarray:
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            return exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)[0]
    finally:
        paddle.disable_static()


@pytest.fixture(scope="module")
def legacy(tmp_path_factory):
    """minipaddle's save_quantized_model of the 10-step ImperativeQuantAware LeNet (channel-wise weights)."""
    net, quanter = CASES.qat20_trained(paddle, "channel_wise_abs_max")
    net.eval()
    prefix = str(tmp_path_factory.mktemp("legacy") / "lenet")
    quanter.save_quantized_model(net, prefix, input_spec=SPEC)
    return prefix, net(paddle.to_tensor(CASES.eval_input())).numpy()


@pytest.fixture(scope="module")
def onnx20(tmp_path_factory):
    """The same LeNet saved with onnx_format=True: quantize_linear / dequantize_linear pairs, int8 weights."""
    net, quanter = CASES.qat20_trained(paddle, "channel_wise_abs_max", onnx_format=True)
    net.eval()
    prefix = str(tmp_path_factory.mktemp("onnx20") / "lenet")
    quanter.save_quantized_model(net, prefix, input_spec=SPEC)
    return prefix, _run(prefix, CASES.eval_input())


def test_legacy_file_holds_paddles_ops_and_thresholds(legacy):
    prefix, _ = legacy
    assert open(prefix + ".pdmodel", "rb").read(1) == b"\x0a"  # a ProgramDesc, not minipaddle's JSON
    got = _ops(prefix)
    assert len(got) == len(GOLDEN["ops"])
    for mine, theirs in zip(got, GOLDEN["ops"]):
        if mine["type"] != theirs["type"]:
            assert (mine["type"], theirs["type"]) in SAME, (mine, theirs)
        else:
            assert mine["inputs"] == theirs["inputs"] and mine["outputs"] == theirs["outputs"], (mine, theirs)
        assert sorted(mine["quant_attrs"]) == sorted(theirs["quant_attrs"]), (mine, theirs)
        for key, value in theirs["quant_attrs"].items():
            assert_trained_value_follows(mine["quant_attrs"][key], value, f"{theirs['type']} {key}")


def test_legacy_file_runs_with_paddles_outputs(legacy):
    prefix, dygraph = legacy
    got = _run(prefix, CASES.eval_input())
    np.testing.assert_array_equal(got, dygraph)
    assert_trained_value_follows(got, np.array(GOLDEN["eval_out"], "float32"), "eval_out")


@pytest.fixture(scope="module")
def converted26(tmp_path_factory):
    """paddle.jit.save of the 10-step 2.6-QAT LeNet after convert: quantize_linear / dequantize_linear."""
    Q = paddle.quantization
    quanter = Q.quanters.FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    qat = Q.QAT(Q.QuantConfig(activation=quanter, weight=quanter))
    paddle.seed(CASES.SEED)
    net = paddle.vision.models.LeNet()
    CASES._weights(paddle, net, CASES.SEED)
    model = qat.quantize(net)
    CASES._train(paddle, model, 3, model.features[0].activation_quanter, {}, "")
    model.eval()
    converted = qat.convert(model)
    prefix = str(tmp_path_factory.mktemp("qdq") / "lenet")
    paddle.jit.save(converted, prefix, input_spec=SPEC)
    return prefix, converted(paddle.to_tensor(CASES.eval_input())).numpy()


def test_jit_save_of_a_converted_model_writes_quantize_linear(converted26):
    prefix, dygraph = converted26
    types = [op["type"] for op in _ops(prefix)]
    assert types[:4] == ["quantize_linear", "dequantize_linear", "dequantize_linear", "conv2d"]
    assert types.count("dequantize_linear") == types.count("quantize_linear") + 5  # the 5 weights: dequantize only
    np.testing.assert_array_equal(_run(prefix, CASES.eval_input()), dygraph)


PADDLE_RUNS = """
import json, sys
import numpy.random
import numpy as np
import paddle
prefix, images = sys.argv[1], np.load(sys.argv[2])
out = {}
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
out["types"] = [op.type for op in program.global_block().ops]
out["static"] = exe.run(program, feed={feeds[0]: images}, fetch_list=fetches)[0].tolist()
config = paddle.inference.Config(prefix + ".pdmodel", prefix + ".pdiparams")
config.disable_mkldnn()
predictor = paddle.inference.create_predictor(config)
handle = predictor.get_input_handle(predictor.get_input_names()[0])
handle.copy_from_cpu(images)
predictor.run()
out["predictor"] = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu().tolist()
print(json.dumps(out))
"""


def _paddle_runs(prefix: str, tmp_path) -> dict:
    np.save(tmp_path / "images.npy", CASES.eval_input())
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_RUNS, prefix, str(tmp_path / "images.npy")],
                            capture_output=True, text=True, timeout=180, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.parametrize("which", ["legacy", "converted26", "onnx20"])
def test_paddle_runs_minipaddles_quantized_file_with_the_same_outputs(which, request, tmp_path):
    prefix, dygraph = request.getfixturevalue(which)
    outs = _paddle_runs(prefix, tmp_path)
    fake = "fake_channel_wise_quantize_dequantize_abs_max" if which == "legacy" else "quantize_linear"
    # (onnx20's outputs are minipaddle's run of its own file: its int8 weights and pairs round as paddle's)
    assert fake in outs["types"]
    for how in ("static", "predictor"):
        np.testing.assert_allclose(np.array(outs[how], "float32"), dygraph, rtol=1e-5, atol=1e-6, err_msg=how)
