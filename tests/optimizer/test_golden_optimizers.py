"""Every optimizer, step by step, against real Paddle 2.6 (tests/golden/optimizer/optimizers.json).

Each case was run on Paddle by tests/golden/optimizer/make_golden.py: fixed parameters and gradients, a few steps,
with weight decay, ParamAttr learning rates and regularizers, gradient clipping, schedulers and parameter groups.
Here minipaddle replays it and must give the same parameters after every step and the same final state_dict
(accumulator names and values).
"""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.core.state import name_guard
from tests.golden.optimizer.specs import run_step
from tests.optimizer.golden import OPTIMIZER_CASES, build

# float32 state is rounded a little differently by numpy and Paddle's Eigen/jit kernels; a few steps of
# Adam-like rules amplify that to ~1e-6 relative.
TOL = {"float32": dict(rtol=2e-5, atol=2e-6), "float64": dict(rtol=1e-12, atol=1e-13)}


@pytest.mark.parametrize("case", OPTIMIZER_CASES, ids=[c["name"] for c in OPTIMIZER_CASES])
def test_steps_match_paddle(case):
    with name_guard():
        params, opt, scheduler = build(case)
        for step, (grads, expected) in enumerate(zip(case["grads"], case["expected"])):
            lr = run_step(paddle, case, params, opt, scheduler, grads)
            assert lr == pytest.approx(expected["lr"], rel=1e-12), f"step {step}: get_lr()"
            for p in params:
                want = np.array(expected["params"][p.name], dtype=p.dtype.name)
                np.testing.assert_allclose(p.numpy(), want, **TOL[p.dtype.name], err_msg=f"step {step}: {p.name}")
        state = opt.state_dict()
    assert sorted(state) == sorted(case["state_dict"])
    for key, want in case["state_dict"].items():
        if key == "LR_Scheduler":
            assert state[key] == want
        else:
            np.testing.assert_allclose(state[key].numpy(), np.array(want), rtol=1e-4, atol=1e-6, err_msg=key)
