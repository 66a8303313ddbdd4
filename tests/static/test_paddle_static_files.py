"""paddle.static.save / static.load / load_program_state and paddle.save / paddle.load of a Program in Paddle 2.6's
own files, both ways: a static MLP paddle 2.6.2 saved after one Adam step (tests/golden/paddle_models/static,
recorded by make_golden.py there) loads into minipaddle's same MLP with paddle's values and outputs; and, where
paddle is installed, paddle 2.6.2 loads and runs what minipaddle saved."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.pickle_reader import restricted_loads
from tests.golden_files import GOLDEN_ROOT, read_arrays

STATIC = GOLDEN_ROOT / "paddle_models" / "static"
PADDLE_PYTHON = "/work/paddle-venv/bin/python"
EXPECTED = read_arrays(STATIC / "expected.npz")
STATE = {k.removeprefix("state:"): v for k, v in EXPECTED.items() if k.startswith("state:")}


def _static_mlp():
    path = GOLDEN_ROOT / "paddle_models" / "patterns.py"
    spec = importlib.util.spec_from_file_location("paddle_model_patterns", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.static_mlp(paddle)


@pytest.fixture
def fresh_scope():
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        yield scope


def _output(exe, program, x):
    (out,) = exe.run(program, feed={"x": x}, fetch_list=[program.global_block().ops[-1].outputs["Out"][0]])
    return out


def test_paddles_save_vars_directory_and_combined_file_load_as_paddles_static_load_reads_them(static_mode, fresh_scope):
    main, startup, test, loss, feed = _static_mlp()
    exe = paddle.static.Executor()
    exe.run(startup)
    persistable = [v for v in main.list_vars() if v.persistable]
    paddle.static.load(main, str(STATIC / "mlp_vars"), exe)  # a directory: every variable with a file
    for name, value in STATE.items():
        np.testing.assert_array_equal(fresh_scope.vars[name], value, err_msg=name)
    np.testing.assert_allclose(_output(exe, test, EXPECTED["input:x"]), EXPECTED["output:test"], rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="var_list is required"):
        paddle.static.load(main, str(STATIC / "mlp_vars.combined"), exe)
    with pytest.raises(ValueError, match="executor is required"):
        paddle.static.load(main, str(STATIC / "mlp_vars"))
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        paddle.static.load(main, str(STATIC / "mlp_vars.combined"), exe, var_list=persistable)  # one file
        for name, value in STATE.items():
            np.testing.assert_array_equal(scope.vars[name], value, err_msg=name)
        w = main.global_block().var("fc_0.w_0")
        with pytest.raises(RuntimeError, match="failed to load"):  # the file holds more than this one variable
            paddle.static.load(main, str(STATIC / "mlp_vars.combined"), exe, var_list=[w])
        scope.vars["fc_0.w_0"] = np.zeros_like(STATE["fc_0.w_0"])
        with pytest.warns(UserWarning, match="fc_1.w_0.*not used"):  # a directory: only var_list's, as Paddle
            paddle.static.load(main, str(STATIC / "mlp_vars"), exe, var_list=[w])
        np.testing.assert_array_equal(scope.vars["fc_0.w_0"], STATE["fc_0.w_0"])
    state = paddle.static.load_program_state(str(STATIC / "mlp_vars"))
    assert set(state) == set(STATE) and all(np.array_equal(state[k], STATE[k]) for k in STATE)
    state = paddle.static.load_program_state(str(STATIC / "mlp_vars.combined"), var_list=persistable)
    assert set(state) == set(STATE) and all(np.array_equal(state[k], STATE[k]) for k in STATE)
    assert list(paddle.static.load_program_state(str(STATIC / "mlp_vars"), var_list=["fc_1.b_0"])) == ["fc_1.b_0"]
    with pytest.raises(ValueError, match="var_list can not be None"):
        paddle.static.load_program_state(str(STATIC / "mlp_vars.combined"))


def test_a_save_vars_directory_skips_files_that_are_not_variables(static_mode, tmp_path):
    shutil.copytree(STATIC / "mlp_vars", tmp_path / "vars")
    (tmp_path / "vars" / "notes.txt").write_text("not a tensor")
    with pytest.warns(RuntimeWarning, match="notes.txt"):
        state = paddle.static.load_program_state(str(tmp_path / "vars"))
    assert set(state) == set(STATE)
    (tmp_path / "vars" / "fc_0.w_0").write_bytes((STATIC / "mlp_vars" / "fc_0.w_0").read_bytes()[:30])  # truncated
    with pytest.raises(RuntimeError, match="fc_0.w_0"):
        paddle.static.load_program_state(str(tmp_path / "vars"), var_list=["fc_0.w_0"])


def test_a_checkpoint_paddle_saved_loads_with_paddles_values(static_mode, fresh_scope):
    main, startup, test, loss, feed = _static_mlp()
    exe = paddle.static.Executor()
    exe.run(startup)
    paddle.static.load(main, str(STATIC / "mlp"), exe)
    assert set(STATE) == {v.name for v in main.list_vars() if v.persistable}  # the same names as paddle's
    for name, value in STATE.items():
        np.testing.assert_array_equal(fresh_scope.vars[name], value, err_msg=name)
    np.testing.assert_allclose(_output(exe, test, EXPECTED["input:x"]), EXPECTED["output:test"], rtol=1e-5, atol=1e-6)
    (before,) = exe.run(main, feed=feed, fetch_list=[loss])  # training goes on from paddle's Adam state
    (after,) = exe.run(main, feed=feed, fetch_list=[loss])
    assert after < before


def test_load_program_state_of_paddles_files_and_set_program_state(static_mode, fresh_scope):
    main, startup, test, *_ = _static_mlp()
    exe = paddle.static.Executor()
    exe.run(startup)
    state = paddle.static.load_program_state(str(STATIC / "mlp.pdparams"))
    assert set(state) == set(STATE) and all(isinstance(v, np.ndarray) for v in state.values())
    only = paddle.static.load_program_state(str(STATIC / "mlp"), var_list=["fc_0.w_0"])
    np.testing.assert_array_equal(only["fc_0.w_0"], STATE["fc_0.w_0"])
    paddle.static.set_program_state(main, state)
    np.testing.assert_allclose(_output(exe, test, EXPECTED["input:x"]), EXPECTED["output:test"], rtol=1e-5, atol=1e-6)


def test_paddle_load_of_a_program_paddle_saved_is_a_program_that_runs(static_mode, fresh_scope):
    program = paddle.load(str(STATIC / "mlp_test.pdmodel"))  # paddle.save(test_program): its ProgramDesc
    assert isinstance(program, paddle.static.Program)
    assert {v.name for v in program.list_vars() if v.is_data} == {"x", "y"}
    assert {p.name for p in program.all_parameters()} == {n for n in STATE if n.startswith("fc_") and "_0_" not in n}
    fresh_scope.vars.update({n: STATE[n] for n in STATE})
    out = _output(paddle.static.Executor(), program, EXPECTED["input:x"])
    np.testing.assert_allclose(out, EXPECTED["output:test"], rtol=1e-5, atol=1e-6)


def test_a_training_program_paddle_saved_reads_back_and_trains_as_paddles(static_mode, fresh_scope):
    match = r"left out the Program's \d+ backward and optimizer ops \(adam, .*rebuilt them as .* Adam on loss 'mean_0"
    with pytest.warns(UserWarning, match=match):
        program = paddle.load(str(STATIC / "mlp.pdmodel"))  # static.save's .pdmodel: backward and adam ops too
    kinds = {op.type for op in program.global_block().ops}
    assert kinds >= {"matmul", "relu", "mean", "relu_grad", "adam_param"}  # minipaddle's own backward and Adam
    assert not kinds & {"mul_grad", "adam", "fill_constant"}  # none of Paddle's backward or optimizer ops
    persistable = {v.name: v for v in program.list_vars() if v.persistable}
    assert set(persistable) == set(STATE)  # the optimizer state has paddle's names
    assert not persistable["fc_0.w_0_moment1_0"].is_parameter and persistable["fc_0.w_0"].is_parameter
    exe = paddle.static.Executor()
    paddle.static.load(program, str(STATIC / "mlp"), exe)  # paddle's parameters and Adam state
    feed = {"x": EXPECTED["input:x"], "y": EXPECTED["input:y"]}
    losses = [exe.run(program, feed=feed, fetch_list=["mean_0.tmp_0"])[0] for _ in range(2)]
    np.testing.assert_allclose(np.array(losses), EXPECTED["output:next_losses"], rtol=1e-5)  # paddle's next steps


def test_static_save_writes_what_paddles_static_load_reads(static_mode, fresh_scope, tmp_path):
    main, startup, test, loss, feed = _static_mlp()
    exe = paddle.static.Executor()
    exe.run(startup)
    exe.run(main, feed=feed, fetch_list=[loss])
    prefix = str(tmp_path / "mlp")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the training Program too is written as Paddle's (grad and adam ops)
        paddle.static.save(main, prefix)
    assert open(prefix + ".pdmodel", "rb").read(1) == b"\n"
    params = restricted_loads(open(prefix + ".pdparams", "rb").read())  # plain dicts of arrays, as paddle's
    opt = restricted_loads(open(prefix + ".pdopt", "rb").read())
    layout = lambda arrays: {k: (type(v), v.shape, v.dtype) for k, v in arrays.items()}  # noqa: E731
    assert layout(params) == layout(restricted_loads((STATIC / "mlp.pdparams").read_bytes()))
    assert layout(opt) == layout(restricted_loads((STATIC / "mlp.pdopt").read_bytes()))
    for name, value in {**params, **opt}.items():
        np.testing.assert_array_equal(value, fresh_scope.vars[name])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paddle.static.save(test, str(tmp_path / "test"))  # a forward Program: Paddle's ProgramDesc
    assert (tmp_path / "test.pdmodel").read_bytes()[:1] == b"\n"


def test_paddle_save_of_a_program_writes_its_program_desc(static_mode, fresh_scope, tmp_path):
    main, startup, test, loss, feed = _static_mlp()
    exe = paddle.static.Executor()
    exe.run(startup)
    path = str(tmp_path / "test.pdmodel")
    paddle.save(test, path)
    assert open(path, "rb").read(1) == b"\n"
    back = paddle.load(path)
    np.testing.assert_allclose(_output(exe, back, feed["x"]), _output(exe, test, feed["x"]), rtol=1e-6)
    paddle.save(test, str(tmp_path / "test.json.pdmodel"), format="minipaddle")  # minipaddle's JSON, on request
    assert open(tmp_path / "test.json.pdmodel", "rb").read(1) == b"{"
    assert str(paddle.load(str(tmp_path / "test.json.pdmodel"))) == str(test)
    paddle.save(main, str(tmp_path / "main.pdmodel"))  # with backward and optimizer ops: Paddle's too
    with pytest.warns(UserWarning, match="rebuilt them as minipaddle's own backward and Adam"):
        back = paddle.load(str(tmp_path / "main.pdmodel"))
    assert [op.type for op in back.global_block().ops] == [op.type for op in main.global_block().ops]


PADDLE_READS = """
import json, sys
sys.path.insert(0, sys.argv[3])
import numpy.random
import numpy as np
import paddle
from patterns import static_mlp
paddle.enable_static()
main, startup, test, loss, feed = static_mlp(paddle)
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
paddle.static.load(main, sys.argv[1], exe)
state = {v.name: np.array(paddle.static.global_scope().find_var(v.name).get_tensor()).tolist()
         for v in main.list_vars() if v.persistable}
x = np.load(sys.argv[2])
fetch = lambda p: exe.run(p, feed={"x": x}, fetch_list=[p.global_block().ops[-1].output_arg_names[0]])[0].tolist()
program = paddle.load(sys.argv[1] + "_test.pdmodel")
print(json.dumps({"state": state, "test": fetch(test), "loaded": fetch(program),
                  "ops": [op.type for op in program.global_block().ops]}))
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_paddle_loads_and_runs_what_minipaddle_saved(static_mode, fresh_scope, tmp_path):
    main, startup, test, loss, feed = _static_mlp()
    exe = paddle.static.Executor()
    exe.run(startup)
    exe.run(main, feed=feed, fetch_list=[loss])
    prefix = str(tmp_path / "mlp")
    paddle.static.save(main, prefix)
    paddle.save(test, prefix + "_test.pdmodel")
    np.save(tmp_path / "x.npy", feed["x"])
    expected = _output(exe, test, feed["x"])
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_READS, prefix, str(tmp_path / "x.npy"),
                             str(GOLDEN_ROOT / "paddle_models")], capture_output=True, text=True, timeout=180,
                            cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    for name, value in out["state"].items():
        np.testing.assert_array_equal(np.array(value, "float32"), fresh_scope.vars[name], err_msg=name)
    np.testing.assert_allclose(np.array(out["test"], "float32"), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.array(out["loaded"], "float32"), expected, rtol=1e-5, atol=1e-6)
    assert out["ops"] == ["matmul_v2", "elementwise_add", "relu", "matmul_v2", "elementwise_add"]
