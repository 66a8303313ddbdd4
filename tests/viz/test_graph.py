"""viz.draw_graph: the autograd graph behind a Tensor (golden DOT files: see conftest.py to regenerate them)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import minipaddle as paddle
import viz
from minipaddle.core.state import layer_scope

from .models import mlp_loss, scoped_loss


def _node_lines(source: str) -> dict:
    """{node id: its declaration line} from DOT text."""
    return {m.group(1): m.group(0) for m in re.finditer(r'^\s*"([^"]+)" \[label=.*$', source, re.M)}


def _edges(source: str) -> list:
    return re.findall(r'^\s*"([^"]+)" -> "([^"]+)"', source, re.M)


def test_mlp_golden(golden):
    loss, params = mlp_loss()
    golden("graph_mlp", viz.draw_graph(loss, params=params).source)


def test_mlp_with_saved_tensors_golden(golden):
    loss, _ = mlp_loss()
    golden("graph_mlp_saved", viz.draw_graph(loss, show_saved=True).source)


def test_scopes_golden(golden):
    loss, params, _ = scoped_loss()
    golden("graph_scopes", viz.draw_graph(loss, params=params).source)


def test_scopes_folded_to_depth_1_golden(golden):
    loss, params, _ = scoped_loss()
    golden("graph_scopes_depth1", viz.draw_graph(loss, depth=1, params=params).source)


def test_the_same_computation_gives_the_same_text():
    assert viz.draw_graph(mlp_loss()[0]).source == viz.draw_graph(mlp_loss()[0]).source


def test_ops_are_numbered_in_the_order_they_ran_with_shapes_dtypes_and_set_attrs():
    x = paddle.ones([2, 3], "float64")
    x.stop_gradient = False
    y = paddle.matmul(x, x, transpose_y=True).sum()
    nodes = _node_lines(viz.draw_graph(y).source)
    assert "<B>matmul</B><BR/>[2, 2] float64" in nodes["n0"] and "transpose_y=True" in nodes["n0"]
    assert "transpose_x" not in nodes["n0"]  # False attributes are noise: left out
    assert "<B>sum</B><BR/>[] float64" in nodes["n1"]
    assert "transpose_y" not in _node_lines(viz.draw_graph(y, show_attrs=False).source)["n0"]
    assert ("l0", "n0") in _edges(viz.draw_graph(y).source)


def test_leaves_parameters_and_output_are_styled_apart():
    loss, params = mlp_loss()
    source = viz.draw_graph(loss, params=params).source
    nodes = _node_lines(source)
    assert "<B>leaf</B>" in nodes["l0"] and "#eaf3fb" in nodes["l0"]  # x: a leaf wanting a gradient
    assert "<B>fc1.weight</B><BR/>[3, 4] float32" in nodes["l1"] and "#cfe2f3" in nodes["l1"]
    assert "<B>output</B>" in nodes["o0"] and "#b6e3b6" in nodes["o0"]
    # without `params`, a Parameter is labelled with its own name
    assert "<B>fc1.w_0</B>" in _node_lines(viz.draw_graph(loss).source)["l1"]


def test_an_input_used_twice_is_one_edge_with_a_count():
    x = paddle.ones([2])
    x.stop_gradient = False
    source = viz.draw_graph((x * x).sum()).source
    assert re.search(r'"l0" -> "n0" \[label="×2"\]', source)


def test_several_outputs_and_a_leaf_output():
    x = paddle.ones([4])
    x.stop_gradient = False
    a, b = paddle.split(x * 2.0, 2)
    nodes = _node_lines(viz.draw_graph([a, b, x]).source)
    assert "<B>output 0</B>" in nodes["o0"] and "<B>output 1</B>" in nodes["o1"]
    assert "<B>output: leaf</B>" in nodes["l0"] and "#b6e3b6" in nodes["l0"]


def test_depth_folds_scopes_and_their_parameters_but_not_inputs():
    loss, params, _ = scoped_loss()
    source = viz.draw_graph(loss, depth=1, params=params).source
    nodes = _node_lines(source)
    assert set(nodes) == {"g0", "g1", "n4", "o0"}
    assert "<B>features</B><BR/>2 ops<BR/>1 param · 12 values" in nodes["g0"] and "box3d" in nodes["g0"]
    assert "matmul, tanh" in nodes["g0"]
    assert ("g0", "g1") in _edges(source)


def test_depth_2_keeps_the_outer_scope_as_a_box():
    loss, params, _ = scoped_loss()
    source = viz.draw_graph(loss, depth=2, params=params).source
    assert 'label="features"' in source  # the cluster stays open
    nodes = _node_lines(source)
    assert "<B>features.0</B>" in nodes["g0"] and "<B>features.1</B>" in nodes["g1"]
    assert "<B>head.weight</B>" in nodes["l1"]  # head has one level only: not folded at depth 2


def test_parameters_are_drawn_inside_their_layer_scope():
    loss, params, _ = scoped_loss()
    source = viz.draw_graph(loss, params=params).source
    head = source[source.index('label="head"') :]
    assert '"l1" [label=<<B>head.weight' in head[: head.index("}")]


def test_color_by_fills_a_heatmap_with_a_legend():
    loss, params = mlp_loss()
    w1, w2 = params["fc1.weight"], params["fc2.weight"]
    source = viz.draw_graph(loss, color_by={w1: 1.0, w2: 3.0, loss: 2.0}, color_label="grad norm").source
    nodes = _node_lines(source)
    assert 'fillcolor="#ffffcc"' in nodes["l1"] and "grad norm=1" in nodes["l1"]  # lowest: first stop
    assert 'fillcolor="#800026"' in nodes["l3"] and 'fontcolor="#ffffff"' in nodes["l3"]  # highest: last stop
    assert 'fillcolor="#fd8d3c"' in nodes["n4"]  # loss colours the op that made it: halfway
    assert "<B>grad norm</B>" in nodes["legend"] and ">1</TD>" in nodes["legend"] and ">3</TD>" in nodes["legend"]


def test_color_by_node_keys_ids_and_non_finite_values():
    loss, _ = mlp_loss()
    tanh = next(n for n in paddle.autograd.graph_nodes(loss) if n.type == "tanh")
    source = viz.draw_graph(loss, color_by={tanh: math.nan, "n0": 0.5, "n9": 1.0}).source
    nodes = _node_lines(source)
    assert "value=nan" in nodes["n2"] and "#d9d2e9" in nodes["n2"]
    assert "value=0.5" in nodes["n0"]


def test_a_folded_box_takes_the_largest_value_inside():
    loss, params, _ = scoped_loss()
    source = viz.draw_graph(loss, depth=1, color_by={params["features.0.weight"]: 5.0, loss: 1.0}).source
    assert "value=5" in _node_lines(source)["g0"]


def test_released_nodes_say_so_when_saved_tensors_are_asked_for():
    loss, _ = mlp_loss()
    assert "saved x0" in viz.draw_graph(loss, show_saved=True).source
    loss.backward()
    source = viz.draw_graph(loss, show_saved=True).source
    assert "saved values released" in source and "saved x0" not in source


def test_scopes_recorded_by_real_layers():
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.Tanh(), paddle.nn.Linear(4, 2))
    loss = net(paddle.ones([2, 3])).mean()
    source = viz.draw_graph(loss, depth=1, params=dict(net.named_parameters())).source
    nodes = _node_lines(source)
    assert "<B>0</B><BR/>2 ops<BR/>2 params · 16 values" in nodes["g0"]
    assert "<B>2</B><BR/>2 ops<BR/>2 params · 10 values" in nodes["g2"]


def test_a_scope_chain_without_layers():
    x = paddle.ones([2])
    x.stop_gradient = False
    with layer_scope("a"), layer_scope("a.b"), layer_scope("a.b.c"):
        y = paddle.exp(x)
    source = viz.draw_graph(y.sum()).source
    assert source.index('label="a"') < source.index('label="a.b"') < source.index('label="a.b.c"')


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"depth": 0}, ValueError),
        ({"depth": 1.5}, ValueError),
        ({"color_by": [1.0]}, TypeError),
        ({"color_by": {3: 1.0}}, TypeError),
        ({"color_by": {"n0": "hot"}}, TypeError),
        ({"params": {"w": np.ones(2)}}, TypeError),
    ],
)
def test_bad_arguments_raise(kwargs, error):
    loss, _ = mlp_loss()
    with pytest.raises(error, match="draw_graph|color_by"):
        viz.draw_graph(loss, **kwargs)


@pytest.mark.parametrize("bad", [np.ones(2), [], [np.ones(2)], None])
def test_not_tensors_raise(bad):
    with pytest.raises(TypeError, match="draw_graph: expected"):
        viz.draw_graph(bad)


def test_a_tensor_without_history_is_one_output_node():
    nodes = _node_lines(viz.draw_graph(paddle.ones([2])).source)
    assert list(nodes) == ["l0"] and "output: leaf" in nodes["l0"]


def test_highlight_outlines_the_picked_nodes():
    loss, params = mlp_loss()
    source = viz.draw_graph(loss, params=params, highlight=[params["fc1.weight"], loss, "n1"]).source
    nodes = _node_lines(source)
    outlined = {nid for nid, line in nodes.items() if 'color="#1155cc" penwidth="3"' in line}
    assert outlined == {"l1", "n1", "n4"}  # a leaf, an op by id, and the op that made the loss (a Tensor)
