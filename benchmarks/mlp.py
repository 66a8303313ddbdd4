"""Workload `mlp`: one training step of a small multilayer perceptron, where the arithmetic dominates.

One step on a batch of 128 MNIST-sized inputs: Linear 784-256, ReLU, Linear 256-128, ReLU, Linear 128-10,
CrossEntropyLoss (mean), backward, SGD step, clear_grad. About 2 x 0.24 GFLOP of matrix products per step, so the
framework's own overhead (a few dozen ops through the door) should vanish beside numpy's matmuls. Contenders:

- minipaddle   the step written against the Paddle 2.x API (`import minipaddle as paddle`)
- numpy        the same math by hand: forward, softmax cross-entropy, backward, SGD update, nothing else
- torch        PyTorch eager on the CPU, when `import torch` works
- paddle       PaddlePaddle itself, when `import paddle` works (run this file with a Python that has paddlepaddle 2.6:
               `python benchmarks/mlp.py --framework paddle`)

Target (benchmarks/README.md): minipaddle within 1.1x the numpy floor.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import harness
import numpy as np

BATCH, SIZES, CLASSES, LR = 128, (784, 256, 128), 10, 0.01


def data(seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((BATCH, SIZES[0])).astype("float32")
    y = rng.integers(0, CLASSES, size=BATCH).astype("int64")
    return x, y


def init_weights(seed: int = 1) -> list[np.ndarray]:
    """W1, b1, W2, b2, W3, b3 ([in, out] weights, as Paddle's Linear), the same for every contender."""
    rng = np.random.default_rng(seed)
    dims = (*SIZES, CLASSES)
    out = []
    for fan_in, fan_out in zip(dims[:-1], dims[1:]):
        limit = np.sqrt(6.0 / (fan_in + fan_out))
        out += [rng.uniform(-limit, limit, (fan_in, fan_out)).astype("float32"), np.zeros(fan_out, "float32")]
    return out


def paddle_api_step(paddle) -> Callable[[], None]:
    """The step in Paddle 2.x code. `paddle` is minipaddle or PaddlePaddle itself: the same lines run on both."""
    nn = paddle.nn
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    for p, value in zip(model.parameters(), init_weights()):
        p.set_value(value)
    loss_fn = nn.CrossEntropyLoss()
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=model.parameters())
    x_np, y_np = data()
    x, y = paddle.to_tensor(x_np), paddle.to_tensor(y_np)

    def step() -> None:
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()

    step.parameters = model.parameters()  # for tests/benchmarks/test_mlp.py: both sides do the same math
    return step


def numpy_step() -> Callable[[], None]:
    """The same step by hand: what the framework computes, with no graph and no bookkeeping."""
    w1, b1, w2, b2, w3, b3 = init_weights()
    x, y = data()
    rows = np.arange(BATCH)

    def step() -> None:
        # forward
        h1 = x @ w1 + b1
        a1 = np.maximum(h1, 0)
        h2 = a1 @ w2 + b2
        a2 = np.maximum(h2, 0)
        logits = a2 @ w3 + b3
        shifted = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        total = e.sum(axis=1, keepdims=True)
        loss = -(shifted[rows, y] - np.log(total[:, 0])).mean()  # noqa: F841 (computed, as the framework does)
        # backward: softmax cross-entropy, then the layers in reverse
        d_logits = e / total
        d_logits[rows, y] -= 1
        d_logits /= BATCH
        g_w3, g_b3 = a2.T @ d_logits, d_logits.sum(axis=0)
        d_h2 = (d_logits @ w3.T) * (h2 > 0)
        g_w2, g_b2 = a1.T @ d_h2, d_h2.sum(axis=0)
        d_h1 = (d_h2 @ w2.T) * (h1 > 0)
        g_w1, g_b1 = x.T @ d_h1, d_h1.sum(axis=0)
        # SGD
        for w, g in ((w1, g_w1), (b1, g_b1), (w2, g_w2), (b2, g_b2), (w3, g_w3), (b3, g_b3)):
            w -= LR * g

    step.parameters = [w1, b1, w2, b2, w3, b3]
    return step


def torch_step(torch) -> Callable[[], None]:
    """The same step in PyTorch eager mode on the CPU (weights transposed to torch's [out, in])."""
    nn = torch.nn
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    with torch.no_grad():
        for p, value in zip(model.parameters(), init_weights()):
            p.copy_(torch.from_numpy(value.T.copy() if value.ndim == 2 else value))
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    x_np, y_np = data()
    x, y = torch.from_numpy(x_np), torch.from_numpy(y_np)

    def step() -> None:
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()

    return step


def run(frameworks: tuple[str, ...] = harness.FRAMEWORKS, min_time: float = 0.2, repeats: int = 7) -> dict[str, float]:
    """Time the chosen frameworks (the numpy floor always) and print the table. Returns {label: seconds/step}."""
    return harness.run_workload(
        "mlp",
        f"mlp: Linear 784-256-128-10 + ReLU, CrossEntropyLoss, backward, SGD step, batch {BATCH} float32",
        frameworks,
        paddle_api_step=paddle_api_step,
        torch_step=torch_step,
        numpy_step=numpy_step,
        target=harness.Target("minipaddle <= 1.1 x numpy", "minipaddle", "numpy", 1.1),
        min_time=min_time,
        repeats=repeats,
    )


def main(argv: list[str] | None = None) -> dict[str, float]:
    return harness.main(argv, __doc__, run, min_time=0.2)


if __name__ == "__main__":
    main(sys.argv[1:])
