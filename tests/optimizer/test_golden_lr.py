"""Every learning-rate scheduler against real Paddle 2.6 (tests/golden/optimizer/lr_schedulers.json): the rate
after each step, what verbose schedulers print, last_epoch and the final state_dict."""

from __future__ import annotations

import pytest

import minipaddle as paddle
from tests.golden.optimizer.specs import replay_scheduler
from tests.optimizer.golden import LR_CASES


@pytest.mark.parametrize("case", LR_CASES, ids=[c["name"] for c in LR_CASES])
def test_rates_match_paddle(case, capsys):
    scheduler, lrs = replay_scheduler(paddle, case)
    assert lrs == pytest.approx(case["lrs"], rel=1e-12, abs=1e-15)
    assert capsys.readouterr().out.splitlines() == case["printed"]
    assert scheduler.last_epoch == case["last_epoch"]
    state = scheduler.state_dict()
    for key, value in case["state_dict"].items():  # minipaddle may keep more (CosineAnnealingWarmRestarts)
        assert state[key] == pytest.approx(value, rel=1e-12), key
