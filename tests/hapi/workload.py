"""A small classification task for the hapi tests: 4 features, 3 classes, an MLP."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle

_rng = np.random.RandomState(0)
X = _rng.rand(40, 4).astype("float32")
Y = ((X.sum(1) * 1.7).astype("int64") % 3).reshape(-1, 1)


def dataset(n: int = 40, labels: bool = True):
    parts = [paddle.to_tensor(X[:n])] + ([paddle.to_tensor(Y[:n])] if labels else [])
    return paddle.io.TensorDataset(parts)


def mlp(out: int = 3):
    return paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, out))


def model(net=None, metrics="acc", lr=0.1, optimizer="sgd", inputs=None):
    net = net or mlp()
    m = paddle.Model(net, inputs=inputs)
    cls = paddle.optimizer.SGD if optimizer == "sgd" else paddle.optimizer.Adam
    opt = cls(learning_rate=lr, parameters=net.parameters())
    m.prepare(opt, paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy() if metrics == "acc" else metrics)
    return m
