"""viz.inspect: every tensor of a graph with its value and gradient, recorded by one real backward."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
import viz
from minipaddle.core.state import name_guard


def _loss():
    """loss = sum(tanh(x @ w) * 2): a leaf input, a parameter, and three ops. Returns (loss, w, x)."""
    with name_guard():
        x = paddle.to_tensor(np.array([[0.5, -1.0, 2.0]]), stop_gradient=False)  # float64
        w = paddle.create_parameter([3, 2], "float64", name="fc.w_0")
        w.set_value(np.array([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]]))
        loss = (paddle.tanh(x @ w) * 2.0).sum()
    return loss, w, x


@pytest.fixture(scope="module")
def inspector():
    loss, w, x = _loss()
    return viz.inspect(loss, params={"w": w}), loss, w, x


def test_entries_are_every_tensor_in_forward_order_with_draw_graph_ids(inspector):
    ins, *_ = inspector
    assert [e.label for e in ins.entries] == [
        "l0 · leaf · [1, 3] float64",
        "l1 · w · [3, 2] float64",
        "n0 · matmul → [1, 2] float64",
        "n1 · tanh → [1, 2] float64",
        "n2 · multiply → [1, 2] float64",
        "n3 · sum → [] float64",
    ]
    source = viz.draw_graph(ins.outputs, params={"w": ins.entries[1].tensor}).source
    for e in ins.entries:
        assert f'"{e.node_id}" [label=' in source


def test_gradients_are_those_backward_computes_in_the_order_they_arrived(inspector):
    ins, loss, w, x = inspector
    by_id = {e.node_id: e for e in ins.entries}
    h = np.tanh(x.numpy() @ w.numpy())
    assert np.array_equal(by_id["n3"].grad, np.array(1.0))  # the seed
    assert np.allclose(by_id["n2"].grad, np.ones((1, 2)))
    assert np.allclose(by_id["n1"].grad, 2 * np.ones((1, 2)))
    assert np.allclose(by_id["n0"].grad, 2 * (1 - h * h))
    assert [e.node_id for e in ins.steps] == ["n3", "n2", "n1", "n0", "l0", "l1"]  # leaves last, at the end
    assert [e.step for e in ins.steps] == [1, 2, 3, 4, 5, 6]
    loss.backward()  # the inspector kept the graph (retain_graph) and left .grad alone until now
    assert np.allclose(by_id["l1"].grad, w.grad.numpy()) and np.allclose(by_id["l0"].grad, x.grad.numpy())


def test_values_are_the_forward_values(inspector):
    ins, _, w, x = inspector
    by_id = {e.node_id: e for e in ins.entries}
    assert np.allclose(by_id["n0"].value, x.numpy() @ w.numpy()) and by_id["n3"].value.shape == ()


def test_no_grad_is_touched_and_no_hook_stays():
    loss, w, x = _loss()
    ins = viz.inspect(loss)
    assert w.grad is None and x.grad is None
    before = [(e.step, e.grad) for e in ins.entries]
    paddle.grad(loss, [w], grad_outputs=paddle.to_tensor(np.array(3.0)))  # would re-record if a hook stayed
    assert all(e.step == s and np.array_equal(e.grad, g) for e, (s, g) in zip(ins.entries, before))


def test_the_widget_pages_picker_and_replay(inspector):
    import ipywidgets as widgets

    ins, *_ = inspector
    tabs = ins.widget
    assert isinstance(tabs, widgets.Tab) and tabs.titles == ("Pick a tensor", "Step backward")
    picker, panels = tabs.children[0].children
    assert list(picker.options) == [e.label for e in ins.entries] and len(panels.children) == len(ins.entries)
    # The panel of tanh outlines its node (n1) in the highlight colour, and shows value and gradient.
    graph_html, side_html = (w.value for w in panels.children[3].children)
    assert 'stroke="#1155cc"' in graph_html and graph_html.count('stroke-width="3"') == 1
    assert "n1 · tanh" in side_html and "gradient arrived at backward step 3" in side_html
    controls, frames = tabs.children[1].children
    assert len(frames.children) == len(ins.steps) + 1 and ins.slider.max == len(ins.steps)
    assert "before backward" in frames.children[0].children[1].value
    assert (
        "step 2 of 6" in frames.children[2].children[1].value
        and "n2 · multiply" in frames.children[2].children[1].value
    )
    back, step = controls.children[:2]
    step.click()
    step.click()
    back.click()
    assert ins.slider.value == 1


def test_the_controls_are_linked_in_the_browser_so_a_saved_page_works(inspector, tmp_path):
    ins, *_ = inspector
    ins.save(tmp_path / "inspector.html", widget_js="embed.js")
    page = (tmp_path / "inspector.html").read_text()
    assert page.count('"model_name": "LinkModel"') == 3  # picker→panels, play→slider, slider→frames
    assert page.count("<svg") >= 2 * (len(ins.entries) + len(ins.steps))  # a graph and histograms per panel


def test_inspect_refuses_what_it_cannot_show():
    loss, *_ = _loss()
    loss.backward()
    with pytest.raises(RuntimeError, match="before loss.backward"):
        viz.inspect(loss)
    with pytest.raises(ValueError, match="no autograd graph"):
        viz.inspect(paddle.ones([2]))
    with pytest.raises(TypeError, match="Tensor"):
        viz.inspect("loss")
    x = paddle.ones([2])
    x.stop_gradient = False
    y = x
    for _ in range(70):
        y = paddle.tanh(y)
    with pytest.raises(ValueError, match="more than the 60"):
        viz.inspect(y.sum())
