"""viz.LiveCurves, viz.TrainingCurves, viz.plot_history: loss and metric curves live in Jupyter, files in scripts."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
import viz
import viz.curves


def _lines(fig) -> dict:
    """{panel title: {label: (xs, ys)}} of a figure's curves."""
    out = {}
    for ax in fig.axes:
        if ax.get_visible() and ax.get_title():
            out[ax.get_title()] = {ln.get_label(): (list(ln.get_xdata()), list(ln.get_ydata())) for ln in ax.lines}
    return out


def test_log_draws_one_panel_per_quantity_loss_first():
    curves = viz.LiveCurves()
    curves.log(acc=0.5, loss=paddle.to_tensor(2.0))  # a Tensor is fine; steps count from 1
    curves.log(acc=0.75, loss=np.float32(1.0))
    curves.log(kind="eval", loss=1.5)  # evaluated at the last step
    curves.epoch_end()
    assert curves.panels() == ["loss", "acc"]
    lines = _lines(curves.figure())
    assert lines["loss"]["train"] == ([1.0, 2.0], [2.0, 1.0]) and lines["loss"]["eval"] == ([2.0], [1.5])
    assert lines["acc"]["train"] == ([1.0, 2.0], [0.5, 0.75])
    assert curves.epoch_ends == [2.0]


def test_the_learning_rate_gets_a_panel_only_when_it_changed():
    curves = viz.LiveCurves()
    for step in range(3):
        curves.log(step, loss=1.0 / (step + 1), lr=0.1)
    assert curves.panels() == ["loss"]
    curves.log(3, loss=0.2, lr=0.05)
    assert curves.panels() == ["loss", "lr"]


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"kind": "test", "loss": 1.0}, ValueError, "kind"),
        ({}, ValueError, "at least one value"),
        ({"loss": [1.0, 2.0]}, TypeError, "one-element"),
        ({"loss": "low"}, TypeError, "loss"),
    ],
)
def test_bad_logs_are_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        viz.LiveCurves().log(**kwargs)


@pytest.mark.parametrize(
    "suffix, head", [(".svg", b"<?xml"), (".png", b"\x89PNG"), (".pdf", b"%PDF"), (".html", b"<!DOCTYPE")]
)
def test_save_writes_the_format_of_the_suffix(tmp_path, suffix, head):
    curves = viz.LiveCurves(title="run 1")
    curves.log(1, loss=1.0)
    path = curves.save(tmp_path / f"curves{suffix}")
    with open(path, "rb") as f:
        data = f.read()
    assert data.startswith(head)
    if suffix == ".html":
        assert b"<svg" in data and b"<title>run 1</title>" in data
    with pytest.raises(ValueError, match=r"\.svg"):
        curves.save(tmp_path / "curves.jpg")


def test_an_empty_figure_says_so():
    assert "nothing logged yet" in viz.LiveCurves().svg()


class _Handle:
    def __init__(self):
        self.updates = 0

    def update(self, obj):
        assert obj.data.lstrip().startswith("<")
        self.updates += 1


@pytest.fixture
def notebook(monkeypatch):
    """As in a Jupyter kernel: show() displays, and the display handle counts its updates."""
    import IPython.display

    handle = _Handle()
    monkeypatch.setattr(viz.curves, "in_notebook", lambda: True)
    monkeypatch.setattr(IPython.display, "display", lambda obj, display_id=False: handle)
    return handle


def test_live_updates_are_throttled_and_the_last_is_always_drawn(notebook):
    curves = viz.LiveCurves(every=3600)
    curves.show()
    for step in range(5):
        curves.log(step, loss=1.0)
    assert notebook.updates == 0  # not an hour yet
    curves.finish()
    assert notebook.updates == 1
    eager = viz.LiveCurves(every=0)
    eager.show()
    eager.log(loss=1.0)
    eager.log(loss=0.5)
    assert notebook.updates == 3


def test_outside_jupyter_show_does_nothing_and_finish_writes_the_path(tmp_path):
    curves = viz.LiveCurves(path=tmp_path / "c.png")
    curves.show()
    curves.log(loss=1.0)
    curves.finish()
    assert (tmp_path / "c.png").read_bytes().startswith(b"\x89PNG")
    with pytest.raises(ValueError, match="format"):
        viz.LiveCurves(path="c.txt")


def _fit(callbacks, epochs=2):
    paddle.seed(0)
    rng = np.random.default_rng(0)
    x = rng.random((64, 4)).astype("float32")
    y = (x.sum(1, keepdims=True) > 2).astype("int64")
    data = paddle.io.TensorDataset([paddle.to_tensor(x), paddle.to_tensor(y)])
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
    model = paddle.Model(net)
    optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    model.prepare(optimizer, paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    model.fit(data, data, batch_size=16, epochs=epochs, verbose=0, callbacks=callbacks)
    return model


def test_training_curves_is_a_history_that_plots_what_fit_records(tmp_path):
    curves = viz.TrainingCurves(path=tmp_path / "fit.svg")
    assert isinstance(curves, paddle.callbacks.History) and isinstance(curves, paddle.callbacks.Callback)
    _fit([curves])
    steps, losses = curves.series("loss")
    lines = _lines(curves.curves.figure())
    assert lines["loss"]["train"] == (steps, losses) and len(steps) == 8
    assert len(lines["loss"]["eval"][0]) == 2 and lines["acc"]["eval"][0] == [4, 8]  # an eval after each epoch
    assert curves.curves.epoch_ends == [4, 8]
    assert (tmp_path / "fit.svg").read_text().startswith("<?xml")  # written when training ended


def test_plot_history_draws_a_finished_run():
    model = _fit([], epochs=1)
    lines = _lines(viz.plot_history(model.history).figure())
    assert lines["loss"]["train"] == model.history.series("loss")
    with pytest.raises(TypeError, match="History"):
        viz.plot_history([1, 2])
