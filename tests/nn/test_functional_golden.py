"""conv, pooling, interpolate, pad, unfold and fold against numbers recorded from real Paddle 2.6.

tests/golden/nn_conv/make_golden.py ran each case under paddle 2.6 and stored the inputs, the output (and mask),
a cotangent and the gradient of sum(out * cot) with respect to every float input. Here minipaddle runs the same
call on the same float64 inputs and must give the same numbers; no Paddle is needed.
"""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F
from tests.golden_files import GOLDEN_ROOT, read_arrays, read_json

GOLDEN = GOLDEN_ROOT / "nn_conv"
CASES = read_json(GOLDEN / "cases.json")["cases"]


@pytest.fixture(scope="module")
def arrays():
    return read_arrays(GOLDEN / "arrays.npz")


def _atol(case) -> float:
    """Paddle's interpolation kernels compute their weights partly in float32 even for float64 data (and not always
    in the same order as minipaddle), so they agree to ~1e-7; everything else agrees to float64 rounding."""
    return 1e-6 if case["fn"] in ("interpolate", "upsample") else 1e-8


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_paddle(name, arrays):
    case = CASES[name]
    atol = _atol(case)
    inputs = {a: paddle.to_tensor(arrays[f"{name}.in.{a}"], stop_gradient=False) for a in case["tensors"]}
    result = getattr(F, case["fn"])(**inputs, **case["kwargs"])
    out, mask = result if isinstance(result, tuple) else (result, None)
    np.testing.assert_allclose(out.numpy(), arrays[f"{name}.out"], rtol=1e-6, atol=atol)
    if f"{name}.mask" in arrays:
        np.testing.assert_array_equal(mask.numpy(), arrays[f"{name}.mask"])
        assert mask.dtype == paddle.int32 and mask.stop_gradient
    loss = (out * paddle.to_tensor(arrays[f"{name}.cot"])).sum()
    grads = paddle.grad([loss], list(inputs.values()), allow_unused=True)
    for a, g in zip(inputs, grads):
        np.testing.assert_allclose(g.numpy(), arrays[f"{name}.grad.{a}"], rtol=1e-6, atol=atol, err_msg=f"grad {a}")
