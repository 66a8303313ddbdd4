"""viz.View: SVG in Jupyter, files from scripts, and the DOT-source fallback when graphviz's `dot` is missing."""

from __future__ import annotations

import shutil

import pytest

import viz
import viz.render
from viz.dot import Digraph, html, quote

from .models import mlp_loss

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot program is not installed")


@pytest.fixture
def view():
    return viz.draw_graph(mlp_loss()[0])


@pytest.fixture
def no_dot(monkeypatch):
    """As on a machine without graphviz: `dot` is nowhere on the PATH."""
    monkeypatch.setattr(viz.render.shutil, "which", lambda name, *a, **k: None)
    monkeypatch.setenv("PATH", "")


@needs_dot
def test_svg_and_jupyter_hooks(view):
    svg = view.svg()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "matmul" in svg
    assert view._repr_svg_() == svg
    assert view._repr_mimebundle_() == {"image/svg+xml": svg}


@needs_dot
@pytest.mark.parametrize("suffix, head", [(".svg", b"<?xml"), (".png", b"\x89PNG"), (".pdf", b"%PDF")])
def test_save_picks_the_format_from_the_suffix(view, tmp_path, suffix, head):
    path = view.save(tmp_path / f"graph{suffix.upper()}")
    with open(path, "rb") as f:
        assert f.read().startswith(head)


@needs_dot
def test_save_html_embeds_the_svg(view, tmp_path):
    view.save(tmp_path / "g.html")
    text = (tmp_path / "g.html").read_text()
    assert text.startswith("<!DOCTYPE html>") and "<svg" in text and "<?xml" not in text
    assert "<title>autograd graph</title>" in text


@pytest.mark.parametrize("suffix", [".dot", ".gv"])
def test_save_dot_writes_the_source(view, tmp_path, suffix):
    view.save(tmp_path / f"g{suffix}")
    assert (tmp_path / f"g{suffix}").read_text() == view.source


def test_an_unknown_suffix_raises(view, tmp_path):
    with pytest.raises(ValueError, match=r"View.save: cannot tell the format from .*\.jpeg.*\.svg, \.png"):
        view.save(tmp_path / "g.jpeg")
    assert list(tmp_path.iterdir()) == []


def test_without_dot_a_notebook_shows_the_source_and_how_to_install(view, no_dot):
    assert view._repr_svg_() is None
    bundle = view._repr_mimebundle_()
    assert "image/svg+xml" not in bundle
    assert "sudo apt-get install -y graphviz" in bundle["text/html"]
    assert "digraph &quot;autograd&quot;" in bundle["text/html"]
    assert "&lt;B&gt;matmul&lt;/B&gt;" in bundle["text/html"]  # the source is escaped, not interpreted as HTML
    assert bundle["text/plain"].endswith(view.source) and "apt-get install graphviz" in bundle["text/plain"]


def test_without_dot_scripts_get_a_clear_error_and_no_file(view, no_dot, tmp_path):
    with pytest.raises(RuntimeError, match="graphviz's `dot` program was not found.*apt-get install -y graphviz"):
        view.svg()
    with pytest.raises(RuntimeError, match="apt-get install"):
        view.save(tmp_path / "g.png")
    assert list(tmp_path.iterdir()) == []
    view.save(tmp_path / "g.dot")  # the source needs no graphviz
    assert (tmp_path / "g.dot").read_text() == view.source


def test_graphviz_failing_to_find_dot_is_caught(view, monkeypatch):
    """shutil.which may find a `dot` that graphviz then cannot run (PATH changed in between)."""
    monkeypatch.setattr(viz.render, "dot_available", lambda: True)
    monkeypatch.setenv("PATH", "")
    with pytest.raises(RuntimeError, match="graphviz's `dot` program was not found"):
        view.svg()


def test_importing_viz_does_not_import_graphviz():
    import subprocess
    import sys

    code = "import sys, viz; print('graphviz' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_dot_quoting():
    assert quote('a "b" \\ c\nd') == '"a \\"b\\" \\\\ c\\nd"'
    assert quote(html("<B>x</B>")) == "<<B>x</B>>"
    g = Digraph("G", graph={"rankdir": "LR"})
    with g.cluster("c0", "inner") as c:
        c.node("a", "A", shape="box", color=None)
    g.edge("a", "b", label="x")
    assert g.source() == (
        'digraph "G" {\n\trankdir="LR"\n\tsubgraph "cluster_c0" {\n\t\tlabel="inner"\n'
        '\t\t"a" [label="A" shape="box"]\n\t}\n\t"a" -> "b" [label="x"]\n}\n'
    )


def test_repr_is_short(view):
    assert repr(view).startswith("<viz.View 'autograd graph'") and "digraph" not in repr(view)


@needs_dot
def test_inline_html_is_the_svg_element(view):
    assert view.inline_html().startswith("<svg")


def test_inline_html_without_dot_is_the_source(view, no_dot):
    html = view.inline_html()
    assert "apt-get install" in html and "digraph" in html
