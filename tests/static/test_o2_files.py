"""Static O2 float16 training files, paddle's and minipaddle's (the net's loss is softmax_with_cross_entropy, one op
in both libraries, so that the two Programs compute alike to the last bit).

paddle 2.6.2 saved them with its GPU rules (tests/golden/amp/make_o2_files.py): float16 parameters (amp_init) with
float32 master weights, dynamic loss scaling, and in `norm_adam` a layer_norm whose scale and bias stay float32, so
the gradients form a float32 and a float16 group (check_finite_and_unscale per group, concat + reduce_any of the
two flags, update_loss_scaling per group). minipaddle reads each file back and trains it, overflowing steps
included, equal to its own O2 Program of the same net started from the same values; and its own mixed-group
Program is written as paddle writes it and read back training equal."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.paddle_proto import ProgramDesc
from minipaddle.static.pdmodel import _attr_value, write_program_desc

FILES = Path(__file__).parents[1] / "golden/amp/o2_files"
PADDLES = json.loads((FILES / "ops.json").read_text())
SCALING = dict(init_loss_scaling=2.0**20, incr_every_n_steps=2, decr_every_n_nan_or_inf=1)  # as the generator
OPTIMIZERS = {"sgd": lambda: paddle.optimizer.SGD(0.05), "adam": lambda: paddle.optimizer.Adam(0.01)}
CASES = {"mlp_sgd": ("sgd", False), "mlp_adam": ("adam", False), "norm_adam": ("adam", True)}
STEPS = 10
FETCHED = ["loss_scaling_0", "num_good_steps_0", "num_bad_steps_0"]
LEFT_OUT = ("op_callstack", "op_namescope", "op_device", "with_quant_attr")


def _own(case: str) -> tuple:
    """minipaddle's O2 Program of the generator's net: (main, startup, loss, decorated optimizer)."""
    kind, norm = CASES[case]
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data("x", [None, 8], "float32")
        y = paddle.static.data("y", [None, 1], "int64")
        h = paddle.static.nn.fc(x, 16)
        if norm:
            h = paddle.static.nn.layer_norm(h)
        h = paddle.nn.functional.relu(h)
        loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(paddle.static.nn.fc(h, 4), y))
        opt = paddle.static.amp.decorate(OPTIMIZERS[kind](), level="O2", **SCALING)
        opt.minimize(loss)
    return main, startup, loss, opt


def _feed() -> dict:
    rng = np.random.default_rng(0)
    return {"x": (rng.standard_normal((6, 8)) * 10).astype("float32"), "y": rng.integers(0, 4, (6, 1))}


def _train(exe, program, loss_name: str) -> tuple:
    """STEPS steps: ([[loss, scale, good steps, bad steps] per step], {persistable: value} after them)."""
    feed = _feed()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the overflowing steps
        steps = [[float(np.asarray(v).reshape(-1)[0]) for v in exe.run(program, feed=feed, fetch_list=[loss_name]
                                                                         + FETCHED)] for _ in range(STEPS)]  # fmt: skip
    scope = paddle.static.global_scope()
    state = {v.name: np.array(scope.find_var(v.name).get_tensor()) for v in program.list_vars() if v.persistable}
    return steps, state


def _own_trained_from(case: str, prefix: str) -> tuple:
    """minipaddle's own Program, started from the values saved at `prefix`, trained: (steps, state, main)."""
    main, startup, loss, opt = _own(case)
    with paddle.static.scope_guard(paddle.static.Scope()):
        exe = paddle.static.Executor()
        exe.run(startup)
        opt.amp_init(paddle.CPUPlace())
        paddle.static.load(main, prefix, exe)
        steps, state = _train(exe, main, loss.name)
    return steps, state, main


def _read_trained(prefix: str) -> tuple:
    """The .pdmodel at `prefix` read back (its training ops rebuilt by static.amp.decorate) and trained."""
    with paddle.static.scope_guard(paddle.static.Scope()):
        with pytest.warns(UserWarning, match="rebuilt them as .*static.amp.decorate \\(dynamic loss scaling\\)"):
            program = paddle.load(prefix + ".pdmodel")
        exe = paddle.static.Executor()
        paddle.static.load(program, prefix, exe)
        loss = "tmp_0"  # the float32 loss O2 multiplies by the scale
        return (*_train(exe, program, loss), program)


def _same_training(ours: tuple, theirs: tuple, float16_params: set) -> None:
    (steps_a, state_a), (steps_b, state_b) = ours[:2], theirs[:2]
    np.testing.assert_array_equal(steps_a, steps_b)
    scales = [s[1] for s in steps_a]
    moves = {np.sign(b - a) for a, b in zip(scales, scales[1:])}
    assert moves >= {-1, 1}  # overflowing steps shrank the scale, good ones grew it
    for name, value in state_a.items():
        assert name in state_b, name
        assert value.dtype == state_b[name].dtype, name
        # (raveled: minipaddle's own learning rate is 0-d, the one loaded from paddle's .pdopt has shape [1])
        np.testing.assert_array_equal(value.ravel(), state_b[name].ravel(), err_msg=name)
    assert {n for n, v in state_a.items() if v.dtype == np.float16} == float16_params


@pytest.mark.parametrize("case", sorted(CASES))
def test_paddles_o2_float16_file_is_read_back_and_trains_as_minipaddles_own_program(static_mode, case):
    prefix = str(FILES / case)
    low = {n for n, d in PADDLES[case]["dtypes"].items() if d == "float16"}
    assert low == {"fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"}  # (the layer_norm's stay float32)
    theirs = _read_trained(prefix)
    assert {v.name for v in theirs[2].list_vars() if v.persistable and v.dtype.name == "float16"} == low
    _same_training(_own_trained_from(case, prefix), theirs, low)


def _as_golden(od) -> dict:
    attrs = {a.name: _attr_value(a) for a in od.attrs if a.name not in LEFT_OUT}
    return {"type": od.type, "inputs": {v.parameter: list(v.arguments) for v in od.inputs},
            "outputs": {v.parameter: list(v.arguments) for v in od.outputs}, "attrs": attrs}  # fmt: skip


def test_a_mixed_float32_float16_o2_program_is_written_as_paddles_per_dtype_group(static_mode):
    """The loss scaling and update ops of minipaddle's norm_adam Program, written for paddle, are paddle's: one
    check_finite_and_unscale per dtype group (_fp32: the layer_norm's gradients, _fp16: the fc layers'), the two
    flags joined by concat + reduce_any, one update_loss_scaling per group, memcpy and Adam's SkipUpdate."""
    main, _, _, _ = _own("norm_adam")
    desc = ProgramDesc()
    desc.ParseFromString(write_program_desc(main))
    ours = [_as_golden(od) for od in desc.blocks[0].ops if _attr_value(_role(od)) & 0x102]
    theirs = PADDLES["norm_adam"]["loss_and_optimize"]
    assert [o["type"] for o in ours] == [o["type"] for o in theirs]
    checks = [o for o in theirs if o["type"] == "check_finite_and_unscale"]
    assert [c["outputs"]["FoundInfinite"] for c in checks] == [["find_infinite_scale_fp32.tmp_0"],
                                                                ["find_infinite_scale_fp16.tmp_0"]]  # fmt: skip
    for o, p in zip(ours, theirs):
        if p["type"] in ("elementwise_mul", "fill_constant"):  # the loss op and the root: the loss's own name
            continue
        assert o["inputs"] == p["inputs"] and o["outputs"] == p["outputs"], p["type"]
        for name, value in p["attrs"].items():
            assert o["attrs"][name] == (pytest.approx(value) if isinstance(value, float) else value), (p["type"], name)


def _role(od):
    return next(a for a in od.attrs if a.name == "op_role")


def test_minipaddles_mixed_group_o2_file_is_read_back_and_trains_equal(static_mode, tmp_path):
    """minipaddle's norm_adam Program saved (as paddle writes it, float16 parameters and float32 layer_norm ones)
    and read back trains on as the Program itself does."""
    main, startup, loss, opt = _own("norm_adam")
    prefix = str(tmp_path / "norm_adam")
    with paddle.static.scope_guard(paddle.static.Scope()):
        exe = paddle.static.Executor()
        exe.run(startup)
        opt.amp_init(paddle.CPUPlace())
        paddle.static.load(main, str(FILES / "norm_adam"), exe)  # paddle's start values
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the whole training Program is Paddle's (no JSON fallback)
            paddle.static.save(main, prefix)
        ours = _train(exe, main, loss.name)
    _same_training(ours, _read_trained(prefix), {"fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"})
