"""The int8 pass (static/passes/int8.py): exact int32 sums through a float GEMM, the int8 LeNet's numbers equal the
quantized Program's, its parameters a quarter of the size, its accuracy that of float32."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import ops
from minipaddle.ops.int8 import FLOAT32_EXACT_K, exact_float_dtype

SPEC = [paddle.static.InputSpec([None, 1, 28, 28], "float32", "image")]


def test_float32_gemm_is_exact_up_to_1024_products():
    """The worst case: every product at its largest, (-128) * (-128) = 2^14, K = 1024 of them: 2^24, the last
    integer float32 holds with all below it; and random int8 values, against int64 arithmetic."""
    assert exact_float_dtype(FLOAT32_EXACT_K) is np.float32 and exact_float_dtype(FLOAT32_EXACT_K + 1) is np.float64
    x = np.full((2, FLOAT32_EXACT_K), -128, np.int8)
    got = ops.matmul_int8(paddle.to_tensor(x), paddle.to_tensor(x.T.copy())).numpy()
    assert got.dtype == np.int32 and np.all(got == 2**24)
    rng = np.random.default_rng(0)
    for k in (7, FLOAT32_EXACT_K, 3000):  # 3000 > 1024: float64
        a = rng.integers(-128, 128, (5, k)).astype(np.int8)
        b = rng.integers(-128, 128, (k, 6)).astype(np.int8)
        want = a.astype(np.int64) @ b.astype(np.int64)
        np.testing.assert_array_equal(ops.matmul_int8(paddle.to_tensor(a), paddle.to_tensor(b)).numpy(), want)


def test_float32_would_not_be_exact_beyond_the_bound():
    """Why the bound matters: 2^24 + 1 is not a float32, so a longer float32 sum can lose the last unit."""
    assert np.float32(2**24) + np.float32(1) == np.float32(2**24)


def test_conv2d_int8_is_exact():
    rng = np.random.default_rng(1)
    x = rng.integers(-128, 128, (2, 16, 9, 9)).astype(np.int8)
    w = rng.integers(-128, 128, (4, 16, 5, 5)).astype(np.int8)  # K = 400
    got = ops.conv2d_int8(paddle.to_tensor(x), paddle.to_tensor(w), (1, 1), ((0, 0), (0, 0)), (1, 1), 1).numpy()
    x64, w64 = x.astype(np.int64), w.astype(np.int64)
    want = np.zeros((2, 4, 5, 5), np.int64)
    for i in range(5):
        for j in range(5):
            want[:, :, i, j] = np.einsum("nchw,ochw->no", x64[:, :, i : i + 5, j : j + 5], w64)
    np.testing.assert_array_equal(got, want)


def _ptq_lenet(seed=0, calibration=None):
    paddle.seed(seed)
    net = paddle.vision.models.LeNet()
    net.eval()
    Q = paddle.quantization
    observer = Q.observers.AbsmaxObserver()
    ptq = Q.PTQ(Q.QuantConfig(activation=observer, weight=observer))
    observed = ptq.quantize(net)
    for batch in calibration if calibration is not None else [paddle.randn([16, 1, 28, 28]) for _ in range(2)]:
        observed(batch)
    return net, ptq.convert(observed)


def _int8_files(converted, folder, name="lenet"):
    """Save the converted model, load it, run the int8 pass, save that: (quantized prefix, int8 prefix)."""
    qdq, int8 = os.path.join(folder, name), os.path.join(folder, name + "_int8")
    paddle.jit.save(converted, qdq, input_spec=SPEC)
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(qdq, exe)
        program8 = paddle.static.passes.convert_to_int8(program, keep=fetches)
        feed = program8.global_block().var(feeds[0])
        paddle.static.save_inference_model(int8, [feed], fetches, exe, program=program8)
    finally:
        paddle.disable_static()
    return qdq, int8


def _run(prefix, x):
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        (out,) = exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    return program, out


def test_int8_program_computes_what_the_quantized_one_did(tmp_path):
    net, converted = _ptq_lenet()
    qdq, int8 = _int8_files(converted, str(tmp_path))
    x = np.random.default_rng(2).standard_normal((8, 1, 28, 28)).astype("float32")
    _, want = _run(qdq, x)
    program, got = _run(int8, x)
    types = [op.type for op in program.global_block().ops]
    assert types.count("conv2d_int8") == 2 and types.count("matmul_int8") == 3
    assert "conv2d" not in types and "matmul" not in types
    int8_weights = [v for v in program.global_block().vars.values() if v.persistable and v.dtype.name == "int8"]
    assert len(int8_weights) == 5
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)  # the same levels and exact sums: float rounding only
    np.testing.assert_allclose(got, converted(paddle.to_tensor(x)).numpy(), rtol=1e-5, atol=1e-5)


def test_int8_parameters_are_under_30_percent_of_float32(tmp_path):
    net, converted = _ptq_lenet()
    paddle.jit.save(net, str(tmp_path / "fp32"), input_spec=SPEC)
    _, int8 = _int8_files(converted, str(tmp_path))
    ratio = os.path.getsize(int8 + ".pdiparams") / os.path.getsize(str(tmp_path / "fp32") + ".pdiparams")
    assert ratio <= 0.30, ratio


def test_int8_pass_leaves_float_programs_alone():
    main = paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, paddle.static.Program()):
            y = paddle.nn.Linear(3, 2)(paddle.static.data("x", [-1, 3], "float32"))
    finally:
        paddle.disable_static()
    new = paddle.static.passes.convert_to_int8(main, keep=[y])
    assert [op.type for op in new.global_block().ops] == [op.type for op in main.global_block().ops]
    with pytest.raises(TypeError, match="Program"):
        paddle.static.passes.convert_to_int8("not a program")


@pytest.mark.slow
def test_int8_lenet_on_digits_within_one_point_of_float32(tmp_path):
    """Train LeNet briefly on the embedded digits, PTQ-calibrate, go to int8: accuracy within 1 point."""
    sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
    from int8_lenet_infer import digits, train_lenet

    (xtr, ytr), (xte, yte) = digits(1500, 500)
    net = train_lenet(xtr, ytr, epochs=1)
    net.eval()
    float_acc = float((net(paddle.to_tensor(xte)).numpy().argmax(1) == yte).mean())
    Q = paddle.quantization
    ptq = Q.PTQ(Q.QuantConfig(activation=Q.observers.AbsmaxObserver(), weight=Q.observers.AbsmaxObserver()))
    observed = ptq.quantize(net)
    for i in range(0, 1000, 250):
        observed(paddle.to_tensor(xtr[i : i + 250]))
    _, int8 = _int8_files(ptq.convert(observed), str(tmp_path))
    _, out = _run(int8, xte)
    int8_acc = float((out.argmax(1) == yte).mean())
    assert float_acc > 0.5, float_acc  # it learned something
    assert abs(int8_acc - float_acc) <= 0.01, (float_acc, int8_acc)


def test_inference_predictor_runs_the_int8_program(tmp_path):
    """paddle.inference loads the int8 model and gives what the Executor gives."""
    _, converted = _ptq_lenet()
    _, int8 = _int8_files(converted, str(tmp_path))
    x = np.random.default_rng(3).standard_normal((4, 1, 28, 28)).astype("float32")
    predictor = paddle.inference.create_predictor(paddle.inference.Config(int8 + ".pdmodel", int8 + ".pdiparams"))
    predictor.get_input_handle(predictor.get_input_names()[0]).copy_from_cpu(x)
    predictor.run()
    got = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    _, want = _run(int8, x)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
