"""paddle.amp.decorate: O2 casts parameters (not normalization or excluded layers); master weights; save_dtype."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(1, 2, 3)
        self.bn = paddle.nn.BatchNorm2D(2)
        self.ln = paddle.nn.LayerNorm(8)
        self.fc = paddle.nn.Linear(8, 3)

    def forward(self, x):
        y = self.bn(self.conv(x))
        return self.fc(self.ln(paddle.flatten(y, 1)[:, :8]))


def _dtypes(model):
    return {name: p.dtype.name for name, p in model.named_parameters()}


def test_o1_returns_the_inputs_untouched():
    paddle.seed(0)
    net = Net()
    opt = paddle.optimizer.SGD(parameters=net.parameters())
    assert paddle.amp.decorate(net, opt, level="O1") == (net, opt)
    assert set(_dtypes(net).values()) == {"float32"}


def test_o2_float16_keeps_norm_layers_float32():
    paddle.seed(0)
    net = Net()
    opt = paddle.optimizer.Adam(parameters=net.parameters())
    model, opt2 = paddle.amp.decorate(net, opt, level="O2")
    assert model is net and opt2 is opt and opt._multi_precision
    d = _dtypes(net)
    assert d["conv.weight"] == d["fc.weight"] == d["fc.bias"] == "float16"
    assert d["bn.weight"] == d["ln.weight"] == "float32"
    assert net.bn._mean.dtype == paddle.float32


def test_o2_bfloat16_casts_layernorm_but_not_batchnorm():
    paddle.seed(0)
    net = Net()
    paddle.amp.decorate(net, level="O2", dtype="bfloat16")
    d = _dtypes(net)
    assert d["ln.weight"] == d["fc.weight"] == "bfloat16" and d["bn.weight"] == "float32"


def test_excluded_layers_by_instance_and_type():
    paddle.seed(0)
    net = Net()
    paddle.amp.decorate(net, level="O2", excluded_layers=[net.fc])
    assert _dtypes(net)["fc.weight"] == "float32" and _dtypes(net)["conv.weight"] == "float16"
    net2 = Net()
    paddle.amp.decorate(net2, level="O2", excluded_layers=paddle.nn.Conv2D)
    assert _dtypes(net2)["conv.weight"] == "float32" and _dtypes(net2)["fc.weight"] == "float16"
    with pytest.raises(TypeError, match="excluded_layers must be either"):
        paddle.amp.decorate(Net(), level="O2", excluded_layers=[3])


def test_o2_training_updates_float32_master_weights():
    paddle.seed(0)
    net = paddle.nn.Linear(4, 2)
    opt = paddle.optimizer.SGD(learning_rate=1e-4, parameters=net.parameters())
    net, opt = paddle.amp.decorate(net, opt, level="O2")
    w0 = net.weight.numpy().astype(np.float32).copy()
    x = paddle.rand([8, 4])
    for _ in range(3):
        with paddle.amp.auto_cast(level="O2"):
            loss = net(x).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    master = opt._master_weights[net.weight.name]
    assert master.dtype == paddle.float32 and net.weight.dtype == paddle.float16
    np.testing.assert_array_equal(net.weight.numpy(), master.numpy().astype(np.float16))
    assert not np.array_equal(master.numpy(), w0)  # updates of 1e-4 * grad add up in float32


def test_master_weight_false_and_master_grad():
    paddle.seed(0)
    net = paddle.nn.Linear(4, 2)
    opt = paddle.optimizer.SGD(parameters=net.parameters())
    paddle.amp.decorate(net, opt, level="O2", master_weight=False, master_grad=True)
    assert not opt._multi_precision
    scaler = paddle.amp.GradScaler()
    with paddle.amp.auto_cast(level="O2"):
        loss = net(paddle.rand([2, 4])).mean()
    scaler.scale(loss).backward()
    assert net.weight.grad.dtype == paddle.float16
    scaler.unscale_(opt)
    assert net.weight.grad.dtype == paddle.float32


def test_save_dtype_changes_state_dict_not_parameters():
    paddle.seed(0)
    net = paddle.nn.Linear(4, 2)
    paddle.amp.decorate(net, level="O2", save_dtype="float32")
    sd = net.state_dict()
    assert sd["weight"].dtype == paddle.float32 and net.weight.dtype == paddle.float16
    assert sd["weight"].name == net.weight.name
    with pytest.raises(ValueError, match="save_dtype can only be"):
        paddle.amp.decorate(paddle.nn.Linear(2, 2), level="O2", save_dtype="int8")


def test_structure_and_argument_errors():
    a, b = paddle.nn.Linear(2, 2), paddle.nn.Linear(2, 2)
    out = paddle.amp.decorate([a, b], level="O2")
    assert isinstance(out, list) and a.weight.dtype == paddle.float16
    with pytest.raises(ValueError, match="level should be O1 or O2"):
        paddle.amp.decorate(a, level="O3")
    with pytest.raises(ValueError, match="dtype only support float16 or bfloat16."):
        paddle.amp.decorate(a, level="O2", dtype="float64")
    with pytest.raises(TypeError, match="models must be either a single model or a list of models."):
        paddle.amp.decorate("net", level="O2")


def test_model_prepare_amp_configs_trains_with_amp():
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
    model = paddle.Model(net)
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=net.parameters())
    model.prepare(opt, paddle.nn.CrossEntropyLoss(), amp_configs={"level": "O1", "init_loss_scaling": 128.0})
    x = np.random.default_rng(0).random((16, 4)).astype("float32")
    y = (x.sum(1, keepdims=True) > 2).astype("int64")
    losses = [float(model.train_batch([x], [y])[0]) for _ in range(20)]
    assert losses[-1] < losses[0]
    scaler = model._amp.scaler
    assert len(scaler.history) == 20 and scaler.history[0].scale == 128.0
    model2 = paddle.Model(paddle.nn.Linear(4, 2))
    opt2 = paddle.optimizer.SGD(parameters=model2.network.parameters())
    model2.prepare(opt2, paddle.nn.CrossEntropyLoss(), amp_configs="O2")
    assert model2.network.weight.dtype == paddle.float16 and opt2._multi_precision
    with pytest.raises(ValueError, match="could not be recognized"):
        paddle.Model(paddle.nn.Linear(2, 2)).prepare(opt2, amp_configs={"level": "O1", "lr": 1})
    with pytest.raises(ValueError, match="should be 'O0', 'O1' or 'O2'"):
        paddle.Model(paddle.nn.Linear(2, 2)).prepare(opt2, amp_configs="O3")
