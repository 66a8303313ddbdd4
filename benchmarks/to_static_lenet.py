"""Workload `to_static_lenet`: the `lenet` training step with the network converted by paddle.jit.to_static.

The same LeNet, loss and SGD step as benchmarks/lenet.py; the converted network's forward and backward each run
as one op (run_program / run_program_grad) over a compiled plan of the same kernels. Timed beside the dynamic
step and the hand-written numpy floor.

Target (benchmarks/README.md): no slower than the dynamic lenet step.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import harness
import numpy as np
from lenet import CLASSES, LR, batch, numpy_step, paddle_api_step


def to_static_step(paddle) -> Callable[[], None]:
    """The lenet step with `paddle.jit.to_static(model)`, in Paddle 2.x code."""
    nn = paddle.nn
    model = nn.Sequential(
        nn.Conv2D(1, 6, 5), nn.ReLU(), nn.MaxPool2D(2),
        nn.Conv2D(6, 16, 5), nn.ReLU(), nn.MaxPool2D(2),
        nn.Flatten(),
        nn.Linear(256, 120), nn.ReLU(),
        nn.Linear(120, 84), nn.ReLU(),
        nn.Linear(84, CLASSES),
    )  # fmt: skip
    model = paddle.jit.to_static(model, full_graph=True)
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=model.parameters())
    xs, ys = batch()
    x, y = paddle.to_tensor(xs), paddle.to_tensor(ys)

    def step() -> None:
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()

    return step


def run(framework: str = "minipaddle", min_time: float = 0.2, repeats: int = 7) -> dict[str, float]:
    module, why_not = harness.import_framework(framework)
    contenders: dict[str, Callable[[], None]] = {}
    skipped = {}
    if module is None:
        skipped[framework] = why_not
    else:
        contenders[f"{framework} dynamic"] = paddle_api_step(module)
        contenders[f"{framework} to_static"] = to_static_step(module)
    contenders["numpy"] = numpy_step()
    medians = harness.compare(
        "to_static_lenet: the lenet step (batch 64 x 1 x 28 x 28) with the network converted by jit.to_static",
        contenders,
        floor_label="numpy",
        min_time=min_time,
        repeats=repeats,
        skipped=skipped,
    )
    dynamic, static = f"{framework} dynamic", f"{framework} to_static"
    harness.Target("to_static <= dynamic", static, dynamic, 1.0, "to_static / dynamic").report(medians)
    return medians


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = harness.option_parser(
        __doc__, min_time=0.2, choices=("minipaddle", "paddle"), default="minipaddle", framework_help=None
    )
    args = parser.parse_args(argv)
    return run(args.framework, min_time=args.min_time, repeats=args.repeats)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main(sys.argv[1:])
