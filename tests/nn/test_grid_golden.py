"""affine_grid and grid_sample against numbers recorded from real Paddle 2.6.

tests/golden/grid/make_golden.py ran each case under paddle 2.6 and stored the float64 inputs, the output, a
cotangent and the gradient of sum(out * cot) with respect to every input: every mode, padding mode and
align_corners of grid_sample in 2-D, several in 3-D, grids reaching far outside the image (mirrored several times),
and a spatial transformer (grid_sample of affine_grid) differentiated in both the image and theta.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "grid"
CASES = json.loads((GOLDEN / "cases.json").read_text())["cases"]


@pytest.fixture(scope="module")
def arrays():
    with np.load(GOLDEN / "arrays.npz", allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def _run(case, tensors):
    if case["fn"] == "spatial_transformer":
        kw = case["kwargs"]
        return F.grid_sample(tensors["x"], F.affine_grid(tensors["theta"], tensors["x"].shape, **kw), **kw)
    return getattr(F, case["fn"])(**tensors, **case["kwargs"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_paddle(name, arrays):
    case = CASES[name]
    inputs = {a: paddle.to_tensor(arrays[f"{name}.in.{a}"], stop_gradient=False) for a in case["tensors"]}
    out = _run(case, inputs)
    np.testing.assert_allclose(out.numpy(), arrays[f"{name}.out"], rtol=1e-10, atol=1e-12)
    loss = (out * paddle.to_tensor(arrays[f"{name}.cot"])).sum()
    grads = paddle.grad([loss], list(inputs.values()))
    for a, g in zip(inputs, grads):
        np.testing.assert_allclose(g.numpy(), arrays[f"{name}.grad.{a}"], rtol=1e-10, atol=1e-12, err_msg=f"grad {a}")


def test_golden_file_covers_every_mode():
    sampled = {(c["kwargs"].get("mode", "bilinear"), c["kwargs"].get("padding_mode", "zeros"))
               for c in CASES.values() if c["fn"] == "grid_sample"}  # fmt: skip
    assert sampled == {(m, p) for m in ("bilinear", "nearest") for p in ("zeros", "border", "reflection")}
