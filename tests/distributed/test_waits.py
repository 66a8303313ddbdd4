"""The waits of the collectives: spin while each rank has a core, then back off to sleeping."""

from __future__ import annotations

import pytest

from minipaddle.distributed import engine


def _done_after(calls: int):
    count = [0]

    def done():
        count[0] += 1
        return count[0] > calls

    return done, count


def test_a_spinning_wait_never_sleeps_while_it_spins(monkeypatch):
    slept = []
    monkeypatch.setattr(engine.time, "sleep", slept.append)
    done, count = _done_after(1000)
    assert engine.Spin(10.0).wait(done, deadline=float("inf"))
    assert count[0] == 1001 and slept == []


def test_a_wait_without_spin_backs_off_up_to_a_millisecond(monkeypatch):
    slept = []
    monkeypatch.setattr(engine.time, "sleep", slept.append)
    done, _ = _done_after(20)
    assert engine.Spin(0.0).wait(done, deadline=float("inf"))
    assert len(slept) == 19 and slept[0] == 0.0
    assert slept == sorted(slept) and max(slept) == 1e-3


def test_a_wait_past_its_deadline_returns_false(monkeypatch):
    monkeypatch.setattr(engine.time, "sleep", lambda s: None)
    assert not engine.Spin(0.0).wait(lambda: False, deadline=engine.time.monotonic() - 1)


def test_the_spin_is_on_only_when_each_rank_has_a_core(monkeypatch):
    monkeypatch.delenv("MINIPADDLE_SPIN_SECONDS", raising=False)
    monkeypatch.setattr(engine, "_cores", lambda: 1)  # one process (this test) on one core: it has its core
    assert engine.Spin().seconds == 0.005
    monkeypatch.setattr(engine, "_cores", lambda: 0)  # fewer cores than ranks
    assert engine.Spin().seconds == 0.0
    monkeypatch.setenv("MINIPADDLE_SPIN_SECONDS", "0.25")
    assert engine.Spin().seconds == 0.25


@pytest.mark.parametrize("value", ["soon", "-1", "nan"])
def test_a_bad_spin_setting_is_refused_naming_the_variable(monkeypatch, value):
    monkeypatch.setenv("MINIPADDLE_SPIN_SECONDS", value)
    with pytest.raises(ValueError, match="MINIPADDLE_SPIN_SECONDS: expected a number of seconds"):
        engine.Spin()
