"""The `mlp` benchmark compares like with like: its minipaddle step and its hand-written numpy floor compute the
same weights (a ratio between two different computations would mean nothing)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import minipaddle as paddle

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import mlp  # noqa: E402


def test_minipaddle_and_the_numpy_floor_train_the_same_weights():
    framework, floor = mlp.paddle_api_step(paddle), mlp.numpy_step()
    for _ in range(3):
        framework()
        floor()
    for p, w in zip(framework.parameters, floor.parameters):
        np.testing.assert_allclose(p.numpy(), w, rtol=1e-5, atol=1e-6)
    assert not np.allclose(floor.parameters[0], mlp.init_weights()[0])  # the weights did move
