"""TransformForMobilePass against paddle 2.6.2 (tests/golden/quantization/make_mobile_golden.py): on the frozen
legacy-format Program of a conv2d + fc network, the fake quantize / dequantize ops become paddle-mobile's
quantize / dequantize in place, every other op and every input, output and attribute as they were; paddle's
result and minipaddle's are the same Program. Only paddle-mobile runs it: paddle 2.6.2 cannot (recorded), nor
minipaddle's Executor (it says which op it does not know). Paddle saves it, and minipaddle's .pdmodel of it has
paddle's quantize / dequantize ops (golden `saved`)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.quantization import IrGraph, TransformForMobilePass, convert, quant_aware
from tests.golden_files import GOLDEN_ROOT as GOLDEN
from tests.quantization.test_quant_aware import assert_rows_equal, clean_golden_rows, rows
from tests.quantization.test_static_passes import NameMap

T = json.loads((GOLDEN / "quantization" / "mobile.json").read_text())
CONFIG = {"onnx_format": False}
RENAMED = {"fake_quantize_abs_max": "quantize", "fake_quantize_range_abs_max": "quantize",
           "fake_quantize_moving_average_abs_max": "quantize", "fake_channel_wise_quantize_abs_max": "quantize",
           "fake_dequantize_max_abs": "dequantize", "fake_channel_wise_dequantize_max_abs": "dequantize"}  # fmt: skip


def programs():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 1, 6, 6], "float32")
            c = paddle.static.nn.conv2d(x, 2, 3, act="relu")
            out = paddle.static.nn.fc(paddle.flatten(c, 1), 3)
        test = main.clone(for_test=True)
        scope, exe = paddle.static.Scope(), paddle.static.Executor()
        exe.run(startup, scope=scope)
        frozen = convert(quant_aware(test, None, CONFIG, scope=scope, for_test=True), None, CONFIG, scope=scope)
        graph = IrGraph(frozen, for_test=True)
        assert TransformForMobilePass().apply(graph) is graph
        names = [p.name for p in main.all_parameters()]
        return frozen, graph.to_program(), names, exe, scope, out
    finally:
        paddle.disable_static()


def names_of(params) -> NameMap:
    names = NameMap.__new__(NameMap)
    theirs = ["conv2d_0.w_0", "conv2d_0.b_0", "fc_0.w_0", "fc_0.b_0"]
    names.to_paddle, names.seen = dict(zip(params, theirs)), set(theirs)
    return names


def test_paddles_pass_only_renames():
    """(What paddle's pass does, read from its own Programs.)"""
    frozen, mobile = T["frozen"], T["mobile"]
    assert [RENAMED.get(r["type"], r["type"]) for r in frozen] == [r["type"] for r in mobile]
    assert {"quantize", "dequantize"} <= {r["type"] for r in mobile} and not set(RENAMED) & {r["type"] for r in mobile}
    for a, b in zip(frozen, mobile):
        assert (a["inputs"], a["outputs"], a["attrs"]) == (b["inputs"], b["outputs"], b["attrs"])
    assert "Operator quantize's input (Input) is not set" in T["paddle_runs"]


def test_mobile_program_matches_paddle():
    frozen, mobile, params, _, _, _ = programs()
    names = names_of(params)
    assert_rows_equal(rows(frozen), clean_golden_rows(T["frozen"]), names)
    kinds = [RENAMED.get(op.type, op.type) for op in frozen.global_block().ops]
    assert [op.type for op in mobile.global_block().ops] == kinds
    for before, after in zip(frozen.global_block().ops, mobile.global_block().ops):
        assert (before.inputs, before.outputs, before.attrs) == (after.inputs, after.outputs, after.attrs)
    # in paddle's terms (rows() reads slots by op type, and the renamed ops keep their old slots)
    renamed = [{**r, "type": RENAMED.get(r["type"], r["type"])} for r in rows(frozen)]
    assert_rows_equal(renamed, clean_golden_rows(T["mobile"]), names)


def test_only_paddle_mobile_runs_it():
    _, mobile, _, exe, scope, out = programs()
    paddle.enable_static()
    try:
        with pytest.raises(KeyError, match="quantize"):
            exe.run(mobile, feed={"x": np.ones((1, 1, 6, 6), "float32")}, fetch_list=[out.name], scope=scope)
    finally:
        paddle.disable_static()


def saved_rows(path: str) -> list:
    """Every op of a .pdmodel as make_mobile_golden.saved_rows records paddle's (all slots, all attributes)."""
    from minipaddle.static.paddle_proto import ProgramDesc
    from minipaddle.static.pdmodel import _attr_value

    desc = ProgramDesc()
    with open(path, "rb") as fh:
        desc.ParseFromString(fh.read())
    return [{"type": op.type, "inputs": {v.parameter: list(v.arguments) for v in op.inputs},
             "outputs": {v.parameter: list(v.arguments) for v in op.outputs},
             "attrs": {a.name: _attr_value(a) for a in op.attrs}} for op in desc.blocks[0].ops]  # fmt: skip


# attributes paddle gives the ops a Python layer builds and not those its graph passes build (the mobile ops);
# minipaddle writes them on every op. Nothing reads them.
BOOKKEEPING = ("op_namescope", "op_role_var", "with_quant_attr")


def test_mobile_program_saves_as_paddle_saves_it(tmp_path):
    """paddle 2.6.2 saves the mobile Program (it cannot run it): save_inference_model clips its quantize /
    dequantize against paddle's own (oneDNN) ops of those names, so they keep their inputs and lose their outputs
    and attributes. minipaddle's .pdmodel has the same quantize / dequantize ops, reading the same variables, and
    otherwise the ops the frozen Program saves as."""
    frozen, mobile, params, exe, scope, out = programs()
    paths = {}
    paddle.enable_static()
    try:
        with paddle.static.scope_guard(scope):
            for name, program in (("frozen", frozen), ("mobile", mobile)):
                paths[name] = str(tmp_path / name)
                block = program.global_block()
                paddle.static.save_inference_model(paths[name], [block.var("x")], [block.var(out.name)], exe,
                                                   program=program)  # fmt: skip
    finally:
        paddle.disable_static()
    mine, before = saved_rows(paths["mobile"] + ".pdmodel"), saved_rows(paths["frozen"] + ".pdmodel")
    assert [r["type"] for r in mine] == [RENAMED.get(r["type"], r["type"]) for r in before]
    for a, b in zip(mine, before):
        if a["type"] not in ("quantize", "dequantize"):
            assert a == b
    theirs = [r for r in T["saved"] if r["type"] in ("quantize", "dequantize")]
    ours = [r for r in mine if r["type"] in ("quantize", "dequantize")]
    assert [r["type"] for r in ours] == [r["type"] for r in theirs] == ["quantize", "dequantize"] * 2
    names = names_of(params)
    # (paddle's Program reads its fc input from flatten_0.tmp_0, minipaddle's from reshape_1.tmp_0; its conv output
    # is conv2d_0.tmp_0, minipaddle's conv2d_1.tmp_0: the frozen Programs' own names, learned here)
    for a, b in zip(ours, theirs):
        assert a["outputs"] == b["outputs"] == {}
        assert sorted(a["inputs"]) == sorted(b["inputs"])
        for slot in a["inputs"]:
            assert all(names.same(m, t) for m, t in zip(a["inputs"][slot], b["inputs"][slot])), (a, b)
        assert {k: v for k, v in a["attrs"].items() if k not in BOOKKEEPING} == b["attrs"] == {"op_device": "",
                                                                                              "op_role": 0}  # fmt: skip


@pytest.mark.parametrize("kind", ["fake_quantize_abs_max", "fake_quantize_range_abs_max",
                                  "fake_quantize_moving_average_abs_max", "fake_channel_wise_quantize_abs_max",
                                  "fake_dequantize_max_abs", "fake_channel_wise_dequantize_max_abs"])  # fmt: skip
def test_the_writer_knows_which_fake_op_a_mobile_op_was(kind):
    import inspect

    from minipaddle.core.op import OPS
    from minipaddle.static.builder import input_slots
    from minipaddle.static.paddle_ops import _fake_op_renamed
    from minipaddle.static.program import OpDesc

    slots = [s.lstrip("*") for s in input_slots(OPS[kind])]
    attrs = {p.name: p.default for p in inspect.signature(OPS[kind].kernel).parameters.values() if p.name not in slots}
    assert _fake_op_renamed(OpDesc(RENAMED[kind], {s: ["v"] for s in slots}, {"Out": ["y"]}, attrs)) == kind
