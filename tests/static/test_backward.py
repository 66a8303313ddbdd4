"""Static backward replays the ops' grad rules: its gradients equal dynamic mode's, through cond and while."""

import numpy as np
import pytest

import minipaddle as paddle


def test_append_backward_names_gradients_and_matches_dynamic(static_mode):
    main = paddle.static.default_main_program()
    x = paddle.static.data("x", [-1, 4], "float32")
    w = main.global_block().create_parameter("w", [4, 3], "float32")
    loss = paddle.mean(paddle.tanh(paddle.matmul(x, w)))
    pairs = paddle.static.append_backward(loss)
    assert [(p.name, g.name) for p, g in pairs] == [("w", "w@GRAD")]
    roles = [op.role for op in main.global_block().ops]
    assert roles[:3] == ["forward"] * 3 and set(roles[3:]) == {"backward"}

    rng = np.random.default_rng(0)
    xv, wv = rng.random((5, 4), dtype=np.float32), rng.random((4, 3), dtype=np.float32)
    scope = paddle.static.Scope()
    scope.vars["w"] = wv
    out, gw = paddle.static.Executor().run(main, feed={"x": xv}, fetch_list=[loss, "w@GRAD"], scope=scope)

    paddle.disable_static()
    wd = paddle.to_tensor(wv, stop_gradient=False)
    ld = paddle.mean(paddle.tanh(paddle.matmul(paddle.to_tensor(xv), wd)))
    ld.backward()
    np.testing.assert_allclose(out, ld.numpy(), rtol=1e-6)
    np.testing.assert_allclose(gw, wd.grad.numpy(), rtol=1e-5)
    paddle.enable_static()


def test_no_grad_set_and_gradients_for_data(static_mode):
    x = paddle.static.data("x", [3], "float32")
    y = paddle.static.data("y", [3], "float32")
    z = paddle.sum(x * y * y)
    gx, gy = paddle.static.gradients(z, [x, y])
    (only_x,) = paddle.static.gradients(z, [x], no_grad_set={"y"})
    xv, yv = np.array([1, 2, 3], "float32"), np.array([4, 5, 6], "float32")
    rx, ry, rx2 = paddle.static.Executor().run(feed={"x": xv, "y": yv}, fetch_list=[gx, gy, only_x])
    np.testing.assert_allclose(rx, yv * yv)
    np.testing.assert_allclose(ry, 2 * xv * yv)
    np.testing.assert_allclose(rx2, yv * yv)


@pytest.mark.parametrize("xv", [[1.0, 2.0, 3.0], [5.0, 2.0, 3.0]])
def test_cond_values_and_gradients_match_python(static_mode, xv):
    x = paddle.static.data("x", [3], "float32")
    y = paddle.static.data("y", [3], "float32")
    pred = paddle.sum(x) < paddle.sum(y) + 1.0
    out = paddle.static.nn.cond(pred, lambda: x * y, lambda: x - y * 2.0)
    loss = paddle.sum(out * out)
    gx, gy = paddle.static.gradients(loss, [x, y])
    xv, yv = np.array(xv, "float32"), np.array([2.0, 2.0, 2.0], "float32")
    o, rx, ry = paddle.static.Executor().run(feed={"x": xv, "y": yv}, fetch_list=[out, gx, gy])

    paddle.disable_static()  # the same in Python control flow, differentiated by dynamic autograd
    xd, yd = paddle.to_tensor(xv, stop_gradient=False), paddle.to_tensor(yv, stop_gradient=False)
    od = xd * yd if float(paddle.sum(xd)) < float(paddle.sum(yd)) + 1.0 else xd - yd * 2.0
    dx, dy = paddle.grad(paddle.sum(od * od), [xd, yd])
    paddle.enable_static()
    np.testing.assert_allclose(o, od.numpy())
    np.testing.assert_allclose(rx, dx.numpy())
    np.testing.assert_allclose(ry, dy.numpy())


def test_while_loop_values_and_gradients_match_python(static_mode):
    x = paddle.static.data("x", [3], "float32")
    n = paddle.static.data("n", [1], "int64")
    i = paddle.full([1], 0, "int64")
    _, s = paddle.static.nn.while_loop(lambda i, s: i < n, lambda i, s: [i + 1, paddle.sin(s) * x], [i, x * 1.0])
    loss = paddle.sum(s)
    (gx,) = paddle.static.gradients(loss, [x])
    xv = np.array([0.5, 1.0, -2.0], "float32")
    exe = paddle.static.Executor()
    for steps in (0, 1, 4):
        sv, gv = exe.run(feed={"x": xv, "n": np.array([steps])}, fetch_list=[s, gx])
        paddle.disable_static()
        xd = paddle.to_tensor(xv, stop_gradient=False)
        sd = xd * 1.0
        for _ in range(steps):
            sd = paddle.sin(sd) * xd
        (gd,) = paddle.grad(paddle.sum(sd), xd)
        paddle.enable_static()
        np.testing.assert_allclose(sv, sd.numpy(), rtol=1e-6)
        np.testing.assert_allclose(gv, gd.numpy(), rtol=1e-5)


def test_case_and_switch_case(static_mode):
    x = paddle.static.data("x", [1], "float32")
    k = paddle.static.data("k", [1], "int64")
    a = paddle.static.nn.case([(x < 0.0, lambda: x * -1.0), (x < 10.0, lambda: x * 2.0)], default=lambda: x * 0.0)
    b = paddle.static.nn.switch_case(k, {0: lambda: x + 1.0, 1: lambda: x + 2.0, 5: lambda: x + 5.0})
    exe = paddle.static.Executor()
    for xv, kv, want_a, want_b in [(-3.0, 0, 3.0, -2.0), (4.0, 1, 8.0, 6.0), (20.0, 7, 0.0, 25.0)]:
        ra, rb = exe.run(feed={"x": np.array([xv], "float32"), "k": np.array([kv])}, fetch_list=[a, b])
        assert ra.item() == want_a and rb.item() == want_b


def test_control_flow_runs_python_in_dynamic_mode():
    x = paddle.to_tensor([2.0])
    assert paddle.static.nn.cond(x > 1.0, lambda: x * 10.0, lambda: x).item() == 20.0
    i, s = paddle.static.nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s * 2.0], [paddle.to_tensor(0), x])
    assert int(i) == 3 and s.item() == 16.0


def test_cond_branches_must_match(static_mode):
    x = paddle.static.data("x", [1], "float32")
    with pytest.raises(ValueError, match="true_fn returns 2 values but false_fn returns 1"):
        paddle.static.nn.cond(x > 0.0, lambda: (x, x), lambda: x)
    with pytest.raises(TypeError, match="pred must be a bool Variable"):
        paddle.static.nn.cond(x, lambda: x, lambda: x)
