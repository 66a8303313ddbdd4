"""The onnx_format passes (QuantizationTransformPassV2 + AddQuantDequantPassV2) on the static LeNet of
test_static_passes.py against paddle 2.6.2 (tests/golden/quantization/make_v2_golden.py, same start weights and
data): the quantize_linear / dequantize_linear pairs each pass inserts, in Paddle's order and wiring, with
Paddle's names, start values and attributes; 4 QAT steps (losses and every scale, state and accum); the test
Program's logits. Programs are compared in Paddle's terms as in test_static_passes.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.quantization import (
    AddQuantDequantPassV2,
    IrGraph,
    QuantizationTransformPassV2,
    QuantWeightPass,
)
from tests.golden_files import GOLDEN_ROOT as GOLDEN
from tests.quantization.test_static_passes import SLOTS, STEPS, TYPES, NameMap, network
from tests.quantization.training_tolerance import assert_trained_value_follows

G = np.load(GOLDEN / "quantization" / "static_passes.npz")  # (the start weights and data)
V = np.load(GOLDEN / "quantization" / "v2_passes.npz")
T = json.loads((GOLDEN / "quantization" / "v2_passes.json").read_text())
P = json.loads((GOLDEN / "quantization" / "static_passes.json").read_text())["params"]

QUANT_OUT = {1: ("Y",), 2: ("Y", "OutScale"), 4: ("Y", "OutState", "OutAccum", "OutScale")}
V2_SLOTS = {**SLOTS, "quantize_linear": ("X", "Scale", "ZeroPoint", "InAccum", "InState"),
            "dequantize_linear": ("X", "Scale", "ZeroPoint")}  # fmt: skip
ATTRS = ("bit_length", "quant_axis", "is_test", "moving_rate", "quantization_type", "only_observer")


def transform(graph, scope):
    QuantizationTransformPassV2(scope, None, activation_quantize_type="moving_average_abs_max",
                                weight_quantize_type="channel_wise_abs_max",
                                quantizable_op_type=["conv2d", "mul", "matmul_v2"]).apply(graph)  # fmt: skip
    AddQuantDequantPassV2(scope, None, quantizable_op_type=["pool2d"]).apply(graph)


@pytest.fixture(scope="module")
def flow():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            logits, loss = network()
        scope, exe = paddle.static.Scope(), paddle.static.Executor()
        exe.run(startup, scope=scope)
        names = [v.name for v in main.all_parameters()]
        for mine, theirs in zip(names, P):
            scope.vars[mine] = G[f"param/{theirs}"].copy()
        train_graph, test_graph = IrGraph(main, for_test=False), IrGraph(main.clone(for_test=True), for_test=True)
        transform(train_graph, scope)
        transform(test_graph, scope)
        out = {"params": names, "train_forward": train_graph.to_program(), "test": test_graph.to_program()}
        out["start"] = {n: np.array(v) for n, v in scope.vars.items() if "@scale" in n or "@zero_point" in n}
        train = out["train_forward"].clone()
        with paddle.static.program_guard(train, startup):
            paddle.optimizer.SGD(0.1).minimize(train.global_block().var(loss.name))
        out["losses"], out["stats"] = [], []
        for step in range(STEPS):
            feed = {"image": G["images"][step], "label": G["labels"][step]}
            (lv,) = exe.run(train, feed=feed, fetch_list=[loss.name], scope=scope)
            out["losses"].append(lv)
            out["stats"].append(statistics(out["train_forward"], scope))
        feed = {"image": G["images"][STEPS], "label": G["labels"][STEPS]}
        (out["test_logits"],) = exe.run(out["test"], feed=feed, fetch_list=[logits.name], scope=scope)
        out["scope"], out["logits"], out["main"] = scope, logits.name, main
        return out
    finally:
        paddle.disable_static()


def statistics(program, scope) -> dict:
    """{x/slot: value} of every training quantize_linear: its scale, state and accum (read where they live)."""
    found = {}
    for op in program.global_block().ops:
        if op.type == "quantize_linear":
            x, scale, _, accum, state = (names[0] for names in op.inputs.values())
            for slot, name in (("OutScale", scale), ("OutState", state), ("OutAccum", accum)):
                found[f"{x}/{slot}"] = np.array(scope.vars[name])
    return found


def rows(program) -> list:
    block = program.global_block()
    const = {n for n, v in block.vars.items() if v.persistable}
    out, alias = [], {}
    for op in block.ops:
        ins = [n for n in op.input_names() if n is not None]
        if op.type == "reshape" and ins and all(n in const for n in ins):  # (minipaddle's bias reshape)
            alias[op.outputs["Out"][0]] = ins[0]
            continue
        kind = TYPES.get(op.type, op.type)
        if kind == "quantize_linear":
            in_slots, out_slots = V2_SLOTS[kind], QUANT_OUT[len(op.outputs["Out"])]
        elif kind == "dequantize_linear":
            in_slots, out_slots = V2_SLOTS[kind], ("Y",)
        else:
            in_slots, out_slots = SLOTS[kind]
        inputs = {}
        for slot, names in zip(in_slots, op.inputs.values()):
            names = [alias.get(n, n) for n in names if n is not None]
            if names:
                inputs[slot] = names
        outputs = {slot: [n] for slot, n in zip(out_slots, op.outputs["Out"]) if "_unused" not in n}
        attrs = {k: v for k, v in {**op.attrs, **op.quant_attrs}.items() if k in ATTRS}
        out.append({"type": kind, "inputs": inputs, "outputs": outputs, "attrs": attrs})
    return out


def golden_rows(stage: str) -> list:
    """Paddle's rows without flatten's XShape, without the OutState / OutAccum of a per-channel quantize_linear
    (listed by the pass, left as they were by the kernel: checked below), and with the attributes the passes
    set (Paddle's desc also lists moving_rate's default on test ops, and conv2d / pool2d's own is_test)."""
    out = []
    for row in T[stage]:
        outputs = {k: v for k, v in row["outputs"].items() if k != "XShape"}
        attrs = {k: v for k, v in row["attrs"].items() if k in ATTRS}
        if row["type"] == "quantize_linear" and attrs["quant_axis"] >= 0:
            outputs = {k: v for k, v in outputs.items() if k not in ("OutState", "OutAccum")}
        if "is_test" not in attrs or row["type"] not in ("quantize_linear",):
            attrs.pop("moving_rate", None)
        if row["type"] in ("conv2d", "pool2d"):
            attrs.pop("is_test", None)
        out.append({**row, "outputs": outputs, "attrs": attrs})
    return out


def assert_rows_equal(mine: list, theirs: list, names: NameMap) -> None:
    assert [r["type"] for r in mine] == [r["type"] for r in theirs]
    for i, (a, b) in enumerate(zip(mine, theirs)):
        where = f"op {i} ({a['type']})"
        for table in ("inputs", "outputs"):
            assert sorted(a[table]) == sorted(b[table]), f"{where}: {table} slots {a[table]} vs {b[table]}"
            for slot in a[table]:
                assert len(a[table][slot]) == len(b[table][slot]), where
                pairs = zip(a[table][slot], b[table][slot])
                assert all(names.same(m, t) for m, t in pairs), f"{where}: {slot} {a[table][slot]} vs {b[table][slot]}"
        assert sorted(a["attrs"]) == sorted(b["attrs"]), f"{where}: attrs {a['attrs']} vs {b['attrs']}"
        for k, v in b["attrs"].items():
            if isinstance(v, float):
                np.testing.assert_allclose(a["attrs"][k], v, rtol=1e-6, err_msg=f"{where}: {k}")
            else:
                assert a["attrs"][k] == v, f"{where}: {k}"


def name_map(flow) -> NameMap:
    names = NameMap({"params": flow["params"]})
    names.to_paddle = dict(zip(flow["params"], P))
    names.seen = set(P)
    return names


def test_test_graph_ops_match_paddle(flow):
    assert_rows_equal(rows(flow["test"]), golden_rows("test"), name_map(flow))


def test_training_graph_ops_match_paddle(flow):
    """Statistics `state_N` / `accum_N` are numbered in a different order (Paddle's graph sorts its nodes): the
    name map pairs them one to one by where they are used."""
    assert_rows_equal(rows(flow["train_forward"]), golden_rows("train_forward"), name_map(flow))


def test_start_values_are_paddles(flow):
    start = flow["start"]
    w = flow["params"][0]
    np.testing.assert_array_equal(start[f"{w}@scale"], np.full(4, 0.001, np.float32))  # per channel: [C] of 0.001
    assert start[f"{w}.quantized@zero_point"].dtype == np.int32 and start[f"{w}.quantized@zero_point"].shape == (4,)
    np.testing.assert_array_equal(start["image@scale"], np.array([0.001], np.float32))
    assert not any(v.any() for n, v in start.items() if n.endswith("@zero_point"))


def test_qat_steps_match_paddle(flow):
    names = name_map(flow)
    assert_rows_equal(rows(flow["train_forward"]), golden_rows("train_forward"), names)
    for step in range(STEPS):
        np.testing.assert_allclose(flow["losses"][step], V[f"step{step}/loss"], rtol=1e-5)
        theirs = {k[len(f"step{step}/") :]: V[k] for k in V.files if k.startswith(f"step{step}/") and "loss" not in k}
        mine = {}
        for key, v in flow["stats"][step].items():
            x, slot = key.rsplit("/", 1)
            mine[f"{names.to_paddle[x]}/{slot}"] = v
        assert sorted(mine) == sorted(theirs)
        for k, v in theirs.items():
            np.testing.assert_allclose(mine[k], v, rtol=2e-5, err_msg=f"step {step}: {k}")
    # per channel, Paddle's kernel leaves the state and accum it is given at their start (1)
    assert V[f"step{STEPS - 1}/conv2d_0.w_0/OutState"].tolist() == [1.0]


@pytest.fixture(scope="module")
def paddles_state(flow):
    """A scope holding paddle's trained state (its weights and every statistic after the last step): the test
    Program and QuantWeightPass run on the very values paddle ran them on, so their results can be compared
    strictly on any CPU, while the run of our own training follows paddle's only within a level flip
    (training_tolerance.py: the CI machine and the one that recorded the golden round a reduction differently)."""
    names = name_map(flow)
    assert_rows_equal(rows(flow["train_forward"]), golden_rows("train_forward"), names)
    scope = paddle.static.Scope()
    scope.vars.update({n: np.array(v) for n, v in flow["scope"].vars.items()})
    for mine, theirs in zip(flow["params"], P):
        scope.vars[mine] = V[f"trained/{theirs}"].copy()
    for op in flow["train_forward"].global_block().ops:
        if op.type == "quantize_linear":
            x, scale, _, accum, state = (names[0] for names in op.inputs.values())
            for slot, name in (("OutScale", scale), ("OutState", state), ("OutAccum", accum)):
                scope.vars[name] = V[f"step{STEPS - 1}/{names.to_paddle[x]}/{slot}"].copy()
    return scope


def run_test_program(program, scope, fetch):
    paddle.enable_static()
    try:
        feed = {"image": G["images"][STEPS], "label": G["labels"][STEPS]}
        (logits,) = paddle.static.Executor().run(program, feed=feed, fetch_list=[fetch], scope=scope)
    finally:
        paddle.disable_static()
    return logits


def test_test_program_reads_the_trained_scales(flow, paddles_state):
    logits = run_test_program(flow["test"], paddles_state, flow["logits"])
    np.testing.assert_allclose(logits, V["test/logits"], rtol=1e-5, atol=1e-6)
    assert_trained_value_follows(flow["test_logits"], V["test/logits"], "test logits after our own training")


def test_quantize_dequantize_pair_is_straight_through():
    """Paddle's backward reads the dequantized variables (no grad op for the pair); minipaddle's rule passes
    dout through both ops, so the gradient of x is dout."""
    x = paddle.to_tensor(np.array([0.3, -1.2, 2.0, 0.01], np.float32), stop_gradient=False)
    s, z = paddle.to_tensor(np.array([1.0], np.float32)), paddle.to_tensor(np.array([0], np.int32))
    y = paddle.ops.dequantize_linear(paddle.ops.quantize_linear(x, s, z), s, z)
    (y * paddle.to_tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(y.numpy(), np.array([38, -128, 127, 1], np.float32) / np.float32(127))


def test_v2_passes_refuse_bad_arguments():
    with pytest.raises(ValueError, match="channel_wise_abs_max"):
        QuantizationTransformPassV2(activation_quantize_type="channel_wise_abs_max")
    with pytest.raises(ValueError, match="weight_quantize_type"):
        QuantizationTransformPassV2(weight_quantize_type="max")
    with pytest.raises(ValueError, match="not supported"):
        QuantizationTransformPassV2(quantizable_op_type=["relu"])
    with pytest.raises(ValueError, match="not supported"):
        AddQuantDequantPassV2(quantizable_op_type=["nope"])
    with pytest.raises(TypeError, match="scale_dict"):
        AddQuantDequantPassV2(scale_dict=[1.0])
    with pytest.raises(TypeError, match="IrGraph"):
        QuantizationTransformPassV2().apply("main")


def quant_weights(program, state):
    """QuantWeightPass on a copy of `state` (convert(onnx_format=True)'s first step)."""
    scope = paddle.static.Scope()
    scope.vars.update({n: np.array(v) for n, v in state.vars.items()})
    graph = IrGraph(program, for_test=True)
    QuantWeightPass(scope, None).apply(graph)
    return graph.to_program(), scope


def test_quant_weight_pass_matches_paddle(flow, paddles_state):
    """On paddle's trained state, the weights' quantize_linear ops are gone, the dequantize_linear ops read int8
    weights equal to paddle's levels, biases stay float, and the logits equal paddle's."""
    names = name_map(flow)
    assert_rows_equal(rows(flow["test"]), golden_rows("test"), names)
    program, scope = quant_weights(flow["test"], paddles_state)
    assert_rows_equal(rows(program), golden_rows("quant_weight"), names)
    for mine, theirs in zip(flow["params"], P):
        got, want = scope.vars[mine], V[f"quant_weight/{theirs}"]
        assert got.dtype == want.dtype, mine
        if want.dtype == np.int8:
            np.testing.assert_array_equal(got, want, err_msg=mine)
            assert program.global_block().vars[mine].dtype.name == "int8"
    logits = run_test_program(program, scope, flow["logits"])
    np.testing.assert_allclose(logits, V["quant_weight/logits"], rtol=1e-5, atol=1e-6)


def test_quant_weight_pass_keeps_the_test_programs_logits(flow):
    """On our own trained state: int8 weights give the float-weight test Program's logits (the levels are what
    its quantize_linear ops computed), and lie within one level of paddle's (a flip in training, see above)."""
    program, scope = quant_weights(flow["test"], flow["scope"])
    np.testing.assert_allclose(run_test_program(program, scope, flow["logits"]), flow["test_logits"], rtol=1e-6,
                               atol=1e-7)  # fmt: skip
    for mine, theirs in zip(flow["params"], P):
        want = V[f"quant_weight/{theirs}"]
        if want.dtype == np.int8:
            assert np.abs(scope.vars[mine].astype(np.int32) - want).max() <= 1, mine


def test_quant_weight_pass_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="scope"):
        QuantWeightPass(None, None)
    with pytest.raises(NotImplementedError, match="bias_correction"):
        QuantWeightPass(paddle.static.Scope(), None, bias_correction=True)
    with pytest.raises(ValueError, match="quant_bits"):
        QuantWeightPass(paddle.static.Scope(), None, quant_bits=4)
    with pytest.raises(TypeError, match="IrGraph"):
        QuantWeightPass(paddle.static.Scope(), None).apply("main")
