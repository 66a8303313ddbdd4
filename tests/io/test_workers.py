"""DataLoader with worker processes: same batches as without workers, errors and deaths surface in the main
process (never a hang), timeout, get_worker_info, worker_init_fn, persistent workers, no zombie processes.

Every test is bounded: a DataLoader that hung would be stopped by its own `timeout` or by the liveness check.
"""

from __future__ import annotations

import os
import signal
import threading

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.io import DataLoader, get_worker_info
from tests.io import workloads as W


def labels(loader):
    return [y.numpy().tolist() for _, y in loader]


def assert_reaped(workers):
    """Every worker has exited and been waited for: no process, not even a zombie, is left."""
    for w in workers:
        assert w.exitcode is not None
        assert not os.path.exists(f"/proc/{w.pid}") or _state(w.pid) != "Z"


def _state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0]
    except OSError:
        return "gone"


def test_workers_give_the_same_batches_in_the_same_order():
    for shuffle in (False, True):
        paddle.seed(11)
        alone = labels(DataLoader(W.Squares(23), batch_size=4, shuffle=shuffle))
        paddle.seed(11)
        workers = labels(DataLoader(W.Squares(23), batch_size=4, shuffle=shuffle, num_workers=2, timeout=10))
        assert workers == alone


def test_worker_exception_is_raised_in_the_main_process_with_its_traceback():
    loader = DataLoader(W.FailsAt(10, bad=5), batch_size=2, num_workers=2, timeout=10)
    with pytest.raises(ValueError) as info:
        labels(loader)
    message = str(info.value)
    assert "DataLoader worker" in message and "sample 5 is corrupt" in message
    assert "Traceback" in message and "workloads.py" in message  # the worker's own traceback


def test_batches_before_the_failing_one_arrive():
    it = iter(DataLoader(W.FailsAt(10, bad=6), batch_size=2, num_workers=2, timeout=10))
    assert [next(it)[1].numpy().tolist() for _ in range(3)] == [[0, 1], [4, 9], [16, 25]]
    with pytest.raises(ValueError, match="corrupt"):
        next(it)
    assert_reaped(it._workers)


def test_a_worker_that_dies_is_reported_with_its_exit_code():
    it = iter(DataLoader(W.DiesAt(10, bad=3), batch_size=2, num_workers=2))  # no timeout: liveness alone
    with pytest.raises(RuntimeError, match=r"worker 1 \(pid \d+\) exited unexpectedly \(exit code 7\)"):
        list(it)
    assert_reaped(it._workers)


def test_a_killed_worker_is_reported():
    it = iter(DataLoader(W.Sleeps(6, slow=1, seconds=60), batch_size=1, num_workers=2))
    victim = it._workers[1]  # reads sample 1, which sleeps
    threading.Timer(0.5, os.kill, (victim.pid, signal.SIGKILL)).start()
    with pytest.raises(RuntimeError, match="killed by signal 9"):
        list(it)
    assert_reaped(it._workers)


def test_timeout_stops_a_stuck_loader():
    it = iter(DataLoader(W.Sleeps(6, slow=2, seconds=60), batch_size=1, num_workers=2, timeout=0.5))
    with pytest.raises(RuntimeError, match="timed out"):
        list(it)
    assert_reaped(it._workers)


def test_a_slow_batch_within_the_timeout_is_fine():
    loader = DataLoader(W.Sleeps(4, slow=1, seconds=0.3), batch_size=1, num_workers=2, timeout=5)
    assert labels(loader) == [[0], [1], [4], [9]]


def test_get_worker_info_and_per_worker_seeds():
    assert get_worker_info() is None
    paddle.seed(5)
    batches = list(DataLoader(W.WhoReads(), batch_size=2, num_workers=2, timeout=10))
    info = np.concatenate([b[0].numpy() for b in batches])
    assert sorted(set(info[:, 1].tolist())) == [0, 1]  # both workers read
    assert os.getpid() not in info[:, 2].tolist()  # and nothing was read in the main process
    draws = np.concatenate([b[1].numpy() for b in batches])
    assert len(set(draws.round(8).tolist())) == len(draws)  # workers do not repeat each other's random numbers
    paddle.seed(5)
    again = np.concatenate([b[1].numpy() for b in DataLoader(W.WhoReads(), batch_size=2, num_workers=2, timeout=10)])
    np.testing.assert_array_equal(draws, again)  # ... and paddle.seed makes them repeatable


def test_iterable_dataset_split_among_workers():
    loader = DataLoader(W.Stream(11), batch_size=2, num_workers=3, timeout=10)
    got = sorted(v for b in loader for v in b.numpy().ravel().tolist())
    assert got == list(range(11))


def test_worker_init_fn_runs_in_each_worker():
    loader = DataLoader(W.InitMark(), batch_size=1, num_workers=2, worker_init_fn=W.record_init, timeout=10)
    assert sorted(b.numpy().item() for b in loader) == [0, 0, 1, 1]
    assert os.environ.get("MINIPADDLE_TEST_WORKER_INIT") is None  # it ran in the workers, not here


def test_a_failing_worker_init_fn_is_reported():
    loader = DataLoader(W.InitMark(), batch_size=1, num_workers=2, worker_init_fn=W.failing_init, timeout=10)
    with pytest.raises(KeyError, match="worker_init_fn"):
        list(loader)


def test_a_batch_that_cannot_be_sent_is_an_error_not_a_hang():
    with pytest.raises(Exception, match="while sending the batch"):
        list(DataLoader(W.Unpicklable(4), batch_size=2, num_workers=2, timeout=10, collate_fn=lambda s: s))


def test_workers_are_reaped_after_an_epoch_and_after_a_break():
    it = iter(DataLoader(W.Squares(8), batch_size=2, num_workers=2, timeout=10))
    assert len(list(it)) == 4
    assert_reaped(it._workers)
    it = iter(DataLoader(W.Squares(40), batch_size=2, num_workers=2, timeout=10))
    next(it)
    workers = it._workers
    del it  # abandoned mid-epoch: garbage collection stops the workers
    assert_reaped(workers)


def test_persistent_workers_live_across_epochs():
    loader = DataLoader(W.Squares(7), batch_size=3, num_workers=2, persistent_workers=True, timeout=10)
    first = labels(loader)
    workers = loader._iterator._workers
    pids = [w.pid for w in workers]
    for _ in range(2):
        for i, _ in enumerate(loader):  # an epoch abandoned half-way must not leak into the next one
            if i == 1:
                break
        assert labels(loader) == first
    assert [w.pid for w in loader._iterator._workers] == pids and all(w.is_alive() for w in workers)
    loader._iterator.close()
    assert_reaped(workers)


def test_persistent_workers_restart_an_iterable_dataset_each_epoch():
    loader = DataLoader(W.Stream(5), batch_size=2, num_workers=2, persistent_workers=True, timeout=10)
    for _ in range(2):
        assert sorted(v for b in loader for v in b.numpy().ravel().tolist()) == [0, 1, 2, 3, 4]
    loader._iterator.close()


def test_spawned_workers_work_too():
    loader = DataLoader(W.Squares(6), batch_size=2, num_workers=2, timeout=60, multiprocessing_context="spawn")
    assert labels(loader) == [[0, 1], [4, 9], [16, 25]]
