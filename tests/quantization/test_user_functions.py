"""quant_aware with user functions (weight/act quantize and preprocess functions, optimizer_func, executor)
against paddle 2.6.2 (tests/golden/quantization/make_user_func_golden.py: PACT, as paddle's own test, trained by
Momentum, the rest by SGD; same start weights and data):
- the function's ops land in the quantized Program as paddle's (its observers and the residual pair on its add
  included), compared as graphs: each op by type, attributes and where its inputs come from (paddle's graph sort
  orders independent ops its own way, and names differ: `subtract_0.tmp_0` is paddle's `elementwise_sub_0`);
- training: the function's parameters get Momentum's updates, the others SGD's; 3 steps: losses, alphas, weights;
- the test Program (paddle's quant_aware(for_test=True) cannot take a function: see the golden's docstring).
"""

from __future__ import annotations

import contextlib
import functools
import json
import tempfile
from collections import Counter

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.quantization import IrGraph, QuantizationTransformPassV2, quant_aware
from tests.golden_files import GOLDEN_ROOT as GOLDEN
from tests.quantization.test_quant_aware import clean_golden_rows, rows
from tests.quantization.training_tolerance import LOSS_RTOL

G = np.load(GOLDEN / "quantization" / "user_func.npz")
T = json.loads((GOLDEN / "quantization" / "user_func.json").read_text())
STEPS = 3
ALPHA = {"act": 1.0, "weight": 0.2}
CONFIGS = {"legacy_act_preprocess": {"onnx_format": False}}


def pact(start):
    """PACT in paddle ops (the golden's)."""

    def pact_func(x):
        alpha = paddle.static.create_parameter(
            [1], "float32", name=x.name + "_pact", default_initializer=paddle.nn.initializer.Constant(start)
        )
        x = paddle.subtract(x, paddle.nn.functional.relu(paddle.subtract(x, alpha)))
        return paddle.add(x, paddle.nn.functional.relu(paddle.subtract(-alpha, x)))

    return pact_func


def network():
    x = paddle.static.data("image", [-1, 1, 6, 6], "float32")
    x.stop_gradient = False
    label = paddle.static.data("label", [-1, 1], "int64")
    c = paddle.static.nn.conv2d(x, 2, 3, act="relu")
    f = paddle.static.nn.fc(paddle.flatten(c, 1), 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(f, label))
    return f, loss


@functools.cache
def run_flow(name: str) -> dict:
    config = CONFIGS.get(name)
    funcs = {hook: pact(ALPHA[kind]) for hook, kind in T[name]["hooks"].items()}
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            logits, loss = network()
            test = main.clone(for_test=True)
            paddle.optimizer.SGD(0.1).minimize(loss)
        scope, exe = paddle.static.Scope(), paddle.static.Executor()
        exe.run(startup, scope=scope)
        names = [v.name for v in main.all_parameters()]
        for mine, theirs in zip(names, T["params"]):
            scope.vars[mine] = G[f"param/{theirs}"].copy()
        kw = dict(scope=scope, optimizer_func=lambda: paddle.optimizer.Momentum(0.05, 0.9), executor=exe, **funcs)
        with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):  # (the legacy flow writes paddle's
            # ./mapping_table_for_saving_inference_model: test_mapping_table.py)
            out = {"params": names, "train": quant_aware(main, None, config, return_program=True, **kw)}
        out["test"] = quant_aware(test, None, config, for_test=True, **kw)
        out["alphas"] = sorted(v.name for v in out["train"].list_vars() if v.name.endswith("_pact"))
        out["losses"], out["alpha_values"] = [], []
        for step in range(STEPS):
            feed = {"image": G["images"][step], "label": G["labels"][step]}
            (lv,) = exe.run(out["train"], feed=feed, fetch_list=[loss.name], scope=scope)
            out["losses"].append(lv)
            out["alpha_values"].append([scope.vars[a].copy() for a in out["alphas"]])
        out["trained"] = [scope.vars[n].copy() for n in names]
        feed = {"image": G["images"][STEPS], "label": G["labels"][STEPS]}
        (out["test_logits"],) = exe.run(out["test"], feed=feed, fetch_list=[logits.name], scope=scope)
        return out
    finally:
        paddle.disable_static()


def structure(table: list, params: dict) -> Counter:
    """The ops of `table` (rows in paddle's terms) as a multiset of (type, attributes, where each input comes
    from): a variable is named by its feed or parameter name, or by the op and slot that computed it (so two
    Programs that differ only in names and in the order of independent ops have the same structure)."""
    producer = {}
    for row in table:
        ins = {n for names in row["inputs"].values() for n in names}
        for slot, names in row["outputs"].items():
            for n in names:
                if n not in ins:  # (not a statistic updated in place)
                    producer[n] = (row, slot)

    @functools.cache
    def origin(name: str):
        if name in producer:
            row, slot = producer[name]
            return (row["type"], slot, inputs_of(row))
        if name in params or name in ("image", "label"):
            return params.get(name, name)
        return "pact_alpha" if name.endswith("_pact") else "statistic"

    def inputs_of(row) -> tuple:
        return tuple(sorted((slot, tuple(origin(n) for n in names)) for slot, names in row["inputs"].items()))

    def attrs_of(row) -> str:  # (paddle's float attributes are float32: 0.9 reads 0.8999999761581421)
        return json.dumps({k: round(v, 6) if isinstance(v, float) else v for k, v in row["attrs"].items()},
                          sort_keys=True)  # fmt: skip

    return Counter((r["type"], attrs_of(r), inputs_of(r)) for r in table)


def paddle_forward(flow: str, stage: str) -> list:
    golden = T[flow][stage]
    if stage == "train":
        golden = [r for r in golden if r["role"] in (0, 256)]
    return clean_golden_rows(golden)


FLOWS = [f for f in T if f != "params"]


@pytest.mark.parametrize("flow", FLOWS)
@pytest.mark.parametrize("stage", ["train", "test"])
def test_function_ops_land_as_paddles(flow, stage):
    out = run_flow(flow)
    params = dict(zip(out["params"], T["params"]))
    mine, theirs = (
        structure(rows(out[stage]), params),
        structure(paddle_forward(flow, stage), {p: p for p in T["params"]}),
    )
    assert mine == theirs, (mine - theirs, theirs - mine)


@pytest.mark.parametrize("flow", FLOWS)
def test_function_parameters_train_with_optimizer_func(flow):
    """Paddle's update ops: an sgd per network parameter, a momentum per alpha (optimizer_func's; minipaddle's
    momentum is two ops, momentum_velocity and momentum_param)."""
    out = run_flow(flow)
    updated = {}
    for op in out["train"].global_block().ops:
        if op.role == "optimize" and op.type in ("sgd", "momentum_param"):
            updated[op.inputs["param"][0]] = op.type.split("_")[0]
    theirs = {r["inputs"]["Param"][0]: r["type"] for r in T[flow]["train"] if r["role"] == 2}
    assert sorted(updated.values()) == sorted(theirs.values()) == ["momentum"] * len(out["alphas"]) + ["sgd"] * 4
    assert sorted(p for p, kind in updated.items() if kind == "momentum") == out["alphas"]


def alpha_key(name: str, params: dict) -> str:
    """What an alpha clips, in paddle's names: `{var}_tmp_input_pact`, var a parameter, the image, or the one
    activation (paddle's flatten_0.tmp_0, minipaddle's reshape_N.tmp_0)."""
    stem = name[: -len("_tmp_input_pact")]
    return params.get(stem, stem if stem in params.values() or stem == "image" else "activation")


@pytest.mark.parametrize("flow", FLOWS)
def test_training_steps_match_paddle(flow):
    """Against paddle with its grad ops reading what their forward ops read (`fixed`, the golden's docstring):
    to float32 rounding. Against paddle as it runs: the first loss exactly (the forward is the same), then
    within LOSS_RTOL: paddle's weight gradients there are those of the un-quantized inputs."""
    out = run_flow(flow)
    params = dict(zip(out["params"], T["params"]))
    theirs_alpha = {alpha_key(a, {p: p for p in T["params"]}): a for a in T[flow]["alphas"]}
    mine_alpha = {alpha_key(a, params): i for i, a in enumerate(out["alphas"])}
    assert sorted(mine_alpha) == sorted(theirs_alpha)
    fixed = f"{flow}/fixed"
    np.testing.assert_allclose(out["losses"], [G[f"{fixed}/step{s}/loss"] for s in range(STEPS)], rtol=2e-5)
    for step in range(STEPS):
        for key, i in mine_alpha.items():
            want = G[f"{fixed}/step{step}/{theirs_alpha[key]}"]
            np.testing.assert_allclose(out["alpha_values"][step][i], want, rtol=2e-5, err_msg=f"{step} {key}")
    moved = [abs(float(out["alpha_values"][-1][i][0]) - ALPHA["weight" if key in T["params"] else "act"])
             for key, i in mine_alpha.items()]  # fmt: skip
    assert max(moved) > 1e-4, "the function's parameters train (an alpha no value reaches keeps its start)"
    for mine, theirs in zip(out["trained"], T["params"]):
        np.testing.assert_allclose(mine, G[f"{fixed}/trained/{theirs}"], rtol=1e-4, atol=1e-6, err_msg=theirs)
    np.testing.assert_allclose(out["test_logits"], G[f"{fixed}/test/logits"], rtol=1e-4, atol=1e-5)
    as_paddle = [G[f"{flow}/step{s}/loss"] for s in range(STEPS)]
    np.testing.assert_allclose(out["losses"][0], as_paddle[0], rtol=2e-5)
    np.testing.assert_allclose(out["losses"], as_paddle, rtol=LOSS_RTOL)


def test_user_function_errors():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            network()
    finally:
        paddle.disable_static()
    graph = IrGraph(main, for_test=True)
    with pytest.raises(TypeError, match="act_preprocess_func must be a function"):
        QuantizationTransformPassV2(paddle.static.Scope(), act_preprocess_func=3)
    with pytest.raises(ValueError, match="needs executor="):
        QuantizationTransformPassV2(paddle.static.Scope(), act_preprocess_func=pact(1.0)).apply(graph)
    exe = paddle.static.Executor()
    with pytest.raises(ValueError, match="needs optimizer_func="):
        QuantizationTransformPassV2(paddle.static.Scope(), act_preprocess_func=pact(1.0), executor=exe,
                                    is_test=False).apply(IrGraph(main))  # fmt: skip
    with pytest.raises(TypeError, match="must return the Variable"):
        QuantizationTransformPassV2(paddle.static.Scope(), act_preprocess_func=lambda x: 3.0,
                                    executor=exe).apply(IrGraph(main, for_test=True))  # fmt: skip
