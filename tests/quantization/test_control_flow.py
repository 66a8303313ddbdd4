"""Static quantization of Programs with control flow against paddle 2.6.2 (tests/golden/quantization/
make_control_flow_golden.py): quant_aware(for_test=True) and convert apply every pass to each block's sub-graph,
so the fc layers in paddle.static.nn.cond branches and in a while_loop body are quantized inside their blocks.

minipaddle's control flow is not paddle's op for op (paddle's cond is two conditional_blocks, a logical_not, a
cast and a select_input with assigns in the branches; minipaddle's one cond op names each branch's results; a
paddle while block holds the body and the condition, minipaddle's while has a block for each). So the blocks are
compared by what quantization does in them: every quantize / dequantize op, quantized op and observer, with the
block it is in (minipaddle's while blocks both stand for paddle's one) and where its inputs come from, across
blocks; the control-flow plumbing (assign, select_input, fill_constant, ...) and the observers paddle's pass puts
on the plumbing's outputs are left out on both sides. Then the outputs of both branches with every scale set.
"""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.quantization import convert, quant_aware
from tests.golden_files import GOLDEN_ROOT as GOLDEN
from tests.quantization.test_quant_aware import clean_golden_rows, rows
from tests.quantization.test_user_functions import structure

G = np.load(GOLDEN / "quantization" / "control_flow.npz")
T = json.loads((GOLDEN / "quantization" / "control_flow.json").read_text())
FORMATS = {"onnx": None, "legacy": {"onnx_format": False}}
BLOCKS = {"cond": {0: 0, 1: 1, 2: 2}, "while": {0: 0, 1: 1, 2: 2, 3: 3, 4: 3}}  # minipaddle block -> paddle's
PLUMBING = ("assign", "assign_value", "fill_constant", "select_input", "cast", "logical_not", "conditional_block",
            "while", "cond", "greater_than", "less_than", "scale", "full")  # fmt: skip
OBSERVERS = ("moving_average_abs_max_scale",)


def network(kind):
    x = paddle.static.data("x", [-1, 4], "float32")
    h = paddle.static.nn.fc(x, 4)
    out = paddle.static.nn.cond(
        paddle.mean(h) > 0,
        lambda: paddle.static.nn.fc(h, 3),
        lambda: paddle.static.nn.fc(paddle.nn.functional.relu(h), 3),
    )
    if kind == "while":
        i = paddle.full([1], 0, "int64")
        _, out = paddle.static.nn.while_loop(
            lambda i, o: i < 2, lambda i, o: [i + 1, paddle.static.nn.fc(o, 3)], [i, out]
        )
    return out


@functools.cache
def flow(kind: str, fmt: str) -> dict:
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            out = network(kind)
        test = main.clone(for_test=True)
        scope, exe = paddle.static.Scope(), paddle.static.Executor()
        exe.run(startup, scope=scope)
        names = [p.name for p in main.all_parameters()]
        for mine, theirs in zip(names, T[f"{kind}/params"]):
            scope.vars[mine] = G[f"{kind}/param/{theirs}"].copy()
        q = quant_aware(test, None, FORMATS[fmt], scope=scope, for_test=True)
        for name, var in q.global_block().vars.items():
            if var.persistable and name.endswith("@scale"):
                scope.vars[name] = np.full(np.shape(scope.vars[name]), 2.0, np.float32)
        outs = {s: exe.run(q, feed={"x": G[f"x_{s}"]}, fetch_list=[out], scope=scope)[0] for s in ("neg", "pos")}
        return {"params": names, "test": q, "outs": outs, "converted": convert(q, None, FORMATS[fmt], scope=scope)}
    finally:
        paddle.disable_static()


def quantization_rows(table: list, block_of) -> list:
    """The rows quantization is about, each with its (paddle) block in its type: see the module docstring."""
    producer = {n: r["type"] for r in table for names in r["outputs"].values() for n in names}
    out, dropped = [], set()
    for r in table:
        ins = [n for names in r["inputs"].values() for n in names]
        if r["type"] == "elementwise_add" and any(producer.get(n) == "assign_value" for n in ins):
            producer.update({n: "scale" for names in r["outputs"].values() for n in names})
            continue  # (minipaddle's `i + 1` adds a literal: paddle's scale op)
        if r["type"] in PLUMBING:
            continue
        observer = r["type"] in OBSERVERS or r["attrs"].get("only_observer")
        if observer and producer.get(r["inputs"]["X"][0]) in PLUMBING:
            dropped.update((r["block"], n) for names in r["outputs"].values() for n in names)
            continue
        if r["type"] == "dequantize_linear" and (r["block"], r["inputs"]["X"][0]) in dropped:
            continue  # (the second half of an observer pair left out)
        out.append({**r, "type": f"block{block_of(r)}/{r['type']}"})
    return out


def mine(program, kind: str) -> list:
    table = []
    for b in program.blocks:
        table += [{**r, "block": BLOCKS[kind][b.idx]} for r in rows(program, b.idx)]
    return quantization_rows(table, lambda r: r["block"])


def theirs(key: str) -> list:
    golden = T[key]
    cleaned = clean_golden_rows(golden)
    for r, g in zip(cleaned, golden):
        r["block"] = g["block"]
    return quantization_rows(cleaned, lambda r: r["block"])


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", BLOCKS)
@pytest.mark.parametrize("stage", ["test", "converted"])
def test_every_block_is_quantized_as_paddles(kind, fmt, stage):
    out = flow(kind, fmt)
    params = dict(zip(out["params"], T[f"{kind}/params"]))
    got, want = structure(mine(out[stage], kind), params), structure(theirs(f"{kind}/{fmt}/{stage}"),
                                                                      {p: p for p in params.values()})  # fmt: skip
    assert got == want, (got - want, want - got)
    assert any(k[0].startswith("block1/") for k in got) and any(k[0].startswith("block2/") for k in got)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", BLOCKS)
def test_both_branches_compute_as_paddles(kind, fmt):
    out = flow(kind, fmt)
    for sign in ("neg", "pos"):
        np.testing.assert_allclose(out["outs"][sign], G[f"{kind}/{fmt}/{sign}"], rtol=1e-5, atol=1e-6, err_msg=sign)


def test_a_minimized_program_with_a_cond_trains_quantized():
    """quant_aware on a Program after SGD's minimize: the backward's cond blocks are dropped with the rest of the
    backward, the forward blocks quantized, and minimize's backward made again: each branch's weights train when
    its branch runs. (Paddle's values: test_quantized_cond_trains_as_paddles.)"""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            out = network("cond")
            loss = paddle.mean(out * out)
            paddle.optimizer.SGD(0.1).minimize(loss)
        scope, exe = paddle.static.Scope(), paddle.static.Executor()
        exe.run(startup, scope=scope)
        q = quant_aware(main, None, scope=scope).program
        assert all("quantize_linear" in [op.type for op in q.block(i).ops] for i in (1, 2))
        weights = [next(n for op in q.block(i).ops if op.type == "quantize_linear" for n in op.inputs["x"]
                        if n in main.global_block().vars and main.global_block().vars[n].persistable)
                   for i in (1, 2)]  # fmt: skip
        for sign in ("pos", "neg"):
            before = {n: scope.vars[n].copy() for n in weights}
            (lv,) = exe.run(q, feed={"x": G[f"x_{sign}"]}, fetch_list=[loss], scope=scope)
            assert np.isfinite(lv)
            moved = [np.abs(scope.vars[n] - before[n]).max() > 0 for n in weights]
            assert moved.count(True) == 1, (sign, weights, moved)  # (the branch that ran)
    finally:
        paddle.disable_static()


TRAIN = json.loads((GOLDEN / "quantization" / "control_flow_train.json").read_text())


@pytest.mark.parametrize("fmt", ["onnx", "legacy"])
@pytest.mark.parametrize("kind", ["cond", "while"])
def test_quantized_control_flow_trains_as_paddles(kind, fmt):
    """QAT training of the cond and cond + while_loop Programs (make_control_flow_train_golden.py): four SGD steps,
    the branches in turn, losses and trained weights equal paddle 2.6.2's once each sub-block's mul_grad reads what
    its forward mul read (`fixed`; paddle's grad blocks are sub-graphs of their own, not pointed at the dequantized
    variables, so as paddle runs them those weights get the gradients of the un-quantized inputs: `as_run`,
    recorded). In the while_loop the body's moving-average quantizers update their state once per iteration, as
    paddle's: while_grad's recomputation of the body starts from each iteration's state and leaves the final."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        # (one guard around the build and quant_aware, whose backward names then follow the forward's)
        with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
            out = network(kind)
            loss = paddle.mean(out * out)
            paddle.optimizer.SGD(0.1).minimize(loss)
            scope, exe = paddle.static.Scope(), paddle.static.Executor()
            exe.run(startup, scope=scope)
            names = [p.name for p in main.all_parameters()]
            for n in names:
                scope.vars[n] = G[f"{kind}/param/{n}"].copy()
            q = quant_aware(main, None, {"onnx_format": fmt == "onnx"}, scope=scope, return_program=True)
        losses = [exe.run(q, feed={"x": G[f"x_{s}"]}, fetch_list=[loss], scope=scope)[0] for s in TRAIN["feeds"]]
    finally:
        paddle.disable_static()
    want = TRAIN[f"{kind}/{fmt}/fixed"]
    assert len(want["renamed"]) == {"cond": 4, "while": 6}[kind]  # (each sub-block's mul_grad: input and weight)
    np.testing.assert_allclose(losses, want["losses"], rtol=1e-5)
    for n in names:
        np.testing.assert_allclose(scope.vars[n], want["weights"][n], rtol=1e-5, atol=1e-6, err_msg=n)
    as_run = TRAIN[f"{kind}/{fmt}/as_run"]["losses"]
    assert losses[0] == pytest.approx(as_run[0], rel=1e-6) and not np.allclose(losses[2:], as_run[2:], rtol=1e-3)
