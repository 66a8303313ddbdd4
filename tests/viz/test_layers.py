"""viz.trace_layers and viz.draw_layers: the Layer hierarchy measured by a dry run, drawn as a tree."""

from __future__ import annotations

import re

import numpy as np
import pytest

import minipaddle as paddle
import viz

from .models import small_cnn


def _labels(source: str) -> dict:
    return {m.group(1): m.group(2) for m in re.finditer(r'^\s*"(L\d+)" \[label=<(.*)> shape', source, re.M)}


def test_layers_golden(golden):
    golden("layers_small_cnn", viz.draw_layers(small_cnn(), input_size=[-1, 1, 8, 8]).source)


def test_layers_folded_to_depth_1_golden(golden):
    golden("layers_small_cnn_depth1", viz.draw_layers(small_cnn(), input_size=[-1, 1, 8, 8], depth=1).source)


def test_the_tree_follows_named_sublayers_with_shapes_and_parameter_counts():
    model = small_cnn()
    root = viz.trace_layers(model, input_size=[2, 1, 8, 8])
    names = [r.name for r in root.walk()]
    assert names == [""] + [n for n, _ in model.named_sublayers()]
    by_name = {r.name: r for r in root.walk()}
    assert by_name["features.0"].input_shapes == [[2, 1, 8, 8]]
    assert by_name["features.0"].output_shapes == [[2, 4, 8, 8]]
    assert by_name["head.1"].output_shapes == [[2, 8]]
    assert root.num_params() == sum(p.size for p in model.parameters())
    assert by_name["features"].num_params() == 40 + 16 and by_name["features"].num_params(recursive=False) == 0
    assert by_name["act"].calls == 2  # one Tanh used twice: counted, and its first call's shapes kept
    assert by_name["act"].input_shapes == [[2, 4, 4, 4]]


def test_the_drawing_says_class_shapes_params_and_calls():
    labels = _labels(viz.draw_layers(small_cnn(), input_size=[1, 1, 8, 8]).source)
    assert labels["L0"].startswith("<B>SmallCNN</B><BR/>[1, 1, 8, 8] → [1, 3]")
    assert "<B>1</B><BR/>BatchNorm2D<BR/>[1, 4, 8, 8] → [1, 4, 8, 8]" in labels["L3"]
    assert "16 params (8 non-trainable)" in labels["L3"]
    assert "ran ×2" in labels["L10"]


def test_without_an_input_the_tree_has_no_shapes():
    root = viz.trace_layers(small_cnn())
    assert all(r.input_shapes is None and r.calls == 0 for r in root.walk())
    assert "→" not in viz.draw_layers(small_cnn()).source


def test_a_dry_run_leaves_the_model_as_it_was():
    model = small_cnn()
    model.train()
    model.features[1].eval()  # a mixed state must come back mixed
    bn = model.features[1]
    before = [np.array(b.numpy()) for b in model.buffers()] + [np.array(p.numpy()) for p in model.parameters()]
    viz.draw_layers(model, input_size=[4, 1, 8, 8])
    after = [b.numpy() for b in model.buffers()] + [p.numpy() for p in model.parameters()]
    assert all(np.array_equal(a, b) for a, b in zip(before, after))  # BatchNorm's statistics were not updated
    assert model.training and model.features[0].training and not bn.training
    assert all(not layer._forward_post_hooks for layer in model.sublayers(include_self=True))


def test_inputs_as_paddle_summary_takes_them():
    class Two(paddle.nn.Layer):
        def forward(self, a, b):
            return a + paddle.cast(b, "float32")

    root = viz.trace_layers(Two(), input_size=[(None, 3), (2, 3)], dtypes=["float32", "int64"])
    assert root.input_shapes == [[1, 3], [2, 3]] and root.output_shapes == [[2, 3]]
    assert [d.name for d in root.input_dtypes] == ["float32", "int64"]
    spec = paddle.static.InputSpec([None, 1, 8, 8], "float32")
    assert viz.trace_layers(small_cnn(), input_size=spec).output_shapes == [[1, 3]]
    x = paddle.ones([5, 1, 8, 8])
    assert viz.trace_layers(small_cnn(), input=x).output_shapes == [[5, 3]]


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"input_size": "1x4"}, TypeError),
        ({"input_size": [[1, 4], [1, 4]], "dtypes": ["float32"]}, ValueError),
        ({"input": [1, 2]}, TypeError),
    ],
)
def test_bad_inputs_are_refused(kwargs, error):
    with pytest.raises(error, match="trace_layers"):
        viz.trace_layers(small_cnn(), **kwargs)


def test_bad_model_and_depth_are_refused():
    with pytest.raises(TypeError, match="paddle.nn.Layer"):
        viz.trace_layers("model")
    with pytest.raises(ValueError, match="depth"):
        viz.draw_layers(small_cnn(), depth=-1)
