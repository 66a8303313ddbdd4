"""Every learning-rate scheduler against real Paddle 2.6 (tests/golden/optimizer/lr_schedulers.json): the rate
after each step, what verbose schedulers print, last_epoch and the final state_dict."""

from __future__ import annotations

import pytest

from tests.optimizer.golden import LR_CASES, make_scheduler


def replay(case):
    scheduler = make_scheduler({"type": case["type"], "kwargs": case["kwargs"]})
    lrs = [scheduler()]
    if case["metrics"] is not None:
        for m in case["metrics"]:
            scheduler.step(m)
            lrs.append(scheduler())
    elif case["epochs"] is not None:
        for e in case["epochs"]:
            scheduler.step(e)
            lrs.append(scheduler())
    else:
        for _ in range(case["steps"]):
            scheduler.step()
            lrs.append(scheduler())
    return scheduler, lrs


@pytest.mark.parametrize("case", LR_CASES, ids=[c["name"] for c in LR_CASES])
def test_rates_match_paddle(case, capsys):
    scheduler, lrs = replay(case)
    assert lrs == pytest.approx(case["lrs"], rel=1e-12, abs=1e-15)
    assert capsys.readouterr().out.splitlines() == case["printed"]
    assert scheduler.last_epoch == case["last_epoch"]
    state = scheduler.state_dict()
    for key, value in case["state_dict"].items():  # minipaddle may keep more (CosineAnnealingWarmRestarts)
        assert state[key] == pytest.approx(value, rel=1e-12), key
