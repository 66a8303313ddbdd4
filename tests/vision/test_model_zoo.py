"""The vision models added after the first five (AlexNet, SqueezeNet, ShuffleNetV2, MobileNetV3, DenseNet,
GoogLeNet, InceptionV3, ResNeXt, wide ResNet) against real Paddle 2.6 (tests/golden/vision_models/models.json and
outputs.npz, made by tests/golden/vision_models/make_golden.py): the same constructor gives the same state_dict
keys, parameter names and shapes, so Paddle's checkpoints load; and with the same fixed weights, the same outputs.
Each model is built once per module (and shared by its tests); the largest builds are marked slow."""

from __future__ import annotations

import functools
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.core.state import name_guard

HERE = Path(__file__).resolve().parents[1] / "golden" / "vision_models"
GOLDEN = json.loads((HERE / "models.json").read_text())["models"]
OUTPUTS = np.load(HERE / "outputs.npz")
_spec = importlib.util.spec_from_file_location("vision_models_golden", HERE / "make_golden.py")
_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_gen)

# builds over ~40 million weights take seconds in numpy
SLOW = {n for n, case in GOLDEN.items() if case["num_params"] > 40_000_000}


@functools.cache
def _build(name: str):
    scope = {"paddle": paddle}
    with name_guard():
        exec(GOLDEN[name]["source"], scope)  # noqa: S102 (the recorded constructor call)
    return scope["m"]


def _params(names):
    return [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in sorted(names)]


@pytest.mark.parametrize("name", _params(GOLDEN))
def test_state_dict_matches_paddle(name):
    case = GOLDEN[name]
    m = _build(name)
    names = {id(p): p.name for p in m.parameters()}
    assert [[k, names.get(id(v)), list(v.shape)] for k, v in m.state_dict().items()] == case["state_dict"]
    assert sum(int(np.prod(p.shape)) for p in m.parameters()) == case["num_params"]
    assert sum(int(np.prod(p.shape)) for p in m.parameters() if p.trainable) == case["num_trainable"]


@pytest.mark.parametrize("name", _params(n for n, c in GOLDEN.items() if c["input"]))
def test_forward_matches_paddle_with_the_same_weights(name):
    case = GOLDEN[name]
    m = _build(name)
    m.set_state_dict(_gen.fixed_state(case["state_dict"]))
    m.eval()
    with paddle.no_grad():
        out = m(paddle.to_tensor(_gen.fixed_input(case["input"])))
    outs = out if isinstance(out, list) else [out]
    expected = [
        OUTPUTS[k] for k in sorted(OUTPUTS.files, key=lambda k: int(k.rsplit("/", 1)[1])) if k.startswith(name + "/")
    ]
    assert len(outs) == len(expected)
    for got, want in zip(outs, expected):
        assert got.shape == list(want.shape)
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-4, atol=2e-4 * np.abs(want).max())


def test_small_model_trains_one_step():
    net = paddle.vision.models.shufflenet_v2_x0_25(num_classes=3)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    x, y = paddle.rand([2, 3, 32, 32]), paddle.to_tensor([[0], [2]])
    before = net._fc.weight.numpy().copy()
    paddle.nn.functional.cross_entropy(net(x), y).backward()
    assert net._conv1[0].weight.grad is not None
    opt.step()
    assert not np.array_equal(before, net._fc.weight.numpy())


M = paddle.vision.models


@pytest.mark.parametrize(
    "make",
    [
        lambda: M.squeezenet1_1(pretrained=True, num_classes=10),
        lambda: M.shufflenet_v2_x0_25(pretrained=True),
        lambda: M.mobilenet_v3_small(pretrained=True),
    ],
)
def test_pretrained_asks_for_paddles_url_and_md5(make, monkeypatch):
    from minipaddle.vision.models.pretrained import MODEL_URLS
    from tests.vision.test_models import asks_for

    url, md5 = asks_for(make, monkeypatch)
    assert (url, md5) in MODEL_URLS.values() and url.startswith("https://paddle-") and len(md5) == 32


def test_pretrained_weights_paddle_does_not_publish_are_refused():
    with pytest.raises(ValueError, match="mobilenet_v3_large_x0.75 model do not have a pretrained model now"):
        M.mobilenet_v3_large(pretrained=True, scale=0.75)


def test_bad_arguments():
    with pytest.raises(ValueError, match="SqueezeNet: version must be"):
        M.SqueezeNet("2.0")
    with pytest.raises(ValueError, match="ShuffleNetV2: scale must be one of"):
        M.ShuffleNetV2(scale=0.75)
    with pytest.raises(ValueError, match="ShuffleNetV2: act must be"):
        M.ShuffleNetV2(act="gelu")
    with pytest.raises(ValueError, match="DenseNet: layers must be one of"):
        M.DenseNet(layers=100)


def test_googlenet_returns_main_and_auxiliary_outputs():
    out = _build("GoogLeNet_headless")(paddle.rand([1, 3, 64, 64]))
    assert [o.shape for o in out] == [[1, 1024, 1, 1], [1, 512, 3, 3], [1, 528, 3, 3]]
