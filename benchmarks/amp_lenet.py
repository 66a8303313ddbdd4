"""Workload `amp_lenet`: LeNet of lenet.py trained in float32 and under AMP (O1/O2, float16/bfloat16), side by side.

Target (benchmarks/README.md): each AMP step within 1.3x the float32 step (conv2d and matmul run in float32 on the
low-precision values and round; benchmarks/_amp_steps.py).
"""

from __future__ import annotations

import sys

import _amp_steps
import harness
from lenet import CLASSES, batch


def make_model(paddle):
    nn = paddle.nn
    return nn.Sequential(
        nn.Conv2D(1, 6, 5), nn.ReLU(), nn.MaxPool2D(2),
        nn.Conv2D(6, 16, 5), nn.ReLU(), nn.MaxPool2D(2),
        nn.Flatten(),
        nn.Linear(256, 120), nn.ReLU(),
        nn.Linear(120, 84), nn.ReLU(),
        nn.Linear(84, CLASSES),
    )  # fmt: skip


def run(min_time: float = 0.1, repeats: int = 7) -> dict[str, float]:
    x, y = batch()
    return _amp_steps.run("amp_lenet: one SGD step, 64 x 1 x 28 x 28", make_model, x, y, min_time, repeats)


def main(argv=None) -> int:
    parser = harness.option_parser(__doc__, 0.1, choices=("minipaddle",), default="minipaddle", framework_help=None)
    args = parser.parse_args(argv)
    run(args.min_time, args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
