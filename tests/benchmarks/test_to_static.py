"""The to_static benchmarks compare like with like: the converted step trains the same weights as the numpy
floor (mlp), and runs (lenet)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import minipaddle as paddle

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import mlp  # noqa: E402
import to_static_lenet  # noqa: E402
import to_static_mlp  # noqa: E402


def test_converted_mlp_step_trains_the_numpy_floors_weights():
    step, floor = to_static_mlp.to_static_step(paddle), mlp.numpy_step()
    for _ in range(3):
        step()
        floor()
    for p, w in zip(step.parameters, floor.parameters):
        np.testing.assert_allclose(p.numpy(), w, rtol=1e-5, atol=1e-6)


def test_converted_lenet_step_runs():
    step = to_static_lenet.to_static_step(paddle)
    step()
    step()
