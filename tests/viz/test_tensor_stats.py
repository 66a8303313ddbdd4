"""viz.tensor_stats and the inspector's tables and histograms."""

from __future__ import annotations

import re

import numpy as np

import minipaddle as paddle
import viz
from viz.tensor_stats import array_stats, histogram_svg, stats_table_html


def test_stats_are_over_the_finite_values_with_nan_inf_and_zeros_counted_apart():
    s = array_stats(np.array([1.0, 3.0, np.nan, np.inf, -np.inf, 0.0], "float32"))
    assert s["shape"] == [6] and s["dtype"] == "float32" and s["size"] == 6
    assert (s["min"], s["max"], s["mean"]) == (0.0, 3.0, 4.0 / 3)
    assert np.isclose(s["std"], np.std([1.0, 3.0, 0.0]))
    assert (s["nan"], s["inf"], s["zeros"]) == (1, 2, 1)


def test_a_tensor_without_finite_values_and_an_integer_tensor():
    s = array_stats(np.array([np.nan, np.nan]))
    assert s["min"] is None and s["nan"] == 2
    t = viz.tensor_stats(paddle.to_tensor([[1, 2], [3, 4]]))
    assert t["dtype"] == "int64" and t["shape"] == [2, 2] and t["mean"] == 2.5


def test_the_table_marks_nan_and_inf_in_red():
    html = stats_table_html({"value": array_stats(np.array([1.0, np.nan])), "gradient": None})
    assert "<th" in html and "value" in html and "gradient" in html and "—" in html
    assert html.count("color:#cc0000") == 1  # only the NaN count of the value is above zero


def test_histograms_are_svg_with_one_panel_each():
    svg = histogram_svg({"value": np.random.default_rng(0).normal(size=100), "gradient": None})
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert svg.startswith("<svg") and "value" in texts and "gradient" in texts
    assert "no gradient" in texts  # an absent gradient says so instead of drawing nothing
    assert "no finite value" in histogram_svg({"value": np.array([np.inf])})
    assert "<svg" in histogram_svg({"value": np.ones(4)})  # all equal: one bar, no error
