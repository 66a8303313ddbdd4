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


@pytest.mark.parametrize("name", ["mobilenet_v3_small", "squeezenet1_1", "shufflenet_v2_x0_25"])
def test_vision_models(tmp_path, name):
    _export_and_compare(tmp_path, getattr(M, name)(), [[1, 3, 32, 32]])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["resnet18", "mobilenet_v2"])
def test_vision_models_slow(tmp_path, name):
    # Deep float32 stacks: ORT's and numpy's convolutions sum in other orders, so the logits move by ~1e-5 relative
    _export_and_compare(tmp_path, getattr(M, name)(), [[1, 3, 32, 32]], rtol=1e-4, atol=1e-5)


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
