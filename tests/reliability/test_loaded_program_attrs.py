"""A loaded Program's attributes are checked against each op's attribute types (issue 18): the type of the
default of the op's kernel argument (static/serialize.check_op_attrs). `transpose_x: "zzz"` loaded and failed
later inside numpy; `transpose_x: null` was silently False. Both are refused when the file is read, with a
ValueError naming the file, the op, the attribute, the expected type and what came."""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.serialize import check_op_attrs


@pytest.fixture
def saved_matmul(tmp_path):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3], "float32")
            w = paddle.static.create_parameter([3, 4], "float32")
            y = paddle.matmul(x, w)
        exe = paddle.static.Executor()
        exe.run(startup)
        prefix = str(tmp_path / "m")
        paddle.static.save_inference_model(prefix, [x], [y], exe, format="minipaddle")
        os.remove(prefix + ".pdset")  # the set's manifest would refuse the edit first; the reader must too
        yield prefix, exe
    finally:
        paddle.disable_static()


def _set_attr(prefix: str, name: str, value) -> str:
    program = json.loads(open(prefix + ".pdmodel").read())
    ops = [op for block in program["blocks"] for op in block["ops"] if name in op["attrs"]]
    assert ops, f"no op with attribute {name}"
    ops[0]["attrs"][name] = value
    open(prefix + ".pdmodel", "w").write(json.dumps(program))
    return ops[0]["type"]


@pytest.mark.parametrize("value, shown", [("zzz", "'zzz' (str)"), (None, "None (NoneType)"), (1, "1 (int)")])
def test_a_mistyped_attribute_is_refused_at_load(saved_matmul, value, shown):
    prefix, exe = saved_matmul
    op = _set_attr(prefix, "transpose_x", value)
    message = rf"m\.pdmodel.*op '{op}', attribute 'transpose_x' must be a bool, got {re.escape(shown)}"
    with pytest.raises(ValueError, match=message):
        paddle.static.load_inference_model(prefix, exe)


def test_the_untouched_file_still_loads_and_runs(saved_matmul):
    prefix, exe = saved_matmul
    program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    (out,) = exe.run(program, feed={feeds[0]: np.ones([2, 3], "float32")}, fetch_list=fetches)
    assert out.shape == (2, 4)


def test_each_kind_of_default_is_checked():
    check_op_attrs("matmul", {"transpose_x": True, "transpose_y": np.bool_(False)}, "f")
    check_op_attrs("scale", {"scale": 2, "bias": 1}, "f")  # an int where a float is the default is a number
    with pytest.raises(ValueError, match=r"f: op 'scale', attribute 'bias' must be a number, got 'x' \(str\)"):
        check_op_attrs("scale", {"bias": "x"}, "f")
    with pytest.raises(ValueError, match=r"attribute 'bias' must be a number, got True \(bool\)"):
        check_op_attrs("scale", {"bias": True}, "f")


@pytest.mark.slow
def test_every_attribute_the_op_table_builds_passes_the_check():
    """No false refusals: the attributes of every op the op table runs (traced as test_serialize does) pass."""
    from tests.static.test_serialize import _traced_attrs, through_json

    traced = [(op, attrs) for op, attrs in _traced_attrs() if attrs.get("serializable", True)]
    assert len(traced) > 1000
    for op, attrs in traced:
        check_op_attrs(op, through_json(attrs), f"op {op}")


# ---- Paddle's own .pdmodel (a ProgramDesc protobuf): each attribute carries its type; checked against paddle 2.6's
# op protos (minipaddle/static/paddle_attr_types.py, recorded by tests/golden/reliability/make_attr_types.py).


def _saved_pdmodel(tmp_path) -> tuple:
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        w = paddle.static.create_parameter([3, 4], "float32")
        y = paddle.matmul(x, w)
    exe = paddle.static.Executor()
    exe.run(startup)
    prefix = str(tmp_path / "p")
    paddle.static.save_inference_model(prefix, [x], [y], exe)  # Paddle's format
    os.remove(prefix + ".pdset")
    return prefix, exe


def _retype(prefix: str, op_type: str, name: str, kind: str, field: str, value) -> None:
    from minipaddle.static.paddle_proto import AttrType, ProgramDesc

    desc = ProgramDesc()
    desc.ParseFromString(open(prefix + ".pdmodel", "rb").read())
    attrs = [a for op in desc.blocks[0].ops if op.type == op_type for a in op.attrs if a.name == name]
    assert attrs, f"no {op_type} with attribute {name}"
    attrs[0].type = AttrType[kind]
    setattr(attrs[0], field, value)
    open(prefix + ".pdmodel", "wb").write(desc.SerializeToString())


@pytest.mark.parametrize("kind, field, value", [("STRING", "s", "zzz"), ("INT", "i", 7), ("FLOATS", "floats", None)])
def test_a_mistyped_pdmodel_attribute_is_refused_at_load(tmp_path, kind, field, value):
    try:
        prefix, exe = _saved_pdmodel(tmp_path)
        if value is None:  # a repeated field: leave it empty, the type alone is wrong
            _retype(prefix, "matmul_v2", "trans_x", kind, "i", 0)
        else:
            _retype(prefix, "matmul_v2", "trans_x", kind, field, value)
        message = rf"p\.pdmodel.*op 'matmul_v2', attribute 'trans_x' must be BOOLEAN .*, got {kind}"
        with pytest.raises(ValueError, match=message):
            paddle.static.load_inference_model(prefix, exe)
    finally:
        paddle.disable_static()


def test_an_untouched_pdmodel_loads_and_a_compatible_type_is_accepted(tmp_path):
    try:
        prefix, exe = _saved_pdmodel(tmp_path)
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        (out,) = exe.run(program, feed={feeds[0]: np.ones([2, 3], "float32")}, fetch_list=fetches)
        assert out.shape == (2, 4)
    finally:
        paddle.disable_static()
    from minipaddle.static.pdmodel_checks import _compatible

    assert _compatible("INT", "LONG") and _compatible("FLOAT", "FLOAT64") and not _compatible("BOOLEAN", "INT")


def test_the_attribute_table_covers_the_ops_minipaddle_reads():
    from minipaddle.static.paddle_attr_types import ATTR_TYPES
    from minipaddle.static.paddle_ops import READERS

    assert set(ATTR_TYPES) <= set(READERS) and len(ATTR_TYPES) >= 0.9 * len(READERS)
    assert ATTR_TYPES["matmul_v2"]["trans_x"] == "BOOLEAN" and ATTR_TYPES["conv2d"]["strides"] == "INTS"
