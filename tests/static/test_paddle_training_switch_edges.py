"""The train/eval switches that used to save as minipaddle's JSON program are Paddle's, both ways
(static/paddle_train_switches.py): dropout with p=1 (Paddle's dropout op, dropout_prob 1.0), dropout along axes
(no dropout op: F.dropout's own uniform_random / greater_equal / elementwise_mul, with elementwise_mul_grad, cast and
scale in the backward; with p=1 and downscale_in_infer those ops too, the mask all zeros) and BatchNorm with
weight_attr=False / bias_attr=False (an empty Scale / Bias; with a backward, which paddle 2.6.2 cannot build for it,
a fixed scale of ones and shift of zeros). The ops are compared
with those paddle 2.6.2 writes for the same nets (recorded by tests/golden/paddle_models/make_switch_edges.py, its
Programs kept beside), minipaddle trains on its files and on paddle's, and where paddle is installed, paddle trains
on minipaddle's: BatchNorm with minipaddle's losses and moving statistics, dropout (other random streams) with the
identities that hold for any mask."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.paddle_ops import dtype_of
from minipaddle.static.paddle_proto import ProgramDesc
from minipaddle.static.pdmodel import _attr_value
from tests.static.test_paddle_training_files import PADDLE_PYTHON, STEPS, fresh_scope  # noqa: F401
from tests.static.test_paddle_training_norm import _paddle_trains

pytestmark = pytest.mark.usefixtures("fresh_scope")
needs_paddle = pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "paddle_models" / "switch_edges"
RECORDED = json.loads((GOLDEN / "ops.json").read_text())
KINDS = ("dropout", "dropout_grad", "scale", "shape", "slice", "fill_constant", "uniform_random", "greater_equal",
         "cast", "elementwise_mul", "elementwise_mul_grad", "batch_norm")  # fmt: skip
SKIPPED = ("op_callstack", "op_namescope", "op_device", "with_quant_attr", "op_role_var")


def _feed(name: str) -> dict:
    shape = (5, 3, 4, 4) if name.startswith("batch_norm") else (6, 4, 3)
    return {"x": np.random.default_rng(2).standard_normal(shape).astype("float32")}


def _build(name: str, train: bool):
    """The recorded net in minipaddle, with an SGD minimize when `train`: (main, startup, loss)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        scope = {"paddle": paddle, "F": paddle.nn.functional}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # BatchNorm's "we now always track global mean and variance"
            exec(RECORDED["nets"][name]["source"], scope)
        if train:
            paddle.optimizer.SGD(0.1).minimize(scope["loss"])
    return main, startup, scope["loss"]


def _saved(name: str, tmp_path, train: bool | None = None) -> tuple:
    """The net run a step, static.saved (no JSON fallback), then run STEPS more: (prefix, loss name, losses,
    the main Program)."""
    train = RECORDED["nets"][name]["train"] if train is None else train
    main, startup, loss = _build(name, train)
    exe = paddle.static.Executor()
    exe.run(startup)
    exe.run(main, feed=_feed(name), fetch_list=[loss])
    prefix = str(tmp_path / name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paddle.static.save(main, prefix)
    losses = [float(exe.run(main, feed=_feed(name), fetch_list=[loss])[0]) for _ in range(STEPS)]
    return prefix, loss.name, losses, main


def _desc(path: str):
    return ProgramDesc.FromString(open(path, "rb").read())


def _comparable(path: str) -> list:
    """The file's ops of KINDS as the golden holds paddle's."""
    desc = _desc(path)
    declared = {v.name: v.type.lod_tensor.tensor for v in desc.blocks[0].vars}

    def slots(vs) -> dict:
        return {v.parameter: [[dtype_of(declared[n].data_type), list(declared[n].dims)] for n in v.arguments]
                for v in vs if v.arguments}  # fmt: skip

    out = []
    for op in desc.blocks[0].ops:
        attrs = {a.name: _attr_value(a) for a in op.attrs if a.name not in SKIPPED}
        if op.type in KINDS and attrs.get("op_role") in (0, 1):
            out.append([op.type, slots(op.inputs), slots(op.outputs), attrs])
    return out


@pytest.mark.parametrize("name", sorted(RECORDED["nets"]))
def test_the_switches_are_written_as_paddle_writes_them(static_mode, tmp_path, name):
    assert _comparable(_saved(name, tmp_path)[0] + ".pdmodel") == RECORDED["ops"][name]


def _slots(op, which: str) -> dict:
    return {v.parameter: list(v.arguments) for v in getattr(op, which)}


def test_a_batch_norm_without_scale_gets_a_fixed_one_with_a_backward(static_mode, tmp_path):
    """paddle's batch_norm_grad needs a Scale: ones (and zeros for a missing Bias) that no gradient reaches."""
    ops = list(_desc(_saved("batch_norm_fixed", tmp_path, train=True)[0] + ".pdmodel").blocks[0].ops)
    made = {n: op for op in ops for n in _slots(op, "outputs").get("Out", [])}
    norms = [op for op in ops if op.type == "batch_norm"]
    grads = [op for op in ops if op.type == "batch_norm_grad"]
    assert len(norms) == len(grads) == 2
    for op, fixed in zip(norms, (("Scale", "Bias"), ("Scale",))):
        for slot in fixed:
            (name,) = _slots(op, "inputs")[slot]
            values = {a.name: _attr_value(a) for a in made[name].attrs}
            assert made[name].type == "fill_constant" and values["value"] == (1.0 if slot == "Scale" else 0.0)
            assert values["shape"] == [4]
    (second,) = [g for g in grads if _slots(g, "inputs")["Bias"] == _slots(norms[1], "inputs")["Bias"]]
    # paddle's kernel writes both gradients or neither: the fixed scale's to a variable nothing reads
    (unused,) = _slots(second, "outputs")["Scale@GRAD"]
    assert unused == _slots(norms[1], "inputs")["Scale"][0] + "@GRAD" and _slots(second, "outputs")["Bias@GRAD"]
    assert not any(unused in _slots(op, "inputs").get(s, []) for op in ops for s in _slots(op, "inputs"))


@pytest.mark.parametrize("name", sorted(RECORDED["nets"]))
def test_minipaddle_trains_on_its_files(static_mode, tmp_path, name):
    prefix, loss, losses, _ = _saved(name, tmp_path, train=True)
    with paddle.static.scope_guard(paddle.static.Scope()):
        with pytest.warns(UserWarning, match="rebuilt them as minipaddle's own backward and SGD"):
            program = paddle.load(prefix + ".pdmodel")
        exe = paddle.static.Executor()
        paddle.static.load(program, prefix, exe)
        again = [float(exe.run(program, feed=_feed(name), fetch_list=[loss])[0]) for _ in range(STEPS)]
    if name == "dropout_axes":  # other masks: it trains on from the same parameters
        assert np.isfinite(again).all()
    else:  # batch norm is deterministic, and p = 1 drops everything
        np.testing.assert_allclose(again, losses, rtol=1e-6)


def test_minipaddle_trains_on_paddles_dropout_programs(static_mode, tmp_path):
    """paddle's p = 1 Programs (its dropout op; along axes its ops with a mask of zeros) with minipaddle's
    parameters give minipaddle's losses (only the path around the dropouts is left); its along-axes Program trains
    on, each mask shared along the axes not dropped."""
    for name in ("dropout_p1", "dropout_p1_axes"):
        prefix, loss, losses, _ = _saved(name, tmp_path, train=True)
        with paddle.static.scope_guard(paddle.static.Scope()):
            with pytest.warns(UserWarning, match="rebuilt them as minipaddle's own backward and SGD"):
                program = paddle.load(str(GOLDEN / name) + ".pdmodel")
            exe = paddle.static.Executor()
            paddle.static.load(program, prefix, exe)
            again = [float(exe.run(program, feed=_feed(name), fetch_list=[loss])[0]) for _ in range(STEPS)]
        np.testing.assert_allclose(again, losses, rtol=1e-6)
    prefix, loss, _, _ = _saved("dropout_axes", tmp_path, train=True)  # (the same parameter names as paddle's)
    with pytest.warns(UserWarning, match="rebuilt them as minipaddle's own backward and SGD"):
        program = paddle.load(str(GOLDEN / "dropout_axes") + ".pdmodel")
    exe = paddle.static.Executor()
    paddle.static.load(program, prefix, exe)
    masks = [op.inputs["y"][0] for op in program.global_block().ops if op.type == "multiply" and op.role == "forward"]
    assert len(masks) == 2
    for _ in range(STEPS):
        first, second, step_loss = exe.run(program, feed=_feed("dropout_axes"), fetch_list=[*masks, loss])
        assert first.shape == (1, 4, 1) and second.shape == (6, 1, 3)  # axis=1, then axis=[0, 2]
        assert set(np.unique(first)) | set(np.unique(second)) <= {0.0, 1.0} and np.isfinite(step_loss)


@pytest.mark.slow
@needs_paddle
def test_paddle_trains_on_minipaddles_batch_norm_without_scale_equal(static_mode, tmp_path):
    prefix, loss, losses, _ = _saved("batch_norm_fixed", tmp_path, train=True)
    means = [n for op in _desc(prefix + ".pdmodel").blocks[0].ops if op.type == "batch_norm"
             for n in _slots(op, "inputs")["Mean"]]  # fmt: skip
    assert len(means) == 2
    scope = paddle.static.global_scope()
    mine = [np.array(scope.find_var(n).get_tensor()).tolist() for n in means]
    out = _paddle_trains(prefix, _feed("batch_norm_fixed"), loss, after=means)
    np.testing.assert_allclose([run[0] for run in out["runs"]], losses, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(out["after"], mine, rtol=1e-6, atol=1e-7)


@pytest.mark.slow
@needs_paddle
def test_paddle_runs_minipaddles_dropout_files(static_mode, tmp_path):
    """p = 1 (also along axes): paddle's losses are minipaddle's; along axes, whatever mask paddle draws, Out =
    X * mask / (1 - p) (or X * mask) with the mask shared along the axes not dropped, and training runs on."""
    for name in ("dropout_p1", "dropout_p1_axes"):
        prefix, loss, losses, _ = _saved(name, tmp_path, train=True)
        out = _paddle_trains(prefix, _feed(name), loss)
        np.testing.assert_allclose([run[0] for run in out["runs"]], losses, rtol=1e-6, atol=1e-7)
    prefix, loss, _, _ = _saved("dropout_axes", tmp_path, train=True)
    ops = list(_desc(prefix + ".pdmodel").blocks[0].ops)
    muls = [op for op in ops if op.type == "elementwise_mul" and _slots(op, "inputs")["Y"][0].endswith("@mask")]
    made = {n: op for op in ops for n in _slots(op, "outputs").get("Out", [])}
    names, scales = [], []
    for mul in muls:
        values = made[_slots(mul, "inputs")["X"][0]]  # cast of X, or of scale(X)
        first = made.get(_slots(values, "inputs")["X"][0])
        upscaled = first is not None and first.type == "scale"
        x = _slots(first if upscaled else values, "inputs")["X"][0]
        names += [x, _slots(mul, "inputs")["Y"][0], _slots(mul, "outputs")["Out"][0]]
        scales.append({a.name: _attr_value(a) for a in first.attrs}["scale"] if upscaled else 1.0)
    assert scales == [2.0, 1.0]
    out = _paddle_trains(prefix, _feed("dropout_axes"), loss, each_step=names)
    for run in out["runs"]:
        assert np.isfinite(run[0])
        for k, (scale, shape) in enumerate(zip(scales, ((1, 4, 1), (6, 1, 3)))):
            x, mask, y = (np.array(a) for a in run[1 + 3 * k : 4 + 3 * k])
            assert mask.shape == shape and set(np.unique(mask)) <= {0.0, 1.0}
            np.testing.assert_allclose(y, x * scale * mask, rtol=1e-6, atol=1e-7)
