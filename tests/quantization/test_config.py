"""QuantConfig's priorities, mappings and leaves, the quanter factory decorator, Stub / QuanterStub, convert."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from minipaddle import nn
from minipaddle.quantization import BaseQuanter, QuantConfig, quanter

Q = paddle.quantization
FakeQuanter = Q.quanters.FakeQuanterWithAbsMaxObserver


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.stub = nn.quant.Stub()
        self.fc1 = nn.Linear(4, 4)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc2(self.relu(self.fc1(self.stub(x))))


@quanter("HalfQuanter")
class HalfQuanterLayer(BaseQuanter):
    """A made-up quanter: multiplies by `factor`, so tests can see where it went."""

    def __init__(self, layer, factor=0.5):
        super().__init__()
        self.factor = factor

    def forward(self, x):
        return x * self.factor

    def scales(self):
        return paddle.to_tensor([1.0])

    def zero_points(self):
        return None

    def quant_axis(self):
        return -1

    def bit_length(self):
        return 8


def test_quanter_decorator_makes_a_factory_in_the_module():
    factory = globals()["HalfQuanter"](factor=0.25)
    assert str(factory) == "HalfQuanter(factor=0.25)"
    layer = factory._instance(nn.Linear(2, 2))
    assert isinstance(layer, HalfQuanterLayer) and layer.factor == 0.25


def test_priority_name_over_type_over_global():
    half = globals()["HalfQuanter"]()
    fake = FakeQuanter()
    net = Net()
    config = QuantConfig(activation=fake, weight=fake)
    config.add_type_config(nn.Linear, activation=half, weight=None)
    config.add_layer_config(net.fc2, activation=None, weight=half)  # by its full name
    model = Q.QAT(config).quantize(net, inplace=False)
    assert isinstance(model.fc1.activation_quanter, HalfQuanterLayer) and model.fc1.weight_quanter is None
    assert model.fc2.activation_quanter is None and isinstance(model.fc2.weight_quanter, HalfQuanterLayer)
    assert type(model.relu).__name__ == "ObserveWrapper"
    assert type(model.stub).__name__ == "QuanterStub"
    assert type(net.fc1).__name__ == "Linear"  # inplace=False left the original alone


def test_qat_layer_mapping_and_customized_leaf():
    class MyLinear(nn.Layer):
        def __init__(self, layer, q_config):
            super().__init__()
            self.inner = layer

        def forward(self, x):
            return self.inner(x) * 0

    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x):
            return self.fc(x)

    fake = FakeQuanter()
    config = QuantConfig(activation=fake, weight=fake)
    config.add_qat_layer_mapping(nn.Linear, MyLinear)
    config.add_customized_leaf(Block)
    model = Q.QAT(config).quantize(nn.Sequential(nn.Linear(4, 4), Block()))
    assert isinstance(model[0], MyLinear)
    assert type(model[1]).__name__ == "ObserveWrapper"  # a leaf: observed whole, not looked into
    assert np.all(model(paddle.ones([1, 4])).numpy() == model[1](paddle.zeros([1, 4])).numpy())


def test_convert_turns_quanters_into_fixed_qdq_and_weights_into_levels():
    fake = FakeQuanter()
    qat = Q.QAT(QuantConfig(activation=fake, weight=fake))
    paddle.seed(1)
    model = qat.quantize(Net())
    for _ in range(3):
        model(paddle.randn([8, 4]))
    model.eval()
    converted = qat.convert(model)
    fc1 = converted.fc1
    assert type(fc1.weight_quanter).__name__ == "LinearQuanterDequanter" and fc1.weight_quanter._quanter is None
    w = fc1.weight.numpy()
    assert np.all(w == np.round(w)) and np.abs(w).max() <= 128
    assert type(converted.relu._observer).__name__ == "LinearQuanterDequanter"
    kept = qat.convert(model, remain_weight=True)
    np.testing.assert_array_equal(kept.fc1.weight.numpy(), model.fc1.weight.numpy())
    x = paddle.randn([4, 4])
    np.testing.assert_allclose(converted(x).numpy(), kept(x).numpy(), rtol=1e-5, atol=1e-6)


def test_group_wise_observer_scales():
    layer = Q.observers.GroupWiseWeightObserver(quant_bits=4, group_size=64)._instance(None)
    w = paddle.to_tensor(np.arange(128 * 3, dtype="float32").reshape(128, 3) - 100)
    layer(w)
    scales = layer.scales().numpy()
    want = np.abs(w.numpy()).reshape(2, 64, 3).max(axis=1)
    np.testing.assert_array_equal(scales, want)
