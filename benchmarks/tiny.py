"""Workload `tiny`: the fixed cost of one autograd step.

One step is `loss = (x * w).sum(); loss.backward(); w.clear_grad()` on 8 float32 values. The arithmetic is
nothing, so the time is the framework's own overhead per op: dispatch, building the graph, running backward,
accumulating and clearing the gradient. Contenders, timed side by side in one process:

- minipaddle   the step written against the Paddle 2.x API (`import minipaddle as paddle`)
- numpy        the same math by hand: the floor no framework on numpy can beat
- torch        PyTorch eager autograd on the CPU, when `import torch` works
- paddle       PaddlePaddle itself, when `import paddle` works (it does not in the project venv; run this file
               with a Python that has paddlepaddle 2.6: `python benchmarks/tiny.py --framework paddle`)

Target (benchmarks/README.md): minipaddle no slower per step than torch.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import harness
import numpy as np

N = 8


def paddle_api_step(paddle) -> Callable[[], None]:
    """The step in Paddle 2.x code. `paddle` is minipaddle or PaddlePaddle itself: the same lines run on both."""
    x = paddle.to_tensor(np.ones(N, "float32"))
    w = paddle.to_tensor(np.random.rand(N).astype("float32"), stop_gradient=False)

    def step() -> None:
        loss = (x * w).sum()
        loss.backward()
        w.clear_grad()

    return step


def numpy_step() -> Callable[[], None]:
    """The same step by hand: what backward() computes, with no graph and no bookkeeping."""
    x = np.ones(N, "float32")
    w = np.random.rand(N).astype("float32")
    grad = np.zeros_like(w)  # w.grad

    def step() -> None:
        loss = (x * w).sum()  # forward
        seed = np.ones_like(loss)  # backward starts from d(loss)/d(loss) = 1
        grad[...] += x * seed  # sum passes the seed on to every element; mul multiplies it by x; accumulate
        grad[:] = 0  # clear_grad()

    return step


def torch_step(torch) -> Callable[[], None]:
    """The same step in PyTorch eager mode on the CPU."""
    x = torch.ones(N, dtype=torch.float32)
    w = torch.rand(N, dtype=torch.float32, requires_grad=True)

    def step() -> None:
        loss = (x * w).sum()
        loss.backward()
        w.grad = None  # what optimizer.zero_grad() does by default

    return step


def run(frameworks: tuple[str, ...] = harness.FRAMEWORKS, min_time: float = 0.05, repeats: int = 7) -> dict[str, float]:
    """Time the chosen frameworks (the numpy floor always) and print the table. Returns {label: seconds/step}."""
    return harness.run_workload(
        "tiny",
        f"tiny: (x * w).sum(), backward, clear_grad on {N} float32",
        frameworks,
        paddle_api_step=paddle_api_step,
        torch_step=torch_step,
        numpy_step=numpy_step,
        target=harness.Target("minipaddle <= torch", "minipaddle", "torch", 1.0),
        min_time=min_time,
        repeats=repeats,
    )


def main(argv: list[str] | None = None) -> dict[str, float]:
    return harness.main(argv, __doc__, run, min_time=0.05)


if __name__ == "__main__":
    main(sys.argv[1:])
