"""Training through to_static: 20 steps of an MLP, LeNet and a small LSTM give the same losses as dynamic mode
(1e-6 in float64, 1e-5 in float32), with gradients, optimizer steps and batch-norm statistics through run_program."""

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn as nn
import minipaddle.nn.functional as F


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(8, 16), nn.Linear(16, 16), nn.Linear(16, 3)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        if paddle.mean(h) > 0.5:  # a Tensor condition: a cond op in the Program
            h = h * 0.5
        return self.fc3(F.relu(self.fc2(h)))


class LeNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2D(1, 4, 3, padding=1), nn.BatchNorm2D(4), nn.ReLU(), nn.MaxPool2D(2, 2),
            nn.Conv2D(4, 8, 3), nn.ReLU(), nn.MaxPool2D(2, 2),
        )  # fmt: skip
        self.fc = nn.Linear(8 * 2 * 2, 3)

    def forward(self, x):
        return self.fc(paddle.flatten(self.features(x), 1))


class SmallLSTM(nn.Layer):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 6)
        self.fc = nn.Linear(6, 3)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out[:, -1])


def _data(kind, dtype, rng):
    if kind == "mlp":
        return rng.standard_normal((6, 8)).astype(dtype)
    if kind == "lenet":
        return rng.standard_normal((4, 1, 12, 12)).astype(dtype)
    return rng.standard_normal((3, 5, 4)).astype(dtype)


def _losses(kind, dtype, convert, steps=20):
    paddle.set_default_dtype(dtype)
    try:
        paddle.seed(7)
        net = {"mlp": MLP, "lenet": LeNet, "lstm": SmallLSTM}[kind]()
        if convert:
            net = paddle.jit.to_static(net)
        opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=net.parameters())
        rng = np.random.default_rng(3)
        x = paddle.to_tensor(_data(kind, dtype, rng))
        y = paddle.to_tensor(rng.integers(0, 3, size=x.shape[0]).astype("int64"))
        losses = []
        for _ in range(steps):
            loss = F.cross_entropy(net(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return np.array(losses), net
    finally:
        paddle.set_default_dtype("float32")


@pytest.mark.parametrize("kind", ["mlp", "lenet", "lstm"])
@pytest.mark.parametrize("dtype,tol", [("float64", 1e-6), ("float32", 1e-5)])
def test_losses_equal_dynamic(kind, dtype, tol):
    dynamic, dnet = _losses(kind, dtype, convert=False)
    static, snet = _losses(kind, dtype, convert=True)
    np.testing.assert_allclose(static, dynamic, rtol=tol, atol=tol)
    assert dynamic[-1] < dynamic[0]  # it did train
    for (name, a), b in zip(dnet.state_dict().items(), snet.state_dict().values()):  # parameters and BN statistics
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=tol * 10, atol=tol * 10, err_msg=name)
    assert snet.forward.get_traced_count() == 1


def test_gradients_reach_parameters_and_inputs():
    paddle.seed(1)
    net = MLP()
    snet = paddle.jit.to_static(MLP())
    snet.set_state_dict(net.state_dict())
    xs = np.random.default_rng(0).standard_normal((5, 8)).astype("float32")
    x1, x2 = paddle.to_tensor(xs, stop_gradient=False), paddle.to_tensor(xs, stop_gradient=False)
    net(x1).sum().backward()
    snet(x2).sum().backward()
    np.testing.assert_allclose(x2.grad.numpy(), x1.grad.numpy(), rtol=1e-5, atol=1e-6)
    for p, q in zip(net.parameters(), snet.parameters()):
        np.testing.assert_allclose(q.grad.numpy(), p.grad.numpy(), rtol=1e-5, atol=1e-6)
    snet.clear_gradients()
    assert all(p.grad is None or not p.grad.numpy().any() for p in snet.parameters())


def test_dropout_follows_train_and_eval():
    class Drop(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)
            self.drop = nn.Dropout(0.5)

        def forward(self, x):
            return self.drop(self.fc(x))

    net = paddle.jit.to_static(Drop())
    x = paddle.ones([64, 4])
    train_out = net(x).numpy()
    assert (train_out == 0).mean() > 0.2  # dropped
    net.eval()
    a, b = net(x).numpy(), net(x).numpy()
    np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(a, net.fc(x).numpy(), rtol=1e-6)
    assert net.forward.get_traced_count() == 2  # train and eval are cached apart


def test_batch_norm_statistics_update_and_eval_uses_them():
    paddle.seed(0)
    bn = nn.BatchNorm1D(3)
    sbn = paddle.jit.to_static(nn.BatchNorm1D(3))
    x = paddle.to_tensor(np.random.default_rng(1).standard_normal((8, 3)).astype("float32") + 2)
    for _ in range(3):
        bn(x), sbn(x)
    np.testing.assert_allclose(sbn._mean.numpy(), bn._mean.numpy(), rtol=1e-6)
    np.testing.assert_allclose(sbn._variance.numpy(), bn._variance.numpy(), rtol=1e-6)
    bn.eval(), sbn.eval()
    np.testing.assert_allclose(sbn(x).numpy(), bn(x).numpy(), rtol=1e-5, atol=1e-6)
