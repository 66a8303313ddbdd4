"""viz.layer_tree: the Layer hierarchy as nested ipywidgets Accordions, and its standalone HTML page."""

from __future__ import annotations

import json
import re

import ipywidgets as widgets
import pytest

import viz

from .models import small_cnn


def _accordions(w) -> list:
    """Every Accordion inside a widget, depth first."""
    found = [w] if isinstance(w, widgets.Accordion) else []
    for child in getattr(w, "children", ()):
        found += _accordions(child)
    return found


def test_one_section_per_layer_holding_others_and_one_row_per_computing_layer():
    tree = viz.layer_tree(small_cnn(), input_size=[1, 1, 8, 8])
    sections = _accordions(tree.widget)
    titles = [a.titles[0] for a in sections]
    assert titles == [
        "SmallCNN · 603 params (32 non-trainable) · [1, 1, 8, 8] → [1, 3]",
        "features: Sequential · 56 params (8 non-trainable) · [1, 1, 8, 8] → [1, 4, 4, 4]",
        "head: Sequential · 547 params (24 non-trainable) · [1, 4, 4, 4] → [1, 3]",
    ]
    rows = [w.value for w in tree.widget.children[0].children if isinstance(w, widgets.HTML)]
    assert len(rows) == 1 and "act: Tanh · [1, 4, 4, 4] → [1, 4, 4, 4] · ran ×2" in rows[0]


@pytest.mark.parametrize("expand, opened", [(0, [None, None, None]), (1, [0, None, None]), (2, [0, 0, 0])])
def test_expand_opens_the_sections_down_to_a_depth(expand, opened):
    tree = viz.layer_tree(small_cnn(), expand=expand)
    assert [a.selected_index for a in _accordions(tree.widget)] == opened


def test_lines_are_the_tree_as_text():
    lines = viz.layer_tree(small_cnn(), input_size=[1, 1, 8, 8]).lines()
    assert lines[0].startswith("SmallCNN · 603 params")
    assert lines[2] == "        0: Conv2D · 40 params · [1, 1, 8, 8] → [1, 4, 8, 8]"
    assert len(lines) == 1 + len(list(small_cnn().named_sublayers()))


def test_save_writes_a_page_with_the_widget_state(tmp_path):
    tree = viz.layer_tree(small_cnn(), input_size=[1, 1, 8, 8])
    tree.save(tmp_path / "tree.html", widget_js="assets/embed.js")
    page = (tmp_path / "tree.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and '<script src="assets/embed.js"></script>' in page
    state = json.loads(re.search(r'application/vnd.jupyter.widget-state\+json">(.*?)</script>', page, re.S).group(1))
    models = {m["model_name"] for m in state["state"].values()}
    assert {"AccordionModel", "HTMLModel", "VBoxModel"} <= models
    assert "features: Sequential" in page and "application/vnd.jupyter.widget-view+json" in page
    # By default the renderer comes from the CDN that matches the installed ipywidgets.
    assert "cdn.jsdelivr.net/npm/@jupyter-widgets/html-manager" in tree.html_page()
    with pytest.raises(ValueError, match=r"\.html"):
        tree.save(tmp_path / "tree.svg")


def test_the_widget_shows_itself_in_jupyter():
    bundle = viz.layer_tree(small_cnn())._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_bad_expand_is_refused():
    with pytest.raises(ValueError, match="expand"):
        viz.layer_tree(small_cnn(), expand=-1)
