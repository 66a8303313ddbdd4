"""viz/quant.py: the quantization views read the right numbers, and draw."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
import viz
from minipaddle.quantization.saved_model import load_saved_layer


@pytest.fixture(scope="module")
def quantized():
    paddle.seed(0)
    net = paddle.vision.models.LeNet()
    float_net = paddle.vision.models.LeNet()
    float_net.set_state_dict(net.state_dict())
    paddle.quantization.ImperativeQuantAware(weight_quantize_type="channel_wise_abs_max").quantize(net)
    history = viz.record_scales(net)
    x = paddle.randn([8, 1, 28, 28])
    for _ in range(4):
        net(x)
    history.remove()
    return net, float_net, x, history


def test_quant_records_list_every_quanter_with_its_scales(quantized):
    net = quantized[0]
    records = {r["name"]: r for r in viz.quant_records(net)}
    assert len(records) == 5 * 2 + 9  # weight + input per quantized layer, an output scale per wrapped layer
    w = records["features.0._layer._fake_quant_weight"]
    assert w["role"] == "weight" and w["axis"] == 0 and w["bits"] == 8
    np.testing.assert_array_equal(w["scales"], net.features[0]._layer._fake_quant_weight._scale.numpy())
    assert records["fc.0._ma_output_scale"]["role"] == "output"
    assert records["fc.0._layer._fake_quant_input"]["scales"].size == 1


def test_draw_quant_model_and_program(quantized, tmp_path):
    net = quantized[0]
    svg = viz.draw_quant(net).svg()
    assert "per-channel scales" in svg and "moving-average abs-max" in svg
    net.eval()
    program, _, _, scope = load_saved_layer(net, [paddle.static.InputSpec([None, 1, 28, 28], "float32")])
    net.train()
    view = viz.draw_quant(program, scope=scope)
    assert view.source.count("fake_quantize_dequantize_moving_average_abs_max") >= 5
    assert "#fff2cc" in view.source  # the fake-quant colour
    assert "scale 3." in view.source or "scale " in view.source
    with pytest.raises(ValueError, match="no quanters"):
        viz.draw_quant(paddle.nn.Linear(2, 2))


def test_plot_weight_quant_counts_levels(quantized, tmp_path):
    layer = quantized[0].fc[0]._layer
    path = viz.plot_weight_quant(layer, channel=3).save(tmp_path / "w.png")
    assert (tmp_path / "w.png").stat().st_size > 1000 and path.endswith("w.png")
    with pytest.raises(ValueError, match="no weight"):
        viz.plot_weight_quant(paddle.nn.ReLU())


def test_plot_quant_error_is_sqnr_against_float(quantized):
    net, float_net, x, _ = quantized
    view = viz.plot_quant_error(net, x, float_model=float_net)
    twin = viz.plot_quant_error(net, x)  # the same float model, made by switching the quanters off
    assert list(view.sqnr) == ["features.0._layer", "features.3._layer", "fc.0._layer", "fc.1._layer", "fc.2._layer"]
    np.testing.assert_allclose(list(view.sqnr.values()), list(twin.sqnr.values()))
    values = list(view.sqnr.values())
    assert all(20 < v < 60 for v in values)  # 8 bits: ~6 dB per bit, less the accumulated error
    assert values[0] > values[-1]  # the error accumulates through the layers
    assert "<svg" in view.svg()


def test_scale_history_follows_the_moving_average(quantized):
    history = quantized[3]
    h = history.history["features.0._layer._fake_quant_input"]
    np.testing.assert_allclose(h["state"], [1.9, 2.71, 3.439, 4.0951], rtol=1e-6)
    np.testing.assert_allclose(np.array(h["scale"]), np.array(h["accum"]) / np.array(h["state"]), rtol=1e-6)
    assert "<svg" in viz.plot_scale_history(history).svg()
    with pytest.raises(ValueError, match="nothing recorded"):
        viz.plot_scale_history({"x": {"scale": [], "state": [], "accum": []}})
