"""Recurrent networks in static mode and in Paddle's files: nn.LSTM/nn.GRU with sequence_length build a Program
whose batch and lengths are known only when it runs (the initial states shaped by the input, the step masks as
ops), and that Program computes what the same network computes in dynamic mode."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle

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
