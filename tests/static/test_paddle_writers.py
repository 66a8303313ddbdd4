"""The writers of static/paddle_ops.py beyond the layers' ops: tensor slicing (slice, strided_slice), `x[i] = v`
(set_value), embedding (lookup_table_v2), the fused fc, adaptive pooling, split, hardsigmoid, control flow (cond as
conditional_block + select_input, while_loop as while), and nn.LSTM/nn.GRU with sequence_length (unstack, stack).
Each Program is saved as Paddle's .pdmodel (no JSON fallback) and read back by minipaddle with equal outputs; where
paddle 2.6.2 is installed, its load_inference_model, jit.load and inference predictor run the files to the same
outputs."""

from __future__ import annotations

import json
import os
import subprocess
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import ops
from minipaddle.ops.fused import fc
from minipaddle.static.paddle_proto import ProgramDesc

PADDLE_PYTHON = "/work/paddle-venv/bin/python"
RNG = np.random.default_rng(3)


def slicing_embedding_fc():
    x = paddle.static.data("x", [None, 4, 5], "float32")
    ids = paddle.static.data("ids", [None, 3], "int64")
    w = paddle.static.create_parameter([5, 3], "float32")
    b = paddle.static.create_parameter([3], "float32")
    y = x * 1.0
    y[:, 0] = 5.0  # set_value with a constant
    y[:, 1:3, 2] = paddle.ones([1], "float32") * 2.0  # and with a computed value
    outs = [x[:, 1:3, ::2], x[0], x[..., -1], paddle.nn.Embedding(10, 5, padding_idx=0)(ids), fc(x, w, b, "relu"), y]
    feed = {"x": RNG.standard_normal((2, 4, 5)).astype("float32"), "ids": np.array([[0, 1, 9], [3, 0, 2]])}
    return [x, ids], outs, feed, {"strided_slice", "slice", "set_value", "lookup_table_v2", "fc"}


def cond_and_while_loop():
    x = paddle.static.data("x", [None, 3], "float32")
    m = paddle.mean(x)
    y = paddle.static.nn.cond(m > 0, lambda: x * 2.0, lambda: x - 1.0)  # both branches compute
    z = paddle.static.nn.cond(m < 0, lambda: y, lambda: paddle.nn.functional.relu(x))  # one returns a parent var
    i = paddle.zeros([1], "int64")
    s = paddle.zeros_like(y)

    def body(i, s):
        return [i + 1, s + y * 0.5]

    i, s = paddle.static.nn.while_loop(lambda i, s: i < 3, body, [i, s])
    a, b = paddle.static.nn.while_loop(lambda a, b: paddle.mean(a) < 10.0, lambda a, b: [b + 1.0, a], [x, x * 2.0])
    feeds = {"x": RNG.standard_normal((2, 3)).astype("float32")}
    return [x], [y, z, i, s + 1.0, a, b], feeds, {"conditional_block", "select_input", "while", "logical_not"}


def pools_and_split():
    x = paddle.static.data("x", [None, 4, 6, 6], "float32")
    F = paddle.nn.functional
    parts = paddle.split(x, [1, 3], axis=1) + paddle.split(x, 2, axis=1)
    pooled, where = F.max_pool2d(x, 2, return_mask=True)  # indices that are read: max_pool2d_with_index
    outs = [F.adaptive_avg_pool2d(x, 1), F.adaptive_avg_pool2d(x, [2, 3]), F.adaptive_max_pool2d(x, 2), *parts,
            F.max_pool2d(x, 3, 1, 1), pooled, where, F.hardsigmoid(x)]  # fmt: skip
    feed = {"x": RNG.standard_normal((2, 4, 6, 6)).astype("float32")}
    return [x], outs, feed, {"pool2d", "split", "max_pool2d_with_index", "hard_sigmoid"}


def indexing_and_cumsum():
    x = paddle.static.data("x", [None, 4, 5], "float32")
    outs = [x[:, ::-1], x[:, 3:0:-2, 1], x[:, :1:-1], x[None, :, 1], x[..., None, 2:], x[:, None],  # views
            x[:, [2, 0, -1]], x[:, 1:, [0, 4]], x[0, [1, 2], 3], x[:, [0, 1], [4, 2]], x[:, [1, 2], :, ...][..., 0],
            x[:, np.array([True, False, True, True])], x[:, [[0, 1], [3, 2]], 1:4:2],  # gather_nd
            paddle.cumsum(x, axis=1), paddle.cumsum(x), paddle.cumsum(x, -1, "float64")]  # fmt: skip
    feed = {"x": RNG.standard_normal((2, 4, 5)).astype("float32")}
    return [x], outs, feed, {"strided_slice", "unsqueeze2", "gather_nd", "transpose2", "cumsum"}


def pools_1d_3d():
    F = paddle.nn.functional
    x1 = paddle.static.data("x1", [None, 3, 9], "float32")
    x2 = paddle.static.data("x2", [None, 3, 6, 6], "float32")
    x3 = paddle.static.data("x3", [None, 2, 4, 6, 5], "float32")
    p1, m1 = F.max_pool1d(x1, 3, 2, 1, return_mask=True)
    a1, am1 = F.adaptive_max_pool1d(x1, 4, return_mask=True)
    p3, m3 = F.max_pool3d(x3, 2, return_mask=True)
    a3, am3 = F.adaptive_max_pool3d(x3, [2, 3, 2], return_mask=True)
    # max pooling with ceil_mode whose indices are read (F.max_pool2d drops ceil_mode with return_mask, as paddle
    # 2.6 does; the op itself has both, and a training Program's max_pool_grad reads the indices)
    ceil = [*ops.max_pool(x2, (3, 3), (2, 2), ((0, 0), (0, 0)), True), *ops.max_pool(x1, (2,), (2,), ((0, 0),), True),
            *ops.max_pool(x2, (3, 2), (2, 2), ((1, 1), (1, 1)), True),
            *ops.max_pool(x2, (3, 2), (2, 2), ((0, 0), (0, 0)), True)]  # fmt: skip
    outs = [F.max_pool1d(x1, 2), F.avg_pool1d(x1, 3, 2, 1, exclusive=False), F.avg_pool1d(x1, 2, ceil_mode=True),
            p1, m1, F.adaptive_avg_pool1d(x1, 4), a1, am1, F.max_pool1d(x1, 2, ceil_mode=True),
            F.avg_pool2d(x2, 2, divisor_override=3), F.avg_pool2d(x2, 3, 1, 1, divisor_override=5),
            F.avg_pool3d(x3, 2, divisor_override=3), F.max_pool3d(x3, 3, 2, 1, ceil_mode=True),
            F.avg_pool3d(x3, [2, 3, 2], 1, [1, 0, 1]), p3, m3, F.adaptive_avg_pool3d(x3, [2, 3, 1]), a3, am3,
            F.adaptive_avg_pool3d(x3, 1), *ceil]  # fmt: skip
    feed = {"x1": RNG.standard_normal((2, 3, 9)).astype("float32"),
            "x2": RNG.standard_normal((2, 3, 6, 6)).astype("float32"),
            "x3": RNG.standard_normal((2, 2, 4, 6, 5)).astype("float32")}  # fmt: skip
    return [x1, x2, x3], outs, feed, {"pool2d", "pool3d", "max_pool2d_with_index", "max_pool3d_with_index",
                                      "squeeze2", "scale", "concat", "elementwise_floordiv"}  # fmt: skip


def lstm_gru_with_lengths():
    """nn.LSTM and nn.GRU (two layers, bidirectional, time-major too) over samples of different lengths: each step
    of a cell as ops between unstack and stack, the batch and the lengths known only when the Program runs."""
    x = paddle.static.data("x", [None, 5, 3], "float32")
    lengths = paddle.static.data("lengths", [None], "int64")
    lstm = paddle.nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    gru = paddle.nn.GRU(3, 4, time_major=True)
    out, (h, c) = lstm(x, sequence_length=lengths)
    out2, h2 = gru(paddle.transpose(x, [1, 0, 2]), sequence_length=lengths)
    feed = {"x": RNG.standard_normal((3, 5, 3)).astype("float32"), "lengths": np.array([5, 2, 4])}
    return [x, lengths], [out, h, c, out2, h2], feed, {"unstack", "stack", "greater_than", "fill_any_like"}


CASES = {"slicing_embedding_fc": slicing_embedding_fc, "cond_and_while_loop": cond_and_while_loop,
         "pools_and_split": pools_and_split, "indexing_and_cumsum": indexing_and_cumsum,
         "pools_1d_3d": pools_1d_3d, "lstm_gru_with_lengths": lstm_gru_with_lengths}  # fmt: skip


def save_case(name: str, tmp_path) -> tuple:
    """Build case `name`, run it, save it as Paddle's files (warnings are errors: no JSON fallback)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, outs, feed, paddle_ops = CASES[name]()
    exe = paddle.static.Executor()
    exe.run(startup)
    expected = exe.run(main, feed=feed, fetch_list=outs)
    prefix = str(tmp_path / name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paddle.static.save_inference_model(prefix, feeds, outs, exe, program=main)
    desc = ProgramDesc()
    desc.ParseFromString(open(prefix + ".pdmodel", "rb").read())
    written = {op.type for block in desc.blocks for op in block.ops}
    assert paddle_ops <= written, paddle_ops - written
    return prefix, feed, expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_minipaddle_writes_paddles_ops_and_reads_them_back_equal(name, static_mode, tmp_path):
    with paddle.static.scope_guard(paddle.static.Scope()):
        prefix, feed, expected = save_case(name, tmp_path)
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        outs = exe.run(program, feed={f: feed[f] for f in feeds}, fetch_list=fetches)
    if name == "cond_and_while_loop":  # each Paddle conditional_block pair + select_input reads as one cond again
        kinds = [op.type for op in program.global_block().ops]
        assert kinds.count("cond") == 2 and kinds.count("while") == 2
    assert len(outs) == len(expected)
    for got, want in zip(outs, expected):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


PADDLE_RUNS = """
import json, os, sys
import numpy.random
import numpy as np
import paddle
prefix, io = sys.argv[1], np.load(sys.argv[2])
out = {}
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
out["static"] = [o.tolist() for o in exe.run(program, feed={f: io[f] for f in feeds}, fetch_list=fetches)]
paddle.disable_static()
results = paddle.jit.load(prefix)(*[paddle.to_tensor(io[f]) for f in feeds])
out["jit"] = [r.numpy().tolist() for r in (results if isinstance(results, (list, tuple)) else [results])]
params = prefix + ".pdiparams"
predictor = paddle.inference.create_predictor(paddle.inference.Config(prefix + ".pdmodel",
                                                                      params if os.path.exists(params) else ""))
for name in predictor.get_input_names():
    predictor.get_input_handle(name).copy_from_cpu(io[name])
predictor.run()
out["predictor"] = [predictor.get_output_handle(n).copy_to_cpu().tolist() for n in predictor.get_output_names()]
print(json.dumps(out))
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.parametrize("name", sorted(CASES))
def test_paddle_runs_what_minipaddle_wrote_with_the_same_outputs(name, static_mode, tmp_path):
    with paddle.static.scope_guard(paddle.static.Scope()):
        prefix, feed, expected = save_case(name, tmp_path)
    np.savez(tmp_path / "io.npz", **feed)
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_RUNS, prefix, str(tmp_path / "io.npz")],
                            capture_output=True, text=True, timeout=180, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    outs = json.loads(result.stdout.strip().splitlines()[-1])
    for how in ("static", "jit", "predictor"):  # load_inference_model + Executor, jit.load, the predictor
        assert len(outs[how]) == len(expected), how
        for got, want in zip(outs[how], expected):
            np.testing.assert_allclose(np.array(got, want.dtype), want, rtol=1e-5, atol=1e-6, err_msg=how)
