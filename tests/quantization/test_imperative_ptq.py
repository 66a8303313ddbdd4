"""ImperativePTQ: its quantizers against paddle 2.6 (tests/golden/quantization/quantizers.npz), conv+bn folding, and
the saved model with its thresholds."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_arrays

Q = paddle.quantization
GOLD = read_arrays(GOLDEN_ROOT / "quantization" / "quantizers.npz")


@pytest.mark.parametrize("name", ["abs_max", "hist", "kl"])
def test_activation_quantizers_equal_paddle(name):
    quantizer = {"abs_max": Q.AbsmaxQuantizer, "hist": Q.HistQuantizer, "kl": Q.KLQuantizer}[name]()
    for i in range(3):  # the range grows at the second batch: the histogram is re-binned
        quantizer.sample_data(None, (paddle.to_tensor(GOLD[f"batch{i}"]),))
    quantizer.cal_thresholds()
    if name != "abs_max":
        np.testing.assert_allclose(quantizer.hists[0], GOLD[f"{name}.hist"], rtol=1e-6)
    np.testing.assert_allclose(quantizer.thresholds, GOLD[f"{name}.thresholds"], rtol=1e-6)


def test_per_channel_quantizer_equals_paddle():
    quantizer = Q.PerChannelAbsmaxQuantizer()
    quantizer.sample_data(paddle.nn.Conv2D(3, 6, 3), (paddle.to_tensor(GOLD["weight"]),))
    quantizer.cal_thresholds()
    np.testing.assert_allclose(quantizer.thresholds, GOLD["per_channel.thresholds"], rtol=1e-6)


class ConvBN(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(1, 4, 3)
        self.bn = paddle.nn.BatchNorm2D(4)
        self.relu = paddle.nn.ReLU()
        self.fc = paddle.nn.Linear(4 * 8 * 8, 10)

    def forward(self, x):
        return self.fc(paddle.flatten(self.relu(self.bn(self.conv(x))), 1))


def _trained_bn_net():
    paddle.seed(5)
    net = ConvBN()
    for _ in range(3):  # give the BN running statistics of its own
        net(paddle.randn([8, 1, 10, 10]) * 2 + 1)
    net.eval()
    return net


def test_fuse_conv_bn_computes_the_same():
    net = _trained_bn_net()
    x = paddle.randn([4, 1, 10, 10])
    want = net(x).numpy()
    fused = Q.imperative.fuse_utils.fuse_layers(net, [["conv", "bn"]])
    assert type(fused.bn).__name__ == "Identity" and type(net.bn).__name__ == "BatchNorm2D"  # a copy
    np.testing.assert_allclose(fused(x).numpy(), want, rtol=1e-5, atol=1e-5)
    net.train()
    with pytest.raises(RuntimeError, match="eval"):
        Q.imperative.fuse_utils.fuse_layers(net, [["conv", "bn"]])


@pytest.mark.parametrize("activation", ["KLQuantizer", "HistQuantizer", "AbsmaxQuantizer"])
def test_ptq_saves_thresholds_and_stays_close(tmp_path, activation):
    net = _trained_bn_net()
    x = paddle.randn([8, 1, 10, 10])
    want = net(x).numpy()
    ptq = Q.ImperativePTQ(Q.PTQConfig(getattr(Q, activation)(), Q.PerChannelAbsmaxQuantizer()))
    model = ptq.quantize(net, fuse=True, fuse_list=[["conv", "bn"]])
    for _ in range(4):
        model(paddle.randn([16, 1, 10, 10]))
    ptq.save_quantized_model(model, str(tmp_path / "m"), [paddle.static.InputSpec([None, 1, 10, 10], "float32")])
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "m"), exe)
        (got,) = exe.run(program, feed={feeds[0]: x.numpy()}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    ops = program.global_block().ops
    types = [op.type for op in ops]
    assert "batch_norm" not in types and types.count("fake_quantize_dequantize_moving_average_abs_max") == 2
    conv = next(op for op in ops if op.type == "conv2d")
    assert isinstance(conv.quant_attrs["Input0_threshold"], float) and len(conv.quant_attrs["Filter0_threshold"]) == 4
    relu = next(op for op in ops if op.type == "relu")
    assert relu.quant_attrs["out_threshold"] > 0 and "X0_threshold" in relu.quant_attrs
    assert not any(k.endswith("_threshold") for op in ops for k in op.attrs)  # the kernels' attributes stay clean
    assert np.abs(got - want).max() < 0.05 * np.abs(want).max()  # 8-bit noise, not a different model


def test_ptq_config_checks():
    with pytest.raises(TypeError, match="weight_quantizer"):
        Q.PTQConfig(Q.KLQuantizer(), Q.KLQuantizer())
    with pytest.raises(TypeError, match="PTQConfig"):
        Q.ImperativePTQ("KL")
