"""Gradient clipping and weight decay in a training Program saved as Paddle's (static/paddle_clip_ops.py): the
saved .pdmodel holds the ops paddle 2.6.2's ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue, L2Decay and
L1Decay write (between the backward and the optimizer ops), minipaddle reads them back into the same clip and
regularizers and trains on equal; where paddle 2.6.2 is installed, paddle trains on from minipaddle's files with
equal losses, writes the same optimize-role ops for the same net, and minipaddle trains on from paddle's files with
paddle's losses."""

from __future__ import annotations

import json
import os
import subprocess
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.nn.clip import ClipGradBase
from minipaddle.static.paddle_proto import ProgramDesc
from minipaddle.static.pdmodel import _attr_value
from tests.static.test_paddle_training_files import PADDLE_PYTHON, STEPS, _ops, fresh_scope  # noqa: F401

pytestmark = pytest.mark.usefixtures("fresh_scope")  # each test in a scope of its own

# One MLP, each case's optimizer (and ParamAttrs) given as source that minipaddle and paddle 2.6.2 both run
# (`paddle` in scope; `opt` the optimizer, `w1`/`b3` the first weight's and the last bias's ParamAttr or None).
NET = """
x = paddle.static.data("x", [None, 4], "float32")
y = paddle.static.data("y", [None, 1], "float32")
h = paddle.nn.functional.relu(paddle.static.nn.fc(x, 8, weight_attr=w1))
h = paddle.tanh(paddle.static.nn.fc(h, 8))
loss = paddle.mean((paddle.static.nn.fc(h, 1, bias_attr=b3) - y) ** 2)
"""
CASES = {
    "global_l2_sgd": "opt = paddle.optimizer.SGD(0.05, grad_clip=paddle.nn.ClipGradByGlobalNorm(0.1), "
    "weight_decay=paddle.regularizer.L2Decay(0.01))",
    "norm_adam": "opt = paddle.optimizer.Adam(0.01, grad_clip=paddle.nn.ClipGradByNorm(0.1))",
    "value_l1_momentum": "opt = paddle.optimizer.Momentum(0.05, 0.9, grad_clip=paddle.nn.ClipGradByValue(0.01), "
    "weight_decay=paddle.regularizer.L1Decay(0.01))",
    "l2_momentum": "opt = paddle.optimizer.Momentum(0.05, 0.9, weight_decay=paddle.regularizer.L2Decay(0.01))",
    "l1_adam": "opt = paddle.optimizer.Adam(0.01, weight_decay=paddle.regularizer.L1Decay(0.01))",
    # the first weight left out of the global norm, the last bias with its own regularizer
    "param_attrs": "w1 = paddle.ParamAttr(need_clip=False)\n"
    "b3 = paddle.ParamAttr(regularizer=paddle.regularizer.L1Decay(0.05))\n"
    "opt = paddle.optimizer.SGD(0.05, grad_clip=paddle.nn.ClipGradByGlobalNorm(0.05), "
    "weight_decay=paddle.regularizer.L2Decay(0.01))",
}
PARAMS = ["fc_0.b_0", "fc_0.w_0", "fc_1.b_0", "fc_1.w_0", "fc_2.b_0", "fc_2.w_0"]  # as both optimizers sort them


def _feed() -> dict:
    rng = np.random.default_rng(7)
    return {"x": rng.standard_normal((5, 4)).astype("float32"), "y": rng.standard_normal((5, 1)).astype("float32")}


def _build(case: str):
    """CASES[case] built into the current programs: (loss, optimizer)."""
    scope = {"paddle": paddle, "w1": None, "b3": None}
    exec(CASES[case], scope)
    exec(NET, scope)
    scope["opt"].minimize(scope["loss"])
    return scope["loss"], scope["opt"]


def _trained(case: str, tmp_path) -> tuple:
    """CASES[case] trained a step and saved as Paddle's files, then STEPS more: (prefix, loss name, losses)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        loss, _ = _build(case)
    exe = paddle.static.Executor()
    exe.run(startup)
    feed = _feed()
    exe.run(main, feed=feed, fetch_list=[loss])
    prefix = str(tmp_path / case)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no JSON fallback: the clip and decay are Paddle's ops
        paddle.static.save(main, prefix)
    np.savez(prefix + ".feed.npz", **feed)
    return prefix, loss.name, [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(STEPS)]


def _updating(prefix: str) -> list:
    """The saved Program's optimize-role ops as (type, {slot: names} of inputs, of outputs)."""
    slots = lambda vs: {v.parameter: list(v.arguments) for v in vs}  # noqa: E731
    role = lambda op: next(a.i for a in op.attrs if a.name == "op_role")  # noqa: E731
    return [(op.type, slots(op.inputs), slots(op.outputs)) for op in _ops(prefix) if role(op) == 2]


def test_a_global_norm_clip_and_l2_decay_are_written_as_paddles_ops(static_mode, tmp_path):
    ops = _updating(_trained("global_l2_sgd", tmp_path)[0])
    grads = [f"{p}@GRAD" for p in PARAMS]
    clip = ["squared_l2_norm"] * 6 + ["sum", "sqrt", "fill_constant", "elementwise_max", "elementwise_div"]
    assert [t for t, _, _ in ops] == clip + ["elementwise_mul"] * 6 + ["scale", "sum"] * 6 + ["sgd"] * 6
    assert [i["X"] for _, i, _ in ops[:6]] == [[g] for g in grads]  # in the parameters' order
    norm = ops[7][2]["Out"]
    assert ops[9][1] == {"X": ops[8][2]["Out"], "Y": norm}  # max(clip_norm, global norm)
    for (_, i, o), g in zip(ops[11:17], grads):  # each gradient scaled in place
        assert i == {"X": [g], "Y": ops[10][2]["Out"]} and o == {"Out": [g]}
    for k, (p, g) in enumerate(zip(PARAMS, grads)):  # grad += 0.01 * param, in place
        (_, scale_in, scale_out), (_, sum_in, sum_out) = ops[17 + 2 * k : 19 + 2 * k]
        assert scale_in["X"] == [p] and sum_in == {"X": [g, *scale_out["Out"]]} and sum_out == {"Out": [g]}
    assert [i["Grad"] for _, i, _ in ops[-6:]] == [[g] for g in grads]


@pytest.mark.parametrize("case, kind", [("norm_adam", "clip_by_norm"), ("value_l1_momentum", "clip")])
def test_a_clip_by_norm_or_value_writes_each_clipped_gradient_anew(static_mode, tmp_path, case, kind):
    ops = _updating(_trained(case, tmp_path)[0])
    clips = [op for op in ops if op[0] == kind]
    assert [i["X"] for _, i, _ in clips] == [[f"{p}@GRAD"] for p in PARAMS]
    # the update reads the clipped gradient (an L1Decay adds to it in place first)
    assert [o["Out"] for _, _, o in clips] == [i["Grad"] for _, i, _ in ops if "Grad" in i]


def test_a_momentum_l2_decay_stays_in_the_momentum_op(static_mode, tmp_path):
    ops = _updating(_trained("l2_momentum", tmp_path)[0])
    assert [t for t, _, _ in ops] == ["momentum"] * 6  # regularization_method l2_decay, as paddle writes it


def test_need_clip_and_a_parameters_own_regularizer_are_kept(static_mode, tmp_path):
    ops = _updating(_trained("param_attrs", tmp_path)[0])
    assert [i["X"] for t, i, _ in ops if t == "squared_l2_norm"] == [[f"{p}@GRAD"] for p in PARAMS if p != "fc_0.w_0"]
    assert [i["X"] for t, i, _ in ops if t == "sign"] == [["fc_2.b_0"]]  # its L1Decay instead of the L2Decay
    assert len([t for t, _, _ in ops if t == "scale"]) == 6


@pytest.mark.parametrize("case", sorted(CASES))
def test_minipaddle_reads_the_clip_and_decay_back_and_trains_on_equal(static_mode, tmp_path, case):
    prefix, loss, losses = _trained(case, tmp_path)
    with paddle.static.scope_guard(paddle.static.Scope()):
        with pytest.warns(UserWarning, match="rebuilt them as"):
            program = paddle.load(prefix + ".pdmodel")
        exe = paddle.static.Executor()
        paddle.static.load(program, prefix, exe)
        again = [float(exe.run(program, feed=_feed(), fetch_list=[loss])[0]) for _ in range(STEPS)]
    np.testing.assert_allclose(again, losses, rtol=1e-6)


def test_the_rebuilt_optimizer_says_its_clip_and_decay(static_mode, tmp_path):
    prefix = _trained("value_l1_momentum", tmp_path)[0]
    with pytest.warns(UserWarning, match=r"Momentum with ClipGradByValue\(0.01, -0.01\) and L1Decay\(0.01\) on"):
        paddle.load(prefix + ".pdmodel")
    prefix = _trained("l2_momentum", tmp_path)[0]
    with pytest.warns(UserWarning, match=r"Momentum with L2Decay\(0.01\) on"):
        paddle.load(prefix + ".pdmodel")


def test_an_optimize_op_outside_the_rebuild_leaves_the_forward_only(static_mode, tmp_path):
    """An update op the rebuild does not know (here an `increment`, as a step counter would be) must not be
    dropped silently: the Program is read as its forward ops, and the user's minimize builds the training."""
    prefix = _trained("global_l2_sgd", tmp_path)[0]
    desc = ProgramDesc.FromString(open(prefix + ".pdmodel", "rb").read())
    extra = desc.blocks[0].ops.add(type="increment")
    extra.inputs.add(parameter="X", arguments=["learning_rate_0"])
    extra.outputs.add(parameter="Out", arguments=["learning_rate_0"])
    extra.attrs.add(name="op_role", type=0, i=2)  # AttrType INT: Optimize
    extra.attrs.add(name="step", type=1, f=1.0)  # FLOAT
    open(prefix + ".pdmodel", "wb").write(desc.SerializeToString())
    with pytest.warns(UserWarning, match="minipaddle reads the forward ops; optimizer.minimize builds"):
        program = paddle.load(prefix + ".pdmodel")
    assert {op.role for op in program.global_block().ops} == {"forward"}


def test_a_clip_outside_paddles_keeps_the_json_program(static_mode, tmp_path):
    class Halve(ClipGradBase):  # a user's own clip: no Paddle op computes it
        def _dygraph_clip(self, params_grads):
            return [(p, g * 0.5) for p, g in params_grads]

    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        paddle.optimizer.SGD(0.1, grad_clip=Halve()).minimize(paddle.mean(paddle.static.nn.fc(x, 1)))
    paddle.static.Executor().run(startup)
    with pytest.warns(UserWarning, match="JSON program.*optimizer op 'multiply' has no Paddle op here"):
        paddle.static.save(main, str(tmp_path / "halve"))


PADDLE_BOTH_WAYS = """
import json, subprocess, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
paddle.seed(3)
case, net, ours, loss_name, prefix = open(sys.argv[1]).read(), open(sys.argv[2]).read(), *sys.argv[3:]
feed = dict(np.load(ours + ".feed.npz"))
# paddle trains on from minipaddle's files
program = paddle.static.Program.parse_from_string(open(ours + ".pdmodel", "rb").read())
exe = paddle.static.Executor(paddle.CPUPlace())
paddle.static.load(program, ours, exe)
on_ours = [float(exe.run(program, feed=feed, fetch_list=[loss_name])[0]) for _ in range(3)]
# paddle builds the same net, trains a step, saves, trains 3 more
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    scope = {"paddle": paddle, "w1": None, "b3": None}
    exec(case, scope)
    exec(net, scope)
    scope["opt"].minimize(scope["loss"])
    loss = scope["loss"]
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
exe.run(main, feed=feed, fetch_list=[loss])
paddle.static.save(main, prefix)
losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(3)]
ops = [[op.type, {k: op.attr(k) for k in op.attr_names if k not in ("op_callstack", "op_namescope")}]
       for op in main.global_block().ops if op.attr("op_role") == 2]
print(json.dumps({"on_ours": on_ours, "loss": loss.name, "losses": losses, "ops": ops}))
"""


# attributes paddle's static.save keeps but its saved inference models and minipaddle's table of its defaults drop
# (oneDNN and quantizer switches, static/paddle_op_defaults.py)
_EXTRA = {"use_mkldnn", "use_cudnn", "mkldnn_data_type", "use_quantizer", "Scale_x", "Scale_y", "Scale_out"}


def _updating_attrs(prefix: str) -> list:
    """The saved Program's optimize-role ops as [type, attributes]."""
    ops = [[op.type, {a.name: _attr_value(a) for a in op.attrs}] for op in _ops(prefix)]
    return [op for op in ops if op[1]["op_role"] == 2]


def _comparable(kind: str, attrs: dict) -> tuple:
    """An optimize-role op without its variables' names: its type, its attributes but the extra ones, and the
    parameter it is for (op_role_var's first name)."""
    kept = {k: v for k, v in attrs.items() if k not in _EXTRA | {"op_callstack", "op_namescope", "op_role_var"}}
    return kind, kept, attrs["op_role_var"][:1]


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.parametrize("case", sorted(CASES))
def test_paddle_and_minipaddle_train_on_from_each_others_files_equal(static_mode, tmp_path, case):
    """One paddle run per case (two cores are shared): paddle trains on from minipaddle's files with minipaddle's
    losses, writes the same optimize-role ops (types, attributes, parameters) for the same net, and minipaddle
    trains on from paddle's files with paddle's losses."""
    prefix, loss, losses = _trained(case, tmp_path)
    (tmp_path / "case.py").write_text(CASES[case])
    (tmp_path / "net.py").write_text(NET)
    theirs = str(tmp_path / f"paddle_{case}")
    args = [str(tmp_path / "case.py"), str(tmp_path / "net.py"), prefix, loss, theirs]
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_BOTH_WAYS, *args], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    np.testing.assert_allclose(out["on_ours"], losses, rtol=1e-6, atol=1e-7)
    assert [_comparable(*op) for op in out["ops"]] == [_comparable(*op) for op in _updating_attrs(prefix)]
    with paddle.static.scope_guard(paddle.static.Scope()):
        with pytest.warns(UserWarning, match="rebuilt them as"):
            program = paddle.load(theirs + ".pdmodel")
        exe = paddle.static.Executor()
        paddle.static.load(program, theirs, exe)
        again = [float(exe.run(program, feed=_feed(), fetch_list=[out["loss"]])[0]) for _ in range(STEPS)]
    np.testing.assert_allclose(again, out["losses"], rtol=1e-6)


# An LRScheduler in static mode: paddle 2.6.2 writes no op for it, only the persistable learning_rate_0 its
# Executor sets from `program.lr_scheduler` (the scheduler naming it by `_var_name`) before each run.
SCHEDULED = """
sched = paddle.optimizer.lr.StepDecay(0.05, step_size=1, gamma=0.5)
opt = paddle.optimizer.Momentum(sched, 0.9)
"""


def _scheduled_losses(program, loss: str, exe, sched) -> list:
    """STEPS runs of `program`, the scheduler stepped after each (as a training loop does)."""
    losses = []
    for _ in range(STEPS):
        losses.append(float(exe.run(program, feed=_feed(), fetch_list=[loss])[0]))
        sched.step()
    return losses


def _scheduled(tmp_path) -> tuple:
    """SCHEDULED trained a step, its scheduler stepped, saved, then trained STEPS more: (prefix, loss name, losses,
    the main Program, the scheduler)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        scope = {"paddle": paddle, "w1": None, "b3": None}
        exec(SCHEDULED, scope)
        exec(NET, scope)
        scope["opt"].minimize(scope["loss"])
    loss, sched, exe = scope["loss"], scope["sched"], paddle.static.Executor()
    exe.run(startup)
    exe.run(main, feed=_feed(), fetch_list=[loss])
    sched.step()
    prefix = str(tmp_path / "scheduled")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paddle.static.save(main, prefix)
    np.savez(prefix + ".feed.npz", **_feed())
    return prefix, loss.name, _scheduled_losses(main, loss.name, exe, sched), main, sched


def _stepped_once():
    sched = paddle.optimizer.lr.StepDecay(0.05, step_size=1, gamma=0.5)
    sched.step()
    return sched


def test_a_scheduled_program_names_its_scheduler_and_saves_only_the_variable(static_mode, tmp_path):
    prefix, _, losses, main, sched = _scheduled(tmp_path)
    assert main.lr_scheduler is sched and sched._var_name == "learning_rate_0"  # Paddle's attributes
    assert sched() == 0.05 * 0.5**4
    desc = ProgramDesc.FromString(open(prefix + ".pdmodel", "rb").read())
    (lr,) = [v for v in desc.blocks[0].vars if v.name == "learning_rate_0"]
    assert lr.persistable and list(lr.type.lod_tensor.tensor.dims) == []
    assert not any("learning_rate_0" in n for op in _ops(prefix) for v in op.outputs for n in v.arguments)
    assert losses[0] > losses[1] > losses[2]


def test_a_scheduler_set_on_a_read_program_drives_its_learning_rate(static_mode, tmp_path):
    prefix, loss, losses, _, _ = _scheduled(tmp_path)
    with paddle.static.scope_guard(paddle.static.Scope()):
        with pytest.warns(UserWarning, match="rebuilt them as minipaddle's own backward and Momentum"):
            program = paddle.load(prefix + ".pdmodel")
        exe = paddle.static.Executor()
        paddle.static.load(program, prefix, exe)
        sched = _stepped_once()
        program.lr_scheduler, sched._var_name = sched, "learning_rate_0"  # as in paddle
        again = _scheduled_losses(program, loss, exe, sched)
        assert paddle.static.global_scope().vars["learning_rate_0"] == np.float32(0.05 * 0.5**3)  # the last run's
    np.testing.assert_allclose(again, losses, rtol=1e-6)


def test_a_program_lr_scheduler_without_its_variable_is_refused(static_mode, tmp_path):
    prefix, loss, _, _, _ = _scheduled(tmp_path)
    with pytest.warns(UserWarning, match="rebuilt them as"):
        program = paddle.load(prefix + ".pdmodel")
    exe = paddle.static.Executor()
    paddle.static.load(program, prefix, exe)
    program.lr_scheduler = _stepped_once()  # _var_name not set
    with pytest.raises(ValueError, match="Executor.run: program.lr_scheduler must be an LRScheduler whose _var_name"):
        exe.run(program, feed=_feed(), fetch_list=[loss])


PADDLE_SCHEDULED = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
paddle.seed(3)
case, net, ours, loss_name, prefix = open(sys.argv[1]).read(), open(sys.argv[2]).read(), *sys.argv[3:]
feed = dict(np.load(ours + ".feed.npz"))


def three(program, loss, exe, sched):
    losses = []
    for _ in range(3):
        losses.append(float(exe.run(program, feed=feed, fetch_list=[loss])[0]))
        sched.step()
    return losses


# paddle trains on from minipaddle's files, its scheduler set on the Program
program = paddle.static.Program.parse_from_string(open(ours + ".pdmodel", "rb").read())
exe = paddle.static.Executor(paddle.CPUPlace())
paddle.static.load(program, ours, exe)
sched = paddle.optimizer.lr.StepDecay(0.05, step_size=1, gamma=0.5)
sched.step()
program.lr_scheduler, sched._var_name = sched, "learning_rate_0"
on_ours = three(program, loss_name, exe, sched)
# paddle's own: a step, the scheduler stepped, saved, 3 more
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    scope = {"paddle": paddle, "w1": None, "b3": None}
    exec(case, scope)
    exec(net, scope)
    scope["opt"].minimize(scope["loss"])
loss, sched = scope["loss"], scope["sched"]
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
exe.run(main, feed=feed, fetch_list=[loss])
sched.step()
paddle.static.save(main, prefix)
ops = [op.type for op in main.global_block().ops if op.attr("op_role") == 2]
print(json.dumps({"on_ours": on_ours, "loss": loss.name, "losses": three(main, loss, exe, sched),
                  "var": sched._var_name, "ops": ops}))
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_paddle_and_minipaddle_train_on_with_a_scheduler_from_each_others_files_equal(static_mode, tmp_path):
    """The same StepDecay, set on the other's Program as program.lr_scheduler (paddle's Executor reads it, and
    minipaddle's): paddle trains on from minipaddle's files with minipaddle's losses, and the other way round."""
    prefix, loss, losses, _, _ = _scheduled(tmp_path)
    (tmp_path / "case.py").write_text(SCHEDULED)
    (tmp_path / "net.py").write_text(NET)
    theirs = str(tmp_path / "paddle_scheduled")
    args = [str(tmp_path / "case.py"), str(tmp_path / "net.py"), prefix, loss, theirs]
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_SCHEDULED, *args], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    np.testing.assert_allclose(out["on_ours"], losses, rtol=1e-6, atol=1e-7)
    assert out["var"] == "learning_rate_0" and out["ops"] == [t for t, _, _ in _updating(prefix)]
    with paddle.static.scope_guard(paddle.static.Scope()):
        with pytest.warns(UserWarning, match="rebuilt them as"):
            program = paddle.load(theirs + ".pdmodel")
        exe = paddle.static.Executor()
        paddle.static.load(program, theirs, exe)
        sched = _stepped_once()
        program.lr_scheduler, sched._var_name = sched, "learning_rate_0"
        again = _scheduled_losses(program, out["loss"], exe, sched)
    np.testing.assert_allclose(again, out["losses"], rtol=1e-6)
