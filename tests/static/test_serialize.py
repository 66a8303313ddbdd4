"""Programs as JSON (static/serialize.py): every attribute kind round-trips exactly, and bad files say what is wrong."""

import json

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.core.dispatch import tracing
from minipaddle.static.parameters import StaticParameter
from minipaddle.static.serialize import (
    FORMAT_VERSION,
    decode_attr,
    encode_attr,
    program_from_bytes,
    program_to_bytes,
    program_to_dict,
    read_program,
)
from tests.op_table import OP_TABLE


def same(a, b) -> bool:
    """Equal values of equal types, all the way down (numpy arrays by dtype, shape and values; nan == nan)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float) and np.isnan(a):
        return np.isnan(b)
    if isinstance(a, np.generic):
        return a.dtype == b.dtype and (a == b or (np.isnan(a) and np.isnan(b)))
    return a == b


def through_json(value):
    return decode_attr(json.loads(json.dumps(encode_attr(value), allow_nan=False)))


ATTR_KINDS = {
    "none": None,
    "bool": True,
    "int": -3,
    "float": 0.1,
    "string": "NCHW",
    "tuple (a shape)": (2, -1, 3),
    "empty tuple (a 0-d shape)": (),
    "nested tuples (conv paddings)": ((1, 1), (0, 2)),
    "list (assign_value's values)": [1.5, -2.0, 3.0],
    "list of lists": [[1.0, 2.0], [3.0, 4.0]],
    "tuple holding a list": ([0, 1], 2),
    "numpy dtype": np.dtype("float32"),
    "numpy bool dtype": np.dtype(bool),
    "numpy type (np.int64)": np.int64,
    "paddle dtype": paddle.float64,
    "numpy scalar": np.float32(0.25),
    "numpy int scalar": np.int64(7),
    "complex": 1.5 - 2j,
    "nan": float("nan"),
    "inf": float("inf"),
    "-inf": float("-inf"),
    "slice": slice(1, None, -2),
    "full slice": slice(None),
    "ellipsis": Ellipsis,
    "getitem index": (Ellipsis, None, slice(0, 3), np.array([0, 2, 2]), 1),
    "int array": np.array([[0, 1], [2, 3]], dtype=np.int32),
    "bool mask": np.array([True, False, True]),
    "float array with nan": np.array([1.0, np.nan, -np.inf]),
    "complex array": np.array([1 + 2j, 3 - 4j], dtype=np.complex64),
    "empty array": np.zeros((0, 3), dtype=np.int64),
    "0-d array": np.array(5, dtype=np.int16),
    "dict (write_view's view_attrs)": {"shape": (2, 3), "axis": None, "index": (slice(None), 0)},
}


@pytest.mark.parametrize("kind", list(ATTR_KINDS))
def test_every_attribute_kind_round_trips_exactly(kind):
    value = ATTR_KINDS[kind]
    back = through_json(value)
    assert same(back, value), f"{kind}: {value!r} came back as {back!r}"


def test_the_encoding_is_strict_json_and_keeps_tuples_and_lists_apart():
    encoded = json.dumps(encode_attr({"a": (1, 2), "b": [1, 2], "c": float("nan")}), allow_nan=False)
    assert "NaN" not in encoded
    back = decode_attr(json.loads(encoded))
    assert type(back["a"]) is tuple and type(back["b"]) is list and np.isnan(back["c"])


def test_attributes_that_are_not_data_are_refused_with_the_place_named():
    with pytest.raises(TypeError, match="attr: a value of type function cannot be saved"):
        encode_attr(lambda: 0)
    with pytest.raises(TypeError, match=r"attr\['f'\]: a value of type object cannot"):
        encode_attr({"f": object()})
    with pytest.raises(TypeError, match="string keys"):
        encode_attr({"__list__": 1})
    with pytest.raises(TypeError, match="dtype object"):
        encode_attr(np.array([None, 1], dtype=object))


def _traced_attrs():
    """(op name, attrs) of every op the op table runs, forward and backward (each op's attributes as used)."""
    seen = []
    with tracing(lambda op, inputs, attrs, outputs: seen.append((op.name, attrs))):
        for info in OP_TABLE:
            for sample in info.samples(np.random.default_rng(0)):
                args = [paddle.to_tensor(a, stop_gradient=a.dtype.kind != "f")
                        if isinstance(a, np.ndarray) and a.dtype.kind in "fiub" else a
                        for a in sample.args]  # fmt: skip
                args = [[paddle.to_tensor(e, stop_gradient=False) for e in a]
                        if isinstance(a, list) and a and all(isinstance(e, np.ndarray) for e in a) else a
                        for a in args]  # fmt: skip
                try:
                    out = info.fn(*args, **sample.kwargs)
                    if info.grad and isinstance(out, paddle.Tensor) and not out.stop_gradient:
                        out.sum().backward()
                except Exception:  # noqa: BLE001  (only the attributes matter here; the op table checks the ops)
                    continue
    return seen


def test_the_attributes_of_every_op_in_the_op_table_round_trip():
    traced = _traced_attrs()
    kinds = {op for op, _ in traced}
    assert len(kinds) > 50, "the op table ran too few ops for this test to mean anything"
    for op, attrs in traced:
        if not attrs.get("serializable", True):
            continue  # py_func holds Python code: saving refuses it (tested below)
        back = through_json(attrs)
        assert same(back, attrs), f"op {op}: attrs {attrs!r} came back as {back!r}"


def _program_with_many_attrs():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 3, 4], "float32")
        w = paddle.create_parameter([4, 2], "float32")
        h = paddle.reshape(paddle.matmul(x, w), [-1, 6])
        h = paddle.cast(h, "float64")
        picked = h[:, ::-2]  # slices with a negative step
        fancy = h[..., np.array([0, 5, 5])]  # ellipsis and an int array
        masked = paddle.sum(h, axis=[0, 1]) + paddle.to_tensor(np.array([np.inf]))
        out = paddle.concat([picked, fancy], axis=1)
    return main, startup, x, [out, masked]


def test_a_program_round_trips_through_bytes(static_mode):
    paddle.seed(1)
    main, startup, x, fetches = _program_with_many_attrs()
    data = program_to_bytes(main)
    json.loads(data.decode("utf-8"))  # strict JSON: no NaN/Infinity tokens even with an inf constant inside
    assert b"Infinity" not in data
    back = program_from_bytes(data)
    assert str(back) == str(main)
    assert program_to_bytes(back) == data  # a second round changes nothing
    for op_a, op_b in zip(main.global_block().ops, back.global_block().ops):
        assert same(op_b.attrs, op_a.attrs), op_a.type
        assert (op_b.type, op_b.inputs, op_b.outputs, op_b.role, op_b.scope) == (
            op_a.type, op_a.inputs, op_a.outputs, op_a.role, op_a.scope)  # fmt: skip
    for name, v in main.global_block().vars.items():
        b = back.global_block().var(name)
        assert (b.shape, b.dtype, b.persistable, b.stop_gradient, b.is_data, b.is_parameter) == (
            v.shape, v.dtype, v.persistable, v.stop_gradient, v.is_data, v.is_parameter)  # fmt: skip
    params = back.all_parameters()
    assert len(params) == 1 and isinstance(params[0], StaticParameter) and params[0].trainable

    exe = paddle.static.Executor()
    exe.run(startup)
    feed = {"x": np.random.default_rng(0).random((2, 3, 4), dtype=np.float32)}
    expected = exe.run(main, feed=feed, fetch_list=fetches)
    for a, b in zip(expected, exe.run(back, feed=feed, fetch_list=[f.name for f in fetches])):
        np.testing.assert_array_equal(a, b)


def test_sub_blocks_round_trip(static_mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [2], "float32")
        s = paddle.sum(x)
        y = paddle.static.nn.cond(s > 0, lambda: s * 2.0, lambda: s - 1.0)
    back = program_from_bytes(program_to_bytes(main))
    assert back.num_blocks == 3 and [b.parent_idx for b in back.blocks] == [-1, 0, 0]
    assert str(back) == str(main)
    exe = paddle.static.Executor()
    for value in ([1.0, 2.0], [-1.0, -2.0]):
        feed = {"x": np.array(value, "float32")}
        assert exe.run(back, feed=feed, fetch_list=[y.name]) == exe.run(main, feed=feed, fetch_list=[y])


def test_the_header_names_the_format_and_the_op_versions(static_mode):
    main, _, _, _ = _program_with_many_attrs()
    data = program_to_dict(main, ["x"], ["out"])
    assert data["format"] == "minipaddle.program" and data["format_version"] == FORMAT_VERSION
    assert data["op_versions"]["matmul"] == 1
    assert set(data["op_versions"]) == {op.type for op in main.global_block().ops}
    assert (data["feed_names"], data["fetch_names"]) == (["x"], ["out"])
    program, feeds, fetches = read_program(json.dumps(data).encode())
    assert (feeds, fetches) == (["x"], ["out"]) and str(program) == str(main)


def _valid() -> dict:
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        paddle.nn.functional.relu(paddle.static.data("x", [2], "float32"))
    return program_to_dict(main)


def _mutated(change) -> bytes:
    data = _valid()
    change(data)
    return json.dumps(data).encode()


BAD_FILES = [
    ("not JSON", b"\x89PNG\r\n\x1a\n", "not a minipaddle program: it is not JSON"),
    ("truncated", None, r"not JSON \(the file may be truncated\)"),
    ("JSON, another format", b'{"format": "onnx"}', "is JSON but not a minipaddle program .*'onnx'"),
    ("a JSON list", b"[1, 2, 3]", "is JSON but not a minipaddle program .*'list'"),
    ("newer format", "newer", r"written by a newer minipaddle \(program format version 2; this one reads up to 1\)"),
    ("bad format_version", "bad_version", "format_version must be a positive integer"),
    ("unknown op", "unknown_op", "uses op 'fancy_new_op', which this minipaddle does not define"),
    ("newer op version", "op_version", "uses op 'relu' at version 5, newer than this minipaddle's"),
    ("damaged", "damaged", "is a damaged minipaddle program: KeyError"),
]


@pytest.mark.parametrize("label,data,message", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_files_are_refused_with_a_clear_error(static_mode, label, data, message):
    def set_op_type(d):
        d["blocks"][0]["ops"][0]["type"] = "fancy_new_op"

    changes = {
        "newer": lambda d: d.update(format_version=FORMAT_VERSION + 1),
        "bad_version": lambda d: d.update(format_version="1"),
        "unknown_op": set_op_type,
        "op_version": lambda d: d["op_versions"].update(relu=5),
        "damaged": lambda d: d["blocks"][0]["vars"][0].pop("dtype"),
    }
    if data is None:
        good = json.dumps(_valid()).encode()
        data = good[: len(good) // 2]
    elif isinstance(data, str):
        data = _mutated(changes[data])
    with pytest.raises(ValueError, match=message):
        paddle.static.deserialize_program(data)


def test_deserialize_wants_bytes():
    with pytest.raises(TypeError, match="must be bytes"):
        paddle.static.deserialize_program("{}")


def test_a_program_with_py_func_cannot_be_saved(static_mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [2], "float32")
        out = main.global_block().create_var(shape=(2,), dtype="float32")
        paddle.static.py_func(np.sin, x, out)
    with pytest.raises(ValueError, match=r"op 0 of block 0 \('py_func'\) runs Python code"):
        program_to_bytes(main)
