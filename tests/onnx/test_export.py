"""paddle.onnx.export: every file passes onnx.checker and runs in onnxruntime with the outputs of the minipaddle
Layer it came from (rtol = atol = 1e-5 unless said), at the opsets asked for; symbolic batch dimensions; errors."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.onnx.export import _flatten

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
nn = paddle.nn
M = paddle.vision.models


def _export_and_compare(tmp_path, layer, shapes, opset=9, dynamic=True, rtol=1e-5, atol=1e-5, batches=(None,)):
    layer.eval()
    specs = [paddle.static.InputSpec(([None] if dynamic else s[:1]) + s[1:], "float32", f"x{i}")
             for i, s in enumerate(shapes)]  # fmt: skip
    path = paddle.onnx.export(layer, str(tmp_path / "model"), specs, opset_version=opset)
    model = onnx.load(path)
    onnx.checker.check_model(model)
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    for batch in batches:
        xs = [rng.standard_normal(([batch] if batch else s[:1]) + s[1:]).astype("float32") for s in shapes]
        got = sess.run(None, {i.name: x for i, x in zip(sess.get_inputs(), xs)})
        with paddle.no_grad():
            want = [w.numpy() for w in _flatten(layer(*[paddle.to_tensor(x) for x in xs]))]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
    return model


@pytest.mark.parametrize("opset", [9, 11, 13, 17])
def test_mlp_and_lenet_at_each_opset(tmp_path, opset):
    mlp = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.3), nn.Linear(8, 3), nn.Softmax())
    model = _export_and_compare(tmp_path, mlp, [[2, 4]], opset, batches=(2, 5))
    assert model.opset_import[0].version == opset
    _export_and_compare(tmp_path, M.LeNet(), [[2, 1, 28, 28]], opset)


def test_none_dimensions_are_symbolic(tmp_path):
    model = _export_and_compare(tmp_path, M.LeNet(), [[2, 1, 28, 28]], batches=(1, 7))
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param.startswith("DynamicDimension") and [d.dim_value for d in dims[1:]] == [1, 28, 28]
    assert {i.name for i in model.graph.initializer} >= {n.input[1] for n in model.graph.node if n.op_type == "Conv"}


def test_opset_is_raised_where_an_op_needs_it(tmp_path, capsys):
    net = nn.Sequential(nn.Conv2D(3, 4, 3), nn.MaxPool2D(2, ceil_mode=True), nn.Flatten(), nn.Linear(36, 2))
    model = _export_and_compare(tmp_path, net, [[2, 3, 7, 7]], opset=9)
    assert model.opset_import[0].version == 10  # MaxPool's ceil_mode arrived in opset 10
    assert "Use opset_version = 10" in capsys.readouterr().err
    with pytest.raises(paddle.onnx.NotExportableError, match=r"\['max_pool'\] cannot be exported at opset 9"):
        paddle.onnx.export(net, str(tmp_path / "m"), [paddle.static.InputSpec([None, 3, 7, 7], "float32")],
                           auto_update_opset=False)  # fmt: skip


def test_hardswish_uses_the_native_op_from_opset_14(tmp_path):
    net = nn.Sequential(nn.Linear(4, 4), nn.Hardswish())
    for opset, native in ((13, False), (14, True)):
        model = _export_and_compare(tmp_path, net, [[3, 4]], opset)
        assert ("HardSwish" in {n.op_type for n in model.graph.node}) == native


# Every paddle.vision.models constructor at a small input (the smallest its fixed layers take). The default run
# keeps one cheap member per architecture family; the rest are slow (VGG's classifier alone is 120M weights).
_FAMILIES = {  # name: (kwargs, input size, in the default run)
    "resnet18": ({}, 32, True), "resnet34": ({}, 32, False), "resnet50": ({}, 32, False),
    "resnet101": ({}, 32, False), "resnet152": ({}, 32, False),
    "resnext50_32x4d": ({}, 32, False), "resnext50_64x4d": ({}, 32, False), "resnext101_32x4d": ({}, 32, False),
    "resnext101_64x4d": ({}, 32, False), "resnext152_32x4d": ({}, 32, False), "resnext152_64x4d": ({}, 32, False),
    "wide_resnet50_2": ({}, 32, False), "wide_resnet101_2": ({}, 32, False),
    "vgg11": ({}, 32, False), "vgg13": ({}, 32, False), "vgg16": ({}, 32, False), "vgg19": ({}, 32, False),
    "mobilenet_v1": ({}, 32, True), "mobilenet_v2": ({}, 32, False), "mobilenet_v3_small": ({}, 32, True),
    "mobilenet_v3_large": ({}, 32, False),
    "densenet121": ({}, 32, False), "densenet161": ({}, 32, False), "densenet169": ({}, 32, False),
    "densenet201": ({}, 32, False), "densenet264": ({}, 32, False),
    "alexnet": ({}, 224, False), "inception_v3": ({}, 75, False), "squeezenet1_0": ({}, 64, False),
    "squeezenet1_1": ({}, 32, True), "googlenet": ({}, 224, False),
    "shufflenet_v2_x0_25": ({}, 32, True), "shufflenet_v2_x0_33": ({}, 32, False),
    "shufflenet_v2_x0_5": ({}, 32, False), "shufflenet_v2_x1_0": ({}, 32, False),
    "shufflenet_v2_x1_5": ({}, 32, False), "shufflenet_v2_x2_0": ({}, 32, False),
    "shufflenet_v2_swish": ({}, 32, False),
}  # fmt: skip
_VISION = [(n, kw, size, fast) for n, (kw, size, fast) in _FAMILIES.items()]
_VISION += [(f"vgg{d}", {"batch_norm": True}, 32, False) for d in (11, 13, 16, 19)]
_VISION += [("vgg11", {"batch_norm": True, "num_classes": 0}, 32, True),  # VGG's features and 7x7 pool, cheaply
            ("densenet121", {"num_classes": 0}, 32, True), ("alexnet", {"num_classes": 0}, 64, True),
            ("googlenet", {"num_classes": 0, "with_pool": False}, 64, True)]  # fmt: skip


@pytest.mark.parametrize(
    "name,kwargs,size",
    [pytest.param(n, kw, size, marks=() if fast else pytest.mark.slow, id=f"{n}-{kw}" if kw else n)
     for n, kw, size, fast in _VISION],
)  # fmt: skip
def test_vision_models(tmp_path, name, kwargs, size):
    """atol is 1e-5 of the output's largest magnitude: at random initialisation the deep stacks' logits reach
    1e2-1e3, and onnxruntime and numpy add the float32 products of their convolutions in other orders."""
    paddle.seed(0)
    net = getattr(M, name)(**kwargs)
    net.eval()
    path = paddle.onnx.export(net, str(tmp_path / "model"), [paddle.static.InputSpec([None, 3, size, size], "float32")])
    onnx.checker.check_model(onnx.load(path))
    x = np.random.default_rng(0).standard_normal((2, 3, size, size)).astype("float32")
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    got = sess.run(None, {sess.get_inputs()[0].name: x})
    with paddle.no_grad():
        want = [w.numpy() for w in _flatten(net(paddle.to_tensor(x)))]
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5 * max(1.0, float(np.abs(w).max())))


def test_every_vision_constructor_is_checked():
    constructors = {n for n in M.__all__ if n[0].islower() and callable(getattr(M, n))} - {"LeNet"}
    assert constructors == set(_FAMILIES)


def test_lstm_gru_and_transformer_encoder(tmp_path):
    paddle.seed(0)
    _export_and_compare(tmp_path, nn.LSTM(4, 8, 2), [[2, 5, 4]], dynamic=False)
    _export_and_compare(tmp_path, nn.GRU(4, 8, direction="bidirect"), [[2, 5, 4]], dynamic=False)
    _export_and_compare(tmp_path, nn.TransformerEncoderLayer(16, 2, 32), [[2, 5, 16]], opset=13)


def test_export_model_from_saved_files(tmp_path):
    from tests.inference.models import lenet, run_program, save_static

    save_static(str(tmp_path / "lenet"), lenet, [None, 1, 28, 28])
    path = paddle.onnx.export_model(str(tmp_path / "lenet.pdmodel"), str(tmp_path / "lenet.pdiparams"),
                                    str(tmp_path / "lenet.onnx"), opset_version=11)  # fmt: skip
    x = np.random.default_rng(0).standard_normal((3, 1, 28, 28)).astype("float32")
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    (want,) = run_program(str(tmp_path / "lenet"), {"x": x})
    np.testing.assert_allclose(sess.run(None, {"x": x})[0], want, rtol=1e-5, atol=1e-5)


def test_errors(tmp_path):
    lin = nn.Linear(2, 2)
    spec = [paddle.static.InputSpec([None, 2], "float32")]
    with pytest.raises(ValueError, match=r"opset_version must be in \[9, 17\]"):
        paddle.onnx.export(lin, str(tmp_path / "m"), spec, opset_version=30)
    with pytest.raises(ValueError, match="give input_spec"):
        paddle.onnx.export(lin, str(tmp_path / "m"))
    with pytest.raises(ValueError, match="directory/name"):
        paddle.onnx.export(lin, str(tmp_path) + "/", spec)
    with pytest.raises(TypeError, match="unexpected config"):
        paddle.onnx.export(lin, str(tmp_path / "m"), spec, no_such_option=1)

    class Unpool(nn.Layer):
        def forward(self, x):
            y, idx = paddle.nn.functional.max_pool2d(x, 2, return_mask=True)
            return paddle.nn.functional.max_unpool2d(y, idx, 2)

    with pytest.raises(paddle.onnx.NotExportableError, match=r"op\(s\) \['max_unpool'\] cannot be exported at opset"):
        paddle.onnx.export(Unpool(), str(tmp_path / "m"), [paddle.static.InputSpec([1, 1, 4, 4], "float32")])
    assert "max_unpool" in paddle.onnx.not_exportable() and "conv2d" not in paddle.onnx.not_exportable()


@pytest.mark.parametrize("axis,scale", [(-1, [2.0]), (1, [1.0, 2.0, 3.0])])
def test_quantize_dequantize_export_as_onnx_q_dq(tmp_path, axis, scale):
    """A quantized model's quantize_linear -> dequantize_linear (constant scales, as a converted QAT model holds)
    becomes QuantizeLinear -> DequantizeLinear at opset 13, reading the int8 tensor directly."""
    from minipaddle import ops

    class QDQ(nn.Layer):
        def forward(self, x):
            s = paddle.to_tensor(np.asarray(scale, "float32"))
            levels = ops.quantize_linear(x, s, s * 0, axis, 8, 0)
            return ops.dequantize_linear(levels, s, s * 0, axis, 8, 0), levels

    model = _export_and_compare(tmp_path, QDQ(), [[4, 3]], opset=9, dynamic=False)
    types = [n.op_type for n in model.graph.node]
    assert model.opset_import[0].version == 13 and types.count("QuantizeLinear") == 1
    assert types.count("DequantizeLinear") == 1
