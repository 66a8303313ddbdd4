"""The hook list on the op door (core/state.py): one ordered list per thread, called in dynamic mode, when static
mode builds an op, and when the Executor runs one."""

import threading

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.core.state import STATE, OpHook, add_op_hook, op_hook


class Recorder(OpHook):
    def __init__(self, phases=("dynamic", "build", "run")):
        self.phases = phases
        self.before_calls, self.after_calls = [], []

    def before(self, op, inputs, attrs):
        self.before_calls.append(op.name)
        return inputs

    def after(self, op, inputs, attrs, outputs):
        self.after_calls.append((op.name, tuple(type(o).__name__ for o in outputs)))
        return outputs


def test_dynamic_mode_calls_before_and_after_in_order():
    x = paddle.to_tensor([1.0, 2.0])
    with op_hook(Recorder()) as rec:
        y = paddle.exp(x) + 1
    assert rec.before_calls == ["exp", "add"] or rec.before_calls[:1] == ["exp"]
    assert ("exp", ("Tensor",)) in rec.after_calls
    np.testing.assert_allclose(y.numpy(), np.exp([1.0, 2.0]) + 1, rtol=1e-6)
    assert STATE.hooks == ()  # taken off at the end of the block


def test_before_may_replace_inputs_and_after_may_replace_outputs():
    class Double(OpHook):
        phases = ("dynamic",)

        def before(self, op, inputs, attrs):
            # Ops a hook calls go through the door without hooks: this multiply is not doubled again.
            return tuple(None if t is None else t * 2 for t in inputs) if op.name == "exp" else inputs

        def after(self, op, inputs, attrs, outputs):
            return tuple(o + 100 for o in outputs) if op.name == "exp" else outputs

    x = paddle.to_tensor([0.0, 1.0], stop_gradient=False)
    with op_hook(Double()):
        y = paddle.exp(x)
    np.testing.assert_allclose(y.numpy(), np.exp([0.0, 2.0]) + 100, rtol=1e-6)
    y.sum().backward()  # the gradient goes through what the hooks did: d/dx exp(2x) = 2 exp(2x)
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp([0.0, 2.0]), rtol=1e-6)


def test_inplace_ops_call_the_hooks():
    x = paddle.to_tensor([1.0, 2.0])
    with op_hook(Recorder(("dynamic",))) as rec:
        x.exp_()
    assert "exp" in [n for n, _ in rec.after_calls]


def test_static_build_and_executor_run_phases():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3], "float32")
            with op_hook(Recorder(("build",))) as built:
                y = paddle.nn.functional.relu(x * 2.0)
        assert "relu" in built.before_calls
        assert ("relu", ("Variable",)) in built.after_calls
        exe = paddle.static.Executor()
        with op_hook(Recorder(("run",))) as ran:
            (out,) = exe.run(main, feed={"x": np.array([[-1.0, 0.5, 2.0]], "float32")}, fetch_list=[y])
        assert "relu" in ran.before_calls and ("relu", ("Tensor",)) in ran.after_calls
        np.testing.assert_allclose(out, [[0.0, 1.0, 4.0]])
        (out,) = exe.run(main, feed={"x": np.array([[-1.0, 0.5, 2.0]], "float32")}, fetch_list=[y])  # no hook
        np.testing.assert_allclose(out, [[0.0, 1.0, 4.0]])
    finally:
        paddle.disable_static()


def test_a_run_hook_may_replace_an_executor_output():
    class Clamp(OpHook):
        phases = ("run",)

        def after(self, op, inputs, attrs, outputs):
            return tuple(paddle.clip(o, max=1.0) for o in outputs) if op.name == "relu" else outputs

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [1, 2], "float32")
            y = paddle.nn.functional.relu(x) * 3.0
        with op_hook(Clamp()):
            (out,) = paddle.static.Executor().run(main, feed={"x": np.array([[0.5, 5.0]], "float32")}, fetch_list=[y])
        np.testing.assert_allclose(out, [[1.5, 3.0]])
    finally:
        paddle.disable_static()


def test_check_nan_inf_in_static_mode_names_the_op():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2], "float32")
            y = paddle.log(x)
        paddle.set_flags({"FLAGS_check_nan_inf": True})
        try:
            with pytest.raises(RuntimeError, match=r"log.*holds 0 NaN and 1 Inf values \(FLAGS_check_nan_inf is on\)"):
                paddle.static.Executor().run(main, feed={"x": np.array([0.0, 1.0], "float32")}, fetch_list=[y])
        finally:
            paddle.set_flags({"FLAGS_check_nan_inf": False})
        (out,) = paddle.static.Executor().run(main, feed={"x": np.array([0.0, 1.0], "float32")}, fetch_list=[y])
        assert np.isinf(out[0])
    finally:
        paddle.disable_static()


def test_handles_remove_and_bad_hooks_are_refused():
    rec = Recorder()
    handle = add_op_hook(rec)
    with pytest.raises(ValueError, match="installed already"):
        add_op_hook(rec)
    handle.remove()
    handle.remove()  # a second remove does nothing
    assert STATE.hooks == ()
    with pytest.raises(TypeError, match="add_op_hook: a hook needs"):
        add_op_hook(object())

    class Bad(OpHook):
        phases = ("dynamic", "later")

    with pytest.raises(ValueError, match="unknown phase"):
        add_op_hook(Bad())


def test_hooks_are_per_thread():
    seen_in_thread = []

    def other():
        seen_in_thread.append(STATE.hooks)
        paddle.ones([2]) * 2

    with op_hook(Recorder()) as rec:
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen_in_thread == [()]
    assert "multiply" not in rec.before_calls and "scale" not in rec.before_calls
