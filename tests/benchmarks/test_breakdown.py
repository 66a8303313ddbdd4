"""benchmarks/breakdown.py splits a step into kernel time per op and the framework's own time, and leaves every
op as it found it."""

from __future__ import annotations

import sys
from pathlib import Path

from minipaddle.core.op import OPS

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import breakdown  # noqa: E402
import mlp  # noqa: E402

import minipaddle as paddle  # noqa: E402


def test_kernel_times_counts_each_op_of_a_step_and_restores_the_ops():
    elapsed, seconds, calls = breakdown.kernel_times(mlp.paddle_api_step(paddle), steps=2)
    assert calls["matmul"] == 2 * 8  # 3 forward, 5 backward (the input needs no gradient)
    assert calls["sgd"] == 2 * 6  # one update per parameter
    assert 0 < sum(seconds.values()) < elapsed
    assert all("kernel" not in op.__dict__ and "kernel_into" not in op.__dict__ for op in OPS.values())


def test_breakdown_prints_the_split(capsys):
    split = breakdown.breakdown("tiny", min_time=0.001, steps=3)
    out = capsys.readouterr().out
    assert "kernels alone / floor" in out and "framework" in out
    assert split["kernels"] > 0 and split["framework"] > 0 and split["floor"] > 0
