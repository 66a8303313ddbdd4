"""DataParallel with the user's own auto_cast and GradScaler on two real ranks: one Inf gradient on one rank
skips the step on every rank (the workers check themselves; see amp_workers.py)."""

from __future__ import annotations

from tests.distributed import amp_workers
from tests.distributed.test_collectives import run


def test_one_inf_gradient_on_one_rank_skips_the_step_on_every_rank():
    run(amp_workers.one_inf_gradient_skips_the_step_on_every_rank)


def test_distributed_scaler_needs_fleet_and_a_scaler():
    run(amp_workers.distributed_scaler_needs_fleet_and_a_scaler)
