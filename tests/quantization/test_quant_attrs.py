"""The quantization notes (`Input0_threshold`, `out_threshold`, `with_quant_attr`, `skip_quant`) live in
OpDesc.quant_attrs, beside the attributes: kernels get the attributes as they are, and the notes survive clone,
the JSON form and Paddle's .pdmodel (where they are ordinary op attributes, as Paddle writes them)."""

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static import executor, pdmodel, serialize

NOTES = {"Input0_threshold": 1.5, "Filter0_threshold": [0.25, 0.5], "out_threshold": 3.0, "with_quant_attr": True}


def _conv_program():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 1, 4, 4], "float32")
            conv = paddle.nn.Conv2D(1, 2, 3)
            y = conv(x)
        exe = paddle.static.Executor()
        exe.run(startup)
    finally:
        paddle.disable_static()
    return main, y


def _run(program, y, x):
    paddle.enable_static()
    try:
        return paddle.static.Executor().run(program, feed={"x": x}, fetch_list=[y.name])[0]
    finally:
        paddle.disable_static()


def test_kernels_get_the_attributes_as_they_are():
    main, y = _conv_program()
    conv = next(op for op in main.global_block().ops if op.type == "conv2d")
    x = np.random.default_rng(0).standard_normal((2, 1, 4, 4)).astype("float32")
    want = _run(main, y, x)
    conv.quant_attrs.update(NOTES)
    np.testing.assert_array_equal(_run(main, y, x), want)
    step = executor.Step(conv)
    assert step.attrs is conv.attrs and not any(k in step.attrs for k in NOTES)
    # a threshold put among the attributes reaches the kernel, which refuses what it does not take
    conv.attrs["Input0_threshold"] = 1.5
    with pytest.raises(TypeError, match="Input0_threshold"):
        _run(main, y, x)


def test_notes_survive_clone_json_and_print():
    main, _ = _conv_program()
    conv = next(op for op in main.global_block().ops if op.type == "conv2d")
    conv.quant_attrs.update(NOTES)
    for copy in (main.clone(), serialize.program_from_bytes(serialize.program_to_bytes(main))):
        got = next(op for op in copy.global_block().ops if op.type == "conv2d")
        assert got.quant_attrs == NOTES and got.quant_attrs is not conv.quant_attrs
        assert not any(k in got.attrs for k in NOTES)
    assert "quant_attrs = {Filter0_threshold: [0.25, 0.5]" in repr(conv)
    relu_only = next(op for op in main.global_block().ops if op.type != "conv2d")
    assert "quant_attrs" not in relu_only.to_dict()  # an unquantized op's JSON is unchanged


def test_pdmodel_writes_notes_as_paddle_attributes_and_reads_them_back():
    main, y = _conv_program()
    conv = next(op for op in main.global_block().ops if op.type == "conv2d")
    conv.quant_attrs.update(NOTES)
    data, _ = pdmodel.write_pdmodel(main, ["x"], [y.name])
    desc = pdmodel.ProgramDesc()
    desc.ParseFromString(data)
    (written,) = [op for op in desc.blocks[0].ops if op.type == "conv2d"]
    attrs = {a.name: pdmodel._attr_value(a) for a in written.attrs}
    assert attrs["with_quant_attr"] is True and attrs["out_threshold"] == 3.0
    np.testing.assert_allclose(attrs["Filter0_threshold"], [0.25, 0.5])
    assert not any(pdmodel.quant_attrs_of({a.name: pdmodel._attr_value(a)}) for a in desc.blocks[0].ops[0].attrs)
    program, _, _ = pdmodel.read_pdmodel(data)
    (read,) = [op for op in program.global_block().ops if op.type == "conv2d"]
    assert read.quant_attrs == {**NOTES, "Filter0_threshold": [0.25, 0.5]}
    assert not any(k in read.attrs for k in NOTES)
    others = [op for op in program.global_block().ops if op.type != "conv2d"]
    assert others and not any(op.quant_attrs for op in others)  # with_quant_attr False is no note


def test_quant_attrs_of_picks_the_notes_only():
    attrs = {"X0_threshold": 1.0, "out_threshold": 2.0, "threshold": 6.0, "iou_threshold": 0.5,
             "with_quant_attr": True, "skip_quant": True, "axis": -1}  # fmt: skip
    assert pdmodel.quant_attrs_of(attrs) == {"X0_threshold": 1.0, "out_threshold": 2.0, "with_quant_attr": True,
                                             "skip_quant": True}  # fmt: skip
    assert pdmodel.quant_attrs_of({"with_quant_attr": False, "axis": 1}) == {}


def test_a_json_program_written_before_quantize_linear_had_statistics_still_runs():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [2, 2], "float32")
            y = paddle.ops.quantize_linear(x, paddle.to_tensor([2.0]), paddle.to_tensor([0.0]))
        data = serialize.program_to_dict(main, ["x"], [y.name])
        op = data["blocks"][0]["ops"][-1]
        assert op["type"] == "quantize_linear"
        op["inputs"] = {k: v for k, v in op["inputs"].items() if k in ("x", "scale", "zero_point")}  # the old form
        old = serialize.program_from_dict(data)
        assert list(old.global_block().ops[-1].inputs) == ["x", "scale", "zero_point", "in_accum", "in_state"]
        (got,) = paddle.static.Executor().run(old, feed={"x": np.array([[1.0, -3.0], [0.5, 2.0]], "float32")},
                                               fetch_list=[y.name])  # fmt: skip
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(got, [[64, -128], [32, 127]])
