"""paddle.static.amp.cast_parameters_to_fp16 (and its bfloat16 twin): static O2 stores the parameters it computes
with in float16 as float16, as paddle 2.6.2 does after amp_init, and trains them through float32 master weights."""

from __future__ import annotations

import contextlib

import ml_dtypes
import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

PLACE = paddle.CPUPlace()
IDS = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9], [0, 1, 2]], np.int64)


@pytest.fixture
def static():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _o2_program(guard: bool = False):
    """The model of tests/golden/amp/make_o2_parameters.py: an embedding, two fc layers and a layer_norm."""
    maybe_guard = paddle.static.amp.fp16_guard if guard else contextlib.nullcontext
    ids = paddle.static.data("ids", [4, 3], "int64")
    h = paddle.static.nn.embedding(ids, [10, 6])
    with maybe_guard():
        h = paddle.nn.functional.relu(paddle.static.nn.fc(h, 5, num_flatten_dims=2))
    h = paddle.static.nn.layer_norm(h, begin_norm_axis=2)
    with maybe_guard():
        return paddle.mean(paddle.static.nn.fc(h, 2, num_flatten_dims=2))


def _build(optimizer, guard: bool = False, dtype: str = "float16"):
    """(main, startup, decorated optimizer, loss), O2, minimized."""
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, start):
        loss = _o2_program(guard)
        lists = paddle.static.amp.AutoMixedPrecisionLists(dtype=dtype)
        lists.unsupported_list = set()  # as the golden's paddle run
        opt = paddle.static.amp.decorate(optimizer, lists, level="O2", dtype=dtype, init_loss_scaling=128.0,
                                         use_fp16_guard=guard)  # fmt: skip
        opt.minimize(loss)
    return main, start, opt, loss


def _scope_dtypes(main, scope) -> dict:
    return {p.name: str(scope.vars[p.name].dtype) for p in main.global_block().all_parameters()}


@pytest.mark.parametrize("guard", [False, True])
def test_amp_init_stores_paddles_parameters_in_float16(static, guard):
    golden = read_json(GOLDEN_ROOT / "amp" / "static_o2_parameters.json")[f"use_fp16_guard={guard}"]
    main, start, opt, _ = _build(paddle.optimizer.SGD(0.1), guard)
    scope = paddle.static.Scope()
    paddle.static.Executor(PLACE).run(start, scope=scope)
    assert set(_scope_dtypes(main, scope).values()) == {"float32"}  # the startup Program makes float32 values
    opt.amp_init(PLACE, scope=scope)
    assert _scope_dtypes(main, scope) == golden
    # the Program says what the scope holds
    assert {p.name: p.dtype.name for p in main.global_block().all_parameters()} == golden


def test_o2_trains_float16_parameters_through_float32_master_weights(static):
    """decorate -> minimize -> startup -> cast_parameters_to_fp16 -> amp_init -> steps: the parameters stay
    float16 in the scope, each the rounding of its float32 master weight, and the losses are those of the same
    run that never converts them (the forward reads them rounded either way)."""

    def run(convert: bool):
        paddle.seed(0)
        main, start, opt, loss = _build(paddle.optimizer.Adam(0.05))
        scope = paddle.static.Scope()
        exe = paddle.static.Executor(PLACE)
        exe.run(start, scope=scope)
        if convert:
            paddle.static.amp.cast_parameters_to_fp16(PLACE, main, scope)  # default: O2's low parameters
            opt.amp_init(PLACE, scope=scope)  # converts the same names again: no change
        losses = [float(exe.run(main, feed={"ids": IDS}, fetch_list=[loss], scope=scope)[0]) for _ in range(4)]
        return main, opt, scope, losses

    main, opt, scope, losses = run(convert=True)
    golden = read_json(GOLDEN_ROOT / "amp" / "static_o2_parameters.json")["use_fp16_guard=False"]
    assert _scope_dtypes(main, scope) == golden
    assert losses[-1] < losses[0]
    for name, dtype in golden.items():
        if dtype == "float16":
            master = scope.vars[opt._optimizer._master_weights[name].name]
            assert master.dtype == np.float32
            np.testing.assert_array_equal(scope.vars[name], master.astype(np.float16))
    assert run(convert=False)[3] == losses


def test_cast_model_to_fp16_returns_the_names_cast_parameters_to_fp16_takes(static):
    golden = read_json(GOLDEN_ROOT / "amp" / "static_o2_parameters.json")["use_fp16_guard=False"]
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, start):
        _o2_program()
    names = paddle.static.amp.cast_model_to_fp16(main, use_fp16_guard=False)
    assert names == {n for n, d in golden.items() if d == "float16"}
    scope = paddle.static.Scope()
    paddle.static.Executor(PLACE).run(start, scope=scope)
    before = dict(scope.vars)
    # a name that is no parameter is passed over, as paddle does
    paddle.static.amp.fp16_utils.cast_parameters_to_fp16(PLACE, main, scope, ["fc_0.w_0", "ids"])
    assert scope.vars["fc_0.w_0"].dtype == np.float16 and scope.vars["fc_1.w_0"].dtype == np.float32
    np.testing.assert_array_equal(scope.vars["fc_0.w_0"], before["fc_0.w_0"].astype(np.float16))
    with pytest.warns(UserWarning, match="cannot find fc_1.b_0"):
        paddle.static.amp.cast_parameters_to_fp16(PLACE, main, paddle.static.Scope(), ["fc_1.b_0"])


def test_rewrite_master_weight_sets_the_masters_to_the_float16_values(static):
    main, start, opt, _ = _build(paddle.optimizer.SGD(0.1))
    scope = paddle.static.Scope()
    paddle.static.Executor(PLACE).run(start, scope=scope)
    master = opt._optimizer._master_weights["fc_0.w_0"].name
    exact = scope.vars[master].copy()
    opt.amp_init(PLACE, scope=scope, rewrite_master_weight=True)
    np.testing.assert_array_equal(scope.vars[master], exact.astype(np.float16).astype(np.float32))


LOAD_PATHS = ["static.load", "static.load(var_list)", "Program.set_state_dict", "set_program_state", "load_vars"]


def _load(path: str, main, values: dict, prefix: str) -> None:
    """Load `values` (name -> array) into the global scope through `path`; static.load reads the files `prefix`
    the test saved, which hold every persistable variable (the master weights too), load_vars the save_vars
    directory `prefix`_vars, which holds the parameter."""
    if path == "static.load":
        paddle.static.load(main, prefix)
    elif path == "static.load(var_list)":
        paddle.static.load(main, prefix, var_list=sorted(values))
    elif path == "Program.set_state_dict":
        main.set_state_dict(values)
    elif path == "load_vars":
        paddle.static.load_vars(paddle.static.Executor(PLACE), prefix + "_vars", main,
                                predicate=lambda v: v.name in values)  # fmt: skip
    else:
        paddle.static.set_program_state(main, values)


@pytest.mark.parametrize("path", LOAD_PATHS)
def test_a_load_restarts_the_master_weights_of_the_parameters_it_writes(static, path, tmp_path):
    """(hapi's Model.load after prepare does too: tests/hapi/test_static_model.py's O2 run.) Where a loaded
    float16 parameter no longer rounds as its master does, the master takes the loaded value; elsewhere it keeps
    its float32 bits. The training step then rounds the master into the parameter: the loaded value stays."""
    main, start, opt, loss = _build(paddle.optimizer.SGD(0.0))  # lr 0: the step changes no master
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(PLACE)
    with paddle.static.scope_guard(scope):
        exe.run(start)
        opt.amp_init(PLACE, scope=scope)
        master = opt._optimizer._master_weights["fc_0.w_0"].name
        old_param, old_master = scope.vars["fc_0.w_0"].copy(), scope.vars[master].copy()
        assert not np.array_equal(old_master, old_param.astype(np.float32))  # the master holds more bits
        loaded = old_param.copy()
        loaded[0] = np.float16(0.25)  # one row changed
        scope.vars["fc_0.w_0"] = loaded.copy()
        paddle.static.save(main, str(tmp_path / "ckpt"))  # (its master is the old one)
        if path == "load_vars":  # (save_vars writes the loaded value, before the scope gets the old one back)
            paddle.static.save_vars(exe, str(tmp_path / "ckpt_vars"), main, vars=[main.global_block().var("fc_0.w_0")])
        scope.vars["fc_0.w_0"] = old_param
        _load(path, main, {"fc_0.w_0": loaded}, str(tmp_path / "ckpt"))
        np.testing.assert_array_equal(scope.vars[master][0], np.full(5, 0.25, np.float32))
        np.testing.assert_array_equal(scope.vars[master][1:], old_master[1:])
        exe.run(main, feed={"ids": IDS}, fetch_list=[loss])
    np.testing.assert_array_equal(scope.vars["fc_0.w_0"], loaded)


def test_a_checkpoint_of_both_loads_the_masters_bits_and_the_step_holds_no_restart_ops(static, tmp_path):
    main, start, opt, loss = _build(paddle.optimizer.SGD(0.1))
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(PLACE)
    with paddle.static.scope_guard(scope):
        exe.run(start)
        opt.amp_init(PLACE, scope=scope)
        exe.run(main, feed={"ids": IDS}, fetch_list=[loss])
        saved = {k: np.array(v) for k, v in scope.vars.items()}
        paddle.static.save(main, str(tmp_path / "ckpt"))
        exe.run(main, feed={"ids": IDS}, fetch_list=[loss])
        paddle.static.load(main, str(tmp_path / "ckpt"))
    for name in opt._optimizer._master_weights.values():
        np.testing.assert_array_equal(scope.vars[name.name], saved[name.name])
    # a master is written by its update op and the overflow guard's assign only: no per-step comparison with its
    # parameter (equal, two casts, where, assign) follows the loads any more
    kinds = [op.type for op in main.global_block().ops]
    assert "equal" not in kinds
    for m in opt._optimizer._master_weights.values():
        writers = [op.type for op in main.global_block().ops if m.name in op.outputs.get("Out", [])]
        assert writers == ["sgd", "assign"], writers


def test_cast_parameters_to_bf16_shares_the_implementation(static):
    main, start, opt, loss = _build(paddle.optimizer.SGD(0.1), dtype="bfloat16")
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(PLACE)
    exe.run(start, scope=scope)
    paddle.static.amp.bf16.cast_parameters_to_bf16(PLACE, main, scope)
    dtypes = _scope_dtypes(main, scope)
    assert dtypes["fc_0.w_0"] == "bfloat16"
    assert {n for n, d in dtypes.items() if d == "bfloat16"} == set(opt._to_fp16_var_names)
    exe.run(main, feed={"ids": IDS}, fetch_list=[loss], scope=scope)
    assert scope.vars["fc_0.w_0"].dtype == ml_dtypes.bfloat16


@pytest.mark.parametrize(
    "kwargs,error,match",
    [
        ({"place": "cpu"}, TypeError, "cast_parameters_to_fp16: place must be a Place"),
        ({"program": "main"}, TypeError, "cast_parameters_to_fp16: program must be a Program"),
        ({"scope": {}}, TypeError, "cast_parameters_to_fp16: scope must be a Scope"),
        ({"to_fp16_var_names": "fc_0.w_0"}, TypeError, "cast_parameters_to_fp16: the names must be a set or list"),
        ({"to_fp16_var_names": [1]}, TypeError, "cast_parameters_to_fp16: the names must be strings"),
        ({"dest_type": "int8"}, ValueError, "cast_parameters_to_fp16: dest_type must be 'float16' or 'bfloat16'"),
    ],
)
def test_bad_arguments_name_the_function(static, kwargs, error, match):
    main = paddle.static.Program()
    args = {"place": PLACE, "program": main, **kwargs}
    with pytest.raises(error, match=match):
        paddle.static.amp.cast_parameters_to_fp16(**args)


def test_amp_init_before_minimize_is_refused(static):
    opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.1), level="O2")
    with pytest.raises(RuntimeError, match="amp_init: call minimize"):
        opt.amp_init(PLACE)


def test_without_master_weights_o2_updates_the_float16_parameters_themselves(static):
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, start):
        loss = _o2_program()
        opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.1), level="O2", master_weight=False,
                                         init_loss_scaling=128.0)  # fmt: skip
        opt.minimize(loss)
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(PLACE)
    exe.run(start, scope=scope)
    opt.amp_init(PLACE, scope=scope)
    before = scope.vars["fc_1.b_0"].copy()
    for _ in range(2):
        exe.run(main, feed={"ids": IDS}, fetch_list=[loss], scope=scope)
    assert scope.vars["fc_1.b_0"].dtype == np.float16 and not np.array_equal(scope.vars["fc_1.b_0"], before)
    assert not opt._optimizer._master_weights and not [n for n in scope.vars if "master" in n]


def test_amp_init_rewrites_the_test_program_as_the_training_one(static):
    paddle.seed(0)
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, start):
        loss = _o2_program()
        test = main.clone(for_test=True)
        opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.1), level="O2", init_loss_scaling=128.0)
        opt.minimize(loss)
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(PLACE)
    exe.run(start, scope=scope)
    opt.amp_init(PLACE, scope=scope, test_program=test)
    assert test.global_block().var("fc_0.w_0").dtype == paddle.float16
    (evaluated,) = exe.run(test, feed={"ids": IDS}, fetch_list=[loss.name], scope=scope)
    (trained,) = exe.run(main, feed={"ids": IDS}, fetch_list=[loss], scope=scope)  # the loss before its update
    assert evaluated.dtype == np.float16 and evaluated == trained
