"""Workload `lenet`: one SGD training step of LeNet on a batch of 64 MNIST-sized images.

The network (issue 4): Conv2D(1, 6, 5) - ReLU - MaxPool2D(2) - Conv2D(6, 16, 5) - ReLU - MaxPool2D(2) - Flatten -
Linear(256, 120) - ReLU - Linear(120, 84) - ReLU - Linear(84, 10), cross-entropy loss, SGD. One step is forward,
backward, optimizer step and clear_grad on a fixed batch of 64 x 1 x 28 x 28 float32. Contenders, side by side in
one process:

- minipaddle   the step written against the Paddle 2.x API (`import minipaddle as paddle`)
- numpy        the same step written by hand in numpy: im2col + one GEMM per convolution, col2im for the input
               gradient, 2x2 max pooling from the four strided quarter-images, the Linear layers, softmax
               cross-entropy and the SGD update; no graph, no bookkeeping.
- torch        PyTorch eager on the CPU, when `import torch` works
- paddle       PaddlePaddle itself, when `import paddle` works (run this file with a Python that has paddlepaddle
               2.6: `python benchmarks/lenet.py --framework paddle`)

Target (benchmarks/README.md): minipaddle no slower per step than the hand-written numpy version and than
paddle 2.6 on the CPU.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import harness
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

BATCH, CLASSES, LR = 64, 10, 0.01


def batch(seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((BATCH, 1, 28, 28)).astype("float32")
    y = rng.integers(0, CLASSES, size=(BATCH,)).astype("int64")
    return x, y


def paddle_api_step(paddle) -> Callable[[], None]:
    """The step in Paddle 2.x code. `paddle` is minipaddle or PaddlePaddle itself: the same lines run on both."""
    nn = paddle.nn
    model = nn.Sequential(
        nn.Conv2D(1, 6, 5), nn.ReLU(), nn.MaxPool2D(2),
        nn.Conv2D(6, 16, 5), nn.ReLU(), nn.MaxPool2D(2),
        nn.Flatten(),
        nn.Linear(256, 120), nn.ReLU(),
        nn.Linear(120, 84), nn.ReLU(),
        nn.Linear(84, CLASSES),
    )  # fmt: skip
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=model.parameters())
    xs, ys = batch()
    x, y = paddle.to_tensor(xs), paddle.to_tensor(ys)

    def step() -> None:
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()

    return step


# ---- the numpy floor ---------------------------------------------------------------------------------------------


def _im2col(x, k):
    """[N, C, H, W] -> cols [C*k*k, oh*ow*N] (kernel position before pixel, batch last), for a stride-1 k x k
    convolution: the layout that makes both the copy and col2im's additions fastest."""
    n, c, h, w = x.shape
    win = sliding_window_view(x, (k, k), axis=(2, 3))  # [N, C, oh, ow, k, k], a view
    return win.transpose(1, 4, 5, 2, 3, 0).reshape(c * k * k, -1), (n, h - k + 1, w - k + 1)


def _conv_forward(x, w, b):
    cols, (n, oh, ow) = _im2col(x, w.shape[2])
    out = w.reshape(w.shape[0], -1) @ cols + b[:, None]  # [O, oh*ow*N]
    return out.reshape(w.shape[0], oh, ow, n).transpose(3, 0, 1, 2), cols


def _conv_backward(dout, x, w, cols, need_dx):
    o, c, k, _ = w.shape
    d = dout.transpose(1, 2, 3, 0).reshape(o, -1)  # [O, oh*ow*N]
    dw = (d @ cols.T).reshape(w.shape)
    db = d.sum(axis=1)
    if not need_dx:
        return None, dw, db
    oh, ow, n = dout.shape[2], dout.shape[3], x.shape[0]
    dcols = (w.reshape(o, -1).T @ d).reshape(c, k, k, oh, ow, n)
    dx = np.zeros((c, x.shape[2], x.shape[3], n), dtype=x.dtype)  # col2im, one add per kernel position
    for i in range(k):
        for j in range(k):
            dx[:, i : i + oh, j : j + ow] += dcols[:, i, j]
    return dx.transpose(3, 0, 1, 2), dw, db


def _pool_forward(x):
    """2x2 max pooling: the maximum of the four strided quarter-images; `first` records which quarter won."""
    quarters = [x[:, :, i::2, j::2] for i in (0, 1) for j in (0, 1)]
    out = np.maximum(np.maximum(quarters[0], quarters[1]), np.maximum(quarters[2], quarters[3]))
    first = np.full(out.shape, 3, dtype=np.int8)
    for q in (2, 1, 0):
        first[quarters[q] == out] = q
    return out, first


def _pool_backward(dout, first):
    n, c, h, w = dout.shape
    dx = np.zeros((n, c, 2 * h, 2 * w), dtype=dout.dtype)
    for q, (i, j) in enumerate(((0, 0), (0, 1), (1, 0), (1, 1))):
        dx[:, :, i::2, j::2] = np.where(first == q, dout, 0)
    return dx


def numpy_step() -> Callable[[], None]:
    """The same step by hand: what backward() computes, with no graph and no bookkeeping."""
    rng = np.random.default_rng(1)
    shapes = {"c1": (6, 1, 5, 5), "c2": (16, 6, 5, 5), "f1": (256, 120), "f2": (120, 84), "f3": (84, CLASSES)}
    p = {k: (rng.standard_normal(s) * 0.1).astype("float32") for k, s in shapes.items()}
    p.update({f"{k}b": np.zeros(s[0] if k[0] == "c" else s[1], "float32") for k, s in shapes.items()})
    x, y = batch()
    rows = np.arange(BATCH)

    def step() -> None:
        # forward
        a1, cols1 = _conv_forward(x, p["c1"], p["c1b"])
        r1 = np.maximum(a1, 0)
        p1, m1 = _pool_forward(r1)
        a2, cols2 = _conv_forward(p1, p["c2"], p["c2b"])
        r2 = np.maximum(a2, 0)
        p2, m2 = _pool_forward(r2)
        f0 = p2.reshape(BATCH, -1)
        h1 = np.maximum(f0 @ p["f1"] + p["f1b"], 0)
        h2 = np.maximum(h1 @ p["f2"] + p["f2b"], 0)
        logits = h2 @ p["f3"] + p["f3b"]
        shifted = logits - logits.max(axis=1, keepdims=True)
        probs = np.exp(shifted)
        probs /= probs.sum(axis=1, keepdims=True)
        _loss = -np.log(probs[rows, y]).mean()
        # backward
        dl = probs
        dl[rows, y] -= 1
        dl /= BATCH
        g = {"f3": h2.T @ dl, "f3b": dl.sum(0)}
        dh2 = (dl @ p["f3"].T) * (h2 > 0)
        g["f2"], g["f2b"] = h1.T @ dh2, dh2.sum(0)
        dh1 = (dh2 @ p["f2"].T) * (h1 > 0)
        g["f1"], g["f1b"] = f0.T @ dh1, dh1.sum(0)
        dp2 = (dh1 @ p["f1"].T).reshape(p2.shape)
        da2 = _pool_backward(dp2, m2) * (a2 > 0)
        dp1, g["c2"], g["c2b"] = _conv_backward(da2, p1, p["c2"], cols2, need_dx=True)
        da1 = _pool_backward(dp1, m1) * (a1 > 0)
        _, g["c1"], g["c1b"] = _conv_backward(da1, x, p["c1"], cols1, need_dx=False)
        # SGD
        for k, grad in g.items():
            p[k] -= LR * grad

    return step


def torch_step(torch) -> Callable[[], None]:
    """The same step in PyTorch eager mode on the CPU."""
    nn = torch.nn
    model = nn.Sequential(
        nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(256, 120), nn.ReLU(),
        nn.Linear(120, 84), nn.ReLU(),
        nn.Linear(84, CLASSES),
    )  # fmt: skip
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    xs, ys = batch()
    x, y = torch.from_numpy(xs), torch.from_numpy(ys)

    def step() -> None:
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()

    return step


def run(frameworks: tuple[str, ...] = harness.FRAMEWORKS, min_time: float = 0.2, repeats: int = 7) -> dict[str, float]:
    """Time the chosen frameworks (the numpy floor always) and print the table. Returns {label: seconds/step}."""
    return harness.run_workload(
        "lenet",
        f"lenet: SGD step of LeNet on {BATCH} x 1 x 28 x 28 float32",
        frameworks,
        paddle_api_step=paddle_api_step,
        torch_step=torch_step,
        numpy_step=numpy_step,
        target=harness.Target("minipaddle <= numpy", "minipaddle", "numpy", 1.0),
        warmup=3,
        min_time=min_time,
        repeats=repeats,
    )


def main(argv: list[str] | None = None) -> dict[str, float]:
    return harness.main(argv, __doc__, run, min_time=0.2)


if __name__ == "__main__":
    main(sys.argv[1:])
