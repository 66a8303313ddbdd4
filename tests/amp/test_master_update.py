"""multi_precision's fused update: one op updates a float16/bfloat16 parameter's float32 master weight and writes
the parameter rounded from it (paddle's sgd/momentum/adam/adamw ops write MasterParamOut and ParamOut), through
the two-target in-place door core/inplace.apply_inplace_pair, in dynamic and static mode."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.core.inplace import apply_inplace_pair
from minipaddle.core.op import get_op
from minipaddle.core.state import OpHook, op_hook
from minipaddle.ops.optimizer_ops import ParamUpdateOp
from minipaddle.static.paddle_proto import ProgramDesc
from minipaddle.static.pdmodel import write_program_desc
from tests.golden_files import GOLDEN_ROOT, read_json

SGD = get_op("sgd")

OPTIMIZERS = {
    "SGD": lambda p: paddle.optimizer.SGD(0.1, parameters=p, weight_decay=0.01),
    "Momentum": lambda p: paddle.optimizer.Momentum(0.1, parameters=p, use_nesterov=True, weight_decay=0.01),
    "Adam": lambda p: paddle.optimizer.Adam(0.1, parameters=p),
    "AdamW": lambda p: paddle.optimizer.AdamW(0.1, parameters=p),
    "Lamb": lambda p: paddle.optimizer.Lamb(0.1, parameters=p),
    "Adagrad": lambda p: paddle.optimizer.Adagrad(0.1, parameters=p),
    "Adamax": lambda p: paddle.optimizer.Adamax(0.1, parameters=p),
    "Adadelta": lambda p: paddle.optimizer.Adadelta(0.1, parameters=p),
    "RMSProp": lambda p: paddle.optimizer.RMSProp(0.1, parameters=p),
}


class Calls(OpHook):
    phases = ("dynamic", "build")

    def __init__(self):
        self.names, self.outputs = [], []

    def after(self, op, inputs, attrs, outputs):
        self.names.append(op.name)
        self.outputs.append(outputs)
        return outputs


def _tensors():
    master = paddle.to_tensor(np.array([1.0, 2.0, 3.0], np.float32) / 3)
    param = paddle.cast(master, "float16")
    grad = paddle.to_tensor(np.array([0.5, -1.0, 2.0], np.float32))
    return master, param, grad, paddle.to_tensor(np.float32(0.1))


def test_the_pair_form_writes_both_targets_with_one_op_the_hooks_see_once():
    master, param, grad, lr = _tensors()
    want = master.numpy() - np.float32(0.1) * grad.numpy()
    versions = master._version[0], param._version[0]
    with op_hook(Calls()) as calls:
        out = apply_inplace_pair(SGD, (master, param), (master, grad, lr), {"param_dtype": np.float16})
    assert calls.names == ["sgd"] and calls.outputs[0] == (master, param) and out == (master, param)
    np.testing.assert_array_equal(master.numpy(), want)
    assert param.dtype == paddle.float16 and np.array_equal(param.numpy(), want.astype(np.float16))
    assert (master._version[0], param._version[0]) == (versions[0] + 1, versions[1] + 1)


def test_multi_precision_refuses_an_update_op_that_cannot_round_the_parameter():
    w = paddle.to_tensor([1.0, 2.0], dtype="float16", stop_gradient=False)
    opt = paddle.optimizer.SGD(0.1, parameters=[w], multi_precision=True)
    master = opt._master_weight(w)
    options = {"param": w}
    with pytest.raises(TypeError, match="SGD: multi_precision writes a parameter with .* not with subtract"):
        opt._write_param(get_op("subtract"), master, (master, master), {}, options)


def test_the_pair_form_refuses_an_op_with_a_gradient_and_a_wrong_shape_changes_neither():
    master, param, grad, lr = _tensors()
    with pytest.raises(TypeError, match="apply_inplace_pair: add has a gradient"):
        apply_inplace_pair(get_op("add"), (master, param), (master, grad))
    before = master.numpy().copy(), param.numpy().copy()
    short = paddle.zeros([2], "float16")
    with pytest.raises(ValueError, match=r"sgd_: a result has shape \[3\] but its tensor has \[2\]"):
        apply_inplace_pair(SGD, (master, short), (master, grad, lr), {"param_dtype": np.float16})
    with pytest.raises(ValueError, match="sgd_: the op gives 1 output"):
        apply_inplace_pair(SGD, (master, param), (master, grad, lr))
    assert np.array_equal(master.numpy(), before[0]) and np.array_equal(param.numpy(), before[1])


def test_static_mode_appends_one_op_writing_both_variables():
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            master = paddle.static.create_parameter([3], "float32", name="m")
            param = paddle.static.create_parameter([3], "float16", name="p")
            grad = paddle.static.data("g", [3], "float32")
            lr = paddle.static.data("lr", [], "float32")
            with op_hook(Calls()) as calls:
                out = apply_inplace_pair(SGD, (master, param), (master, grad, lr), {"param_dtype": np.float16})
        assert calls.names == ["sgd"] and out == (master, param)
        (op,) = [op for op in main.global_block().ops if op.type == "sgd"]
        assert op.inputs["param"] == ["m"] and op.outputs["Out"] == ["m", "p"]
        exe, scope = paddle.static.Executor(), paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            exe.run(start)
            m0 = np.array(scope.vars["m"])
            g = np.array([1.0, 2.0, 3.0], np.float32)
            exe.run(main, feed={"g": g, "lr": np.float32(0.5)})
        want = m0 - np.float32(0.5) * g
        np.testing.assert_array_equal(scope.vars["m"], want)
        assert scope.vars["p"].dtype == np.float16 and np.array_equal(scope.vars["p"], want.astype(np.float16))
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_multi_precision_is_the_float32_update_rounded_and_casts_nothing_back(name, dtype):
    """A low-precision parameter under multi_precision follows, bit for bit, the same optimizer run on a float32
    parameter fed the same gradients, rounded at every step; its update writes it with no cast op after."""
    rng = np.random.default_rng(0)
    start = rng.standard_normal((4, 3)).astype(np.float32)
    low = paddle.to_tensor(start, dtype=dtype, stop_gradient=False)
    high = paddle.to_tensor(low.numpy().astype(np.float32), stop_gradient=False)
    opt_low, opt_high = OPTIMIZERS[name]([low]), OPTIMIZERS[name]([high])
    opt_low._multi_precision = True  # (what decorate(level='O2') sets, for any optimizer)
    for step in range(3):
        c = paddle.to_tensor(rng.standard_normal((4, 3)), dtype=dtype)
        (low * c).sum().backward()
        (high * c.astype("float32")).sum().backward()
        with op_hook(Calls()) as calls:
            opt_low.step()
        opt_high.step()
        opt_low.clear_grad()
        opt_high.clear_grad()
        (master,) = opt_low._master_weights.values()
        np.testing.assert_array_equal(master.numpy(), high.numpy())
        assert low.dtype == getattr(paddle, dtype)
        assert np.array_equal(low.numpy(), high.numpy().astype(low.numpy().dtype))
        # only the gradient's cast to float32 (and at the first step the master's, made from the parameter)
        assert calls.names.count("cast") == 1 + (step == 0), calls.names


PADDLE_OPTIMIZERS = {
    "sgd": lambda: paddle.optimizer.SGD(0.1, multi_precision=True),
    "momentum": lambda: paddle.optimizer.Momentum(0.1, multi_precision=True),
    "adam": lambda: paddle.optimizer.Adam(0.1, multi_precision=True),
    "adamw": lambda: paddle.optimizer.AdamW(0.1, multi_precision=True),
}


@pytest.mark.parametrize("kind", sorted(PADDLE_OPTIMIZERS))
def test_the_training_program_desc_writes_the_update_as_paddle_2_6_2_does(kind):
    """tests/golden/amp/make_master_update_ops.py's Program, written as Paddle's ProgramDesc: the one update op
    per parameter has paddle's slots (the float16 gradient, Param/ParamOut the parameter, MasterParam/
    MasterParamOut the float32 master) and multi_precision, and nothing else follows it."""
    golden = read_json(GOLDEN_ROOT / "amp" / "master_update_ops.json")[kind]
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
            x = paddle.static.data("x", [4, 2], "float16")
            w = paddle.create_parameter([2, 3], "float16", name="w")
            PADDLE_OPTIMIZERS[kind]().minimize(paddle.mean(paddle.matmul(x, w)))
        desc = ProgramDesc()
        desc.ParseFromString(write_program_desc(main))
    finally:
        paddle.disable_static()
    ops = list(desc.blocks[0].ops)
    assert [op.type for op in ops] == golden["types"]
    (op,) = [op for op in ops if op.type == kind]
    slots = lambda vs: {v.parameter: list(v.arguments) for v in vs}  # noqa: E731
    assert slots(op.inputs) == golden["inputs"] and slots(op.outputs) == golden["outputs"]
    attrs = {a.name: a for a in op.attrs}
    assert attrs["multi_precision"].b == golden["multi_precision"]
    assert list(attrs["op_role_var"].strings) == golden["op_role_var"]


@pytest.mark.parametrize("kind", sorted(PADDLE_OPTIMIZERS))
def test_the_training_files_read_back_with_their_masters_and_train_on_bit_for_bit(kind, tmp_path):
    """static.save writes that Program as Paddle's files; reading them rebuilds the optimizer with multi_precision
    (from the update op's attribute), static.load fills the float32 masters by paddle's names, and training goes
    on with the same float16 parameters, bit for bit."""
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
            x = paddle.static.data("x", [4, 2], "float16")
            w = paddle.create_parameter([2, 3], "float16", name="w")
            loss = paddle.mean(paddle.matmul(x, w))
            PADDLE_OPTIMIZERS[kind]().minimize(loss)
        feed = {"x": np.linspace(-1, 1, 8, dtype=np.float16).reshape(4, 2)}
        prefix = str(tmp_path / kind)
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe = paddle.static.Executor()
            exe.run(start)
            exe.run(main, feed=feed)
            paddle.static.save(main, prefix)
            steps = [np.array(exe.run(main, feed=feed, fetch_list=["w"])[0]) for _ in range(3)]
        with paddle.static.scope_guard(paddle.static.Scope()):
            with pytest.warns(UserWarning, match="rebuilt them as"):
                program = paddle.load(prefix + ".pdmodel")
            exe = paddle.static.Executor()
            paddle.static.load(program, prefix, exe)
            again = [np.array(exe.run(program, feed=feed, fetch_list=["w"])[0]) for _ in range(3)]
        assert any(op.attrs.get("param_dtype") == np.float16 for op in program.global_block().ops)
    finally:
        paddle.disable_static()
    for a, b in zip(steps, again):
        assert a.dtype == np.float16 and np.array_equal(a, b)


@pytest.mark.parametrize("name", ["SGD", "Momentum", "Adam"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_the_pair_written_into_the_storage_equals_the_kernels_result(name, dtype, monkeypatch):
    """kernel_into_pair (sgd through its kernel_into, the others through a copy of kernel's master) writes the
    very bits of kernel's two outputs, overflow to Inf included, into the tensors' own storage: the array the
    parameter held before the step holds the step."""
    rng = np.random.default_rng(3)
    values = np.concatenate([rng.standard_normal(61), [65519.0, 70000.0, -1e-7]]).astype(np.float32)

    def step():
        w = paddle.to_tensor(values.astype(dtype), stop_gradient=False)
        opt = OPTIMIZERS[name]([w])
        opt._multi_precision = True
        held = w._data
        for _ in range(2):
            (w.astype("float32") * paddle.to_tensor(values)).sum().backward()
            opt.step()
        return w._data is held, opt._master_weight(w).numpy().view(np.uint32), held.view(np.uint16).copy()

    written, kernel_into_pair = [], ParamUpdateOp.kernel_into_pair

    def spy(self, *args, **kwargs):
        written.append(kernel_into_pair(self, *args, **kwargs))
        return written[-1]

    monkeypatch.setattr(ParamUpdateOp, "kernel_into_pair", spy)
    into = step()
    assert written == [True, True]  # both steps took the path under test
    monkeypatch.setattr(ParamUpdateOp, "kernel_into_pair", None)  # the general path: kernel's outputs copied in
    general = step()
    assert into[0] and general[0]
    np.testing.assert_array_equal(into[1], general[1])
    np.testing.assert_array_equal(into[2], general[2])
