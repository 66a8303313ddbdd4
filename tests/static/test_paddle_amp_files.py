"""A training Program wrapped by paddle.static.amp.decorate (or bf16.decorate_bf16) saves as paddle 2.6.2 writes
it (static/paddle_amp_ops.py): the scaled loss, check_finite_and_unscale in place on the gradients (one per dtype
group under O2, then concat + reduce_any), update_loss_scaling with dynamic scaling of float16, memcpy and
SkipUpdate for Adam, the float16 gradients' casts moved behind the backward, and no loss scaling op at all for
decorate_bf16; compared op by op with paddle's own Program (tests/golden/amp/make_static_decorate_ops.py). Where
paddle 2.6.2 is installed, it trains on from minipaddle's files with minipaddle's losses and loss scale, bad steps
included (the forward kept in float32 by a custom black list: paddle's CPU build has no float16 matmul), and
minipaddle trains on from the files paddle saves with paddle's."""

from __future__ import annotations

import json
import os
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.paddle_proto import ProgramDesc
from minipaddle.static.pdmodel import _attr_value, write_program_desc

PADDLE_PYTHON = "/work/paddle-venv/bin/python"
GOLDEN = json.loads((Path(__file__).parents[1] / "golden/amp/static_decorate_ops.json").read_text())
LEFT_OUT = ("op_callstack", "op_namescope", "op_device", "with_quant_attr")
OPTIMIZERS = {"sgd": lambda: paddle.optimizer.SGD(0.1), "adam": lambda: paddle.optimizer.Adam(0.01),
              "momentum": lambda: paddle.optimizer.Momentum(0.1, 0.9)}  # fmt: skip
SCALING = dict(init_loss_scaling=1024.0, incr_every_n_steps=2, decr_every_n_nan_or_inf=1)
CASES = {  # as the golden's generator wraps them
    "o1_fp16_dynamic_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, level="O1", **SCALING)),
    "o1_fp16_static_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, use_dynamic_loss_scaling=False, **SCALING)),
    "o1_fp16_dynamic_adam": ("adam", lambda o: paddle.static.amp.decorate(o, level="O1", **SCALING)),
    "o1_fp16_static_adam": ("adam", lambda o: paddle.static.amp.decorate(o, use_dynamic_loss_scaling=False,
                                                                           **SCALING)),
    "o1_fp16_dynamic_momentum": ("momentum", lambda o: paddle.static.amp.decorate(o, level="O1", **SCALING)),
    "o2_fp16_dynamic_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, level="O2", **SCALING)),
    "o2_fp16_dynamic_adam": ("adam", lambda o: paddle.static.amp.decorate(o, level="O2", **SCALING)),
    "o2_fp16_static_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, level="O2", use_dynamic_loss_scaling=False,
                                                                         **SCALING)),
    "o1_bf16_decorate_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, level="O1", dtype="bfloat16")),
    "o2_bf16_decorate_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, level="O2", dtype="bfloat16")),
    "o1_bf16_sgd": ("sgd", lambda o: paddle.static.amp.bf16.decorate_bf16(o)),
    "o2_bf16_sgd": ("sgd", lambda o: paddle.static.amp.bf16.decorate_bf16(o, use_pure_bf16=True,
                                                                          use_bf16_guard=False)),
}  # fmt: skip
# the ops of the loss scaling itself: compared with every slot and attribute
AMP_OPS = ("check_finite_and_unscale", "concat", "reduce_any", "update_loss_scaling", "memcpy")


def _net() -> tuple:
    x = paddle.static.data("x", [None, 8], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    h = paddle.nn.functional.relu(paddle.static.nn.fc(x, 16))
    return paddle.mean(paddle.nn.functional.cross_entropy(paddle.static.nn.fc(h, 4), y)), x, y


def _written_block(case: str):
    """The global block's desc of minipaddle's Program for `case`, as written for paddle."""
    kind, wrap = CASES[case]
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        loss, _, _ = _net()
        wrap(OPTIMIZERS[kind]()).minimize(loss)
    desc = ProgramDesc()
    desc.ParseFromString(write_program_desc(main))
    return desc.blocks[0]


def _written(case: str) -> list:
    """The op descs of minipaddle's Program for `case`, as written for paddle."""
    return list(_written_block(case).ops)


def _as_golden(od) -> dict:
    attrs = {a.name: _attr_value(a) for a in od.attrs if a.name not in LEFT_OUT}
    return {"type": od.type, "inputs": {v.parameter: list(v.arguments) for v in od.inputs},
            "outputs": {v.parameter: list(v.arguments) for v in od.outputs}, "attrs": attrs}  # fmt: skip


def _same_attrs(ours: dict, paddles: dict, where: str) -> None:
    for name, value in paddles.items():
        assert name in ours, f"{where}: attribute {name} missing"
        if isinstance(value, float):
            assert ours[name] == pytest.approx(value, rel=1e-6), f"{where}: {name}"
        else:
            assert ours[name] == value, f"{where}: {name}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_loss_scaling_and_update_ops_are_paddles(static_mode, case):
    ours = [_as_golden(od) for od in _written(case)]
    golden = GOLDEN[case]
    role = lambda op: op["attrs"].get("op_role", 0)  # noqa: E731
    mine = [op for op in ours if role(op) & 0x102]
    assert [op["type"] for op in mine] == [op["type"] for op in golden["loss_and_optimize"]]
    for o, p in zip(mine, golden["loss_and_optimize"]):
        where = f"{case}: {p['type']}"
        if p["type"] in AMP_OPS or role(p) == 0x2:  # the loss scaling, the moved casts, the updates: exactly
            assert o["inputs"] == p["inputs"] and o["outputs"] == p["outputs"], where
            _same_attrs(o["attrs"], p["attrs"], where)
        else:  # the loss op and the root: the loss's name is the forward's (minipaddle's cross_entropy differs)
            assert o["attrs"]["op_role"] == p["attrs"]["op_role"], where
            if p["type"] == "elementwise_mul":
                assert o["inputs"]["Y"] == p["inputs"]["Y"] == ["loss_scaling_0"], where
    # the order around them: the moved casts and the checks right after the backward, the updates last
    optimize = [op["type"] for op in ours if role(op) == 0x2]
    assert optimize == [op["type"] for op in golden["loss_and_optimize"] if role(op) == 0x2]
    first = next(i for i, op in enumerate(ours) if role(op) == 0x2)
    assert all(role(op) == 0x2 for op in ours[first:])


# paddle's fc is mul + elementwise_add (fc_0.tmp_0, fc_0.tmp_1), minipaddle's matmul + add; paddle's cross_entropy
# + mean makes two means (mean_1.tmp_0 is the loss): the forward's own names, mapped to compare the casts around them
FORWARD_NAMES = {"fc_0.tmp_0": "matmul_0.tmp_0", "fc_0.tmp_1": "add_0.tmp_0", "fc_1.tmp_0": "matmul_1.tmp_0",
                 "fc_1.tmp_1": "add_1.tmp_0", "mean_1.tmp_0": "mean_0.tmp_0"}  # fmt: skip
DTYPES = {0: "bool", 4: "float16", 5: "float32", 22: "bfloat16"}
# pure bfloat16 by decorate_bf16: paddle's bf16 lists take the ops without a bfloat16 kernel from the machine
# (the generator patches the float16 lists only), and its CPU build has none for softmax_with_cross_entropy, so it
# computes the loss in float32 between two casts; minipaddle's rules are a GPU's (nothing unsupported)
NOT_COMPARED = {"o2_bf16_sgd": ["add_1.tmp_0", "softmax_with_cross_entropy_0.tmp_1"]}


def _forward_name(name: str) -> str:
    base, grad = (name.split("@", 1) + [""])[:2]
    for theirs, ours in FORWARD_NAMES.items():
        if base == theirs or base.startswith(theirs + "."):
            base = ours + base[len(theirs) :]
    return base + ("@" + grad if grad else "")


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_cast_and_the_scaled_loss_are_named_typed_and_ordered_as_paddles(static_mode, case):
    """Every cast paddle writes (forward, backward, the gradients' casts moved behind the backward), in paddle's
    order, with its names (`.cast_fp16` for bfloat16 under static.amp.decorate, `.cast_bf16` under decorate_bf16),
    dtypes and role; each cast variable's dtype and stop_gradient; the scaled loss and the float32 loss O2 casts are
    paddle's tmp_0 / tmp_1. minipaddle's cross_entropy is several ops: the casts of variables paddle's Program does
    not have are not compared."""
    golden = GOLDEN[case]
    skipped = NOT_COMPARED.get(case, [])
    theirs = [[_forward_name(x), _forward_name(out), *rest] for x, out, *rest in golden["casts"]]
    theirs = [c for c in theirs if not any(c[0].startswith(s) for s in skipped)]
    known = {n for c in theirs for n in c[:2]}
    block = _written_block(case)
    attrs = lambda od: {a.name: _attr_value(a) for a in od.attrs}  # noqa: E731
    ours = []
    for od in block.ops:
        if od.type == "cast" and od.inputs[0].arguments[0] in known:
            a = attrs(od)
            ours.append([od.inputs[0].arguments[0], od.outputs[0].arguments[0], a["in_dtype"], a["out_dtype"],
                         a["op_role"]])  # fmt: skip
    assert ours == theirs
    our_vars = {v.name: v for v in block.vars}
    for name, (dtype, stop_gradient) in golden["cast_vars"].items():
        name = _forward_name(name)
        if any(name.startswith(s) for s in skipped):
            continue
        assert name in our_vars, f"{case}: no variable {name}"
        var = our_vars[name]
        assert DTYPES[var.type.lod_tensor.tensor.data_type] == dtype, name
        assert var.stop_gradient == stop_gradient, name


def test_o2_float16_parameters_are_read_without_casts(static_mode):
    """paddle's O2 Program reads its float16 parameters directly: minipaddle's casts of them to float16 (made
    before minimize declared them float16) are not written, so no cast makes or takes their gradients either."""
    ops = _written("o2_fp16_dynamic_sgd")
    params = {"fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"}
    casts = [od for od in ops if od.type == "cast"]
    assert not any(set(od.inputs[0].arguments) & params for od in casts)
    assert not any(a.endswith(".cast_fp16@GRAD") for od in casts for a in od.inputs[0].arguments)
    matmuls = [od for od in ops if od.type == "matmul_v2"]
    assert [next(v.arguments[0] for v in od.inputs if v.parameter == "Y") for od in matmuls] == ["fc_0.w_0", "fc_1.w_0"]


STEPS = 8
# (optimizer, dynamic loss scaling): a scale of 3e38 makes the first steps overflow (the scaled gradients of inputs
# of magnitude 10 are Inf), then halves until they fit, and grows again after 2 good steps (small learning rates: the
# two libraries' float32 kernels round apart by an ulp, which big steps would amplify past 1e-6)
TRAINED = [("sgd", True), ("adam", True), ("adam", False)]


def _fetched(exe, program, feed, names: list) -> list:
    return [float(np.asarray(v).reshape(-1)[0]) for v in exe.run(program, feed=feed, fetch_list=names)]


def _trained_in_float32(tmp_path, kind: str, dynamic: bool) -> tuple:
    """minipaddle's decorated Program with the forward kept in float32 (matmul black-listed, as paddle's CPU build
    has no float16 kernel for it), saved by static.save, then trained STEPS steps: (prefix, feed, the fetched
    names, [[loss, loss scale, good steps, bad steps] per step])."""
    paddle.seed(0)  # fixed weights: with unseeded ones some draws put a step's largest scaled gradient within
    # float32's rounding of its largest value, where the two libraries' GEMMs may disagree on the overflow
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        loss, _, _ = _net()
        lists = paddle.static.amp.AutoMixedPrecisionLists(custom_black_list={"matmul_v2", "mul"})
        small_steps = {"sgd": paddle.optimizer.SGD(0.01), "adam": paddle.optimizer.Adam(0.001)}[kind]
        opt = paddle.static.amp.decorate(small_steps, amp_lists=lists, init_loss_scaling=3e38,
                                         use_dynamic_loss_scaling=dynamic, incr_every_n_steps=2,
                                         decr_every_n_nan_or_inf=1)  # fmt: skip
        opt.minimize(loss)
    assert {v.dtype.name for v in main.list_vars()} <= {"bool", "float32", "int32", "int64"}
    rng = np.random.default_rng(0)
    feed = {"x": (rng.standard_normal((6, 8)) * 10).astype("float32"), "y": rng.integers(0, 4, (6, 1))}
    exe = paddle.static.Executor()
    exe.run(startup)
    prefix = str(tmp_path / f"amp_{kind}_{dynamic}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no JSON fallback: the whole training Program is Paddle's
        paddle.static.save(main, prefix)
    names = [loss.name, "loss_scaling_0"] + (["num_good_steps_0", "num_bad_steps_0"] if dynamic else [])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the overflowing steps
        steps = [_fetched(exe, main, feed, names) for _ in range(STEPS)]
    return prefix, feed, names, steps


PADDLE_TRAINS = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
prefix, names, steps = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
program = paddle.static.Program.parse_from_string(open(prefix + ".pdmodel", "rb").read())
exe = paddle.static.Executor(paddle.CPUPlace())
paddle.static.load(program, prefix, exe)
feed = dict(np.load(prefix + ".feed.npz"))
fetched = lambda: [float(np.asarray(v).reshape(-1)[0]) for v in exe.run(program, feed=feed, fetch_list=names)]
print(json.dumps([fetched() for _ in range(steps)]))
"""


@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.parametrize("kind, dynamic", TRAINED)
def test_paddle_trains_on_from_minipaddles_amp_files_with_equal_losses_and_scale(static_mode, tmp_path, kind, dynamic):
    prefix, feed, names, ours = _trained_in_float32(tmp_path, kind, dynamic)
    assert ours[0][1] < 3e38 or not dynamic  # a bad step
    assert not dynamic or any(s[2] > 0 for s in ours)  # a good one
    np.savez(prefix + ".feed.npz", **feed)
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_TRAINS, prefix, json.dumps(names), str(STEPS)],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    np.testing.assert_allclose(json.loads(result.stdout.strip().splitlines()[-1]), ours, rtol=1e-6)


PADDLE_SAVES = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
prefix, kind, dynamic, steps = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4])
paddle.seed(1)
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [None, 8], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    h = paddle.nn.functional.relu(paddle.static.nn.fc(x, 16))
    loss = paddle.mean(paddle.nn.functional.cross_entropy(paddle.static.nn.fc(h, 4), y))
    small_steps = {"sgd": paddle.optimizer.SGD(0.01), "adam": paddle.optimizer.Adam(0.001)}[kind]
    opt = paddle.static.amp.decorate(small_steps, init_loss_scaling=3e38, use_dynamic_loss_scaling=dynamic,
                                     incr_every_n_steps=2, decr_every_n_nan_or_inf=1)
    opt.minimize(loss)
feed = dict(np.load(prefix + ".feed.npz"))
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
names = [loss.name, "loss_scaling_0"] + (["num_good_steps_0", "num_bad_steps_0"] if dynamic else [])
fetched = lambda: [float(np.asarray(v).reshape(-1)[0]) for v in exe.run(main, feed=feed, fetch_list=names)]
fetched()
paddle.static.save(main, prefix)
print(json.dumps([names, [o.type for o in main.global_block().ops], [fetched() for _ in range(steps)]]))
"""


@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.parametrize("kind, dynamic", TRAINED)
def test_minipaddle_trains_on_from_paddles_amp_files_with_equal_losses_and_scale(static_mode, tmp_path, kind, dynamic):
    """paddle's CPU build keeps the forward in float32 (no float16 kernel), so its file holds the loss scaling
    alone: minipaddle rebuilds decorate around paddle's forward and goes on with paddle's losses and scale."""
    prefix = str(tmp_path / f"paddle_amp_{kind}")
    rng = np.random.default_rng(0)
    feed = {"x": (rng.standard_normal((6, 8)) * 10).astype("float32"), "y": rng.integers(0, 4, (6, 1))}
    np.savez(prefix + ".feed.npz", **feed)
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_SAVES, prefix, kind, str(int(dynamic)), str(STEPS)],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    names, types, theirs = json.loads(result.stdout.strip().splitlines()[-1])
    assert "check_finite_and_unscale" in types and ("update_loss_scaling" in types) == dynamic
    with paddle.static.scope_guard(paddle.static.Scope()):
        with pytest.warns(UserWarning, match="rebuilt them as .*static.amp.decorate"):
            program = paddle.load(prefix + ".pdmodel")
        exe = paddle.static.Executor()
        paddle.static.load(program, prefix, exe)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the overflowing steps
            ours = [_fetched(exe, program, feed, names) for _ in range(STEPS)]
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)


@pytest.mark.parametrize("kind, dynamic", TRAINED)
def test_minipaddle_reads_its_amp_files_back_and_trains_on_equal(static_mode, tmp_path, kind, dynamic):
    prefix, feed, names, ours = _trained_in_float32(tmp_path, kind, dynamic)
    with paddle.static.scope_guard(paddle.static.Scope()):
        with pytest.warns(UserWarning, match="rebuilt them as .*static.amp.decorate"):
            program = paddle.load(prefix + ".pdmodel")
        exe = paddle.static.Executor()
        paddle.static.load(program, prefix, exe)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the overflowing steps
            again = [_fetched(exe, program, feed, names) for _ in range(STEPS)]
    np.testing.assert_allclose(again, ours, rtol=1e-6)


def test_a_float16_o1_file_reads_back_with_its_casts_and_trains_on_equal(static_mode, tmp_path):
    """With paddle's float16 lists (casts around the matmuls), the file minipaddle writes holds paddle's casts in
    its forward; read back, decorate is rebuilt around them without casting again, and the losses go on equal."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        loss, _, _ = _net()
        opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.01), **SCALING)
        opt.minimize(loss)
    rng = np.random.default_rng(0)
    feed = {"x": rng.standard_normal((6, 8)).astype("float32"), "y": rng.integers(0, 4, (6, 1))}
    exe = paddle.static.Executor()
    exe.run(startup)
    prefix = str(tmp_path / "o1_fp16")
    paddle.static.save(main, prefix)
    names = [loss.name, "loss_scaling_0", "num_good_steps_0"]
    ours = [_fetched(exe, main, feed, names) for _ in range(4)]
    assert ours[-1][1] == 4096.0  # grown twice, every 2 good steps
    with paddle.static.scope_guard(paddle.static.Scope()):
        with pytest.warns(UserWarning, match="rebuilt them as .*static.amp.decorate"):
            program = paddle.load(prefix + ".pdmodel")
        types = [op.type for op in program.global_block().ops]
        written_casts = [op.type for op in main.global_block().ops].count("cast")
        assert types.count("cast") == written_casts and types.count("check_finite_and_unscale") == 1
        exe = paddle.static.Executor()
        paddle.static.load(program, prefix, exe)
        again = [_fetched(exe, program, feed, names) for _ in range(4)]
    np.testing.assert_allclose(again, ours, rtol=1e-6)
