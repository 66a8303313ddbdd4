"""History: the record of a fit as plain dicts, and its subscribers (what viz plots live)."""

from __future__ import annotations

import json

import pytest

import minipaddle as paddle
from tests.hapi.workload import dataset, mlp, model


def test_fit_records_steps_epochs_and_evals_in_order():
    m = model()
    m.fit(dataset(), dataset(20), batch_size=16, epochs=2, verbose=0, shuffle=False)
    h = m.history
    assert isinstance(h, paddle.callbacks.History)
    kinds = [r["kind"] for r in h.records]
    assert kinds == ["train_step"] * 3 + ["train_epoch", "eval"] + ["train_step"] * 3 + ["train_epoch", "eval"]
    step = h.train_steps[4]
    assert (step["epoch"], step["step"], step["global_step"], step["batch_size"]) == (1, 1, 5, 16)
    assert step["lr"] == pytest.approx(0.1)
    assert isinstance(step["loss"], float) and isinstance(step["acc"], float)
    assert h.train_steps[2]["batch_size"] == 8  # 40 = 16 + 16 + 8
    epoch = h.train_epochs[1]
    assert (epoch["epoch"], epoch["steps"], epoch["global_step"]) == (1, 3, 6)
    assert epoch["acc"] == h.train_steps[-1]["acc"]  # the running accuracy at the epoch's end
    assert [e["epoch"] for e in h.evals] == [0, 1] and h.evals[0]["samples"] == 20
    json.dumps(h.records)  # plain data: loss, metrics and lr are Python numbers


def test_eval_record_matches_evaluate_result():
    m = model()
    h = paddle.callbacks.History()
    result = m.evaluate(dataset(), batch_size=16, verbose=0, callbacks=[h])
    (record,) = h.evals
    assert record["epoch"] is None and record["samples"] == 40
    assert record["loss"] == pytest.approx(result["loss"][0]) and record["acc"] == pytest.approx(result["acc"])


def test_subscribers_see_each_record_as_it_is_made_until_removed():
    m = model()
    h = paddle.callbacks.History()
    seen = []
    handle = h.subscribe(lambda r: seen.append((r["kind"], len(h.records))))
    m.fit(dataset(), batch_size=20, epochs=1, verbose=0, callbacks=[h])
    assert m.history is h
    assert seen == [("train_step", 1), ("train_step", 2), ("train_epoch", 3)]
    handle.remove()
    m.fit(dataset(), batch_size=40, epochs=1, verbose=0, callbacks=[h])
    assert len(seen) == 3 and len(h.records) == 5
    assert h.train_steps[-1]["global_step"] == 3  # counted across fits until clear()
    h.clear()
    assert h.records == []


def test_subscribe_needs_a_function():
    with pytest.raises(TypeError, match="History.subscribe"):
        paddle.callbacks.History().subscribe("print")


def test_lr_is_the_rate_each_batch_used_with_a_schedule():
    net = mlp()
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)
    m = paddle.Model(net)
    m.prepare(paddle.optimizer.SGD(learning_rate=sched, parameters=net.parameters()), paddle.nn.CrossEntropyLoss())
    m.fit(dataset(), batch_size=10, epochs=1, verbose=0, shuffle=False)
    assert [r["lr"] for r in m.history.train_steps] == pytest.approx([0.1, 0.1, 0.05, 0.05])
    assert "acc" not in m.history.train_steps[0]  # no metrics: no metric keys


def test_series_gives_plot_ready_lists():
    m = model(metrics=paddle.metric.Accuracy(topk=(1, 2)))
    m.fit(dataset(), dataset(), batch_size=20, epochs=2, verbose=0)
    xs, ys = m.history.series("loss")
    assert xs == [1, 2, 3, 4] and len(ys) == 4
    xs, ys = m.history.series("acc_top2", kind="eval")
    assert xs == [0, 1] and all(0 <= y <= 1 for y in ys)
