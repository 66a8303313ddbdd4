"""Workload `amp_mlp`: the MLP of mlp.py trained in float32 and under AMP (O1/O2, float16/bfloat16), side by side.

Target (benchmarks/README.md): each AMP step within 1.3x the float32 step (white-list matmuls run in float32 on the
low-precision values and round, as tensor cores do; benchmarks/_amp_steps.py).
"""

from __future__ import annotations

import sys

import _amp_steps
import harness
from mlp import data


def make_model(paddle):
    nn = paddle.nn
    return nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))


def run(min_time: float = 0.1, repeats: int = 7) -> dict[str, float]:
    x, y = data()
    return _amp_steps.run("amp_mlp: one SGD step, 128 x 784 -> 10", make_model, x, y, min_time, repeats)


def main(argv=None) -> int:
    parser = harness.option_parser(__doc__, 0.1, choices=("minipaddle",), default="minipaddle", framework_help=None)
    args = parser.parse_args(argv)
    run(args.min_time, args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
