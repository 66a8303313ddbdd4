"""Quantized models saved for inference in paddle 2.6's two formats, loaded back with load_inference_model."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle

SPEC = [paddle.static.InputSpec([None, 1, 28, 28], "float32", "image")]


def _load_and_run(path, x):
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(str(path), exe)
        (out,) = exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    return program, out


def _qat_lenet(onnx_format=False):
    paddle.seed(3)
    net = paddle.vision.models.LeNet()
    qat = paddle.quantization.ImperativeQuantAware(weight_quantize_type="channel_wise_abs_max", onnx_format=onnx_format)
    qat.quantize(net)
    x = paddle.randn([4, 1, 28, 28])
    for _ in range(3):
        net(x)
    net.eval()
    return qat, net, x


def test_legacy_format_keeps_fake_ops_and_writes_thresholds(tmp_path):
    qat, net, x = _qat_lenet()
    want = net(x).numpy()
    qat.save_quantized_model(net, str(tmp_path / "lenet"), input_spec=SPEC)
    program, got = _load_and_run(tmp_path / "lenet", x.numpy())
    np.testing.assert_array_equal(got, want)
    ops = program.global_block().ops
    types = [op.type for op in ops]
    assert "moving_average_abs_max_scale" not in types
    assert types[:3] == ["fake_quantize_dequantize_moving_average_abs_max",
                         "fake_channel_wise_quantize_dequantize_abs_max", "conv2d"]  # fmt: skip
    conv = ops[2]
    layer = net.features[0]._layer
    assert conv.quant_attrs["with_quant_attr"] is True
    notes = conv.quant_attrs
    np.testing.assert_allclose(notes["Input0_threshold"], layer._fake_quant_input._scale.numpy()[0], rtol=1e-7)
    np.testing.assert_allclose(notes["Filter0_threshold"], layer._fake_quant_weight._scale.numpy(), rtol=1e-7)
    assert len(conv.quant_attrs["Filter0_threshold"]) == 6  # per output channel
    add = ops[4]  # the bias add ends the conv layer: its output scale
    np.testing.assert_allclose(add.quant_attrs["out_threshold"], net.features[0]._ma_output_scale._scale.numpy()[0])
    matmul = next(op for op in ops if op.type == "matmul")
    assert len(matmul.quant_attrs["Y0_threshold"]) == 120
    # the notes live beside the attributes, which the Executor hands to the kernels as they are
    assert not any(k.endswith("_threshold") or k == "with_quant_attr" for op in ops for k in op.attrs)


def test_onnx_format_quantize_linear_with_integer_weights(tmp_path):
    qat, net, x = _qat_lenet(onnx_format=True)
    qat.save_quantized_model(net, str(tmp_path / "lenet"), input_spec=SPEC)
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "lenet"), exe)
        scope = paddle.static.global_scope()
        ops = program.global_block().ops
        assert [op.type for op in ops[:4]] == ["quantize_linear", "dequantize_linear", "dequantize_linear", "conv2d"]
        weight = scope.vars[ops[2].inputs["x"][0]]
        assert np.all(weight == np.round(weight)) and np.abs(weight).max() <= 127
        np.testing.assert_allclose(scope.vars[ops[2].inputs["scale"][0]],
                                   net.features[0]._layer._fake_quant_weight._scale.numpy())  # fmt: skip
        (got,) = exe.run(program, feed={feeds[0]: x.numpy()}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    # The onnx format also quantizes each quantized layer's output with its recorded scale, and (as Paddle's
    # ReplaceFakeQuantDequantPass) drops an input quantizer that reads such an output (fc.1's and fc.2's, which follow
    # fc.0 and fc.1 directly): the same in dygraph.
    for i in (1, 2):
        net.fc[i]._layer._fake_quant_input = paddle.nn.Identity()
    for layer in net.sublayers():
        if isinstance(layer, paddle.nn.quant.quant_layers.MAOutputScaleLayer):
            layer._ma_output_scale = paddle.nn.quant.format.LinearQuanterDequanter(
                paddle.nn.quant.format.LinearQuanter(layer._ma_output_scale._scale.numpy()),
                paddle.nn.quant.format.LinearDequanter(layer._ma_output_scale._scale.numpy()),
            )
    # The output is quantized, so it sits on a grid of step s/127; the fake ops round ties away from zero and
    # quantize_linear to even, which moves a few values by a step or two.
    step = float(net.fc[2]._ma_output_scale._quanter._scales.numpy()[0]) / 127
    want = net(x).numpy()
    np.testing.assert_allclose(got, want, atol=2.01 * step)
    assert np.mean(np.abs(got - want) < 1e-5) > 0.7


def test_converted_qat26_model_saves_quantize_linear(tmp_path):
    Q = paddle.quantization
    quanter = Q.quanters.FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    qat = Q.QAT(Q.QuantConfig(activation=quanter, weight=quanter))
    paddle.seed(4)
    model = qat.quantize(paddle.vision.models.LeNet())
    x = paddle.randn([4, 1, 28, 28])
    for _ in range(3):
        model(x)
    model.eval()
    converted = qat.convert(model)
    want = converted(x).numpy()
    # quantize_linear rounds ties to even where the fake ops round them away from zero (paddle's converted LeNet
    # moves by 0.03 too, tests/golden/quantization): close, not equal
    np.testing.assert_allclose(want, model(x).numpy(), atol=0.15)
    paddle.jit.save(converted, str(tmp_path / "lenet"), input_spec=SPEC)
    program, got = _load_and_run(tmp_path / "lenet", x.numpy())
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    types = [op.type for op in program.global_block().ops]
    assert types[:4] == ["quantize_linear", "dequantize_linear", "dequantize_linear", "conv2d"]
    assert "fake_quantize_dequantize_moving_average_abs_max" not in types


def test_save_errors():
    qat, net, _ = _qat_lenet()
    with pytest.raises(ValueError, match="input_spec"):
        qat.save_quantized_model(net, "/tmp/never")
    with pytest.raises(TypeError, match="InputSpec"):
        qat.save_quantized_model(net, "/tmp/never", input_spec=[[1, 2]])
