"""benchmarks/amp_counts.py: an O2 float16 LeNet step unscales with one fused op (157 dispatches before, 108 now)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import amp_counts  # noqa: E402

import minipaddle as paddle  # noqa: E402


def test_an_o2_float16_lenet_step_unscales_in_one_op():
    c = amp_counts.counts(paddle, "O2", "float16")
    assert c["ops"]["check_finite_and_unscale"] == 1
    assert c["ops"]["isfinite"] == 0
    assert c["dispatches"] <= 108
