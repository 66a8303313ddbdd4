"""The small computations the viz tests draw, built with fresh name counters so their DOT text never changes."""

from __future__ import annotations

import contextlib

import numpy as np

import minipaddle as paddle
from minipaddle.core.state import STATE, layer_scope, name_guard


def mlp_loss():
    """A two-layer perceptron written with ops: tanh(x @ w1 + b1) @ w2, summed. Returns (loss, params)."""
    with name_guard():
        x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3) / 6, stop_gradient=False)
        w1 = paddle.create_parameter([3, 4], "float32", name="fc1.w_0")
        b1 = paddle.create_parameter([4], "float32", name="fc1.b_0", is_bias=True)
        w2 = paddle.create_parameter([4, 2], "float32", name="fc2.w_0")
        h = paddle.tanh(paddle.matmul(x, w1) + b1)
        loss = paddle.sum(paddle.matmul(h, w2))
    return loss, {"fc1.weight": w1, "fc1.bias": b1, "fc2.weight": w2}


def scoped_loss():
    """The same kind of network with Layer scopes set by hand: features.0 (linear), features.1 (tanh), head.
    Returns (loss, params, x)."""
    with name_guard():
        x = paddle.to_tensor(np.ones((2, 3), "float32"))
        w0 = paddle.create_parameter([3, 4], "float32", name="features.0.w_0")
        w1 = paddle.create_parameter([4, 2], "float32", name="head.w_0")
        with layer_scope("features"):
            with layer_scope("features.0"):
                h = paddle.matmul(x, w0)
            with layer_scope("features.1"):
                h = paddle.tanh(h)
        with layer_scope("head"):
            out = paddle.matmul(h, w1) * 2.0
        loss = out.mean()
    return loss, {"features.0.weight": w0, "head.weight": w1}, x


@contextlib.contextmanager
def building_program():
    """Static mode with a new main and startup Program and fresh name counters; yields (main, startup)."""
    saved = (STATE.main_program, STATE.startup_program)
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with name_guard(), paddle.static.program_guard(main, startup):
            yield main, startup
    finally:
        paddle.disable_static()
        STATE.main_program, STATE.startup_program = saved


def cond_program():
    """y = mean(cond(mean(x @ w) > 0, tanh(h), h * 2)) with its backward appended: forward, backward, sub-blocks."""
    with building_program() as (main, _):
        x = paddle.static.data("x", [-1, 4], "float32")
        w = paddle.create_parameter([4, 3], "float32", name="fc.w_0")
        h = paddle.matmul(x, w)
        out = paddle.static.nn.cond(paddle.mean(h) > 0, lambda: paddle.tanh(h), lambda: h * 2.0)
        loss = paddle.mean(out)
        paddle.static.append_backward(loss)
    return main, loss.name


def fc_program():
    """relu(x @ w + b) with a mean (kept) and an exp (dead): what fuse_fc and dead-code elimination change."""
    with building_program() as (main, _):
        x = paddle.static.data("x", [-1, 4], "float32")
        w = paddle.create_parameter([4, 3], "float32", name="fc.w_0")
        b = paddle.create_parameter([3], "float32", name="fc.b_0", is_bias=True)
        h = paddle.nn.functional.relu(paddle.matmul(x, w) + b)
        y = paddle.mean(h)
        paddle.exp(h)
    return main, y.name


def small_cnn():
    """A Layer tree with every kind of row the layer views draw: nested Sequentials, a layer with non-trainable
    parameters (BatchNorm's statistics), a frozen Linear, layers without parameters, and a layer called twice."""
    nn = paddle.nn

    class SmallCNN(nn.Layer):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(nn.Conv2D(1, 4, 3, padding=1), nn.BatchNorm2D(4), nn.ReLU(), nn.MaxPool2D(2))
            self.head = nn.Sequential(nn.Flatten(), nn.Linear(64, 8), nn.Linear(8, 3))
            self.act = nn.Tanh()
            self.head[2].weight.trainable = False

        def forward(self, x):
            return self.act(self.head(self.act(self.features(x))))

    with name_guard():
        return SmallCNN()
