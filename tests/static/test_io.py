"""Saving and loading static Programs (static/io.py): checkpoints, inference models (also in a fresh process),
the in-memory forms, truncated files, and atomic writes."""

import json
import os
import pickle
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static import files
from minipaddle.static import io as static_io

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def fresh_scope():
    """A global scope of our own for one test (values of other tests stay out of it)."""
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        yield scope


def _classifier():
    """image -> conv -> batch_norm (eval) -> relu -> linear -> softmax, with a loss on a label and an unused head."""
    paddle.seed(7)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        image = paddle.static.data("image", [-1, 1, 6, 6], "float32")
        label = paddle.static.data("label", [-1, 3], "float32")
        conv, bn, fc = paddle.nn.Conv2D(1, 2, 3), paddle.nn.BatchNorm2D(2), paddle.nn.Linear(2 * 4 * 4, 3)
        bn.eval()
        feat = paddle.flatten(paddle.nn.functional.relu(bn(conv(image))), 1)
        probs = paddle.nn.functional.softmax(fc(feat))
        loss = paddle.mean((probs - label) ** 2)
        aux = paddle.nn.Linear(2 * 4 * 4, 5)(feat)  # a head the inference model does not need
    return main, startup, image, label, probs, loss, aux


def _run_startup(startup):
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    return exe


IMAGES = np.random.default_rng(0).random((4, 1, 6, 6), dtype=np.float32)


# ---- save / load ------------------------------------------------------------------------------------------------


def _with_state(main):
    """Add a persistable variable that is not a parameter (the role of optimizer state) and give it a value."""
    step = main.global_block().create_var("train_step", [1], "int64", persistable=True)
    paddle.static.global_scope().vars["train_step"] = np.array([41], np.int64)
    return step


def test_save_writes_params_state_and_program_and_load_restores_them(static_mode, fresh_scope, tmp_path):
    main, startup, *_ = _classifier()
    _run_startup(startup)
    _with_state(main)
    saved = {k: v.copy() for k, v in fresh_scope.vars.items()}
    prefix = str(tmp_path / "ckpt" / "model")
    paddle.static.save(main, prefix)
    assert sorted(os.listdir(tmp_path / "ckpt")) == ["model.pdmodel", "model.pdopt", "model.pdparams", "model.pdset"]
    params = {p.name for p in main.all_parameters()}
    with open(prefix + ".pdparams", "rb") as f:  # Paddle's form: a pickle of {name: array}
        pickled = pickle.load(f)
    assert set(pickled) == params and all(type(v) is np.ndarray for v in pickled.values())
    with open(prefix + ".pdopt", "rb") as f:
        assert {k: v.tolist() for k, v in pickle.load(f).items()} == {"train_step": [41]}
    assert set(paddle.static.load_program_state(prefix)) == params | {"train_step"}
    model = paddle.static.load_from_file(prefix + ".pdmodel")  # Paddle's ProgramDesc, read back as a Program
    assert model[:1] == b"\n"
    back = paddle.static.deserialize_program(model)
    assert {v.name for v in back.list_vars() if v.persistable} == params | {"train_step"}
    assert {v.name for v in back.list_vars() if v.is_data} == {"image", "label"}

    for name in fresh_scope.vars:  # forget everything, then load
        fresh_scope.vars[name] = np.zeros_like(fresh_scope.vars[name])
    paddle.static.load(main, prefix, paddle.static.Executor())
    for name, value in saved.items():
        np.testing.assert_array_equal(fresh_scope.vars[name], value)
    paddle.static.load(main, prefix + ".pdparams")  # any of the three file names works as the prefix


def test_save_in_minipaddles_format_and_load_tells_the_formats_apart(static_mode, fresh_scope, tmp_path):
    main, startup, *_ = _classifier()
    _run_startup(startup)
    _with_state(main)
    prefix = str(tmp_path / "m")
    paddle.static.save(main, prefix, format="minipaddle")
    params = {p.name for p in main.all_parameters()}
    with zipfile.ZipFile(prefix + ".pdparams") as z:  # plain .npz: one .npy per variable, no pickle
        assert {n.removesuffix(".npy") for n in z.namelist()} == params
    assert str(paddle.static.deserialize_program(paddle.static.load_from_file(prefix + ".pdmodel"))) == str(main)
    saved = {k: v.copy() for k, v in fresh_scope.vars.items()}
    for name in fresh_scope.vars:
        fresh_scope.vars[name] = np.zeros_like(fresh_scope.vars[name])
    paddle.static.load(main, prefix)  # read by its bytes, not by its name
    for name, value in saved.items():
        np.testing.assert_array_equal(fresh_scope.vars[name], value)
    with pytest.raises(ValueError, match="format must be 'paddle' or 'minipaddle'"):
        paddle.static.save(main, prefix, format="npz")


def test_save_splits_big_arrays_with_protocol_2_as_paddle_does(static_mode, fresh_scope, tmp_path, monkeypatch):
    from minipaddle.static import big_arrays

    main, startup, *_ = _classifier()
    _run_startup(startup)
    real = big_arrays.split_big_arrays
    monkeypatch.setattr(static_io, "split_big_arrays", lambda saved, protocol: real(saved, protocol, slice_bytes=40))
    prefix = str(tmp_path / "m")
    paddle.static.save(main, prefix, protocol=2)
    with open(prefix + ".pdparams", "rb") as f:
        pickled = pickle.load(f)
    w = main.all_parameters()[0].name  # the conv weight: 18 float32 numbers, 72 bytes: two slices of 10
    assert pickled["UnpackBigParamInfor@@"][w] == {"OriginShape": (2, 1, 3, 3), "slices": [f"{w}@@.0", f"{w}@@.1"]}
    state = paddle.static.load_program_state(prefix)
    np.testing.assert_array_equal(state[w], fresh_scope.vars[w])
    assert not any("@@" in k for k in state)


def test_load_checks_what_it_loads_and_changes_nothing_on_error(static_mode, fresh_scope, tmp_path):
    main, startup, *_ = _classifier()
    _run_startup(startup)
    prefix = str(tmp_path / "m")
    paddle.static.save(main, prefix)
    with pytest.raises(FileNotFoundError, match=r"load: no file .*nothere.pdparams"):
        paddle.static.load(main, str(tmp_path / "nothere"))
    before = {k: v.copy() for k, v in fresh_scope.vars.items()}
    _with_state(main)  # the program now has state that the files do not hold
    with pytest.raises(ValueError, match=r"load: no values for \['train_step'\] in the files .*m\.\*"):
        paddle.static.load(main, prefix)
    other, other_startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(other, other_startup):  # same names, another shape
        other.global_block().create_parameter(main.all_parameters()[0].name, [9], "float32")
    with pytest.raises(ValueError, match=r"has shape \[9\] in the program, but shape \[2, 1, 3, 3\] in the files"):
        paddle.static.load(other, prefix)
    for name, value in before.items():
        np.testing.assert_array_equal(fresh_scope.vars[name], value)
    with pytest.raises(ValueError, match="not persistable variables of the program"):
        paddle.static.load(main, prefix, var_list=["nope"])


def test_program_state_can_be_edited_and_set(static_mode, fresh_scope, tmp_path):
    main, startup, *_ = _classifier()
    _run_startup(startup)
    paddle.static.save(main, str(tmp_path / "m"))
    w = main.all_parameters()[0].name
    state = paddle.static.load_program_state(str(tmp_path / "m"), var_list=[w])
    assert list(state) == [w]
    state[w] = state[w] * 2
    with pytest.warns(UserWarning, match=r"no persistable variables \['bogus'\]"):
        paddle.static.set_program_state(main, {**state, "bogus": np.zeros(2)})
    np.testing.assert_array_equal(fresh_scope.vars[w], state[w])
    with pytest.raises(ValueError, match="is float32 in the program, but float64 in state_dict"):
        paddle.static.set_program_state(main, {w: state[w].astype("float64")})
    with pytest.raises(ValueError, match="have no values for"):
        paddle.static.load_program_state(str(tmp_path / "m"), var_list=["missing"])


def test_save_refuses_bad_arguments(static_mode, fresh_scope, tmp_path):
    main, startup, *_ = _classifier()
    with pytest.raises(RuntimeError, match="has no value in the scope; run the startup program first"):
        paddle.static.save(main, str(tmp_path / "m"))
    _run_startup(startup)
    with pytest.raises(ValueError, match="protocol must be an int from 2 to 4"):
        paddle.static.save(main, str(tmp_path / "m"), protocol=5)
    with pytest.raises(ValueError, match="'directory/name'"):
        paddle.static.save(main, str(tmp_path) + "/")
    with pytest.raises(TypeError, match="program must be a paddle.static.Program"):
        paddle.static.save("main", str(tmp_path / "m"))


# ---- inference models ----------------------------------------------------------------------------------------------


def test_the_inference_model_holds_only_what_the_fetches_need(static_mode, fresh_scope, tmp_path):
    main, startup, image, label, probs, loss, aux = _classifier()
    exe = _run_startup(startup)
    prefix = str(tmp_path / "infer" / "clf")
    paddle.static.save_inference_model(prefix, [image], [probs], exe, program=main, format="minipaddle")
    model = json.loads(open(prefix + ".pdmodel").read())
    assert (model["feed_names"], model["fetch_names"]) == (["image"], [probs.name])
    types = [op["type"] for op in model["blocks"][0]["ops"]]
    assert "mean" not in types and len(types) < len(main.global_block().ops)  # no loss, no unused head
    names = {v["name"] for v in model["blocks"][0]["vars"]}
    assert "label" not in names and aux.name not in names
    with zipfile.ZipFile(prefix + ".pdiparams") as z:
        saved = {n.removesuffix(".npy") for n in z.namelist()}
    wanted = {n for n in names if main.global_block().var(n).persistable}
    assert saved == wanted and len(saved) == 8  # conv w, b; bn scale, shift, mean, variance; fc w, b

    program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    assert feeds == ["image"] and [f.name for f in fetches] == [probs.name]
    (expected,) = exe.run(main, feed={"image": IMAGES, "label": np.zeros((4, 3), "float32")}, fetch_list=[probs])
    (got,) = exe.run(program, feed={"image": IMAGES}, fetch_list=fetches)
    np.testing.assert_array_equal(got, expected)


FRESH_PROCESS = textwrap.dedent("""
    import sys
    import numpy as np
    import minipaddle as paddle

    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    program, feeds, fetches = paddle.static.load_inference_model(sys.argv[1], exe)
    (out,) = exe.run(program, feed={feeds[0]: np.load(sys.argv[2])}, fetch_list=fetches)
    np.save(sys.argv[3], out)
""")


def test_an_inference_model_runs_the_same_in_a_fresh_process(static_mode, fresh_scope, tmp_path):
    main, startup, image, _, probs, _, _ = _classifier()
    exe = _run_startup(startup)
    paddle.static.save_inference_model(str(tmp_path / "clf"), image, probs, exe)
    (expected,) = exe.run(main, feed={"image": IMAGES, "label": np.zeros((4, 3), "float32")}, fetch_list=[probs])
    np.save(tmp_path / "images.npy", IMAGES)
    env = {**os.environ, "PYTHONPATH": ROOT}
    args = [
        sys.executable,
        "-c",
        FRESH_PROCESS,
        str(tmp_path / "clf"),
        str(tmp_path / "images.npy"),
        str(tmp_path / "out.npy"),
    ]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "out.npy"), expected)


def test_inference_model_arguments_are_checked(static_mode, fresh_scope, tmp_path):
    main, startup, image, label, probs, loss, _ = _classifier()
    exe = _run_startup(startup)
    save = paddle.static.save_inference_model
    with pytest.raises(TypeError, match="feed_vars must be a Variable or a non-empty list of Variables"):
        save(str(tmp_path / "m"), ["image"], [probs], exe)
    with pytest.raises(TypeError, match="fetch_vars must be"):
        save(str(tmp_path / "m"), [image], [], exe)
    with pytest.raises(ValueError, match="path_prefix must be 'directory/name'"):
        save(str(tmp_path) + "/", [image], [probs], exe)
    with pytest.raises(TypeError, match="executor must be a paddle.static.Executor"):
        save(str(tmp_path / "m"), [image], [probs], None)
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) \['programme'\]"):
        save(str(tmp_path / "m"), [image], [probs], exe, programme=main)
    with pytest.raises(ValueError, match=r"needs \['label'\] .* add it to the feeds"):
        save(str(tmp_path / "m"), [image], [loss], exe)
    with pytest.raises(ValueError, match="there is no directory"):
        paddle.static.load_inference_model(str(tmp_path / "nowhere" / "m"), exe)
    with pytest.raises(FileNotFoundError, match="no file"):
        paddle.static.load_inference_model(str(tmp_path / "m"), exe)


def test_older_ways_to_name_the_files_and_the_in_memory_forms(static_mode, fresh_scope, tmp_path):
    main, startup, image, _, probs, _, _ = _classifier()
    exe = _run_startup(startup)
    model = paddle.static.serialize_program([image], [probs], program=main)
    params = paddle.static.serialize_persistables([image], [probs], exe, program=main)
    paddle.static.save_to_file(str(tmp_path / "__model__"), model)
    paddle.static.save_to_file(str(tmp_path / "params"), params)
    assert paddle.static.load_from_file(str(tmp_path / "params")) == params
    (expected,) = exe.run(main, feed={"image": IMAGES, "label": np.zeros((4, 3), "float32")}, fetch_list=[probs])
    for path_prefix, kwargs in [(str(tmp_path), {"params_filename": "params"}),
                                (None, {"model_filename": model, "params_filename": params})]:  # fmt: skip
        program, feeds, fetches = paddle.static.load_inference_model(path_prefix, exe, **kwargs)
        (got,) = exe.run(program, feed={"image": IMAGES}, fetch_list=fetches)
        np.testing.assert_array_equal(got, expected)

    program = paddle.static.deserialize_program(model)
    fresh_scope.vars.clear()
    paddle.static.deserialize_persistables(program, params, exe)
    assert set(fresh_scope.vars) == {v.name for v in program.list_vars() if v.persistable}
    with pytest.raises(TypeError, match="content must be bytes"):
        paddle.static.save_to_file(str(tmp_path / "x"), "text")


def test_normalize_program_is_the_pruned_inference_program(static_mode, fresh_scope):
    main, _, image, _, probs, loss, _ = _classifier()
    pruned = paddle.static.normalize_program(main, [image], [probs])
    assert "mean" not in [op.type for op in pruned.global_block().ops]
    assert len(paddle.static.normalize_program(main, image, loss, skip_prune_program=True).global_block().ops) == len(
        main.global_block().ops)  # fmt: skip


# ---- damaged files and crashes --------------------------------------------------------------------------------------


TRUNCATED = {
    "minipaddle": ((".pdmodel", r"not JSON \(the file may be truncated\)"),
                   (".pdiparams", "not a minipaddle parameter file .* or it is truncated"), "neither .* nor a min"),
    "paddle": ((".pdmodel", r"not a Paddle ProgramDesc \(.pdmodel\), or it is truncated"),
               (".pdiparams", r"ends early \(truncated\)"), r"neither a Paddle .pdiparams .* nor"),
}  # fmt: skip


@pytest.mark.parametrize("fmt", ["minipaddle", "paddle"])
def test_truncated_files_are_refused_with_a_clear_error(static_mode, fresh_scope, tmp_path, fmt):
    main, startup, image, _, probs, _, _ = _classifier()
    exe = _run_startup(startup)
    prefix = str(tmp_path / "m")
    paddle.static.save_inference_model(prefix, [image], [probs], exe, format=fmt)
    with open(prefix + ".pdmodel", "r+b") as f:  # with the set's manifest, a truncation is caught as such first
        f.truncate(10)
    with pytest.raises(ValueError, match=r"m\.pdmodel.*truncated, damaged, or from another save"):
        paddle.static.load_inference_model(prefix, exe)
    os.remove(prefix + ".pdset")  # and without it (files from elsewhere), by the format readers
    paddle.static.save_inference_model(prefix, [image], [probs], exe, format=fmt)
    os.remove(prefix + ".pdset")
    *truncations, pickled = TRUNCATED[fmt]
    for suffix, message in truncations:
        whole = open(prefix + suffix, "rb").read()
        with open(prefix + suffix, "wb") as f:
            f.write(whole[: len(whole) * 2 // 3])
        with pytest.raises(ValueError, match=message):
            paddle.static.load_inference_model(prefix, exe)
        with open(prefix + suffix, "wb") as f:
            f.write(whole)
    open(prefix + ".pdiparams", "wb").write(b"\x80\x04K\x01.")  # a pickle: refused, never unpickled
    with pytest.raises(ValueError, match=pickled):
        paddle.static.load_inference_model(prefix, exe)


def test_a_crash_while_saving_leaves_the_previous_file_intact(static_mode, fresh_scope, tmp_path, monkeypatch):
    main, startup, *_ = _classifier()
    _run_startup(startup)
    prefix = str(tmp_path / "m")
    paddle.static.save(main, prefix)
    before = {name: open(tmp_path / name, "rb").read() for name in os.listdir(tmp_path)}
    for name in fresh_scope.vars:
        fresh_scope.vars[name] = fresh_scope.vars[name] + 1

    def crash(fd):  # the data is half on its way to the disk when the machine goes down
        raise OSError("simulated crash: disk unplugged")

    monkeypatch.setattr(files.os, "fsync", crash)
    with pytest.raises(OSError, match="simulated crash"):
        paddle.static.save(main, prefix)
    assert {name: open(tmp_path / name, "rb").read() for name in os.listdir(tmp_path)} == before  # no temp left
    monkeypatch.undo()
    state = paddle.static.load_program_state(prefix)
    w = main.all_parameters()[0].name
    np.testing.assert_array_equal(state[w] + 1, fresh_scope.vars[w])


def test_a_killed_process_leaves_the_previous_file_intact(tmp_path):
    target = tmp_path / "model.pdmodel"
    target.write_bytes(b"old")
    script = textwrap.dedent(f"""
        import os, time
        from minipaddle.static import files
        def stop(*args):  # killed after writing the new data, before the rename
            print("written", flush=True)
            time.sleep(60)
        files.os.replace = stop
        files.atomic_write({str(target)!r}, b"new" * 100000)
    """)
    env = {**os.environ, "PYTHONPATH": ROOT}
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout.readline().strip() == "written"
    finally:
        proc.kill()
        proc.wait()
    assert target.read_bytes() == b"old"


# ---- save_vars / load_vars -------------------------------------------------------------------------------------

PADDLE_PYTHON = "/work/paddle-venv/bin/python"


@pytest.mark.parametrize("filename", [None, "all_params"])
def test_save_vars_and_load_vars_round_trip_the_chosen_variables(static_mode, fresh_scope, tmp_path, filename):
    main, startup, *_ = _classifier()
    exe = _run_startup(startup)
    params = main.global_block().all_parameters()
    saved = {p.name: np.array(fresh_scope.vars[p.name]) for p in params}
    paddle.static.save_vars(exe, str(tmp_path), main, predicate=lambda v: v.is_parameter, filename=filename)
    written = sorted(os.listdir(tmp_path))
    assert written == ([filename] if filename else sorted(saved))
    for p in params:
        fresh_scope.vars[p.name] = np.zeros_like(saved[p.name])
    paddle.static.load_vars(exe, str(tmp_path), main, vars=params, filename=filename)
    for name, value in saved.items():
        np.testing.assert_array_equal(fresh_scope.vars[name], value)


def test_load_vars_checks_its_arguments_and_changes_nothing_on_error(static_mode, fresh_scope, tmp_path):
    main, startup, *_ = _classifier()
    exe = _run_startup(startup)
    (w, *_) = main.global_block().all_parameters()
    with pytest.raises(TypeError, match="save_vars: executor must be a paddle.static.Executor"):
        paddle.static.save_vars(None, str(tmp_path), main, vars=[w])
    with pytest.raises(TypeError, match="load_vars: vars must be static Variables, got str"):
        paddle.static.load_vars(exe, str(tmp_path), main, vars=["w"])
    with pytest.raises(TypeError, match="load_vars: predicate must be a function"):
        paddle.static.load_vars(exe, str(tmp_path), main, predicate=3)
    paddle.static.save_vars(exe, str(tmp_path), main, vars=[w])
    before = np.array(fresh_scope.vars[w.name])
    fresh_scope.vars[w.name] = before + 1
    with pytest.raises(FileNotFoundError):  # w's file is there, the next parameter's is not: nothing is loaded
        paddle.static.load_vars(exe, str(tmp_path), main, predicate=lambda v: v.is_parameter)
    np.testing.assert_array_equal(fresh_scope.vars[w.name], before + 1)


@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_paddles_load_vars_reads_minipaddles_files_and_minipaddle_reads_paddles(static_mode, fresh_scope, tmp_path):
    script = textwrap.dedent("""
        import sys, numpy as np, numpy.random, paddle
        paddle.enable_static()
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            w = paddle.create_parameter([2, 3], "float32", name="w")
            b = paddle.create_parameter([3], "float16", name="b")
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        for filename in (None, "combined"):
            paddle.static.load_vars(exe, sys.argv[1], main, vars=[w, b], filename=filename)
            scope = paddle.static.global_scope()
            got = [np.array(scope.find_var(n).get_tensor()).tolist() for n in ("w", "b")]
            print(got)
        scope.find_var("w").get_tensor().set(np.full([2, 3], 7, np.float32), paddle.CPUPlace())
        paddle.static.save_vars(exe, sys.argv[2], main, vars=[w, b])
    """)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        w = paddle.static.create_parameter([2, 3], "float32", name="w")
        b = paddle.static.create_parameter([3], "float16", name="b")
    exe = _run_startup(startup)
    fresh_scope.vars["w"] = np.arange(6, dtype=np.float32).reshape(2, 3)
    fresh_scope.vars["b"] = np.array([0.5, -1.0, 2.0], np.float16)
    mine, theirs = str(tmp_path / "mine"), str(tmp_path / "theirs")
    paddle.static.save_vars(exe, mine, main, vars=[w, b])
    paddle.static.save_vars(exe, mine, main, vars=[w, b], filename="combined")
    result = subprocess.run([PADDLE_PYTHON, "-c", script, mine, theirs], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    want = [[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [0.5, -1.0, 2.0]]
    assert [json.loads(line) for line in result.stdout.strip().splitlines()[-2:]] == [want, want]
    paddle.static.load_vars(exe, theirs, main, vars=[w, b])
    np.testing.assert_array_equal(fresh_scope.vars["w"], np.full([2, 3], 7, np.float32))
    assert fresh_scope.vars["b"].dtype == np.float16
