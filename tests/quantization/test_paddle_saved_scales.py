"""Channel-wise quantized models as paddle 2.6.2 saves them load and run here (tests/golden/quantization/
make_ptq_saved_files.py: PostTrainingQuantization abs_max of a LeNet, weights channel_wise_abs_max, in the
onnx_format and in the legacy format).

Paddle's onnx_format file stores the per-channel weight scales declared [C] as [1, C], the output scales declared
[1] as [], and the int8 weight levels in variables declared float32 (paddle's load_combine keeps whatever a file
holds). minipaddle takes such values with the declared shape, and the int8 dtype for a variable only
dequantize_linear reads; anything else that does not fit its variable is still refused.
"""

from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static import io as static_io
from tests.golden_files import GOLDEN_ROOT

HERE = GOLDEN_ROOT / "quantization"
S = np.load(HERE / "ptq_saved.npz")
IMAGES = np.load(HERE / "ptq.npz")["evaluation"]
FORMATS = ("onnx", "legacy")


def prefix(fmt: str) -> str:
    return str(HERE / "ptq_saved" / fmt / "model")


@pytest.fixture(scope="module", params=FORMATS)
def loaded(request):
    fmt = request.param
    paddle.enable_static()
    try:
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe = paddle.static.Executor()
            program, feeds, fetches = paddle.static.load_inference_model(prefix(fmt), exe)
            values = {n: np.array(v) for n, v in paddle.static.global_scope().vars.items()}
            (logits,) = exe.run(program, feed={feeds[0]: IMAGES}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    return fmt, program, values, logits


def test_the_file_holds_values_shaped_otherwise_than_declared():
    """(What the golden is for: paddle's own onnx_format file, read back by paddle, has such values.)"""
    odd = {k.split("/value/")[1] for k in S.files if k.startswith("onnx/value/")
           and S[k].shape != tuple(S[k.replace("/value/", "/declared/")])}  # fmt: skip
    assert {"conv2d_0.w_0@scale", "conv2d_1.w_0@scale", "fc_0.w_0@scale"} <= odd
    assert S["onnx/value/conv2d_0.w_0@scale"].shape == (1, 4) and S["onnx/value/conv2d_0.w_0"].dtype == np.int8


def test_values_load_with_their_declared_shapes(loaded):
    fmt, program, values, _ = loaded
    block = program.global_block()
    names = [k.split("/value/")[1] for k in S.files if k.startswith(f"{fmt}/value/")]
    assert len(names) > 10
    for name in names:
        theirs = S[f"{fmt}/value/{name}"]
        declared = tuple(S[f"{fmt}/declared/{name}"])
        assert tuple(block.var(name).shape) == declared == values[name].shape, name
        assert values[name].dtype == theirs.dtype, name
        np.testing.assert_array_equal(values[name].reshape(-1), theirs.reshape(-1), err_msg=name)
    if fmt == "onnx":
        for w in ("conv2d_0.w_0", "conv2d_1.w_0", "fc_0.w_0"):
            assert block.var(w).dtype == paddle.int8 and values[w].dtype == np.int8


def test_the_loaded_model_computes_paddles_logits(loaded):
    fmt, _, _, logits = loaded
    np.testing.assert_allclose(logits, S[f"{fmt}/logits"], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_predictor_and_jit_load_run_paddles_file(fmt):
    config = paddle.inference.Config(prefix(fmt) + ".pdmodel", prefix(fmt) + ".pdiparams")
    predictor = paddle.inference.create_predictor(config)
    predictor.get_input_handle(predictor.get_input_names()[0]).copy_from_cpu(IMAGES)
    predictor.run()
    got = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    np.testing.assert_allclose(got, S[f"{fmt}/logits"], rtol=1e-5, atol=1e-5)
    layer = paddle.jit.load(prefix(fmt))
    np.testing.assert_allclose(layer(paddle.to_tensor(IMAGES)).numpy(), S[f"{fmt}/logits"], rtol=1e-5, atol=1e-5)


def test_only_unit_dimensions_and_int8_weights_are_forgiven():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [-1, 4], "float32")
            w = paddle.static.create_parameter([4], "float32", name="w")
            y = x * w
    finally:
        paddle.disable_static()
    check = lambda a: static_io._check_value(w, a, "load", "the file")  # noqa: E731
    assert check(np.ones((1, 4), np.float32)).shape == (4,)
    assert check(np.ones((4, 1, 1), np.float32)).shape == (4,)
    with pytest.raises(ValueError, match=r"'w' has shape \[4\] in the program, but shape \[2, 2\]"):
        check(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match=r"'w' is float32 in the program, but int8"):
        check(np.ones(4, np.int8))  # (w is read by a multiply, not by dequantize_linear: not a frozen weight)
    assert w.dtype == paddle.float32 and y.dtype == paddle.float32


@pytest.mark.parametrize("fmt", FORMATS)
def test_saved_again_it_holds_the_declared_shapes_and_paddle_runs_it(fmt, tmp_path):
    """minipaddle writes the loaded model back with every value as its variable declares it ([C], [1], int8
    weights declared int8); it reads back the same, and paddle 2.6.2 (when installed) computes its own logits."""
    from tests.quantization.test_saved_paddle import PADDLE_PYTHON, PADDLE_RUNS

    out = str(tmp_path / "again")
    paddle.enable_static()
    try:
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe = paddle.static.Executor()
            program, feeds, fetches = paddle.static.load_inference_model(prefix(fmt), exe)
            block = program.global_block()
            paddle.static.save_inference_model(out, [block.var(n) for n in feeds], fetches, exe, program=program)
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(out, exe)
            values = paddle.static.global_scope().vars
            for v in program.list_vars():
                if v.persistable and v.name in values:
                    assert np.shape(values[v.name]) == tuple(v.shape) and values[v.name].dtype == v.dtype.np, v.name
            (logits,) = exe.run(program, feed={feeds[0]: IMAGES}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(logits, S[f"{fmt}/logits"], rtol=1e-5, atol=1e-5)
    if not os.path.exists(PADDLE_PYTHON):
        return  # (the rest needs real Paddle)
    np.save(tmp_path / "images.npy", IMAGES)
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_RUNS, out, str(tmp_path / "images.npy")],
                            capture_output=True, text=True, timeout=180, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    ran = json.loads(result.stdout.strip().splitlines()[-1])
    for way in ("static", "predictor"):
        np.testing.assert_allclose(np.array(ran[way], np.float32), S[f"{fmt}/logits"], rtol=1e-5, atol=1e-5)
