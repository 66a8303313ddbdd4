"""Collectives on 2 real ranks (started by spawn through mpiexec), and how failures end."""

from __future__ import annotations

import time

import pytest

import minipaddle.distributed as dist
from tests.distributed import workers

TIMEOUT = 120  # seconds a run of ranks may take before the test kills it and fails


def run(func, *args, nprocs=2, env=None, monkeypatch=None):
    ctx = dist.spawn(func, args=args, nprocs=nprocs, join=False)
    try:
        if not ctx.join(timeout=TIMEOUT):
            pytest.fail(f"{func.__name__} did not finish within {TIMEOUT} s")
    finally:
        ctx.terminate()
    return ctx


def _alive(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie waiting to be reaped does not count)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_every_collective_on_two_ranks():
    run(workers.collectives)


def test_destroy_process_group_frees_one_group_or_all():
    run(workers.destroyed_groups)


@pytest.mark.parametrize("how", ["raise", pytest.param("kill", marks=pytest.mark.slow)])
def test_a_failing_rank_ends_every_rank_and_is_named(how):
    start = time.monotonic()
    ctx = dist.spawn(workers.rank_fails, args=(how,), nprocs=2, join=False)
    with pytest.raises(RuntimeError) as info:
        try:
            assert ctx.join(timeout=TIMEOUT), "the ranks did not end"
        finally:
            ctx.terminate()
    message = str(info.value)
    pids = ctx.outcome.pids
    assert sorted(pids) == [0, 1]
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in pids.values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in pids.values() if _alive(pid)], "a rank is left behind"
    if how == "raise":
        assert "rank 1 raised ValueError: rank 1 fails on purpose" in message
    else:
        assert "rank 1 died before finishing (signal 9, SIGKILL)" in message
    assert time.monotonic() - start < 60


@pytest.mark.parametrize("how", ["shape", pytest.param("order", marks=pytest.mark.slow)])
def test_mismatched_collectives_fail_clearly(how):
    with pytest.raises(RuntimeError) as info:
        run(workers.mismatch, how)
    message = str(info.value)
    assert "collective mismatch" in message
    if how == "shape":
        assert "shape=[2]" in message and "shape=[3]" in message
    else:
        assert "rank 1: collective #1: broadcast" in message and "rank 0: collective #1: all_reduce" in message


@pytest.mark.slow
def test_a_rank_that_never_joins_times_out(monkeypatch):
    monkeypatch.setenv("MINIPADDLE_COLLECTIVE_TIMEOUT", "3")
    with pytest.raises(RuntimeError) as info:
        run(workers.mismatch, "absent")
    assert "waited 3 s" in str(info.value) and "rank 0" in str(info.value)


def test_one_process_is_a_group_of_one():
    import minipaddle as paddle

    with pytest.warns(UserWarning, match="not a parallel execution environment"):
        assert dist.init_parallel_env() is None
    t = paddle.to_tensor([2.0])
    dist.all_reduce(t)
    out = []
    dist.all_gather(out, t)
    assert t.item() == 2.0 and [o.item() for o in out] == [2.0]
    assert (dist.get_rank(), dist.get_world_size(), dist.is_initialized()) == (0, 1, False)


def test_arguments_are_checked():
    import minipaddle as paddle

    with pytest.raises(TypeError, match="all_reduce: tensor must be a Tensor"):
        dist.all_reduce([1.0])
    with pytest.raises(ValueError, match="all_reduce: op must be one of"):
        dist.all_reduce(paddle.ones([1]), op=9)
    with pytest.raises(ValueError, match="broadcast: src=3 is not a rank"):
        dist.broadcast(paddle.ones([1]), src=3)
    with pytest.raises(ValueError, match="spawn: nprocs"):
        dist.spawn(workers.collectives, nprocs=0)
    with pytest.raises(ValueError, match="spawn: unknown options"):
        dist.spawn(workers.collectives, nprocs=2, colour="red")
