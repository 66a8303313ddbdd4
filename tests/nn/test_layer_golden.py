"""conv/pool/resize layers, RNNs, attention and Transformer layers, and short SGD trainings of a small CNN and an
LSTM classifier, against numbers recorded from real Paddle 2.6 (tests/golden/nn_conv/make_layer_golden.py).

Each layer case builds the layer with the recorded constructor arguments (float64, as recorded), loads the
recorded parameters, runs the recorded inputs and must give the same outputs and the same gradients of
sum(out_i * cot_i) for every float input and parameter. Each training case starts from the recorded parameters
and must give the same loss at every SGD step. No Paddle is needed.
"""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_arrays, read_json

GOLDEN = GOLDEN_ROOT / "nn_conv"
META = read_json(GOLDEN / "layers.json")
CASES, TRAININGS = META["cases"], META["trainings"]


@pytest.fixture(scope="module")
def arrays():
    return read_arrays(GOLDEN / "layers.npz")


def _make(spec, arrays, name, key):
    """Rebuild a forward argument from its spec (as the generator's `make`), with the recorded values."""
    if spec is None:
        return None
    if isinstance(spec, list):
        return tuple(_make(s, arrays, name, f"{key}.{i}") for i, s in enumerate(spec))
    if "value" in spec:
        return spec["value"]
    value = arrays[f"{name}.in.{key}"]
    return paddle.to_tensor(value) if "int" in spec else paddle.to_tensor(value, stop_gradient=False)


def _flatten(x):
    if isinstance(x, (list, tuple)):
        return [t for e in x for t in _flatten(e)]
    return [x] if isinstance(x, paddle.Tensor) else []


@pytest.mark.parametrize("name", sorted(CASES))
def test_layer_matches_paddle(name, arrays):
    case = CASES[name]
    previous = paddle.get_default_dtype()
    paddle.set_default_dtype("float64")  # the generator built every layer in float64
    try:
        layer = getattr(paddle.nn, case["cls"])(**case["kwargs"])
    finally:
        paddle.set_default_dtype(previous)
    state = {k[len(f"{name}.param.") :]: v for k, v in arrays.items() if k.startswith(f"{name}.param.")}
    missing, unexpected = layer.set_state_dict(state)
    assert missing == [] and unexpected == []
    args = [_make(spec, arrays, name, f"arg{i}") for i, spec in enumerate(case["forward"])]
    outs = _flatten(layer(*args))
    assert len(outs) == case["n_out"]
    loss = 0
    for i, o in enumerate(outs):
        np.testing.assert_allclose(o.numpy(), arrays[f"{name}.out.{i}"], rtol=1e-6, atol=1e-8, err_msg=f"out {i}")
        if f"{name}.cot.{i}" in arrays:
            loss = loss + (o * paddle.to_tensor(arrays[f"{name}.cot.{i}"])).sum()
    wrt = [t for t in _flatten(args) if not t.stop_gradient]
    params = list(layer.named_parameters())
    keys, tensors = zip(*params) if params else ((), ())
    grads = paddle.grad([loss], wrt + list(tensors), allow_unused=True)
    for i, g in enumerate(grads[: len(wrt)]):
        if f"{name}.grad_in.{i}" in arrays:
            np.testing.assert_allclose(g.numpy(), arrays[f"{name}.grad_in.{i}"], rtol=1e-6, atol=1e-8,
                                       err_msg=f"gradient of input {i}")  # fmt: skip
    for key, g in zip(keys, grads[len(wrt) :]):
        if f"{name}.grad_param.{key}" in arrays:
            np.testing.assert_allclose(g.numpy(), arrays[f"{name}.grad_param.{key}"], rtol=1e-6, atol=1e-8,
                                       err_msg=f"gradient of {key}")  # fmt: skip


class SmallCNN(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(1, 4, 3)
        self.pool = paddle.nn.MaxPool2D(2)
        self.fc = paddle.nn.Linear(4 * 3 * 3, 5)

    def forward(self, x):
        return self.fc(paddle.flatten(self.pool(paddle.nn.functional.relu(self.conv(x))), 1))


class LSTMClassifier(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.lstm = paddle.nn.LSTM(4, 8)
        self.fc = paddle.nn.Linear(8, 3)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out[:, -1])


MODELS = {"cnn": SmallCNN, "lstm": LSTMClassifier}


@pytest.mark.parametrize("name", sorted(TRAININGS))
def test_training_matches_paddle(name, arrays):
    """The same start, the same batch, plain SGD: the loss at every step must be Paddle's."""
    model = MODELS[name]()
    prefix = f"train.{name}.param."
    state = {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}
    missing, unexpected = model.set_state_dict(state)
    assert missing == [] and unexpected == []
    x = paddle.to_tensor(arrays[f"train.{name}.x"])
    y = paddle.to_tensor(arrays[f"train.{name}.y"])
    opt = paddle.optimizer.SGD(learning_rate=TRAININGS[name]["lr"], parameters=model.parameters())
    losses = []
    for _ in range(TRAININGS[name]["steps"]):
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    np.testing.assert_allclose(losses, arrays[f"train.{name}.losses"], rtol=1e-5, atol=1e-6)
