"""Callbacks beyond the goldens: what they refuse and what they leave behind."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.hapi.callbacks import CallbackList, config_callbacks
from tests.hapi.workload import dataset, mlp, model


def test_config_callbacks_adds_the_defaults_once():
    kinds = lambda cbks: [type(c).__name__ for c in cbks]  # noqa: E731
    assert kinds(config_callbacks(None, verbose=2)) == ["ProgBarLogger", "ModelCheckpoint", "LRScheduler"]
    assert kinds(config_callbacks(None, verbose=0)) == ["ModelCheckpoint", "LRScheduler"]
    mine = paddle.callbacks.LRScheduler(by_step=False, by_epoch=True)
    assert kinds(config_callbacks([mine], verbose=0)) == ["LRScheduler", "ModelCheckpoint"]


def test_callback_list_checks_the_mode():
    with pytest.raises(ValueError, match="mode must be one of"):
        CallbackList([]).on_begin("test")


def test_checkpoints_reload_into_a_new_model(tmp_path):
    m = model()
    m.fit(dataset(), batch_size=20, epochs=2, verbose=0, save_dir=str(tmp_path), save_freq=1)
    names = sorted(p.name for p in tmp_path.iterdir())  # each checkpoint a set: its files and their manifest
    assert names == ["0.pdparams", "0.pdset", "1.pdparams", "1.pdset", "final.pdparams", "final.pdset"]
    again = model()
    again.load(str(tmp_path / "final"))
    for a, b in zip(m.parameters(), again.parameters()):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_reduce_lr_on_plateau_leaves_a_schedule_alone():
    net = mlp()
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=100)
    m = paddle.Model(net)
    m.prepare(paddle.optimizer.SGD(learning_rate=sched, parameters=net.parameters()), paddle.nn.CrossEntropyLoss())
    cb = paddle.callbacks.ReduceLROnPlateau(patience=0)
    with pytest.warns(UserWarning, match="Expected learning_rate be float"):
        m.fit(dataset(), dataset(), batch_size=40, epochs=1, verbose=0, callbacks=[cb])


def test_reduce_lr_on_plateau_lowers_the_rate_and_stops_at_min_lr(capsys):
    m = model(lr=3.0)
    cb = paddle.callbacks.ReduceLROnPlateau(monitor="acc", mode="max", factor=0.5, patience=0, min_delta=1.0,
                                            min_lr=1.0, verbose=0)  # fmt: skip
    m.fit(dataset(), dataset(), batch_size=40, epochs=4, verbose=0, callbacks=[cb])
    assert m._optimizer.get_lr() == 1.0  # 3.0 -> 1.5 -> 1.0 (not below min_lr) -> stays
    assert capsys.readouterr().out == ""


def test_early_stopping_restarts_its_count_for_each_fit():
    es = paddle.callbacks.EarlyStopping(monitor="acc", patience=2, baseline=1.1, save_best_model=False, verbose=0)
    m = model()
    m.fit(dataset(), dataset(), batch_size=40, epochs=5, verbose=0, callbacks=[es])
    assert len(m.history.train_epochs) == 2  # nothing beats the baseline: stop after the second eval
    m.fit(dataset(), dataset(), batch_size=40, epochs=5, verbose=0, callbacks=[es])
    assert len(m.history.train_epochs) == 2  # the count starts again from zero


@pytest.mark.skipif(importlib.util.find_spec("visualdl") is not None, reason="visualdl is installed")
def test_visualdl_says_what_to_install():
    with pytest.raises(ImportError, match="pip install visualdl"):
        model().fit(dataset(), batch_size=40, epochs=1, verbose=0, callbacks=[paddle.callbacks.VisualDL("log")])
