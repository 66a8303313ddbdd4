"""Recurrent networks in static mode and in Paddle's files: nn.LSTM/nn.GRU with sequence_length build a Program
whose batch and lengths are known only when it runs (the initial states shaped by the input, the step masks as
ops), and that Program computes what the same network computes in dynamic mode. Paddle's fused `rnn` op over a
time axis known only at run time reads as while loops (static/paddle_rnn_ops.py) that run any length."""

from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_arrays

RNG = np.random.default_rng(11)


def _build(cls, kwargs: dict, x_shape: list):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, *x_shape[1:]] if not kwargs.get("time_major") else
                               [x_shape[0], None, x_shape[2]], "float32")  # fmt: skip
        lengths = paddle.static.data("lengths", [None], "int64")
        net = cls(x_shape[-1], 4, **kwargs)
        out, states = net(x, sequence_length=lengths)
    return main, startup, net, out, states


@pytest.mark.parametrize("cls, kwargs", [
    (paddle.nn.LSTM, {"num_layers": 2, "direction": "bidirect"}),
    (paddle.nn.GRU, {"time_major": True}),
    (paddle.nn.SimpleRNN, {"direction": "bidirect"}),
])  # fmt: skip
def test_a_static_rnn_with_sequence_length_equals_the_dynamic_one(static_mode, cls, kwargs):
    shape = [5, 3, 3] if kwargs.get("time_major") else [3, 5, 3]
    x = RNG.standard_normal(shape).astype("float32")
    lengths = np.array([5, 2, 4])
    main, startup, net, out, states = _build(cls, kwargs, shape)
    flat = list(states) if isinstance(states, tuple) else [states]
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe = paddle.static.Executor()
        exe.run(startup)
        got = exe.run(main, feed={"x": x, "lengths": lengths}, fetch_list=[out, *flat])
        values = [np.array(scope.vars[p.name]) for p in net.parameters()]
    paddle.disable_static()
    try:
        dynamic = cls(shape[-1], 4, **kwargs)
        for p, v in zip(dynamic.parameters(), values):
            p.set_value(v)
        want_out, want_states = dynamic(paddle.to_tensor(x), sequence_length=paddle.to_tensor(lengths))
        want = [want_out, *(want_states if isinstance(want_states, tuple) else [want_states])]
    finally:
        paddle.enable_static()
    assert got[0].shape == tuple(want[0].shape)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-6, atol=1e-6)
    pad = got[0][1, 2:] if not kwargs.get("time_major") else got[0][2:, 1]
    assert not pad.any()  # outputs past a sample's length are zero


def test_a_static_rnn_takes_any_batch_size(static_mode):
    main, startup, _, out, (h, c) = _build(paddle.nn.LSTM, {}, [2, 4, 3])
    exe = paddle.static.Executor()
    with paddle.static.scope_guard(paddle.static.Scope()):
        exe.run(startup)
        for batch in (1, 6):
            x = RNG.standard_normal((batch, 4, 3)).astype("float32")
            o, hh = exe.run(main, feed={"x": x, "lengths": np.full([batch], 4)}, fetch_list=[out, h])
            assert o.shape == (batch, 4, 4) and hh.shape == (1, batch, 4)
            np.testing.assert_allclose(o[:, -1], hh[0], rtol=1e-6)  # full-length samples end in their last output


MODELS = GOLDEN_ROOT / "paddle_models" / "models"
PADDLE_PYTHON = "/work/paddle-venv/bin/python"


def _run_loaded(prefix, feed: dict) -> tuple:
    exe = paddle.static.Executor()
    with paddle.static.scope_guard(paddle.static.Scope()):
        program, feeds, fetches = paddle.static.load_inference_model(str(prefix), exe)
        return program, exe.run(program, feed={f: feed[f] for f in feeds}, fetch_list=fetches)


def test_paddles_rnn_over_run_time_steps_reads_as_while_loops(static_mode):
    """paddle 2.6.2's jit.save of a 2-layer LSTM and a bidirectional GRU with InputSpec [None, None, 4]: its rnn
    ops read as one while_loop per cell and direction, equal to paddle's outputs."""
    io = read_arrays(MODELS / "rnn_runtime_steps.io.npz")
    feed = {"x0": io["input:x0"], "x1": io["input:x1"]}
    program, outs = _run_loaded(MODELS / "rnn_runtime_steps", feed)
    assert [op.type for op in program.global_block().ops].count("while") == 4  # 2 LSTM layers + 2 GRU directions
    for i, got in enumerate(outs):
        np.testing.assert_allclose(got, io[f"output:{i}"], rtol=1e-5, atol=1e-6)


def test_the_while_loops_run_sequences_of_any_length(static_mode):
    """The recorded lengths are 1 and 2 (of 2 steps): a longer input that starts with the same two steps gives
    paddle's outputs, then zeros (past each length nothing changes, in either direction)."""
    io = read_arrays(MODELS / "rnn_runtime_steps.io.npz")
    x = np.concatenate([io["input:x0"], RNG.standard_normal((2, 5, 4)).astype("float32")], axis=1)
    _, outs = _run_loaded(MODELS / "rnn_runtime_steps", {"x0": x, "x1": io["input:x1"]})
    y, h, c, z, hz = outs
    assert y.shape == (2, 7, 6) and z.shape == (2, 7, 6)
    for got, i in ((y[:, :2], 0), (h, 1), (c, 2), (z[:, :2], 3), (hz, 4)):
        np.testing.assert_allclose(got, io[f"output:{i}"], rtol=1e-5, atol=1e-6)
    assert not y[:, 2:].any() and not z[:, 2:].any()


PADDLE_RUNS = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
program, feeds, fetches = paddle.static.load_inference_model(sys.argv[1], exe)
io = np.load(sys.argv[2])
print(json.dumps([o.tolist() for o in exe.run(program, feed={f: io[f] for f in feeds}, fetch_list=fetches)]))
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_the_while_loops_equal_paddle_at_another_length(static_mode, tmp_path):
    x = RNG.standard_normal((3, 6, 4)).astype("float32")
    n = np.array([4, 1, 6])  # lengths n % 2 + 1: 1, 2, 1 of 6 steps
    np.savez(tmp_path / "io.npz", x0=x, x1=n)
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_RUNS, str(MODELS / "rnn_runtime_steps"),
                             str(tmp_path / "io.npz")], capture_output=True, text=True, timeout=180,
                            cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    _, outs = _run_loaded(MODELS / "rnn_runtime_steps", {"x0": x, "x1": n})
    for got, want in zip(outs, json.loads(result.stdout.strip().splitlines()[-1])):
        np.testing.assert_allclose(got, np.array(want, "float32"), rtol=1e-5, atol=1e-6)
