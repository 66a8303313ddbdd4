"""DataParallel on real ranks: equal to one process on the global batch; no_sync, unused parameters, gradient
merge, recompute, the timeline, and saving a DataParallel model (the workers check themselves; see workers.py)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import minipaddle as paddle
from tests.distributed import workers
from tests.distributed.test_collectives import run


def test_two_ranks_equal_one_process_on_the_whole_batch():
    run(workers.data_parallel_equals_one_process)


@pytest.mark.slow
def test_four_ranks_equal_one_process_on_the_whole_batch():
    run(workers.data_parallel_equals_one_process, nprocs=4)


def test_no_sync_unused_parameters_gradient_merge_recompute_timeline():
    run(workers.data_parallel_features)


def test_a_data_parallel_model_saved_on_rank_0_loads_in_one_process(tmp_path):
    """jit.save of a DataParallel model on rank 0 (plain inner Layer with input_spec, and a to_static one) and
    paddle.save of its state_dict; here, in one process: jit.load, and the state dict into the plain model."""
    run(workers.save_data_parallel, str(tmp_path))
    expected = np.load(tmp_path / "expected.npz")
    probe, out = expected["probe"], expected["out"]
    assert sorted(os.listdir(tmp_path)) == ["expected.npz", "net.pdparams", "plain", "static"]  # rank 0 alone wrote
    for form in ("plain", "static"):
        loaded = paddle.jit.load(str(tmp_path / form / "net"))
        np.testing.assert_allclose(loaded(paddle.to_tensor(probe)).numpy(), out, rtol=1e-5, atol=1e-6)

    state = paddle.load(str(tmp_path / "net.pdparams"))
    plain = workers.SavedNet()
    assert list(state) == list(plain.state_dict())  # Paddle's names: no `_layers.` prefix
    assert list(state) == ["fc1.weight", "fc1.bias", "norm.weight", "norm.bias", "norm._mean", "norm._variance",
                           "fc2.weight", "fc2.bias"]  # fmt: skip
    missing, unexpected = plain.set_state_dict(state)
    assert not missing and not unexpected
    for name, value in plain.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), expected[f"param:{name}"])
    plain.eval()
    np.testing.assert_allclose(plain(paddle.to_tensor(probe)).numpy(), out, rtol=1e-6, atol=1e-7)
