"""Workload `to_static_mlp`: the `mlp` training step with the network converted by paddle.jit.to_static.

The same model, loss, SGD step and weights as benchmarks/mlp.py. The converted network's forward runs as one
`run_program` op (the whole forward Program, compiled once into a plan of bound kernels), its backward as one
`run_program_grad` op; the loss, backward() call, optimizer step and clear_grad are dynamic mode's, as in a
Paddle 2.x script that decorates its model. Timed beside the dynamic step and the numpy floor.

Target (benchmarks/README.md): at most 1.05x the numpy floor.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import harness
import numpy as np
from mlp import LR, data, init_weights, numpy_step, paddle_api_step


def to_static_step(paddle) -> Callable[[], None]:
    """The mlp step with `paddle.jit.to_static(model)`: Paddle 2.x code that runs on minipaddle and on Paddle."""
    nn = paddle.nn
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    for p, value in zip(model.parameters(), init_weights()):
        p.set_value(value)
    model = paddle.jit.to_static(model, full_graph=True)
    loss_fn = nn.CrossEntropyLoss()
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=model.parameters())
    x_np, y_np = data()
    x, y = paddle.to_tensor(x_np), paddle.to_tensor(y_np)

    def step() -> None:
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()

    step.parameters = model.parameters()
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
        "to_static_mlp: the mlp step (784-256-128-10, batch 128) with the network converted by jit.to_static",
        contenders,
        floor_label="numpy",
        min_time=min_time,
        repeats=repeats,
        skipped=skipped,
    )
    harness.Target("to_static <= 1.05 x numpy", f"{framework} to_static", "numpy", 1.05, "to_static / numpy").report(
        medians
    )
    if framework == "minipaddle":  # the framework's own Python per step, which the loaded machine's clock blurs
        for label, step in contenders.items():
            if label != "numpy":
                print(f"{label}: {harness.python_calls(step):.0f} Python calls per step")
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
