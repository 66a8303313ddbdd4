"""paddle.static.quantization.quant_aware / convert against paddle 2.6.2 (tests/golden/quantization/
make_quant_aware_golden.py, same start weights and data) on a residual CNN, in both formats and with
is_full_quantize:
- what quant_aware returns (a CompiledProgram for training, a Program for testing);
- the training Program's forward ops (quant_aware takes the Program with SGD's backward and updates, as
  Paddle's users call it) and the test Program's ops: types, order, wiring, names, attributes; the residual add's
  `.skip` pair (AddQuantDequantForResidual) included;
- 4 training steps: losses and every scale, state and accum;
- convert's Program (ops and weights) and its logits, and save_int8's int8 weights (legacy format).
Programs are compared in Paddle's terms as in test_static_passes.py; observers (moving_average_abs_max_scale)
are compared as a set by what they observe, since Paddle's graph sort places them anywhere after their op.
"""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.quantization import AddQuantDequantForResidual, IrGraph, convert, quant_aware
from tests.golden_files import GOLDEN_ROOT as GOLDEN
from tests.quantization.test_static_passes import SLOTS, TYPES, NameMap
from tests.quantization.test_transform_v2 import QUANT_OUT, V2_SLOTS
from tests.quantization.training_tolerance import STRICT_STEPS, assert_losses_follow, assert_trained_value_follows

G = np.load(GOLDEN / "quantization" / "quant_aware.npz")
T = json.loads((GOLDEN / "quantization" / "quant_aware.json").read_text())
STEPS = 4
FLOWS = {"onnx": None, "legacy": {"onnx_format": False}, "full": {"is_full_quantize": True}}
TRAINS_AS_PADDLE = ("onnx", "legacy")  # (see test_full_quantize_trains_below_the_max_pool_where_paddle_does_not)
OBSERVER = "moving_average_abs_max_scale"
ATTRS = ("bit_length", "quant_axis", "is_test", "moving_rate", "max_range", "quant_bits", "quantization_type",
         "only_observer")  # fmt: skip
STATISTICS = ("fake_quantize_moving_average_abs_max", OBSERVER, "fake_channel_wise_quantize_abs_max")


def network():
    """The network of make_quant_aware_golden.py."""
    x = paddle.static.data("image", [-1, 1, 8, 8], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    c1 = paddle.static.nn.conv2d(x, 4, 3, padding=1, act="relu")
    c2 = paddle.static.nn.conv2d(c1, 4, 3, padding=1)
    r = paddle.nn.functional.relu(c1 + c2)
    p = paddle.nn.functional.max_pool2d(r, 2, 2)
    f = paddle.static.nn.fc(paddle.flatten(p, 1), 10)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(f, label))
    return f, loss


def feed(step: int) -> dict:
    return {"image": G["images"][step], "label": G["labels"][step]}


def run_flow(config):
    """The golden generator's flow in minipaddle: {stage: Program or values}."""
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
        out = {"params": names, "main": main, "scope": scope, "logits": logits.name}
        out["returned"] = quant_aware(main, None, config, scope=scope)
        out["test"] = quant_aware(test, None, config, scope=scope, for_test=True)
        out["train"] = out["returned"].program
        out["losses"], out["stats"] = [], []
        for step in range(STEPS):
            (lv,) = exe.run(out["returned"], feed=feed(step), fetch_list=[loss.name], scope=scope)
            out["losses"].append(lv)
            out["stats"].append(statistics(out["train"], scope))
        out["trained"] = {n: scope.vars[n].copy() for n in names}
        (out["test_logits"],) = exe.run(out["test"], feed=feed(STEPS), fetch_list=[logits.name], scope=scope)
        if config is None or config.get("onnx_format", True):
            out["converted"] = convert(out["test"], None, config, scope=scope)
        else:
            out["converted"], out["int8"] = convert(out["test"], None, config, scope=scope, save_int8=True)
            out["int8_values"] = {n: scope.vars[n] for n in scope.vars if n.endswith(".int8")}
        out["converted_weights"] = {n: np.array(scope.vars[n]) for n in names}
        (out["converted_logits"],) = exe.run(out["converted"], feed=feed(STEPS), fetch_list=[logits.name],
                                             scope=scope)  # fmt: skip
        return out
    finally:
        paddle.disable_static()


@functools.cache
def flow_named(name: str) -> dict:
    return {**run_flow(FLOWS[name]), "name": name}


@pytest.fixture(scope="module", params=list(FLOWS))
def flow(request):
    return flow_named(request.param)


def statistics(program, scope) -> dict:
    """{op type/x/slot: value} of every statistic the Program's ops update (make_quant_aware_golden.statistics)."""
    found = {}
    for op in program.global_block().ops:
        if op.role != "forward" or "x" not in op.inputs:
            continue
        x = op.inputs["x"][0]
        if op.type == "quantize_linear" and op.attrs.get("is_test") is False:
            _, scale, _, accum, state = (names[0] for names in op.inputs.values())
            for slot, name in (("OutScale", scale), ("OutState", state), ("OutAccum", accum)):
                found[f"{op.type}/{x}/{slot}"] = np.array(scope.vars[name])
        elif op.type in STATISTICS:
            for slot, name in zip(SLOTS[op.type][1], op.outputs["Out"]):
                if slot != "Out" and name in scope.vars:
                    found[f"{op.type}/{x}/{slot}"] = np.array(scope.vars[name])
    return found


def rows(program, block_idx: int = 0) -> list:
    """minipaddle's forward ops as make_quant_aware_golden.op_rows records Paddle's (the bias reshape left out),
    of block `block_idx` (the global block by default)."""
    block = program.block(block_idx)
    const = {n for b in program.blocks for n, v in b.vars.items() if v.persistable}
    out, alias = [], {}
    for op in block.ops:
        if op.role != "forward":
            continue
        ins = [n for n in op.input_names() if n is not None]
        if op.type == "reshape" and ins and all(n in const for n in ins):  # (minipaddle's bias reshape)
            alias[op.outputs["Out"][0]] = ins[0]
            continue
        kind = TYPES.get(op.type, op.type)
        if kind == "quantize_linear":
            in_slots, out_slots = V2_SLOTS[kind], QUANT_OUT[len(op.outputs["Out"])]
        elif kind == "dequantize_linear":
            in_slots, out_slots = V2_SLOTS[kind], ("Y",)
        elif kind in SLOTS:
            in_slots, out_slots = SLOTS[kind]
        else:  # (an op quantization does not touch, e.g. control flow: its own slot names)
            in_slots, out_slots = tuple(op.inputs), tuple(f"Out{i}" for i in range(len(op.outputs["Out"])))
        inputs = {}
        for slot, names in zip(in_slots, op.inputs.values()):
            names = [alias.get(n, n) for n in names if n is not None]
            if names:
                inputs[slot] = names
        outputs = {slot: [n] for slot, n in zip(out_slots, op.outputs["Out"])
                   if "_unused" not in n and ".observed" not in n}  # fmt: skip
        attrs = {k: v for k, v in {**op.attrs, **op.quant_attrs}.items() if k in ATTRS or k.endswith("_threshold")}
        out.append({"type": kind, "inputs": inputs, "outputs": outputs, "attrs": attrs})
    return out


def golden_rows(flow: str, stage: str) -> list:
    """Paddle's rows without what minipaddle's ops do not write or Paddle only lists: flatten's XShape; a test
    observer's OutScale; a per-channel training quantize_linear's OutState / OutAccum (its kernel leaves them);
    the proto default moving_rate of Q/DQ ops that do not train; conv2d / pool2d / mul's own is_test."""
    return clean_golden_rows(T[flow][stage])


def clean_golden_rows(golden: list) -> list:
    """golden_rows' cleaning of any list of paddle's rows."""
    out = []
    for row in golden:
        outputs = {k: v for k, v in row["outputs"].items() if k != "XShape"}
        attrs = {k: v for k, v in row["attrs"].items() if k in ATTRS or k.endswith("_threshold")}
        kind = row["type"]
        if kind == "quantize_linear" and attrs.get("quant_axis", -1) >= 0:
            outputs = {k: v for k, v in outputs.items() if k not in ("OutState", "OutAccum")}
        if kind == OBSERVER and attrs.get("is_test"):
            outputs.pop("OutScale", None)
        if kind in ("quantize_linear", "dequantize_linear") and "is_test" not in attrs:
            attrs.pop("moving_rate", None)
        if kind in ("conv2d", "pool2d", "mul"):
            attrs.pop("is_test", None)
        out.append({**row, "outputs": outputs, "attrs": attrs})
    return out


def _loose(row) -> bool:
    """Rows Paddle's graph sort places anywhere after their producer: observers, and convert's observer pairs
    (only_observer) whose output no quantizable op reads."""
    return row["type"] == OBSERVER or bool(row["attrs"].get("only_observer"))


def assert_row_equal(a: dict, b: dict, names: NameMap, where: str) -> None:
    assert a["type"] == b["type"], where
    for table in ("inputs", "outputs"):
        assert sorted(a[table]) == sorted(b[table]), f"{where}: {table} slots {a[table]} vs {b[table]}"
        for slot in a[table]:
            assert len(a[table][slot]) == len(b[table][slot]), where
            pairs = zip(a[table][slot], b[table][slot])
            assert all(names.same(m, t) for m, t in pairs), f"{where}: {slot} {a[table][slot]} vs {b[table][slot]}"
    assert sorted(a["attrs"]) == sorted(b["attrs"]), f"{where}: attrs {a['attrs']} vs {b['attrs']}"
    for k, v in b["attrs"].items():
        got = a["attrs"][k]
        if isinstance(v, float):
            np.testing.assert_allclose(got, v, rtol=1e-5, err_msg=f"{where}: {k}")
        else:
            assert (list(got) if isinstance(got, tuple) else got) == v, f"{where}: {k}"


def assert_rows_equal(mine: list, theirs: list, names: NameMap) -> None:
    """Op by op; the loose rows (see _loose) as a set, matched by type and what they read, quantize_linear
    first (a dequantize_linear reads the name its quantize_linear introduced)."""
    a_rows, b_rows = [r for r in mine if not _loose(r)], [r for r in theirs if not _loose(r)]
    assert [r["type"] for r in a_rows] == [r["type"] for r in b_rows]
    for i, (a, b) in enumerate(zip(a_rows, b_rows)):
        assert_row_equal(a, b, names, f"op {i} ({a['type']})")
    for kind in ("quantize_linear", "dequantize_linear", OBSERVER):
        a_rows = [r for r in mine if _loose(r) and r["type"] == kind]
        b_rows = {r["inputs"]["X"][0]: r for r in theirs if _loose(r) and r["type"] == kind}
        assert sorted(names.to_paddle.get(r["inputs"]["X"][0]) for r in a_rows) == sorted(b_rows), kind
        for a in a_rows:
            x = names.to_paddle[a["inputs"]["X"][0]]
            assert_row_equal(a, b_rows[x], names, f"{kind} of {x}")


def name_map(flow) -> NameMap:
    return NameMap({"params": flow["params"]})


def test_returns_what_paddle_returns(flow):
    assert type(flow["returned"]).__name__ == T[flow["name"]]["returns"] == "CompiledProgram"
    assert isinstance(flow["test"], paddle.static.Program)


def test_test_program_ops_match_paddle(flow):
    assert_rows_equal(rows(flow["test"]), golden_rows(flow["name"], "test"), name_map(flow))


def test_training_program_ops_match_paddle(flow):
    """The forward part of the Program quant_aware rebuilt from the minimized one; after it, minipaddle's own
    backward and the same SGD updates (one per parameter)."""
    assert_rows_equal(rows(flow["train"]), golden_rows(flow["name"], "train_forward"), name_map(flow))
    ops = flow["train"].global_block().ops
    assert sum(op.type == "sgd" for op in ops) == len(flow["params"])
    assert [op.type for op in flow["main"].global_block().ops if op.type.startswith(("quant", "dequant"))] == []


def test_residual_add_reads_its_own_pair(flow):
    """AddQuantDequantForResidual: the add of relu(conv1) and conv2 reads relu(conv1) through `{x}.skip`'s pair,
    while conv2 reads it through its own (per-tensor quantize_linear, in both formats, as Paddle's)."""
    block = flow["test"].global_block()
    (pair,) = [op for op in block.ops if op.type == "quantize_linear" and ".skip" in op.outputs["Out"][0]]
    x = pair.inputs["x"][0]
    assert pair.attrs["quant_axis"] == -1 and pair.inputs["scale"] == [f"{x}.skip@scale"]
    (residual,) = [op for op in block.ops if op.type == "add" and f"{x}.skip.quantized.dequantized" in op.input_names()]
    assert x not in residual.input_names()
    assert any(op.type == "conv2d" and f"{x}.quantized.dequantized" in op.input_names() for op in block.ops)


def test_training_steps_match_paddle(flow):
    """Every step where paddle's backward is sound; with is_full_quantize only the first forward (see below)."""
    names = name_map(flow)
    assert_rows_equal(rows(flow["train"]), golden_rows(flow["name"], "train_forward"), names)
    prefix = f"{flow['name']}/step"
    steps = STEPS if flow["name"] in TRAINS_AS_PADDLE else 1
    assert_losses_follow(flow["losses"][:steps], [G[f"{prefix}{s}/loss"] for s in range(steps)], "losses")
    for step in range(steps):
        theirs = {k[len(f"{prefix}{step}/") :]: G[k] for k in G.files
                  if k.startswith(f"{prefix}{step}/") and not k.endswith("/loss")}  # fmt: skip
        mine = {}
        for key, v in flow["stats"][step].items():
            kind, x, slot = key.split("/")
            mine[f"{kind}/{names.to_paddle[x]}/{slot}"] = v
        assert sorted(mine) == sorted(theirs)
        for k, v in theirs.items():
            if step < STRICT_STEPS:
                np.testing.assert_allclose(mine[k], v, rtol=2e-5, err_msg=f"step {step}: {k}")
            else:
                assert_trained_value_follows(mine[k], v, f"step {step}: {k}")
    if steps < STEPS:
        return
    for mine, theirs in zip(flow["params"], T["params"]):
        assert_trained_value_follows(flow["trained"][mine], G[f"{flow['name']}/trained/{theirs}"], mine)
    assert_trained_value_follows(flow["test_logits"], G[f"{flow['name']}/test/logits"], "test logits")


def test_full_quantize_trains_below_the_max_pool_where_paddle_does_not():
    """Paddle 2.6.2's bug, not copied: AddQuantDequantPassV2 points the grad ops of the ops it quantizes at the
    dequantized variables, so with is_full_quantize pool2d_grad reads X = relu's output quantized with the pool's
    input scale and Out = the pool's output quantized again with flatten's scale (checked in paddle's Program);
    its max-position test X == Out fails almost everywhere, and nothing below the pool gets a gradient: paddle's
    two convolutions end 4 steps exactly where they started. minipaddle's pairs pass gradients straight through,
    so its convolutions train like the fc."""
    flow = flow_named("full")
    for mine, theirs in zip(flow["params"], T["params"]):
        start, paddles = G[f"param/{theirs}"], G[f"full/trained/{theirs}"]
        moved = np.abs(flow["trained"][mine] - start).max()
        assert moved > 1e-3, mine
        if theirs.startswith("conv2d"):
            np.testing.assert_array_equal(paddles, start)
        else:
            assert np.abs(paddles - start).max() > 1e-3


def test_converted_program_matches_paddle(flow):
    """onnx_format: int8 weights behind a weight-only dequantize_linear and observer pairs (only_observer) on the
    outputs; legacy: integer weights in float32, the dequantize after the conv / mul and out_threshold attributes
    (the residual pair stays a quantize_linear pair, as in Paddle)."""
    names = name_map(flow)
    assert_rows_equal(rows(flow["test"]), golden_rows(flow["name"], "test"), names)
    assert_rows_equal(rows(flow["converted"]), golden_rows(flow["name"], "converted"), names)
    if flow["name"] not in TRAINS_AS_PADDLE:  # (other trained weights: the ops alone)
        return
    for mine, theirs in zip(flow["params"], T["params"]):
        got, want = flow["converted_weights"][mine], G[f"{flow['name']}/converted/{theirs}"]
        if mine.endswith(".w_0"):  # integer levels, of our own trained weights: within a level of paddle's
            assert got.dtype == want.dtype and np.array_equal(got, np.round(got)) and np.abs(got).max() <= 127
            assert np.abs(got.astype(np.float64) - want).max() <= 1
        else:
            assert_trained_value_follows(got, want, mine)
    assert_trained_value_follows(flow["converted_logits"], G[f"{flow['name']}/converted/logits"], "converted")
    assert flow["converted"].global_block().ops, "convert returns a Program"
    assert any(op.type.startswith(("quant", "dequant", "fake")) for op in flow["test"].global_block().ops)


def test_save_int8_matches_paddle():
    """(The legacy format only: with onnx_format the weights are int8 already, and save_int8 is refused.)"""
    flow = flow_named("legacy")
    names = name_map(flow)
    assert_rows_equal(rows(flow["test"]), golden_rows("legacy", "test"), names)
    assert_rows_equal(rows(flow["int8"]), golden_rows("legacy", "int8"), names)
    for name, value in flow["int8_values"].items():
        want = G[f"legacy/int8/{names.to_paddle[name[: -len('.int8')]]}.int8"]
        assert value.dtype == np.int8 and value.shape == want.shape
        assert np.abs(value.astype(np.int32) - want).max() <= 1


@pytest.mark.parametrize("case", T["configs"], ids=lambda c: json.dumps(c["config"], sort_keys=True))
def test_config_checks_are_paddles(case):
    """The configs paddle's _parse_configs accepts (with the op types it then quantizes) and refuses (its
    AssertionError is a ValueError or TypeError here, naming the key)."""
    from minipaddle.static.quantization.quanter import _parse_configs

    if case["accepted"]:
        assert _parse_configs(case["config"])["quantize_op_types"] == case["quantize_op_types"]
    else:
        with pytest.raises((ValueError, TypeError), match="quant_aware: "):
            _parse_configs(case["config"])


def test_config_choices_where_paddle_is_loose():
    """An unknown key is refused (paddle ignores a typo); a channel-wise activation type is refused by the config
    check (paddle's checks it against the weight types and fails later in the transform pass)."""
    from minipaddle.static.quantization.quanter import _parse_configs

    with pytest.raises(ValueError, match="unknown config key.*weight_bit"):
        _parse_configs({"weight_bit": 4})
    with pytest.raises(ValueError, match="activation_quantize_type"):
        _parse_configs({"activation_quantize_type": "channel_wise_abs_max"})
    with pytest.raises(TypeError, match="config must be a dict"):
        quant_aware(paddle.static.Program(), None, config=[("weight_bits", 8)])


def small_programs(minimize: str | None = "sgd"):
    """(main, test, startup, loss) of a one-fc net, main optionally minimized."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 4], "float32")
            loss = paddle.mean(paddle.static.nn.fc(x, 3))
            test = main.clone(for_test=True)
            if minimize == "sgd":
                paddle.optimizer.SGD(0.1).minimize(loss)
            elif minimize == "backward":
                paddle.static.append_backward(loss)
    finally:
        paddle.disable_static()
    return main, test, startup, loss


def test_quant_aware_refuses_what_it_cannot_do():
    main, test, _, _ = small_programs()
    with pytest.raises(TypeError, match="quant_aware: program must be"):
        quant_aware("main", None)
    with pytest.raises(ValueError, match="for_test=True takes a test Program"):
        quant_aware(main, None, scope=paddle.static.Scope(), for_test=True)
    with pytest.raises(ValueError, match="give exactly one of data_loader"):  # (quant_post_first needs data)
        quant_aware(test, None, {"quant_post_first": True}, for_test=True,
                    calib_config={"feed_list": ["x"], "fetch_list": []})  # fmt: skip
    with pytest.raises(ValueError, match="needs executor="):
        quant_aware(test, None, scope=paddle.static.Scope(), for_test=True, weight_quantize_func=lambda w: w)
    backward_only, _, _, _ = small_programs("backward")
    with pytest.raises(ValueError, match="one optimizer's minimize"):
        quant_aware(backward_only, None, scope=paddle.static.Scope())
    with pytest.raises(TypeError, match="convert: program must be"):
        convert(quant_aware(main, None, scope=paddle.static.Scope()), None)


def test_convert_refuses_save_int8_with_onnx_format_before_touching_the_scope():
    _, test, startup, _ = small_programs(None)
    scope = paddle.static.Scope()
    paddle.enable_static()
    try:
        paddle.static.Executor().run(startup, scope=scope)
    finally:
        paddle.disable_static()
    q = quant_aware(test, None, scope=scope, for_test=True)
    before = {n: np.array(v) for n, v in scope.vars.items()}
    with pytest.raises(ValueError, match="save_int8 must be False"):
        convert(q, None, scope=scope, save_int8=True)
    assert all(np.array_equal(scope.vars[n], v) and scope.vars[n].dtype == v.dtype for n, v in before.items())


def test_forward_program_and_options():
    """A forward-only Program gets no backward; return_program gives a Program; scale_trainable False builds the
    test-mode ops (the scales stay); return_scale_dict returns what it was given; an op type paddle knows and
    minipaddle has no op for ('lstm') matches nothing."""
    _, test, _, _ = small_programs(None)
    scope = paddle.static.Scope()
    q = quant_aware(test, None, {"quantize_op_types": ["mul", "lstm"]}, scope=scope, return_program=True)
    assert isinstance(q, paddle.static.Program)
    assert all(op.role == "forward" for op in q.global_block().ops)
    assert [op.attrs.get("is_test") for op in q.global_block().ops if op.type == "quantize_linear"] == [False] * 2
    frozen = quant_aware(test, None, {"scale_trainable": False}, scope=scope, return_program=True)
    assert all("is_test" not in op.attrs for op in frozen.global_block().ops if op.type == "quantize_linear")
    out = quant_aware(test, None, scope=scope, for_test=True, return_scale_dict=True, scale_dict={"a": 1.0},
                      model_type="transformer", pattern_ops={"p": []})  # fmt: skip
    assert isinstance(out[0], paddle.static.Program) and out[1:] == ({"a": 1.0}, "transformer", {"p": []})


def residual_graph(for_test=True):
    """y = relu(x) + fc(relu(x)) and z = y + y: one residual add, one add of a variable to itself."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 4], "float32")
            r = paddle.nn.functional.relu(x)
            y = r + paddle.static.nn.fc(r, 4)
            z = y + y
    finally:
        paddle.disable_static()
    return IrGraph(main, for_test=for_test), r.name, y.name, z.name


def test_residual_pass_on_its_own():
    graph, r, y, z = residual_graph()
    scope = paddle.static.Scope()
    AddQuantDequantForResidual(scope, None).apply(graph)
    block = graph.block
    adds = [op for op in block.ops if op.type == "add"]
    bias_add, residual, double = adds
    assert bias_add.inputs["y"][0] in graph.constant_names() and bias_add.inputs["x"][0].startswith("matmul")
    assert residual.inputs["x"] == [f"{r}.skip.quantized.dequantized"]  # (r was read first, by the fc)
    assert double.inputs["x"] == double.inputs["y"] == [f"{y}.skip.quantized.dequantized"]  # (a tie: y's input)
    pairs = [op for op in block.ops if op.type == "quantize_linear"]
    assert [op.inputs["x"][0] for op in pairs] == [r, y]
    assert all(op.attrs == {"quant_axis": -1, "bit_length": 8} for op in pairs)
    np.testing.assert_array_equal(scope.vars[f"{r}.skip@scale"], np.array([0.001], np.float32))
    train, r, _, _ = residual_graph(for_test=False)
    AddQuantDequantForResidual(scope, None, quant_bits=4, is_test=False).apply(train)
    (pair, _) = [op for op in train.block.ops if op.type == "quantize_linear"]
    assert pair.attrs == {"quant_axis": -1, "bit_length": 4, "is_test": False, "moving_rate": 0.9}
    with pytest.raises(ValueError, match="quant_bits"):
        AddQuantDequantForResidual(scope, None, quant_bits=0)
    with pytest.raises(ValueError, match="scope"):
        AddQuantDequantForResidual(None, None)
    with pytest.raises(TypeError, match="IrGraph"):
        AddQuantDequantForResidual(scope, None).apply(train.to_program())


def test_a_minimized_adam_program_keeps_its_optimizer_state():
    """The rebuilt training Program updates the same Adam moments and learning rate (no new state), and trains."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 4], "float32")
            y = paddle.static.data("y", [-1, 3], "float32")
            loss = paddle.mean((paddle.static.nn.fc(x, 3) - y) ** 2)
            paddle.optimizer.Adam(0.05).minimize(loss)
        scope, exe = paddle.static.Scope(), paddle.static.Executor()
        exe.run(startup, scope=scope)
        q = quant_aware(main, None, scope=scope)
        state = lambda p: {n for op in p.global_block().ops if op.role == "optimize" for n in op.input_names()}  # noqa: E731
        assert state(q.program) == state(main)
        rng = np.random.default_rng(0)
        data = {"x": rng.normal(size=(16, 4)).astype("float32")}
        data["y"] = (data["x"] @ rng.normal(size=(4, 3))).astype("float32")
        losses = [exe.run(q, feed=data, fetch_list=[loss.name], scope=scope)[0] for _ in range(10)]
    finally:
        paddle.disable_static()
    assert losses[-1] < 0.7 * losses[0]


def test_the_converted_program_exports_to_onnx_and_runs_in_onnxruntime(tmp_path):
    """convert's onnx_format Program saved with save_inference_model and exported: QuantizeLinear ->
    DequantizeLinear on the conv / mul inputs and on the residual's shortcut, int8 weights with a DequantizeLinear
    each, the observer pairs as Identity. onnxruntime equals the Program with its graph optimizations off and on
    (on, it fuses no integer kernel, as no QuantizeLinear follows a conv: measured 5e-7, outputs up to 4.3)."""
    onnx = pytest.importorskip("onnx")
    from tests.quantization.test_ptq_onnx_format import run_onnxruntime

    flow = flow_named("onnx")
    prefix = str(tmp_path / "model")
    x = np.random.default_rng(1).normal(size=(32, 1, 8, 8)).astype("float32")
    paddle.enable_static()
    try:
        block = flow["converted"].global_block()
        with paddle.static.scope_guard(flow["scope"]):
            exe = paddle.static.Executor()
            paddle.static.save_inference_model(prefix, [block.var("image")], [block.var(flow["logits"])], exe,
                                               program=flow["converted"])  # fmt: skip
            (want,) = exe.run(flow["converted"], feed={"image": x, "label": np.zeros((32, 1), np.int64)},
                              fetch_list=[flow["logits"]])  # fmt: skip
    finally:
        paddle.disable_static()
    path = paddle.onnx.export_model(prefix + ".pdmodel", prefix + ".pdiparams", str(tmp_path / "m.onnx"),
                                    opset_version=13)  # fmt: skip
    types = [n.op_type for n in onnx.load(path).graph.node]
    assert types.count("QuantizeLinear") == 4  # image, relu(conv1) for conv2 and for the residual add, flatten
    assert types.count("DequantizeLinear") == 4 + 3  # (and the three int8 weights)
    for level in ("ORT_DISABLE_ALL", "ORT_ENABLE_ALL"):
        np.testing.assert_allclose(run_onnxruntime(path, x, level), want, rtol=1e-5, atol=1e-5, err_msg=level)


def test_not_quant_pattern_leaves_a_layer_in_float():
    """Ops under a name scope holding one of the config's not_quant_pattern stay in float (and are marked so)."""
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [-1, 4], "float32")
            with paddle.static.name_scope("head_keep_float"):
                y = paddle.static.nn.fc(x, 3)
            paddle.static.nn.fc(y, 2)
    finally:
        paddle.disable_static()
    for config, quantized in ((None, 2), ({"not_quant_pattern": "keep_float"}, 1), ({"not_quant_pattern": ["x"]}, 2)):
        q = quant_aware(main, None, config, scope=paddle.static.Scope(), for_test=True)
        matmuls = [op for op in q.global_block().ops if op.type == "matmul"]
        read_dequantized = [op for op in matmuls if all(".dequantized" in n for n in op.input_names())]
        assert len(read_dequantized) == quantized, config
        if quantized == 1:
            assert matmuls[0].quant_attrs.get("skip_quant") is True


def test_draw_graph_writes_the_quantized_graph_as_paddle(tmp_path, monkeypatch, capsys):
    """draw_graph=True: as paddle's IrGraph.draw('./', 'graph.pdf'), './graph.pdf.dot' (and with Graphviz's dot
    './graph.pdf.pdf'), after "Total ops num = N."; every op of the quantized graph is a node, each data flow
    an edge; without dot, paddle's two lines say the .dot file is what was saved."""
    _, test, _, _ = small_programs(None)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))  # (no dot here, whatever the machine has)
    q = quant_aware(test, None, scope=paddle.static.Scope(), for_test=True, draw_graph=True)
    text = (tmp_path / "graph.pdf.dot").read_text()
    ops = q.global_block().ops
    out = capsys.readouterr().out
    assert f"Total ops num = {len(ops)}." in out
    assert "The dot command is needed for creating pdf files." in out and "graph.pdf.dot is saved" in out
    boxes = [line for line in text.splitlines() if "shape=box" in line]
    assert sorted(b.split('label="')[1].split('"')[0] for b in boxes) == sorted(op.type for op in ops)
    edges = sum(len([n for n in op.input_names() if n is not None]) + len(op.output_names()) for op in ops)
    assert text.count("->") == edges and text.startswith("digraph G {")
