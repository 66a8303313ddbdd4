"""viz.tour_sections: the Layer tree, summary and curves as HTML fragments for `make tour`'s page."""

from __future__ import annotations

import shutil

import viz

from .models import small_cnn


def test_sections_are_the_tree_the_table_and_the_curves():
    history = type("History", (), {"records": [{"kind": "train_step", "global_step": 1, "loss": 1.0}]})()
    sections = viz.tour_sections(small_cnn(), history, input_size=[1, 1, 8, 8])
    titles = [t for t, _ in sections]
    assert titles == [
        "The Layer tree (viz.draw_layers)",
        "The summary with torchinfo's extras (viz.summary_table)",
        "Training curves (viz.plot_history)",
        "Where a step's time goes (paddle.profiler, viz.plot_profile)",
        "Deployment: the inference predictor's passes (paddle.inference, viz.draw_passes)",
    ]
    tree, table, plot, profile, passes = (html for _, html in sections)
    assert "fc_fuse_pass" in passes and "ops" in passes
    assert "the Program before and after" in passes and "paddle.onnx.export" in passes
    assert "Gemm" in passes or "MatMul" in passes  # the ONNX graph's nodes
    assert profile.startswith("<svg") and "ms per step" in profile
    assert tree.startswith("<svg") if shutil.which("dot") else "digraph" in tree
    assert table.startswith("<pre>") and "Total mult-adds: 3,115" in table and "├─ features: Sequential" in table
    assert plot.startswith("<svg") and "<?xml" not in plot


def test_without_input_or_history_only_the_tree():
    assert [t for t, _ in viz.tour_sections(small_cnn())] == ["The Layer tree (viz.draw_layers)"]
