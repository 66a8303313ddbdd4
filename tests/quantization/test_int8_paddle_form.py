"""static/passes/int8_paddle_form.py: the int8 LeNet written with Paddle's CPU ops, saved as a real .pdmodel with
its int8 weights (under 30% of the float32 parameters), computing what the int8 Program does, here and (slow,
when it is installed) in paddle 2.6.2."""

from __future__ import annotations

import os
import subprocess
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.passes.int8_paddle_form import int8_as_paddle_ops
from tests.quantization.test_int8 import _int8_files, _ptq_lenet, _run

PADDLE_PYTHON = "/work/paddle-venv/bin/python"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("int8_paddle")
    net, converted = _ptq_lenet()
    _, int8 = _int8_files(converted, str(folder))
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(int8, exe)
        form = int8_as_paddle_ops(program)
        paddle_form = str(folder / "lenet_paddle_ops")
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # (no fall back to minipaddle's JSON)
            paddle.static.save_inference_model(paddle_form, [form.global_block().var(feeds[0])], fetches, exe,
                                               program=form)  # fmt: skip
    finally:
        paddle.disable_static()
    paddle.jit.save(net, str(folder / "fp32"), input_spec=[paddle.static.InputSpec([None, 1, 28, 28], "float32")])
    return int8, paddle_form, str(folder / "fp32"), program, form


def _images():
    return np.random.default_rng(5).standard_normal((8, 1, 28, 28)).astype("float32")


def test_only_paddles_ops_remain_and_compute_the_same(files):
    int8, paddle_form, _, program, form = files
    types = [op.type for op in form.global_block().ops]
    assert not {"quantize_int8", "conv2d_int8", "matmul_int8", "dequantize_int32"} & set(types)
    assert types.count("fake_channel_wise_dequantize_max_abs") + types.count("fake_dequantize_max_abs") == 5
    assert types.count("cast") == 5  # (one per int8 weight)
    assert [op.type for op in program.global_block().ops].count("conv2d_int8") == 2  # (the input is unchanged)
    with open(paddle_form + ".pdmodel", "rb") as fh:
        assert not fh.read(1) == b"{"  # a ProgramDesc, not minipaddle's JSON
    x = _images()
    _, want = _run(int8, x)
    _, got = _run(paddle_form, x)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_the_weights_stay_int8_in_the_file(files):
    _, paddle_form, fp32, _, _ = files
    ratio = os.path.getsize(paddle_form + ".pdiparams") / os.path.getsize(fp32 + ".pdiparams")
    assert ratio <= 0.30, ratio


PADDLE_RUNS = """
import sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
program, feeds, fetches = paddle.static.load_inference_model(sys.argv[1], exe)
np.save(sys.argv[3], exe.run(program, feed={feeds[0]: np.load(sys.argv[2])}, fetch_list=fetches)[0])
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_paddle_runs_the_int8_file(files, tmp_path):
    int8, paddle_form, _, _, _ = files
    x = _images()
    np.save(tmp_path / "x.npy", x)
    args = [PADDLE_PYTHON, "-c", PADDLE_RUNS, paddle_form, str(tmp_path / "x.npy"), str(tmp_path / "y.npy")]
    result = subprocess.run(args, capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    _, want = _run(int8, x)
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), want, rtol=1e-5, atol=1e-5)
