"""paddle.vision.models against real Paddle 2.6 (tests/golden/hapi/models.json, made by
tests/golden/hapi/make_golden.py): the same constructor gives the same state_dict keys, parameter names, shapes
and counts, so a state dict saved from Paddle's model loads into minipaddle's; and forward gives the same shapes.
Building the full VGGs (over 130 million weights each) takes seconds, so those tests are marked slow."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.core.state import name_guard

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "golden" / "hapi" / "models.json").read_text())
MODELS, FORWARD = GOLDEN["models"], GOLDEN["forward"]
SLOW = {"vgg11", "vgg11_bn", "vgg13", "vgg16", "vgg16_bn", "vgg19"}  # (the forward case vgg11_bn too)


def _build(source: str):
    scope = {"paddle": paddle}
    with name_guard():
        exec(source, scope)  # noqa: S102 (the recorded constructor call)
    return scope["m"]


def _params(name):
    return pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name


@pytest.mark.parametrize("name", [_params(n) for n in sorted(MODELS)])
def test_parameters_match_paddle(name):
    case = MODELS[name]
    m = _build(case["source"])
    names = {id(p): p.name for p in m.parameters()}
    assert [[k, names.get(id(v)), list(v.shape)] for k, v in m.state_dict().items()] == case["state_dict"]
    assert sum(int(np.prod(p.shape)) for p in m.parameters()) == case["num_params"]
    assert sum(int(np.prod(p.shape)) for p in m.parameters() if p.trainable) == case["num_trainable"]


@pytest.mark.parametrize("name", [_params(n) for n in sorted(FORWARD)])
def test_forward_shape_matches_paddle(name):
    case = FORWARD[name]
    m = _build(case["source"])
    m.eval()
    with paddle.no_grad():
        out = m(paddle.rand(case["input"]))
    assert list(out.shape) == case["output"]


def test_lenet_trains_one_step():
    net = paddle.vision.models.LeNet()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    x, y = paddle.rand([4, 1, 28, 28]), paddle.to_tensor([[0], [1], [2], [3]])
    before = net.fc[2].weight.numpy().copy()
    paddle.nn.functional.cross_entropy(net(x), y).backward()
    opt.step()
    assert not np.array_equal(before, net.fc[2].weight.numpy())


class _Asked(Exception):
    pass


def asks_for(make, monkeypatch) -> tuple:
    """(url, md5) that make() asks paddle.utils.download for (stopped there: no network in the tests)."""
    from minipaddle.utils import download

    def record(url, md5sum=None):
        raise _Asked(url, md5sum)

    monkeypatch.setattr(download, "get_weights_path_from_url", record)
    with pytest.raises(_Asked) as info:
        make()
    return info.value.args


def test_pretrained_asks_for_paddles_published_weights(monkeypatch):
    M = paddle.vision.models
    url, md5 = asks_for(lambda: M.resnet18(pretrained=True), monkeypatch)
    assert (url, md5) == (
        "https://paddle-hapi.bj.bcebos.com/models/resnet18.pdparams",
        "cf548f46534aa3560945be4b95cd11c4",
    )
    assert asks_for(lambda: M.mobilenet_v1(pretrained=True), monkeypatch)[0].endswith("mobilenetv1_1.0.pdparams")
    for make in (lambda: M.vgg16(pretrained=True, batch_norm=True), lambda: M.mobilenet_v2(pretrained=True, scale=0.5)):
        with pytest.raises(ValueError, match="do not have a pretrained model now"):
            make()


def test_a_paddle_state_dict_loads_by_key():
    """What a Paddle checkpoint is: {structured key: array}; every key of it finds its parameter here."""
    src = paddle.vision.models.mobilenet_v2(scale=0.35, num_classes=4)
    state = {k: v.numpy() + 1.0 for k, v in src.state_dict().items()}
    dst = paddle.vision.models.mobilenet_v2(scale=0.35, num_classes=4)
    dst.set_state_dict(state)
    for k, v in dst.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), state[k])


def test_bad_arguments():
    with pytest.raises(ValueError, match="depth must be one of"):
        paddle.vision.models.ResNet(paddle.vision.models.resnet.BasicBlock, depth=20)
    with pytest.raises(ValueError, match="dilation > 1"):
        paddle.vision.models.resnet.BasicBlock(8, 8, dilation=2)
