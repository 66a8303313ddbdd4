"""LRScheduler behaviour beyond the golden rates (test_golden_lr.py): arguments, step(epoch), state dicts."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle

lr = paddle.optimizer.lr


def test_every_paddle_scheduler_exists_and_is_an_lrscheduler():
    for name in lr.__all__:
        assert issubclass(getattr(lr, name), lr.LRScheduler)


def test_construction_steps_once():
    s = lr.StepDecay(0.5, step_size=2)
    assert (s.last_epoch, s.last_lr, s()) == (0, 0.5, 0.5)
    resumed = lr.StepDecay(0.5, step_size=2, last_epoch=3)  # as Paddle: the given epoch plus one
    assert resumed.last_epoch == 4 and resumed() == pytest.approx(0.005)


def test_learning_rate_is_checked():
    with pytest.raises(TypeError, match="learning_rate must be a float or int, got str"):
        lr.ExponentialDecay("0.1", gamma=0.9)
    with pytest.raises(ValueError, match="learning_rate must be >= 0"):
        lr.ExponentialDecay(-0.1, gamma=0.9)
    with pytest.raises(ValueError, match=r"gamma must be in \(0.0, 1.0\)"):
        lr.ExponentialDecay(0.1, gamma=1.5)
    with pytest.raises(TypeError, match="step_size must be an int"):
        lr.StepDecay(0.1, step_size=2.0)
    with pytest.raises(ValueError, match="milestones must increase"):
        lr.MultiStepDecay(0.1, milestones=[3, 2])
    with pytest.raises(ValueError, match="one more element than boundaries"):
        lr.PiecewiseDecay([1, 2], [0.1, 0.01])
    with pytest.raises(ValueError, match="end_lr .* must be greater than start_lr"):
        lr.LinearWarmup(0.1, warmup_steps=2, start_lr=0.5, end_lr=0.1)
    with pytest.raises(TypeError, match="lr_lambda must be a function"):
        lr.LambdaDecay(0.1, lr_lambda=0.9)


def test_step_with_an_epoch_jumps_there():
    s = lr.StepDecay(1.0, step_size=2, gamma=0.5)
    s.step(5)
    assert (s.last_epoch, s()) == (5, 0.25)
    cos = lr.CosineAnnealingDecay(1.0, T_max=4)
    cos.step(2)  # the closed form, not the recursion
    assert cos() == pytest.approx(0.5)


def test_verbose_prints_each_new_rate(capsys):
    s = lr.StepDecay(0.5, step_size=1, gamma=0.5, verbose=True)
    s.step()
    assert capsys.readouterr().out.splitlines() == [
        "Epoch 0: StepDecay set learning rate to 0.5.",
        "Epoch 1: StepDecay set learning rate to 0.25.",
    ]


def test_state_dict_round_trip_continues_identically():
    a = lr.CosineAnnealingDecay(0.5, T_max=3, eta_min=0.01)  # recursive: needs last_lr restored
    for _ in range(4):
        a.step()
    b = lr.CosineAnnealingDecay(0.5, T_max=3, eta_min=0.01)
    b.set_state_dict(a.state_dict())
    for _ in range(5):
        a.step()
        b.step()
        assert a() == b()


def test_warm_restarts_state_keeps_the_period():
    a = lr.CosineAnnealingWarmRestarts(0.5, T_0=2, T_mult=2)
    for _ in range(5):
        a.step()
    b = lr.CosineAnnealingWarmRestarts(0.5, T_0=2, T_mult=2)
    b.set_state_dict(a.state_dict())
    for _ in range(6):
        a.step()
        b.step()
        assert a() == b()


def test_linear_warmup_saves_the_wrapped_scheduler():
    inner = lr.StepDecay(0.1, step_size=1, gamma=0.5)
    warm = lr.LinearWarmup(inner, warmup_steps=2, start_lr=0.0, end_lr=0.1)
    for _ in range(4):
        warm.step()
    state = warm.state_dict()
    assert state["LinearWarmup_LR"] == {"last_epoch": 2, "last_lr": 0.025}
    other = lr.LinearWarmup(lr.StepDecay(0.1, step_size=1, gamma=0.5), warmup_steps=2, start_lr=0.0, end_lr=0.1)
    other.set_state_dict(state)
    assert other.learning_rate.last_epoch == 2 and other() == warm()


def test_set_state_dict_needs_every_key_and_warns_about_extra_ones():
    s = lr.StepDecay(0.1, step_size=1)
    with pytest.raises(RuntimeError, match="has no 'last_lr'"):
        s.set_state_dict({"last_epoch": 3})
    with pytest.warns(UserWarning, match="not used"):
        s.set_state_dict({"last_epoch": 3, "last_lr": 0.01, "extra": 1})
    assert (s.last_epoch, s()) == (3, 0.01)
    s.set_dict({"last_epoch": 1, "last_lr": 0.1})  # Paddle's alias
    assert s.last_epoch == 1


def test_reduce_on_plateau_takes_tensors_and_saves_best_as_a_float():
    s = lr.ReduceOnPlateau(1.0, patience=0, factor=0.5)
    assert s.last_epoch == 0  # no step in __init__
    s.step(paddle.to_tensor([2.0]))
    s.step(np.array(3.0))
    assert s() == 0.5
    assert s.state_dict()["best"] == 2.0 and isinstance(s.state_dict()["best"], float)
    with pytest.raises(ValueError, match="metrics must have one element"):
        s.step(paddle.to_tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="metrics must be a number"):
        s.step("low")


def test_one_cycle_refuses_to_step_past_total_steps():
    s = lr.OneCycleLR(1.0, total_steps=3)
    s.step()
    s.step()
    s.step()
    with pytest.raises(ValueError, match="total_steps is 3"):
        s.step()
