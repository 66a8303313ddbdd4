"""Models for the inference and ONNX tests, saved with paddle.static.save_inference_model from a Program built in
static mode (the Layers made inside program_guard, so their weights are persistable variables)."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle


def save_static(path_prefix: str, build, input_shape, dtype="float32", seed: int = 0, tweak_bn: bool = True):
    """Build `build(x)` in a fresh Program, initialize it, give batch norms non-trivial statistics, save it.
    Returns the input name."""
    paddle.seed(seed)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", input_shape, dtype)
            y = build(x)
        exe = paddle.static.Executor()
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            exe.run(startup)
            rng = np.random.default_rng(seed)
            for name in list(scope.vars):
                if tweak_bn and "batch_norm" in name:  # running mean/var and affine away from 0/1
                    scope.vars[name] = rng.uniform(0.5, 1.5, scope.vars[name].shape).astype(scope.vars[name].dtype)
            paddle.static.save_inference_model(path_prefix, [x], [y], exe, program=main)
    finally:
        paddle.disable_static()
    return "x"


def lenet(x):
    return paddle.vision.models.LeNet()(x)


def conv_bn_mlp(x):
    nn = paddle.nn
    net = nn.Sequential(
        nn.Conv2D(3, 4, 3), nn.BatchNorm2D(4), nn.ReLU(),
        nn.Conv2D(4, 4, 3, bias_attr=False), nn.BatchNorm2D(4), nn.ReLU(),
        nn.Flatten(), nn.Linear(64, 8), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2), nn.LayerNorm(2),
    )  # fmt: skip
    return net(x)


def run_program(path_prefix: str, feed: dict):
    """The saved model run by the plain Executor (no passes): the reference."""
    scope = paddle.static.Scope()
    exe = paddle.static.Executor()
    with paddle.static.scope_guard(scope):
        program, _, fetches = paddle.static.load_inference_model(path_prefix, exe)
        return exe.run(program, feed=feed, fetch_list=fetches, scope=scope)
