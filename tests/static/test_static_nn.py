"""paddle.static.nn layer functions build parameters and ops that train like their dynamic counterparts."""

import numpy as np
import pytest

import minipaddle as paddle


def _run(fetch, feed, startup):
    exe = paddle.static.Executor()
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    return exe.run(paddle.static.default_main_program(), feed=feed, fetch_list=fetch, scope=scope), scope


def test_fc_names_and_values(static_mode):
    x = paddle.static.data("x", [-1, 2, 3], "float32")
    y = paddle.static.nn.fc(x, size=4, num_flatten_dims=1, activation="relu")
    main = paddle.static.default_main_program()
    names = sorted(p.name for p in main.all_parameters())
    assert names[0].startswith("fc_") and names[0].endswith(".b_0") and names[1].endswith(".w_0")
    xv = np.random.default_rng(0).random((5, 2, 3), dtype=np.float32)
    (out,), scope = _run([y], {"x": xv}, paddle.static.default_startup_program())
    w = scope.vars[names[1]]
    b = scope.vars[names[0]]
    np.testing.assert_allclose(out, np.maximum(xv.reshape(5, 6) @ w + b, 0), rtol=1e-5)


@pytest.mark.parametrize(
    "build",
    [
        lambda x: paddle.static.nn.conv2d(x, num_filters=4, filter_size=3, padding=1, act="relu"),
        lambda x: paddle.static.nn.conv2d_transpose(x, num_filters=2, filter_size=2, stride=2),
        lambda x: paddle.static.nn.batch_norm(x, is_test=True),
        lambda x: paddle.static.nn.layer_norm(x, begin_norm_axis=1),
        lambda x: paddle.static.nn.group_norm(x, groups=1),
        lambda x: paddle.static.nn.instance_norm(x),
        lambda x: paddle.static.nn.prelu(x, mode="channel"),
        lambda x: paddle.static.nn.prelu(x, mode="element"),
    ],
)
def test_layer_functions_build_and_run_with_backward(static_mode, build):
    x = paddle.static.data("x", [-1, 3, 4, 4], "float32")
    y = build(x)
    loss = paddle.mean(y * y)
    pairs = paddle.static.append_backward(loss)
    assert pairs, "every layer function makes trainable parameters"
    xv = np.random.default_rng(1).standard_normal((2, 3, 4, 4)).astype("float32")
    values, _ = _run([loss] + [g for _, g in pairs], {"x": xv}, paddle.static.default_startup_program())
    assert np.isfinite(values[0]) and all(list(v.shape) == p.shape for v, (p, _) in zip(values[1:], pairs))


def test_embedding(static_mode):
    ids = paddle.static.data("ids", [-1, 3], "int64")
    e = paddle.static.nn.embedding(ids, size=[10, 4], padding_idx=0)
    (out,), scope = _run([e], {"ids": np.array([[0, 1, 2]])}, paddle.static.default_startup_program())
    table = next(v for k, v in scope.vars.items() if k.startswith("embedding"))
    np.testing.assert_allclose(out[0, 1:], table[[1, 2]])
    np.testing.assert_array_equal(out[0, 0], 0)
