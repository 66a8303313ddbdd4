"""Paddle 2.6's inference models (.pdmodel protobuf, .pdiparams stream, .pdiparams.info): models that paddle
2.6.2's jit.save wrote (tests/golden/paddle_models/models, recorded by make_golden.py there) run in minipaddle
with paddle's outputs; the schema matches Paddle's; ops outside the table are named."""

from __future__ import annotations

import importlib.util
import os
import shutil

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static import paddle_proto
from minipaddle.static.pdmodel import persistable_specs, read_pdiparams, read_pdmodel, write_pdiparams
from tests.golden_files import GOLDEN_ROOT

MODELS = GOLDEN_ROOT / "paddle_models" / "models"
PADDLE_PYTHON = "/work/paddle-venv/bin/python"
STORED = [
    "lenet",
    "mlp_bn_dropout",
    "ops_mix",
    "lstm",
    "birnn",
    "cond_while",
    "quant_qat",
    "index_pool",
    "rnn_lengths",
]  # with their .pdiparams (index_pool, cond_while: none)
PATTERNED = ["resnet18", "mobilenet_v2", "vgg11"]  # parameters from patterns.py, written by the test


def _patterns():
    spec = importlib.util.spec_from_file_location(
        "paddle_model_patterns", GOLDEN_ROOT / "paddle_models" / "patterns.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def model_dir(name: str, tmp_path) -> str:
    """The prefix of the golden model `name`; for a patterned one, a copy with its .pdiparams written here."""
    if name not in PATTERNED:
        return str(MODELS / name)
    for suffix in (".pdmodel", ".pdiparams.info"):
        shutil.copy(MODELS / (name + suffix), tmp_path / (name + suffix))
    io = np.load(MODELS / f"{name}.io.npz")
    program, _, _ = read_pdmodel((MODELS / f"{name}.pdmodel").read_bytes(), name)
    shapes = {n: shape for n, shape, _ in persistable_specs(program)}
    values = _patterns().pattern_values
    arrays = {str(n): values(i, shapes[str(n)], str(k)) for i, (n, k) in
              enumerate(zip(io["pattern:names"], io["pattern:kinds"]))}  # fmt: skip
    (tmp_path / f"{name}.pdiparams").write_bytes(write_pdiparams(arrays))
    return str(tmp_path / name)


def run_model(prefix: str, io) -> list:
    exe = paddle.static.Executor()
    with paddle.static.scope_guard(paddle.static.Scope()):
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        return program, exe.run(program, feed={f: io[f"input:{f}"] for f in feeds}, fetch_list=fetches)


@pytest.mark.parametrize("name", STORED + PATTERNED)
def test_a_model_paddle_saved_runs_with_paddles_outputs(name, tmp_path):
    io = np.load(MODELS / f"{name}.io.npz")
    program, outs = run_model(model_dir(name, tmp_path), io)
    expected = [io[k] for k in sorted(k for k in io.files if k.startswith("output:"))]
    assert len(outs) == len(expected)
    for got, want in zip(outs, expected):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert paddle.in_dynamic_mode() is not False  # loading leaves the mode as it was


def test_the_translated_program_is_minipaddles_own(tmp_path):
    program, _, fetches = read_pdmodel((MODELS / "lenet.pdmodel").read_bytes(), "lenet")
    types = [op.type for op in program.global_block().ops]
    assert types[:4] == ["conv2d", "reshape", "add", "relu"] and "matmul" in types and "max_pool" in types
    block = program.global_block()
    assert block.var("conv2d_0.w_0").persistable and block.var("x0").is_data
    assert fetches == ["save_infer_model/scale_0.tmp_0"]
    assert "relu_0.tmp_0" in block.vars  # Paddle's names for Paddle's outputs
    cond_while, _, _ = read_pdmodel((MODELS / "cond_while.pdmodel").read_bytes(), "cond_while")
    assert {"cond", "while"} <= {op.type for op in cond_while.global_block().ops}


def test_the_parameter_stream_is_written_byte_for_byte_as_paddle_writes_it():
    for name in ("lenet", "lstm", "ops_mix"):
        data = (MODELS / f"{name}.pdiparams").read_bytes()
        program, _, _ = read_pdmodel((MODELS / f"{name}.pdmodel").read_bytes(), name)
        arrays = read_pdiparams(data, persistable_specs(program), name)
        assert write_pdiparams(arrays) == data
    with pytest.raises(ValueError, match="truncated"):
        read_pdiparams(data[:-3], persistable_specs(program), "x")


def test_an_op_outside_the_table_is_named_with_the_model():
    desc = paddle_proto.ProgramDesc()
    desc.ParseFromString((MODELS / "mlp_bn_dropout.pdmodel").read_bytes())
    for op in desc.blocks[0].ops:
        if op.type == "relu":
            op.type = "my_custom_relu"
    with pytest.raises(NotImplementedError, match="mlp.pdmodel: op 'my_custom_relu' .* not in minipaddle's table"):
        read_pdmodel(desc.SerializeToString(), "mlp.pdmodel")
    with pytest.raises(ValueError, match="not a Paddle ProgramDesc"):
        read_pdmodel(b"\x0a\x05garbage", "bad.pdmodel")


def test_load_inference_model_names_a_model_with_an_unknown_op(tmp_path):
    desc = paddle_proto.ProgramDesc()
    desc.ParseFromString((MODELS / "mlp_bn_dropout.pdmodel").read_bytes())
    desc.blocks[0].ops[3].type = "not_an_op"
    (tmp_path / "m.pdmodel").write_bytes(desc.SerializeToString())
    shutil.copy(MODELS / "mlp_bn_dropout.pdiparams", tmp_path / "m.pdiparams")
    with pytest.raises(NotImplementedError, match=r"m\.pdmodel: op 'not_an_op'"):
        paddle.static.load_inference_model(str(tmp_path / "m"), paddle.static.Executor())


def test_the_schema_has_paddles_field_numbers():
    """Every message, field (name, number, type, label) and enum value of ours is Paddle's (when paddle is here,
    compared with its framework_pb2; always, with numbers recorded from it)."""
    fd = paddle_proto.file_descriptor_proto()
    fields = {}
    for m in fd.message_type:
        stack = [(m.name, m)]
        while stack:
            path, msg = stack.pop()
            for f in msg.field:
                fields[(path, f.name)] = (f.number, f.type, f.label)
            stack.extend((f"{path}.{n.name}", n) for n in msg.nested_type)
    assert fields[("ProgramDesc", "blocks")] == (1, 11, 3) and fields[("ProgramDesc", "version")][0] == 4
    assert fields[("OpDesc", "type")] == (3, 9, 2) and fields[("OpDesc.Attr", "scalars")][0] == 21
    assert fields[("VarDesc", "stop_gradient")][0] == 6 and fields[("BlockDesc", "forward_block_idx")][0] == 5
    assert paddle_proto.VarTypeEnum["FP32"] == 5 and paddle_proto.AttrType["SCALARS"] == 17


@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.slow
def test_the_schema_equals_the_one_in_the_paddle_wheel(tmp_path):
    import json
    import subprocess

    script = (
        "import numpy.random, json\n"
        "import paddle.base.proto.framework_pb2 as f\n"
        "from google.protobuf import descriptor_pb2\n"
        "fd = descriptor_pb2.FileDescriptorProto(); f.DESCRIPTOR.CopyToProto(fd)\n"
        "out = {}\n"
        "def walk(path, m):\n"
        "    for x in m.field: out[path + '.' + x.name] = [x.number, x.type, x.label]\n"
        "    for e in m.enum_type: out[path + '.' + e.name] = sorted([v.name, v.number] for v in e.value)\n"
        "    for n in m.nested_type: walk(path + '.' + n.name, n)\n"
        "for m in fd.message_type: walk(m.name, m)\n"
        "for e in fd.enum_type: out[e.name] = sorted([v.name, v.number] for v in e.value)\n"
        "print(json.dumps(out))\n"
    )
    result = subprocess.run([PADDLE_PYTHON, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    theirs = json.loads(result.stdout)
    fd = paddle_proto.file_descriptor_proto()
    ours = {}

    def walk(path, m):
        for x in m.field:
            ours[f"{path}.{x.name}"] = [x.number, x.type, x.label]
        for e in m.enum_type:
            ours[f"{path}.{e.name}"] = sorted([v.name, v.number] for v in e.value)
        for n in m.nested_type:
            walk(f"{path}.{n.name}", n)

    for m in fd.message_type:
        walk(m.name, m)
    for e in fd.enum_type:
        ours[e.name] = sorted([v.name, v.number] for v in e.value)
    for key, value in ours.items():
        assert theirs[key] == value, key
    assert {k for k in theirs if not k.startswith("OpProto")} == set(ours)


# ---- writing: minipaddle's save_inference_model writes Paddle's files -------------------------------------------


def small_cnn():
    """A Program with the ops a student's model has: conv, batch norm, pools, dropout, linear, layer norm, gelu,
    softmax, and a Python constant."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 1, 8, 8], "float32")
        h = paddle.nn.Conv2D(1, 4, 3, padding=1)(x)
        h = paddle.nn.functional.relu(paddle.nn.BatchNorm2D(4)(h))
        h = paddle.nn.AvgPool2D(2)(paddle.nn.MaxPool2D(2)(h))
        h = paddle.nn.Dropout(0.3)(paddle.flatten(h, 1))
        h = paddle.nn.LayerNorm(10)(paddle.nn.Linear(16, 10)(h))
        y = paddle.nn.functional.softmax(paddle.nn.functional.gelu(h) * 2.0)
    return main, startup, x, y


@pytest.fixture
def saved_cnn(tmp_path):
    paddle.enable_static()
    try:
        main, startup, x, y = small_cnn()
        exe = paddle.static.Executor()
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe.run(startup)
            images = np.random.default_rng(0).standard_normal((3, 1, 8, 8)).astype("float32")
            (expected,) = exe.run(main.clone(for_test=True), feed={"x": images}, fetch_list=[y])
            paddle.static.save_inference_model(str(tmp_path / "cnn"), [x], [y], exe, program=main)
        yield str(tmp_path / "cnn"), images, expected
    finally:
        paddle.disable_static()


def test_save_inference_model_writes_a_paddle_program_desc(saved_cnn):
    prefix, images, expected = saved_cnn
    desc = paddle_proto.ProgramDesc()
    desc.ParseFromString(open(prefix + ".pdmodel", "rb").read())
    assert desc.version.version == 2006002
    golden = paddle_proto.ProgramDesc()
    golden.ParseFromString((MODELS / "lenet.pdmodel").read_bytes())
    assert desc.op_version_map == golden.op_version_map  # the op version map as Paddle writes it
    types = [op.type for op in desc.blocks[0].ops]
    assert types[0] == "feed" and types[-2:] == ["scale", "fetch"]
    assert {"conv2d", "pool2d", "matmul_v2", "layer_norm", "reshape2", "softmax"} <= set(types)
    assert "cond" not in types  # dropout's and batch norm's inference branches only
    with paddle.static.scope_guard(paddle.static.Scope()):
        program, feeds, fetches = paddle.static.load_inference_model(prefix, paddle.static.Executor())
        (got,) = paddle.static.Executor().run(program, feed={feeds[0]: images}, fetch_list=fetches)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


def test_a_program_paddles_format_cannot_hold_is_written_as_json_with_a_warning(tmp_path):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3], "float32")
            y = paddle.logcumsumexp(x, axis=1) * 2.0  # logcumsumexp has no writer in the table
        exe = paddle.static.Executor()
        with pytest.warns(UserWarning, match="JSON program.*'logcumsumexp' has no Paddle op"):
            paddle.static.save_inference_model(str(tmp_path / "c"), [x], [y], exe, program=main)
        assert open(tmp_path / "c.pdmodel", "rb").read(1) == b"{"
        program, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "c"), exe)
        (out,) = exe.run(program, feed={"x": np.ones((2, 3), "float32")}, fetch_list=fetches)
        np.testing.assert_allclose(out, 2.0 * (1.0 + np.log([[1.0, 2.0, 3.0]] * 2)), rtol=1e-6)
    finally:
        paddle.disable_static()


PADDLE_RUNS = """
import json, sys
import numpy.random
import numpy as np
import paddle
prefix, images = sys.argv[1], np.load(sys.argv[2])
out = {}
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
out["static"] = exe.run(program, feed={feeds[0]: images}, fetch_list=fetches)[0].tolist()
paddle.disable_static()
layer = paddle.jit.load(prefix)
out["jit"] = layer(paddle.to_tensor(images)).numpy().tolist()
config = paddle.inference.Config(prefix + ".pdmodel", prefix + ".pdiparams")
predictor = paddle.inference.create_predictor(config)
handle = predictor.get_input_handle(predictor.get_input_names()[0])
handle.copy_from_cpu(images)
predictor.run()
out["predictor"] = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu().tolist()
print(json.dumps(out))
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_paddle_runs_what_minipaddle_saved_with_the_same_outputs(saved_cnn, tmp_path):
    import json
    import subprocess

    prefix, images, expected = saved_cnn
    np.save(tmp_path / "images.npy", images)
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_RUNS, prefix, str(tmp_path / "images.npy")],
                            capture_output=True, text=True, timeout=180, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    outs = json.loads(result.stdout.strip().splitlines()[-1])
    for how in ("static", "jit", "predictor"):
        np.testing.assert_allclose(np.array(outs[how], "float32"), expected, rtol=1e-5, atol=1e-6, err_msg=how)


def test_a_loaded_paddle_model_reads_as_json_and_draws():
    program, _, _ = read_pdmodel((MODELS / "lenet.pdmodel").read_bytes(), "lenet")
    text = program.to_json()
    assert text.startswith('{"format": "minipaddle.program"') and '"type": "conv2d"' in text
    assert str(paddle.static.deserialize_program(text.encode())) == str(program)
    import viz

    source = viz.draw_program(program).source
    assert "conv2d" in source and "relu_0.tmp_0" in source


def test_quantize_linear_rounds_ties_to_even_as_paddle():
    """round_type 0 (what paddle 2.6's QAT writes): ties to even, clipped to [-128, 127] for 8 bits."""
    desc = paddle_proto.ProgramDesc()
    desc.ParseFromString((MODELS / "quant_qat.pdmodel").read_bytes())
    first_q = next(op for op in desc.blocks[0].ops if op.type == "quantize_linear")
    y = [v.arguments[0] for v in first_q.outputs if v.parameter == "Y"][0]
    scale_name = [v.arguments[0] for v in first_q.inputs if v.parameter == "Scale"][0]
    x = np.zeros((1, 1, 4, 4), "float32")
    x.reshape(-1)[:8] = [0.5, 1.5, 2.5, -0.5, -2.5, 300.0, -300.0, 0.49]
    exe = paddle.static.Executor()
    with paddle.static.scope_guard(paddle.static.Scope()):
        program, feeds, _ = paddle.static.load_inference_model(str(MODELS / "quant_qat"), exe)
        paddle.static.global_scope().vars[scale_name] = np.array([127.0], "float32")  # x / scale * 127 = x
        (q,) = exe.run(program, feed={feeds[0]: x}, fetch_list=[y])
    np.testing.assert_array_equal(q.reshape(-1)[:8], [0, 2, 2, 0, -2, 127, -128, 0])
