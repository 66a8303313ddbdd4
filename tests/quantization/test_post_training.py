"""paddle.static.quantization.PostTrainingQuantization on a LeNet saved by paddle 2.6.2 (tests/golden/quantization/
make_ptq_golden.py, which also records paddle's own PTQ on the same calibration batches): for each algorithm the
thresholds of every weight and activation, the quantized Program's ops and threshold attributes, the frozen
weights, and the saved model's outputs (through load_inference_model and the inference predictor) equal paddle's.
"""

from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.quantization import PostTrainingQuantization
from tests.golden_files import GOLDEN_ROOT

HERE = GOLDEN_ROOT / "quantization"
G = np.load(HERE / "ptq.npz")
T = json.loads((HERE / "ptq.json").read_text())
ALGOS = ["abs_max", "avg", "min_max", "mse", "KL", "hist"]
PADDLE_PYTHON = "/work/paddle-venv/bin/python"
# minipaddle op -> Paddle op (Paddle's save_inference_model ends with a scale 1.0, which reads back as an assign)
TYPES = {"matmul": "mul", "add": "elementwise_add", "max_pool": "pool2d", "reshape": "flatten_contiguous_range",
         "assign": "scale"}  # fmt: skip


def calibration():
    images = G["images"]
    return lambda: ({"image": images[i : i + 8]} for i in range(0, len(images), 8))


def quantize(algo, **kwargs):
    paddle.enable_static()
    try:
        scope = paddle.static.Scope()
        options = {"batch_generator": calibration(), **kwargs}
        ptq = PostTrainingQuantization(paddle.static.Executor(), str(HERE / "ptq_lenet"), scope=scope,
                                       model_filename="model.pdmodel", params_filename="model.pdiparams",
                                       batch_nums=3, algo=algo, quantizable_op_type=["conv2d", "mul", "pool2d"],
                                       **options)  # fmt: skip
        program = ptq.quantize()
    finally:
        paddle.disable_static()
    return ptq, program, scope


@pytest.fixture(scope="module", params=ALGOS)
def quantized(request, tmp_path_factory):
    ptq, program, scope = quantize(request.param)
    folder = tmp_path_factory.mktemp(request.param)
    paddle.enable_static()
    try:
        ptq.save_quantized_model(str(folder))
    finally:
        paddle.disable_static()
    return request.param, ptq, program, scope, str(folder / "model")


def found_thresholds(algo, ptq) -> dict:
    if algo != "min_max":
        return ptq.thresholds
    return {**{f"{k}.min": v[0] for k, v in ptq.min_max.items()}, **{f"{k}.max": v[1] for k, v in ptq.min_max.items()}}


def test_thresholds_equal_paddles(quantized):
    algo, ptq, _, _, _ = quantized
    want = {k.split("/threshold/", 1)[1]: G[k] for k in G.files if k.startswith(f"{algo}/threshold/")}
    got = found_thresholds(algo, ptq)
    assert sorted(got) == sorted(want)
    for name, value in want.items():
        np.testing.assert_allclose(np.asarray(got[name], np.float64), value, rtol=1e-6, err_msg=name)


def rows(program) -> list:
    """(Paddle type, threshold notes) per op, minipaddle's bias reshapes left out."""
    block = program.global_block()
    const = {n for n, v in block.vars.items() if v.persistable}
    out = []
    for op in block.ops:
        ins = [n for n in op.input_names() if n is not None]
        if op.type == "reshape" and ins and all(n in const for n in ins):
            continue
        notes = {k: v for k, v in op.quant_attrs.items() if k.endswith("_threshold") or k == "quantization_type"}
        out.append((TYPES.get(op.type, op.type), notes))
    return out


def test_quantized_program_matches_paddles(quantized):
    algo, _, program, _, _ = quantized
    theirs = [(r["type"], {k: v for k, v in r["attrs"].items() if k.endswith("_threshold") or k == "quantization_type"})
              for r in T[algo] if r["type"] not in ("feed", "fetch")]  # fmt: skip
    mine = rows(program)
    assert [t for t, _ in mine] == [t for t, _ in theirs]
    for (kind, a), (_, b) in zip(mine, theirs):
        assert sorted(a) == sorted(b), kind
        for k, v in b.items():
            if isinstance(v, float):
                np.testing.assert_allclose(a[k], v, rtol=1e-6, err_msg=f"{kind} {k}")
            else:
                assert a[k] == v


def test_frozen_weights_equal_paddles(quantized):
    algo, _, program, scope, _ = quantized
    for p in [k.split("/param/", 1)[1] for k in G.files if k.startswith(f"{algo}/param/")]:
        if p.startswith("channel_scale"):  # (numbered in the order of a set of graph nodes: compared by value below)
            continue
        # to one float32 ulp: a scale is max|w| or a search over a histogram, whose numpy reductions round once
        # more or less on another CPU
        np.testing.assert_allclose(scope.vars[p], G[f"{algo}/param/{p}"], rtol=3e-7, atol=0, err_msg=p)
    mine = sorted(tuple(np.asarray(scope.vars[n]).ravel()) for n in scope.vars if n.startswith("channel_scale"))
    theirs = sorted(tuple(G[k].ravel()) for k in G.files if k.startswith(f"{algo}/param/channel_scale"))
    assert [len(s) for s in mine] == [len(s) for s in theirs]
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_saved_model_gives_paddles_outputs(quantized):
    algo, _, _, _, prefix = quantized
    assert os.path.exists(prefix + ".pdmodel") and os.path.exists(prefix + ".pdiparams")
    paddle.enable_static()
    try:
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe = paddle.static.Executor()
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            (out,) = exe.run(program, feed={feeds[0]: G["evaluation"]}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out, G[f"{algo}/logits"], rtol=1e-5, atol=1e-6)
    if algo != "min_max":  # (min_max only notes ranges: its Program computes in float)
        assert not np.allclose(out, G["float/logits"], rtol=1e-6, atol=1e-7)


def test_the_predictor_runs_the_saved_model(quantized):
    algo, _, _, _, prefix = quantized
    if algo != "KL":
        pytest.skip("one algorithm is enough for the predictor")
    predictor = paddle.inference.create_predictor(paddle.inference.Config(prefix + ".pdmodel", prefix + ".pdiparams"))
    predictor.get_input_handle(predictor.get_input_names()[0]).copy_from_cpu(G["evaluation"])
    predictor.run()
    out = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    np.testing.assert_allclose(out, G["KL/logits"], rtol=1e-5, atol=1e-6)


def test_a_sample_generator_and_a_data_loader_give_the_same_thresholds():
    images = G["images"]

    class Images(paddle.io.Dataset):
        def __getitem__(self, i):
            return images[i]

        def __len__(self):
            return len(images)

    want, _, _ = quantize("abs_max")
    by_sample, _, _ = quantize("abs_max", batch_generator=None, sample_generator=lambda: iter(images), batch_size=8)
    loader = paddle.io.DataLoader(Images(), batch_size=8)
    by_loader, _, _ = quantize("abs_max", batch_generator=None, data_loader=loader)
    for got in (by_sample, by_loader):
        assert sorted(got.thresholds) == sorted(want.thresholds)
        for k, v in want.thresholds.items():
            np.testing.assert_allclose(got.thresholds[k], v, rtol=1e-7)


def test_arguments_are_checked():
    exe = paddle.static.Executor()
    with pytest.raises(ValueError, match="algo"):
        PostTrainingQuantization(exe, "m", batch_generator=calibration(), algo="best")
    with pytest.raises(NotImplementedError, match="ptf"):
        PostTrainingQuantization(exe, "m", batch_generator=calibration(), algo="ptf")
    with pytest.raises(ValueError, match="exactly one"):
        PostTrainingQuantization(exe, "m", batch_generator=calibration(), sample_generator=calibration())
    with pytest.raises(TypeError, match="Executor"):
        PostTrainingQuantization("exe", "m", batch_generator=calibration())
    with pytest.raises(ValueError, match="activation_bits"):
        PostTrainingQuantization(exe, "m", batch_generator=calibration(), activation_bits=4)
    with pytest.raises(NotImplementedError, match="onnx_format"):
        PostTrainingQuantization(exe, "m", batch_generator=calibration(), onnx_format=True, algo="min_max")
    with pytest.raises(RuntimeError, match="quantize"):
        PostTrainingQuantization(exe, "m", batch_generator=calibration()).save_quantized_model("x")


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
def test_paddle_runs_minipaddles_quantized_model(quantized, tmp_path):
    algo, _, _, _, prefix = quantized
    if algo not in ("KL", "abs_max"):
        pytest.skip("two algorithms are enough for the paddle round trip")
    np.save(tmp_path / "x.npy", G["evaluation"])
    args = [PADDLE_PYTHON, "-c", PADDLE_RUNS, prefix, str(tmp_path / "x.npy"), str(tmp_path / "y.npy")]
    result = subprocess.run(args, capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), G[f"{algo}/logits"], rtol=1e-5, atol=1e-6)
