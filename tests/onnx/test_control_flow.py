"""to_static control flow in ONNX: `cond` exports as If (opset 9+), `while` as Loop (opset 11+); onnxruntime gives the
to_static function's outputs (1e-5) on inputs taking each branch and different trip counts."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
nn = paddle.nn


@paddle.jit.to_static
def if_then_while(x):
    if paddle.mean(x) > 0:
        y = x * 2
    else:
        y = x - 1
    i = paddle.zeros([1], "int64")
    while i < 3:
        y = y + 1
        i = i + 1
    return y


@paddle.jit.to_static
def branch_returns_its_input(x):
    if paddle.max(x) > 1.0:
        y = x
    else:
        y = paddle.concat([x, x * 3], axis=0)  # the branches' shapes differ
    return y


@paddle.jit.to_static
def growing_loop(x):
    y = x
    i = paddle.zeros([1], "int64")
    while i < 3:
        y = paddle.concat([y, x], axis=0)  # the loop variable's shape changes every iteration
        i = i + 1
    return y


class LoopedNet(nn.Layer):
    """Weights read inside the loop body, an `if` nested in the `while`, a trip count computed from the input."""

    def __init__(self):
        super().__init__()
        self.fc, self.out = nn.Linear(4, 4), nn.Linear(4, 2)

    @paddle.jit.to_static
    def forward(self, x):
        i = paddle.zeros([1], "int64")
        n = paddle.cast(paddle.abs(x).sum() * 2, "int64") + 1
        h = x
        while i < n:
            h = paddle.tanh(self.fc(h))
            if paddle.mean(h) > 0:
                h = h * 0.5
            else:
                h = h + 0.1
            i = i + 1
        return self.out(h)


def _inputs(rng):
    """Inputs that send the functions down each branch and around their loops a different number of times."""
    base = np.abs(rng.standard_normal((2, 4))).astype("float32")
    return [base * 0.3, -base * 0.3, base * 2.0, np.zeros((1, 4), "float32"), -base[:1] * 0.05]


def _export_and_compare(tmp_path, fn, opset, auto=True):
    spec = [paddle.static.InputSpec([None, 4], "float32", "x")]
    path = paddle.onnx.export(fn, str(tmp_path / "cf"), spec, opset_version=opset, auto_update_opset=auto)
    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    for x in _inputs(np.random.default_rng(0)):
        (got,) = sess.run(None, {"x": x})
        want = fn(paddle.to_tensor(x)).numpy()
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    return model


@pytest.mark.parametrize("opset", [11, 13, 17])
def test_if_and_while_export_as_if_and_loop(tmp_path, opset):
    model = _export_and_compare(tmp_path, if_then_while, opset)
    assert model.opset_import[0].version == opset
    kinds = [n.op_type for n in model.graph.node]
    assert kinds.count("If") == 1 and kinds.count("Loop") == 1


def test_loop_raises_the_opset_to_11_or_refuses_naming_op_and_opset(tmp_path, capsys):
    model = _export_and_compare(tmp_path, if_then_while, 9)
    assert model.opset_import[0].version == 11
    assert "Use opset_version = 11" in capsys.readouterr().err
    spec = [paddle.static.InputSpec([None, 4], "float32", "x")]
    for opset in (9, 10):
        with pytest.raises(paddle.onnx.NotExportableError,
                           match=rf"\['while'\] cannot be exported at opset {opset}; they need opset 11"):  # fmt: skip
            paddle.onnx.export(if_then_while, str(tmp_path / "m"), spec, opset_version=opset, auto_update_opset=False)


@pytest.mark.parametrize("opset", [9, 10, 11])
def test_if_alone_exports_at_opset_9(tmp_path, opset):
    model = _export_and_compare(tmp_path, branch_returns_its_input, opset, auto=False)
    assert model.opset_import[0].version == opset and [n.op_type for n in model.graph.node][-1] == "If"


def test_loop_variable_changing_shape(tmp_path):
    _export_and_compare(tmp_path, growing_loop, 11)


def test_layer_with_weights_and_if_inside_while(tmp_path):
    net = LoopedNet()
    net.eval()
    model = _export_and_compare(tmp_path, net, 11)
    (loop,) = [n for n in model.graph.node if n.op_type == "Loop"]
    body = loop.attribute[0].g
    assert [n.op_type for n in body.node].count("If") == 1
    weights = {i.name for i in model.graph.initializer}
    assert {n.input[1] for n in body.node if n.op_type == "MatMul"} <= weights  # read from the outer scope


def test_an_op_without_export_inside_a_branch_is_named(tmp_path):
    @paddle.jit.to_static
    def unpool_in_branch(x):
        if paddle.mean(x) > 0:
            y, idx = paddle.nn.functional.max_pool2d(x, 2, return_mask=True)
            y = paddle.nn.functional.max_unpool2d(y, idx, 2)
        else:
            y = x
        return y

    spec = [paddle.static.InputSpec([1, 1, 4, 4], "float32", "x")]
    with pytest.raises(paddle.onnx.NotExportableError, match=r"\['max_unpool'\] cannot be exported at opset 11"):
        paddle.onnx.export(unpool_in_branch, str(tmp_path / "m"), spec, opset_version=11)
