"""Workload `lenet_predictor_b1`: lenet_predictor.py at batch 1 (a service answering one image at a time), where
the framework's fixed cost per op matters more than the arithmetic. Same contenders and targets."""

from __future__ import annotations

import sys

import lenet_predictor


def run(min_time: float = 0.2, repeats: int = 7) -> dict[str, float]:
    return lenet_predictor.run(batch=1, min_time=min_time, repeats=repeats)


def main(argv: list[str] | None = None) -> dict[str, float]:
    return lenet_predictor.main(argv, batch=1)


if __name__ == "__main__":
    main(sys.argv[1:])
