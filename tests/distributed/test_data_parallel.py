"""DataParallel on real ranks: equal to one process on the global batch; no_sync, unused parameters, gradient
merge, recompute and the timeline (the workers check themselves; see workers.py)."""

from __future__ import annotations

import pytest

from tests.distributed import workers
from tests.distributed.test_collectives import run


def test_two_ranks_equal_one_process_on_the_whole_batch():
    run(workers.data_parallel_equals_one_process)


@pytest.mark.slow
def test_four_ranks_equal_one_process_on_the_whole_batch():
    run(workers.data_parallel_equals_one_process, nprocs=4)


def test_no_sync_unused_parameters_gradient_merge_recompute_timeline():
    run(workers.data_parallel_features)
