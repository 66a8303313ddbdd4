"""viz.summary_table: paddle.summary's numbers, the hierarchy, and torchinfo's trainable / mult-adds / memory."""

from __future__ import annotations

import pytest

import minipaddle as paddle
import viz

from .models import small_cnn


def test_summary_golden(golden):
    golden("summary_small_cnn", viz.summary_table(small_cnn(), input_size=[-1, 1, 8, 8]).text(), suffix=".txt")


def test_summary_folded_to_depth_1_golden(golden):
    table = viz.summary_table(small_cnn(), input_size=[-1, 1, 8, 8], depth=1)
    golden("summary_small_cnn_depth1", table.text(), suffix=".txt")


def test_totals_agree_with_paddle_summary(capsys):
    model = small_cnn()
    table = viz.summary_table(model, input_size=[-1, 1, 8, 8])
    assert table.to_dict() == paddle.summary(model, (-1, 1, 8, 8))
    capsys.readouterr()
    assert table.total_params == 40 + 16 + 520 + 27 and table.non_trainable_params == 8 + 24


def test_rows_count_trainable_and_mult_adds_as_torchinfo():
    table = viz.summary_table(small_cnn(), input_size=[2, 1, 8, 8])
    rows = {r["name"]: r for r in table.rows}
    assert rows["features.0"]["mult_adds"] == 40 * 2 * 8 * 8  # (weight + bias) per output position
    assert rows["head.1"]["mult_adds"] == 520 * 2  # Linear: every row of the batch
    assert rows["features.1"]["mult_adds"] == 8 * 2  # BatchNorm: weight + bias per sample; statistics not counted
    assert rows["features.1"]["trainable"] == "Partial" and rows["head.2"]["trainable"] == "Partial"
    assert rows["head.1"]["trainable"] == "True" and rows["features.2"]["trainable"] == "--"
    assert table.total_mult_adds == sum(r["mult_adds"] for r in table.rows)


def test_memory_counts_inputs_activations_twice_and_parameters():
    table = viz.summary_table(small_cnn(), input_size=[2, 1, 8, 8])
    assert table.input_bytes == 2 * 64 * 4
    assert table.param_bytes == table.total_params * 4
    leaf_outputs = 2 * (256 + 256 + 256 + 64 + 64 + 8 + 3)  # conv, bn, relu, pool, flatten, linear, linear
    tanh_outputs = 2 * 64 + 2 * 3  # the Tanh ran twice, on differently shaped inputs
    assert table.pass_bytes == 2 * 4 * (leaf_outputs + tanh_outputs)  # float32, kept for backward + its gradient


def test_the_tree_lines_and_folded_rows():
    lines = viz.summary_table(small_cnn(), input_size=[1, 1, 8, 8]).text().splitlines()
    names = [line.split("   ")[0] for line in lines[3:14]]
    assert names[:3] == ["SmallCNN", "├─ features: Sequential", "│  ├─ 0: Conv2D"]
    assert names[-1] == "└─ act: Tanh (ran ×2)"
    folded = {r["name"]: r for r in viz.summary_table(small_cnn(), input_size=[1, 1, 8, 8], depth=1).rows}
    assert set(folded) == {"", "features", "head", "act"} and folded["head"]["params"] == 520 + 27


def test_save_text_and_html(tmp_path):
    table = viz.summary_table(small_cnn(), input_size=[1, 1, 8, 8])
    assert (tmp_path / "s.txt").read_text() == table.text() if table.save(tmp_path / "s.txt") else False
    table.save(tmp_path / "s.html")
    page = (tmp_path / "s.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "Total params: 603" in page and "├─ features" in page
    with pytest.raises(ValueError, match=r"\.txt or \.html"):
        table.save(tmp_path / "s.svg")


def test_an_input_is_required():
    with pytest.raises(ValueError, match="input_size"):
        viz.summary_table(small_cnn())
