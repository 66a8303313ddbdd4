"""AddQuantDequantForInferencePass and ReplaceFakeQuantDequantPass on the static LeNet against paddle 2.6.2
(tests/golden/quantization/make_v2_infer_golden.py), every flow run from the state paddle trained (never from
ours, which follows paddle's only within a level flip: training_tolerance.py):

- convert (quanter.convert(onnx_format=True)): the V2 test graph with OutScaleForTrainingPass's observers, then
  QuantWeightPass and AddQuantDequantForInferencePass;
- calibrated (PostTrainingQuantization(onnx_format=True)): a calibration_range_dict, a teller set, outputs
  really quantized (only_observer False);
- replace: the legacy test graph through ReplaceFakeQuantDequantPass.

The op lists are compared as sets of rows (type, wiring by Paddle's names, the pairs' attributes): Paddle's
to_program sorts the graph, and puts the pairs nobody reads (AddQuantDequantForInferencePass's second pair on a
variable the V2 passes already quantized, or on the logits, whose reader is no quantizable op) at the end in an
order that changes from run to run. Whether our order runs is checked by the logits.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.quantization import (
    AddQuantDequantForInferencePass,
    AddQuantDequantPass,
    IrGraph,
    OutScaleForTrainingPass,
    QuantizationTransformPass,
    QuantWeightPass,
    ReplaceFakeQuantDequantPass,
)
from minipaddle.static.quantization.transform import _op
from tests.golden_files import GOLDEN_ROOT as GOLDEN
from tests.quantization import test_transform_v2 as v2
from tests.quantization.test_transform_v2 import (
    STEPS,
    G,
    P,
    assert_rows_equal,
    golden_rows,
    name_map,
    rows,
    run_test_program,
)

flow, paddles_state = v2.flow, v2.paddles_state  # (the V2 flow's fixtures: its Programs and paddle's trained state)

I = np.load(GOLDEN / "quantization" / "v2_infer.npz")  # noqa: E741
T = json.loads((GOLDEN / "quantization" / "v2_infer.json").read_text())
S = json.loads((GOLDEN / "quantization" / "static_passes.json").read_text())  # (the legacy flow's param names)
LEGACY_OBSERVING = ("fake_quantize_moving_average_abs_max", "fake_quantize_dequantize_moving_average_abs_max",
                    "fake_channel_wise_quantize_abs_max")  # fmt: skip
PAIR = ("quantize_linear", "dequantize_linear")
PAIR_ATTRS = ("bit_length", "quant_axis", "only_observer", "is_test")


@pytest.fixture(scope="module")
def to_paddle(flow, paddles_state):
    """minipaddle name -> Paddle's, for every variable of the V2 test graph (learned by comparing it)."""
    names = name_map(flow)
    assert_rows_equal(rows(flow["test"]), golden_rows("test"), names)
    return dict(names.to_paddle)


def paddle_name(name: str, to_paddle: dict) -> str:
    """Paddle's name of `name`, or of the variable it is derived from (`relu_0.tmp_0.quantized@zero_point` is
    `conv2d_0.tmp_2.quantized@zero_point`)."""
    if name in to_paddle:
        return to_paddle[name]
    bases = [b for b in to_paddle if name.startswith(b) and name[len(b)] in ".@"]
    if not bases:
        return name
    base = max(bases, key=len)
    return to_paddle[base] + name[len(base) :]


def canonical(row: dict, rename=lambda n: n) -> str:
    """A row as text: type, wiring, and the attributes of the pairs (the ops these passes make)."""
    attrs = {k: v for k, v in row["attrs"].items() if k in PAIR_ATTRS} if row["type"] in PAIR else {}
    wiring = {t: {s: [rename(n) for n in names] for s, names in row[t].items() if s != "XShape"}
              for t in ("inputs", "outputs")}  # fmt: skip
    return json.dumps({"type": row["type"], **wiring, "attrs": attrs}, sort_keys=True)


def assert_same_ops(program, stage: str, to_paddle: dict) -> None:
    mine = sorted(canonical(r, lambda n: paddle_name(n, to_paddle)) for r in rows(program))
    theirs = sorted(canonical(r) for r in T[stage])
    missing, extra = sorted(set(theirs) - set(mine)), sorted(set(mine) - set(theirs))
    assert mine == theirs, f"{stage}: paddle's rows we lack {missing[:3]}, rows paddle lacks {extra[:3]}"


def copy_of(scope):
    out = paddle.static.Scope()
    out.vars.update({n: np.array(v) for n, v in scope.vars.items()})
    return out


def convert(flow, paddles_state, to_paddle):
    """convert(onnx_format=True) on the V2 test graph with observers holding paddle's recorded scales."""
    scope, mine_of = copy_of(paddles_state), {v: k for k, v in to_paddle.items()}
    graph = IrGraph(flow["test"], for_test=True)
    OutScaleForTrainingPass(scope, None, is_test=True).apply(graph)
    observed = [op.inputs["x"][0] for op in graph.block.ops if op.type == "moving_average_abs_max_scale"]
    recorded = [k[len("convert/scale/") :] for k in I.files if k.startswith("convert/scale/")]
    assert sorted(to_paddle[n] for n in observed) == sorted(recorded)  # (the observers sit where paddle's do)
    for name in recorded:
        scope.vars[f"{mine_of[name]}@scale"] = I[f"convert/scale/{name}"].copy()
    QuantWeightPass(scope, None).apply(graph)
    AddQuantDequantForInferencePass(scope, None, quant_bits=8).apply(graph)
    return graph.to_program(), scope


def test_convert_flow_matches_paddle(flow, paddles_state, to_paddle):
    """Pairs after every quantizable output, reading the recorded scales; the observers gone; the pairs only
    observe, so the logits are QuantWeightPass's (and paddle's)."""
    program, scope = convert(flow, paddles_state, to_paddle)
    assert_same_ops(program, "convert", to_paddle)
    assert not any(op.type == "moving_average_abs_max_scale" for op in program.global_block().ops)
    logits = run_test_program(program, scope, flow["logits"])
    np.testing.assert_allclose(logits, I["convert/logits"], rtol=1e-5, atol=1e-6)


def test_calibrated_outputs_are_quantized_as_paddles(flow, paddles_state, to_paddle):
    """calibration_range_dict gives the scales of outputs without one; the others are skipped with a warning;
    with only_observer False the pairs quantize, and the logits move with paddle's."""
    scope, mine_of = copy_of(paddles_state), {v: k for k, v in to_paddle.items()}
    graph = IrGraph(flow["test"], for_test=True)
    QuantWeightPass(scope, None).apply(graph)
    ranges = {mine_of[k]: v for k, v in T["calibration_range_dict"].items()}
    with pytest.warns(UserWarning, match="no scale for"):
        AddQuantDequantForInferencePass(scope, None, quantizable_op_type=["conv2d", "elementwise_add", "mul"],
                                        calibration_range_dict=ranges, only_observer=False).apply(graph)  # fmt: skip
    program = graph.to_program()
    assert_same_ops(program, "calibrated", to_paddle)
    for name, value in ranges.items():
        np.testing.assert_array_equal(scope.vars[f"{name}@scale"], np.array([value], np.float32))
    logits = run_test_program(program, scope, flow["logits"])
    np.testing.assert_allclose(logits, I["calibrated/logits"], rtol=1e-5, atol=1e-6)
    assert np.abs(logits - I["convert/logits"]).max() > 1e-4  # (quantizing the outputs changed them)


def legacy_test_graph(flow, to_paddle):
    """The legacy passes' test graph (no observers: paddle's pass needs an observer's Out, which static
    observers lack) in a scope of the legacy flow's trained weights and scales (static_passes.npz)."""
    scope = paddle.static.Scope()
    for mine, theirs in zip(flow["params"], S["params"]):
        scope.vars[mine] = G[f"trained/{theirs}"].copy()
    graph = IrGraph(flow["main"].clone(for_test=True), for_test=True)
    QuantizationTransformPass(scope, None, activation_quantize_type="moving_average_abs_max",
                              weight_quantize_type="channel_wise_abs_max",
                              quantizable_op_type=["conv2d", "mul", "matmul_v2"]).apply(graph)  # fmt: skip
    AddQuantDequantPass(scope, None, quantizable_op_type=["pool2d"]).apply(graph)
    for op in graph.block.ops:  # (the weights' quantizers read their stored scales, as paddle's test kernel)
        if op.type in LEGACY_OBSERVING:
            x, scale = (names[0] for names in list(op.inputs.values())[:2])
            scope.vars[scale] = G[f"step{STEPS - 1}/{op.type}/{paddle_name(x, to_paddle)}/OutScale"].copy()
    return graph, scope


def test_replace_fake_quant_dequant_matches_paddle(flow, to_paddle):
    assert S["params"] == P  # (both generators start from the same weights, under the same names)
    graph, scope = legacy_test_graph(flow, to_paddle)
    before = run_test_program(graph.to_program(), scope, flow["logits"])
    ReplaceFakeQuantDequantPass(scope, None, quant_bits=8).apply(graph)
    program = graph.to_program()
    assert_same_ops(program, "replace", to_paddle)
    zero = [n for n in scope.vars if n.endswith("@zero_point")]
    assert len(zero) == 2 and all(scope.vars[n].dtype == np.int32 and not scope.vars[n].any() for n in zero)
    logits = run_test_program(program, scope, flow["logits"])
    np.testing.assert_allclose(logits, I["replace/logits"], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(logits, before)  # (the pair computes what the fake op did)


def test_replace_turns_observers_into_pairs_and_drops_observers_of_observers(flow):
    """An observer whose output is read (as in a program ImperativeQuantAware saved) becomes a pair writing that
    output from its recorded scale; an observer reading another observer's output goes, its readers reading
    that output (paddle 2.6.2 fails on static observers, which have no output, so there is no golden here)."""
    scope = copy_of(flow["scope"])
    graph = IrGraph(flow["main"].clone(for_test=True), for_test=True)
    OutScaleForTrainingPass(scope, None, is_test=True).apply(graph)
    first = next(op for op in graph.block.ops if op.type == "moving_average_abs_max_scale")
    x, out = first.inputs["x"][0], first.outputs["Out"][0]
    like = graph.var(x)
    extra = [graph.create_var(f"{x}.{what}", like, shape=shape).name
             for what, shape in (("observed2", None), ("s", (1,)), ("st", (1,)), ("ac", (1,)))]  # fmt: skip
    second = _op("moving_average_abs_max_scale", [out, None, None], extra, dict(first.attrs), first)
    graph.insert_after(first, second)
    for reader in [op for op in graph.readers(x) if op is not first]:  # x -> first -> second -> the next op
        graph.update_input_link(x, extra[0], reader)
    before = run_test_program(graph.to_program(), scope, flow["logits"])
    measured = np.abs(run_test_program(graph.to_program(), scope, x)).max()
    scope.vars[f"{x}@scale"] = np.array([measured], np.float32)  # (what a trained observer would hold)
    ReplaceFakeQuantDequantPass(scope, None).apply(graph)
    program = graph.to_program()
    ops = program.global_block().ops
    assert second not in ops and not any(op.type == "moving_average_abs_max_scale" for op in ops)
    quant = next(op for op in ops if op.type == "quantize_linear" and op.inputs["x"] == [x])
    dequant = next(op for op in ops if op.type == "dequantize_linear" and op.inputs["x"] == [f"{x}.quantized"])
    assert quant.inputs["scale"] == [f"{x}@scale"] and dequant.outputs["Out"] == [out]
    assert quant.attrs == {"quant_axis": -1, "bit_length": 8} == dequant.attrs
    assert all(extra[0] not in op.input_names() for op in ops)  # (the next op reads the first output now)
    np.testing.assert_allclose(run_test_program(program, scope, flow["logits"]), before, rtol=2e-2, atol=2e-2)
    scope.vars[f"{x}@scale"] = np.array([1e6], np.float32)  # (a huge scale: every level of x is 0)
    assert not np.allclose(run_test_program(program, scope, flow["logits"]), before, atol=1e-3)


def test_passes_refuse_bad_arguments():
    scope = paddle.static.Scope()
    with pytest.raises(ValueError, match="scope"):
        AddQuantDequantForInferencePass(None, None)
    with pytest.raises(ValueError, match="not supported"):
        AddQuantDequantForInferencePass(scope, None, quantizable_op_type=["nope"])
    with pytest.raises(TypeError, match="calibration_range_dict"):
        AddQuantDequantForInferencePass(scope, None, calibration_range_dict=[1.0])
    with pytest.raises(ValueError, match="quant_bits"):
        AddQuantDequantForInferencePass(scope, None, quant_bits=1)
    with pytest.raises(ValueError, match="scope"):
        ReplaceFakeQuantDequantPass(None, None)
    with pytest.raises(ValueError, match="quant_bits"):
        ReplaceFakeQuantDequantPass(scope, None, quant_bits="8")
    for p in (AddQuantDequantForInferencePass(scope, None), ReplaceFakeQuantDequantPass(scope, None)):
        with pytest.raises(TypeError, match="IrGraph"):
            p.apply("main")
