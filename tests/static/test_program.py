"""Programs as data: building them with the ordinary API, printing them, cloning, and running them."""

import numpy as np
import pytest

import minipaddle as paddle


def test_mode_switches(static_mode):
    assert not paddle.in_dynamic_mode()
    paddle.disable_static()
    assert paddle.in_dynamic_mode()
    paddle.enable_static()


def test_the_same_calls_build_a_program(static_mode):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 4], "float32")
        y = paddle.nn.functional.relu(x * 2.0)
        z = paddle.mean(y)
    assert isinstance(x, paddle.static.Variable) and x.shape == [-1, 4] and x.stop_gradient
    assert y.shape == [-1, 4] and z.shape == []
    types = [op.type for op in main.global_block().ops]
    assert types == ["assign_value", "multiply", "relu", "mean"]
    assert main.num_blocks == 1 and len(startup.global_block().ops) == 0
    text = str(main)
    assert "var x : shape(-1, 4).dtype(float32).stop_gradient(True)" in text
    assert "= relu(inputs={x=['multiply_" in text
    names = [v.name for v in main.list_vars()]
    assert names[0] == "x" and z.name in names


def test_variables_refuse_python_values(static_mode):
    x = paddle.static.data("x", [2], "float32")
    with pytest.raises(RuntimeError, match="has no value while the Program is being built"):
        x.numpy()
    with pytest.raises(TypeError, match="paddle.static.nn.cond"):
        bool(x > 1.0)


def test_executor_runs_and_checks_feeds(static_mode):
    x = paddle.static.data("x", [-1, 3], "float32")
    y = paddle.sum(x * x, axis=1)
    exe = paddle.static.Executor(paddle.CPUPlace())
    (out,) = exe.run(feed={"x": np.arange(6, dtype="float32").reshape(2, 3)}, fetch_list=[y])
    np.testing.assert_allclose(out, [5, 50])
    with pytest.raises(ValueError, match=r"fed 'x' with shape \[2, 4\], but the variable has shape \[-1, 3\]"):
        exe.run(feed={"x": np.zeros((2, 4), "float32")}, fetch_list=[y])
    with pytest.raises(RuntimeError, match="reads variable 'x', which has no value"):
        exe.run(fetch_list=[y])
    with pytest.warns(UserWarning, match="The variable nope is not found in program"):  # paddle 2.6 warns, runs on
        with pytest.raises(RuntimeError, match="reads variable 'x', which has no value"):
            exe.run(feed={"nope": np.zeros(3)}, fetch_list=[y])


def test_layers_build_parameters_into_main_and_startup(static_mode):
    paddle.seed(3)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 4], "float32")
        fc = paddle.nn.Linear(4, 2)
        y = fc(x)
    params = main.all_parameters()
    assert {p.name for p in params} == {fc.weight.name, fc.bias.name}
    assert all(p.persistable and p.trainable for p in params)
    assert [op.type for op in startup.global_block().ops] == ["assign_value", "assign_value"]
    exe = paddle.static.Executor()
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    xv = np.random.rand(3, 4).astype("float32")
    (out,) = exe.run(main, feed={"x": xv}, fetch_list=[y], scope=scope)
    w, b = scope.vars[fc.weight.name], scope.vars[fc.bias.name]
    np.testing.assert_allclose(out, xv @ w + b, rtol=1e-6)
    # the same seed gives the same initial weights as dynamic mode
    paddle.disable_static()
    paddle.seed(3)
    dyn = paddle.nn.Linear(4, 2)
    np.testing.assert_array_equal(dyn.weight.numpy(), w)
    paddle.enable_static()


def test_clone_for_test_drops_backward_ops(static_mode):
    main = paddle.static.default_main_program()
    x = paddle.static.data("x", [-1, 4], "float32")
    w = main.global_block().create_parameter("w", [4, 1], "float32")
    loss = paddle.mean(paddle.matmul(x, w))
    paddle.static.append_backward(loss)
    test = main.clone(for_test=True)
    roles = {op.role for op in test.global_block().ops}
    assert roles == {"forward"}
    assert len(test.global_block().ops) == 2 and len(main.global_block().ops) > 2
    assert "w@GRAD" not in [v.name for v in test.list_vars()]


def test_scope_guard_and_global_scope(static_mode):
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        assert paddle.static.global_scope() is scope
    assert paddle.static.global_scope() is not scope
    scope.vars["a"] = np.ones(2)
    np.testing.assert_array_equal(np.array(scope.find_var("a").get_tensor()), [1, 1])
    assert scope.find_var("b") is None


def test_print_prints_when_the_program_runs(static_mode, capsys):
    x = paddle.static.data("x", [2], "float32")
    y = paddle.static.Print(x * 2.0, message="doubled", print_phase="forward")
    assert capsys.readouterr().out == ""  # building prints nothing
    (out,) = paddle.static.Executor().run(feed={"x": np.array([1, 2], "float32")}, fetch_list=[y])
    printed = capsys.readouterr().out
    assert "doubled" in printed and "data: [2., 4.]" in printed and "shape: [2]" in printed
    np.testing.assert_array_equal(out, [2, 4])


def test_py_func_runs_python_inside_the_program_with_a_backward(static_mode):
    main = paddle.static.default_main_program()
    x = paddle.static.data("x", [3], "float32")
    x.stop_gradient = False
    out = main.global_block().create_var(name="cubed", shape=[3], dtype="float32")
    paddle.static.py_func(lambda a: a**3, x, out, backward_func=lambda a, y, dy: 3 * a**2 * dy)
    loss = paddle.sum(out)
    (gx,) = paddle.static.gradients(loss, [x])
    xv = np.array([1, 2, 3], "float32")
    o, g = paddle.static.Executor().run(feed={"x": xv}, fetch_list=[out, gx])
    np.testing.assert_allclose(o, xv**3)
    np.testing.assert_allclose(g, 3 * xv**2)
    assert any(op.type == "py_func" and op.attrs["serializable"] is False for op in main.global_block().ops)


def test_clone_for_test_switches_dropout_and_batch_norm_to_inference(static_mode):
    paddle.seed(0)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 3, 2, 2], "float32")
        bn = paddle.nn.BatchNorm2D(3)
        y = paddle.nn.functional.dropout(bn(x), p=0.5, training=True)
    test = main.clone(for_test=True)
    exe, scope = paddle.static.Executor(), paddle.static.Scope()
    exe.run(startup, scope=scope)
    xv = np.random.default_rng(0).standard_normal((4, 3, 2, 2)).astype("float32") * 3 + 1
    (train_out,) = exe.run(main, feed={"x": xv}, fetch_list=[y], scope=scope)
    assert (train_out == 0).any()  # dropout dropped something
    mean_after = scope.vars[bn._mean.name].copy()
    assert not np.allclose(mean_after, 0)  # training updated the running mean
    (test_out,) = exe.run(test, feed={"x": xv}, fetch_list=[y.name], scope=scope)
    np.testing.assert_array_equal(scope.vars[bn._mean.name], mean_after)  # inference leaves it alone
    var = scope.vars[bn._variance.name].reshape(1, 3, 1, 1)
    expected = (xv - mean_after.reshape(1, 3, 1, 1)) / np.sqrt(var + 1e-5)
    np.testing.assert_allclose(test_out, expected, rtol=1e-5, atol=1e-5)


def test_small_static_api_pieces(static_mode):
    assert paddle.static.cpu_places(2) == [paddle.CPUPlace(), paddle.CPUPlace()]
    with paddle.static.device_guard("cpu"):
        pass
    with pytest.raises(ValueError, match="CPU only"):
        with paddle.static.device_guard("gpu"):
            pass
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        counter = paddle.static.create_global_var([1], 5.0, "float32", persistable=True, name="counter")
        w = paddle.static.create_parameter([2, 2], "float32", name="w")
        x = paddle.static.data("x", [-1, 2], "float32")
        out = paddle.matmul(x, w) + counter
    exe = paddle.static.Executor()
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    assert scope.vars["counter"].tolist() == [5.0] and scope.vars[w.name].shape == (2, 2)
    (r,) = exe.run(paddle.static.CompiledProgram(main), feed={"x": np.ones((1, 2), "float32")}, fetch_list=[out],
                   scope=scope)  # fmt: skip
    np.testing.assert_allclose(r, np.ones((1, 2)) @ scope.vars[w.name] + 5.0, rtol=1e-6)


def test_exponential_moving_average(static_mode):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 1], "float32")
        w = paddle.static.create_parameter(
            [1, 1], "float32", name="w", default_initializer=paddle.nn.initializer.Constant(1.0)
        )
        loss = paddle.mean(paddle.matmul(x, w))
        paddle.optimizer.SGD(learning_rate=1.0).minimize(loss)
        ema = paddle.static.ExponentialMovingAverage(0.5)
        ema.update()
    exe = paddle.static.Executor()
    exe.run(startup)
    values = []
    for _ in range(3):  # w goes 1 -> 0 -> -1 -> -2 (gradient of mean(x w) with x = 1 is 1)
        exe.run(main, feed={"x": np.ones((1, 1), "float32")})
        values.append(paddle.static.global_scope().vars[w.name].item())
    assert values == [0.0, -1.0, -2.0]
    avg = 0.0
    for v in values:
        avg = 0.5 * avg + 0.5 * v
    with ema.apply(exe):
        applied = paddle.static.global_scope().vars[w.name].item()
    assert applied == pytest.approx(avg / (1 - 0.5**3))
    assert paddle.static.global_scope().vars[w.name].item() == -2.0  # restored
