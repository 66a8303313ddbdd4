"""paddle.static.quantization's passes on a static LeNet against paddle 2.6.2 (tests/golden/quantization/
make_static_golden.py): the ops each pass inserts, in Paddle's order and wiring; QAT training with the transformed
Program (losses and every scale, state and accum after each of 4 steps); the frozen Program (integer weights,
channel scales, thresholds, outputs) and ConvertToInt8Pass's int8 weights.

Programs are compared op by op in Paddle's terms: minipaddle's ops are named by the Paddle op they stand for
(matmul -> mul, add -> elementwise_add, max_pool -> pool2d, reshape -> flatten_contiguous_range, mean ->
reduce_mean) with Paddle's slot names, minipaddle's bias reshape (a constant: Paddle's elementwise_add broadcasts
the bias itself) is left out, and variable names must correspond one to one (a map built along the way: names
differ where minipaddle numbers its temporaries otherwise, e.g. relu_0.tmp_0 for Paddle's conv2d_0.tmp_2).
Outputs nobody reads are not compared: minipaddle's ops always write all their outputs (`*_unused`,
`*.observed`), where Paddle's leave optional outputs out.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.quantization import (
    AddQuantDequantPass,
    ConvertToInt8Pass,
    IrGraph,
    OutScaleForInferencePass,
    OutScaleForTrainingPass,
    QuantizationFreezePass,
    QuantizationTransformPass,
)
from tests.golden_files import GOLDEN_ROOT as GOLDEN

G = np.load(GOLDEN / "quantization" / "static_passes.npz")
T = json.loads((GOLDEN / "quantization" / "static_passes.json").read_text())
STEPS = 4

TYPES = {"matmul": "mul", "add": "elementwise_add", "max_pool": "pool2d", "reshape": "flatten_contiguous_range",
         "mean": "reduce_mean", "subtract": "elementwise_sub", "neg": "scale"}  # fmt: skip
_Q = (("X", "InScale", "InAccum", "InState"), ("Out", "OutScale", "OutState", "OutAccum"))
SLOTS = {  # minipaddle op -> (Paddle's input slots in minipaddle's order, Paddle's output slots)
    "conv2d": (("Input", "Filter"), ("Output",)),
    "mul": (("X", "Y"), ("Out",)),
    "elementwise_add": (("X", "Y"), ("Out",)),
    "pool2d": (("X",), ("Out",)),
    "relu": (("X",), ("Out",)),
    "elementwise_sub": (("X", "Y"), ("Out",)),
    "scale": (("X",), ("Out",)),
    "flatten_contiguous_range": (("X",), ("Out",)),
    "reduce_mean": (("X",), ("Out",)),
    "softmax_with_cross_entropy": (("Logits", "Label"), ("Softmax", "Loss")),
    "fake_quantize_moving_average_abs_max": _Q,
    "fake_quantize_dequantize_moving_average_abs_max": _Q,
    "moving_average_abs_max_scale": (("X", "InAccum", "InState"), _Q[1]),
    "fake_channel_wise_quantize_abs_max": (("X",), ("Out", "OutScale")),
    "fake_channel_wise_dequantize_max_abs": (("X", "Scales"), ("Out",)),
    "fake_dequantize_max_abs": (("X", "Scale"), ("Out",)),
    "fake_quantize_range_abs_max": (("X", "InScale", "Iter", "InScales"), ("Out", "OutScale", "OutScales")),
}
OBSERVING = ("fake_quantize_moving_average_abs_max", "fake_quantize_dequantize_moving_average_abs_max",
             "moving_average_abs_max_scale", "fake_channel_wise_quantize_abs_max")  # fmt: skip
ATTRS = ("bit_length", "quant_axis", "moving_rate", "is_test", "max_range", "quant_bits", "x_num_col_dims")
NOTES = ("quantization_type", "with_quant_attr")


def network():
    """The network of make_static_golden.py."""
    x = paddle.static.data("image", [-1, 1, 16, 16], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    c = paddle.static.nn.conv2d(x, 4, 5, act="relu")
    p = paddle.nn.functional.max_pool2d(c, 2, 2)
    c2 = paddle.static.nn.conv2d(p, 8, 3, act="relu")
    p2 = paddle.nn.functional.max_pool2d(c2, 2, 2)
    f = paddle.static.nn.fc(paddle.flatten(p2, 1), 10)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(f, label))
    return f, loss


def transform(graph, scope):
    QuantizationTransformPass(scope, None, activation_quantize_type="moving_average_abs_max",
                              weight_quantize_type="channel_wise_abs_max",
                              quantizable_op_type=["conv2d", "mul", "matmul_v2"]).apply(graph)  # fmt: skip
    AddQuantDequantPass(scope, None, quantizable_op_type=["pool2d"]).apply(graph)
    OutScaleForTrainingPass(scope, None).apply(graph)


@pytest.fixture(scope="module")
def flow():
    """The whole flow of the golden generator, in minipaddle: {stage: Program or values}."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            logits, loss = network()
        scope, exe = paddle.static.Scope(), paddle.static.Executor()
        exe.run(startup, scope=scope)
        names = [v.name for v in main.all_parameters()]
        for mine, theirs in zip(names, T["params"]):  # Paddle's start weights (minipaddle numbers conv2d_2.w_0)
            assert scope.vars[mine].shape == G[f"param/{theirs}"].shape
            scope.vars[mine] = G[f"param/{theirs}"].copy()
        train_graph, test_graph = IrGraph(main, for_test=False), IrGraph(main.clone(for_test=True), for_test=True)
        transform(train_graph, scope)
        transform(test_graph, scope)
        out = {"params": names, "train_forward": train_graph.to_program(), "test": test_graph.to_program()}
        train = out["train_forward"].clone()
        with paddle.static.program_guard(train, startup):
            paddle.optimizer.SGD(0.1).minimize(train.global_block().var(loss.name))
        feed = lambda i: {"image": G["images"][i], "label": G["labels"][i]}  # noqa: E731
        out["losses"], out["scales"] = [], []
        for step in range(STEPS):
            (lv,) = exe.run(train, feed=feed(step), fetch_list=[loss.name], scope=scope)
            out["losses"].append(lv)
            out["scales"].append(statistics(out["train_forward"], scope))
        out["trained"] = {n: scope.vars[n].copy() for n in names}
        (out["test_logits"],) = exe.run(out["test"], feed=feed(STEPS), fetch_list=[logits.name], scope=scope)
        QuantizationFreezePass(scope, None, weight_quantize_type="channel_wise_abs_max").apply(test_graph)
        OutScaleForInferencePass(scope).apply(test_graph)
        out["frozen"] = test_graph.to_program()
        out["frozen_weights"] = {n: scope.vars[n].copy() for n in names}
        out["channel_scales"] = {op.inputs["x"][0]: scope.vars[op.inputs["scales"][0]].copy()
                                 for op in out["frozen"].global_block().ops
                                 if op.type == "fake_channel_wise_dequantize_max_abs"}  # fmt: skip
        (out["frozen_logits"],) = exe.run(out["frozen"], feed=feed(STEPS), fetch_list=[logits.name], scope=scope)
        ConvertToInt8Pass(scope, None).apply(test_graph)
        out["int8"] = test_graph.to_program()
        out["int8_values"] = {n: scope.vars[n] for n in scope.vars if n.endswith(".int8")}
        out["main"] = main
        return out
    finally:
        paddle.disable_static()


def statistics(program, scope) -> dict:
    """{op type/X/slot: value}, keyed by minipaddle's names, as make_static_golden.scales."""
    found = {}
    for op in program.global_block().ops:
        if op.type not in OBSERVING:
            continue
        for slot, name in zip(SLOTS[op.type][1], op.outputs["Out"]):
            if slot != "Out" and name in scope.vars:
                found[f"{op.type}/{op.inputs['x'][0]}/{slot}"] = np.array(scope.vars[name])
    return found


def paddle_rows(program) -> list:
    """minipaddle's ops as make_static_golden.op_rows records Paddle's (the bias reshape left out)."""
    block = program.global_block()
    const = {n for n, v in block.vars.items() if v.persistable}
    rows, alias = [], {}
    for op in block.ops:
        ins = [n for n in op.input_names() if n is not None]
        if op.type == "reshape" and ins and all(n in const for n in ins):
            alias[op.outputs["Out"][0]] = ins[0]
            continue
        kind = TYPES.get(op.type, op.type)
        in_slots, out_slots = SLOTS[kind]
        inputs = {}
        for slot, names in zip(in_slots, op.inputs.values()):
            names = [alias.get(n, n) for n in names if n is not None]
            if names:
                inputs[slot] = names
        outputs = {slot: [n] for slot, n in zip(out_slots, op.outputs["Out"])
                   if "_unused" not in n and ".observed" not in n}  # fmt: skip
        attrs = {k: v for k, v in op.attrs.items() if k in ATTRS}
        attrs.update({k: v for k, v in op.quant_attrs.items() if k in NOTES or k.endswith("_threshold")})
        rows.append({"type": kind, "inputs": inputs, "outputs": outputs, "attrs": attrs})
    return rows


def golden_rows(stage: str) -> list:
    """Paddle's rows without what minipaddle's ops do not write: flatten's XShape, a test-mode observer's scale."""
    rows = []
    for row in T[stage]:
        outputs = dict(row["outputs"])
        outputs.pop("XShape", None)
        if row["type"] == "moving_average_abs_max_scale" and row["attrs"].get("is_test"):
            outputs.pop("OutScale", None)
        rows.append({**row, "outputs": outputs})
    return rows


class NameMap:
    """minipaddle name <-> Paddle name, one to one, learned from the first place a name is seen."""

    def __init__(self, flow) -> None:
        self.to_paddle = dict(zip(flow["params"], T["params"]))
        self.seen = set(self.to_paddle.values())

    def same(self, mine: str, theirs: str) -> bool:
        if mine in self.to_paddle:
            return self.to_paddle[mine] == theirs
        if theirs in self.seen:
            return False
        self.to_paddle[mine] = theirs
        self.seen.add(theirs)
        return True


def assert_rows_equal(mine: list, theirs: list, names: NameMap) -> None:
    assert [r["type"] for r in mine] == [r["type"] for r in theirs]
    for i, (a, b) in enumerate(zip(mine, theirs)):
        where = f"op {i} ({a['type']})"
        for table in ("inputs", "outputs"):
            assert sorted(a[table]) == sorted(b[table]), f"{where}: {table} slots {a[table]} vs {b[table]}"
            for slot in a[table]:
                pairs = list(zip(a[table][slot], b[table][slot]))
                assert len(a[table][slot]) == len(b[table][slot]), where
                assert all(names.same(m, t) for m, t in pairs), f"{where}: {slot} {a[table][slot]} vs {b[table][slot]}"
        b_attrs = {k: v for k, v in b["attrs"].items() if k in ATTRS + NOTES or k.endswith("_threshold")}
        if b_attrs.get("with_quant_attr") is False:
            del b_attrs["with_quant_attr"]  # (Paddle writes the default on ops it looked at)
        if a["type"] in ("conv2d", "pool2d", "mul"):  # (Paddle's own attributes of these ops, not quantization's)
            b_attrs.pop("is_test", None)
            b_attrs.pop("x_num_col_dims", None)
        assert sorted(a["attrs"]) == sorted(b_attrs), f"{where}: attrs {a['attrs']} vs {b_attrs}"
        for k, v in b_attrs.items():
            got = a["attrs"][k]
            if isinstance(v, float):
                np.testing.assert_allclose(got, v, rtol=1e-5, err_msg=f"{where}: {k}")
            else:
                assert (list(got) if isinstance(got, tuple) else got) == v, f"{where}: {k}"


def test_test_graph_ops_match_paddle(flow):
    """Transform + AddQuantDequant + OutScaleForTraining on a test graph: the same 37 ops, order and wiring."""
    assert_rows_equal(paddle_rows(flow["test"]), golden_rows("test"), NameMap(flow))


def test_training_graph_forward_ops_match_paddle(flow):
    """The training graph's forward ops: in order, but the observers, which Paddle's graph-to-Program sort puts
    among the backward ops, are compared as a set (by what they observe)."""
    mine, theirs = paddle_rows(flow["train_forward"]), golden_rows("train_forward")
    names = NameMap(flow)
    plain = lambda rows: [r for r in rows if r["type"] != "moving_average_abs_max_scale"]  # noqa: E731
    assert_rows_equal(plain(mine), plain(theirs), names)
    observers = lambda rows, f: sorted(f(r["inputs"]["X"][0]) for r in rows if r not in plain(rows))  # noqa: E731
    assert observers(mine, names.to_paddle.get) == observers(theirs, lambda n: n)
    assert all(r["attrs"] == {"moving_rate": 0.9, "is_test": False} for r in mine if r not in plain(mine))


def test_qat_training_losses_and_scales_match_paddle(flow):
    names = NameMap(flow)
    assert_rows_equal(paddle_rows(flow["test"]), golden_rows("test"), names)  # (learns the name map)
    for step in range(STEPS):
        np.testing.assert_allclose(flow["losses"][step], G[f"step{step}/loss"], rtol=1e-5)
        mine = {}
        for key, v in flow["scales"][step].items():
            kind, x, slot = key.split("/")
            mine[f"{kind}/{names.to_paddle[x]}/{slot}"] = v
        theirs = {k[len(f"step{step}/") :]: G[k] for k in G.files if k.startswith(f"step{step}/") and "/loss" not in k}
        assert sorted(mine) == sorted(theirs)
        for k in theirs:
            np.testing.assert_allclose(mine[k], theirs[k], rtol=2e-5, err_msg=f"step {step}: {k}")
    for mine, theirs in zip(flow["params"], T["params"]):
        np.testing.assert_allclose(flow["trained"][mine], G[f"trained/{theirs}"], rtol=1e-5, atol=1e-7)


def test_test_program_uses_the_stored_weight_scales(flow):
    """The test program's weight quantizer reads the last training step's scales (as Paddle's is_test kernel):
    its logits equal paddle's."""
    np.testing.assert_allclose(flow["test_logits"], G["test/logits"], rtol=1e-5, atol=1e-6)


def test_frozen_program_matches_paddle(flow):
    names = NameMap(flow)
    assert_rows_equal(paddle_rows(flow["test"]), golden_rows("test"), names)
    assert_rows_equal(paddle_rows(flow["frozen"]), golden_rows("frozen"), names)
    for mine, theirs in zip(flow["params"], T["params"]):
        if mine.endswith(".w_0"):  # integer levels: exactly Paddle's
            np.testing.assert_array_equal(flow["frozen_weights"][mine], G[f"frozen/{theirs}"])
        else:  # the biases stay float (equal to the float rounding of 4 training steps)
            np.testing.assert_allclose(flow["frozen_weights"][mine], G[f"frozen/{theirs}"], rtol=1e-5, atol=1e-7)
    for out, scale in flow["channel_scales"].items():  # (max |w| of the trained weights: to their float rounding)
        np.testing.assert_allclose(scale, G[f"frozen/channel_scale/{names.to_paddle[out]}"], rtol=1e-6)
    np.testing.assert_allclose(flow["frozen_logits"], G["frozen/logits"], rtol=1e-5, atol=1e-6)
    w = flow["frozen_weights"][flow["params"][0]]
    assert np.array_equal(w, np.round(w)) and np.abs(w).max() <= 127


def test_int8_program_matches_paddle(flow):
    names = NameMap(flow)
    assert_rows_equal(paddle_rows(flow["test"]), golden_rows("test"), names)
    assert_rows_equal(paddle_rows(flow["int8"]), golden_rows("int8"), names)
    for name, value in flow["int8_values"].items():
        assert value.dtype == np.int8
        np.testing.assert_array_equal(value, G[f"int8/{names.to_paddle[name[:-5]]}.int8"])
    block = flow["int8"].global_block()
    assert {v.name for v in block.vars.values() if v.name.endswith(".int8")} == set(flow["int8_values"])
    assert not any(p in block.vars for p in (flow["params"][0], flow["params"][-2]))  # float weights dropped


def test_passes_refuse_what_they_cannot_do(flow):
    with pytest.raises(ValueError, match="channel_wise_abs_max"):
        QuantizationTransformPass(activation_quantize_type="channel_wise_abs_max")
    with pytest.raises(ValueError, match="weight_quantize_type"):
        QuantizationTransformPass(weight_quantize_type="moving_average_abs_max")
    with pytest.raises(ValueError, match="not supported"):
        QuantizationTransformPass(quantizable_op_type=["relu"])
    with pytest.raises(NotImplementedError, match="range_abs_max"):
        QuantizationTransformPass(activation_quantize_type="range_abs_max").apply(IrGraph(flow["main"]))
    with pytest.raises(TypeError, match="IrGraph"):
        IrGraph("main")
    with pytest.raises(TypeError, match="IrGraph"):
        QuantizationTransformPass().apply(flow["main"])
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            _, loss = network()
            paddle.optimizer.SGD(0.1).minimize(loss)
    finally:
        paddle.disable_static()
    with pytest.raises(ValueError, match="minimize"):
        QuantizationTransformPass().apply(IrGraph(main))


def test_the_graph_copies_its_program(flow):
    """IrGraph rewrites a copy: the Program it was built from keeps its ops."""
    assert not any(op.type.startswith("fake_") for op in flow["main"].global_block().ops)


def test_skip_pattern_leaves_an_op_in_float():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 4], "float32")
            with paddle.static.name_scope("skip_quant"):
                y = paddle.static.nn.fc(x, 3)
            paddle.static.nn.fc(y, 2)
    finally:
        paddle.disable_static()
    graph = IrGraph(main, for_test=True)
    QuantizationTransformPass(paddle.static.Scope()).apply(graph)
    ops = graph.to_program().global_block().ops
    matmuls = [op for op in ops if op.type == "matmul"]
    assert matmuls[0].quant_attrs == {"skip_quant": True, "with_quant_attr": True}
    assert matmuls[1].quant_attrs["quantization_type"] == "qat_with_weight"
    assert [op.type for op in ops].count("fake_quantize_abs_max") == 2  # (the default abs_max: weight and input)
