"""View: what every viz drawing function returns. It shows itself in Jupyter and saves itself from scripts.

    v = viz.draw_graph(loss)
    v                      # in a notebook: the picture (SVG)
    v.source               # the DOT text (stable: golden tests compare it)
    v.save("graph.svg")    # or .png, .pdf, .html (a page with the SVG inside), .dot / .gv (the source)

Pictures need graphviz's `dot` program. Without it nothing fails in a notebook: the cell shows the DOT source
and the command that installs graphviz; in a script `svg()` and `save()` raise a RuntimeError saying the same.
"""

from __future__ import annotations

import os
import shutil

from minipaddle.static.files import atomic_write

INSTALL_HINT = (
    "graphviz's `dot` program was not found, so viz cannot draw the picture. Install it with "
    "`sudo apt-get install -y graphviz` (Debian/Ubuntu; `apt-get install graphviz` as root), "
    "`brew install graphviz` (macOS) or `conda install graphviz`, then run the cell again."
)

_RENDERED = {".svg": "svg", ".png": "png", ".pdf": "pdf"}
_TEXT = (".dot", ".gv")
SUFFIXES = tuple(_RENDERED) + _TEXT + (".html",)


def dot_available() -> bool:
    """Whether graphviz's `dot` program is on the PATH."""
    return shutil.which("dot") is not None


class View:
    """A drawing: its DOT `source`, rendered on demand by graphviz's `dot` program."""

    def __init__(self, source: str, title: str = "graph") -> None:
        self.source = source
        self.title = title

    # ---- rendering ----

    def pipe(self, fmt: str) -> bytes:
        """The drawing rendered by `dot` in format `fmt` ('svg', 'png', 'pdf'); RuntimeError when `dot` is missing."""
        import graphviz  # lazily: importing viz must stay cheap

        if not dot_available():
            raise RuntimeError(INSTALL_HINT)
        try:
            return graphviz.Source(self.source).pipe(format=fmt, engine="dot")
        except graphviz.ExecutableNotFound:
            raise RuntimeError(INSTALL_HINT) from None

    def svg(self) -> str:
        """The drawing as SVG text."""
        return self.pipe("svg").decode("utf-8")

    def save(self, path) -> str:
        """Write the drawing to `path`, in the format its suffix names (.svg .png .pdf .html .dot .gv); returns path.

        The file is written to a temporary name and renamed, so a failed render never leaves half a file.
        """
        path = os.fspath(path)
        suffix = os.path.splitext(path)[1].lower()
        if suffix in _TEXT:
            data = self.source.encode("utf-8")
        elif suffix in _RENDERED:
            data = self.pipe(_RENDERED[suffix])
        elif suffix == ".html":
            data = self.html_page().encode("utf-8")
        else:
            raise ValueError(f"View.save: cannot tell the format from {path!r}; use one of {', '.join(SUFFIXES)}")
        atomic_write(path, data)
        return path

    def html_page(self) -> str:
        """A standalone HTML page with the SVG inline (one file to open in a browser or attach to a report)."""
        return html_page(self.title, svg_element(self.svg()))

    def inline_html(self) -> str:
        """The drawing as an <svg> element to place in a page; without `dot`, the install message and DOT source."""
        return svg_element(self.svg()) if dot_available() else self.fallback_html()

    # ---- Jupyter ----

    def _repr_svg_(self):
        """IPython's SVG hook; None (nothing to show this way) when `dot` is missing, so the cell never fails."""
        return self.svg() if dot_available() else None

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        if dot_available():
            return {"image/svg+xml": self.svg()}
        return {"text/html": self.fallback_html(), "text/plain": f"{INSTALL_HINT}\n\n{self.source}"}

    def fallback_html(self) -> str:
        """What a notebook shows without `dot`: the install message, then the DOT source."""
        from html import escape

        return (
            f'<div><p style="color:#9c2a00">{escape(INSTALL_HINT)}</p>'
            f"<details open><summary>DOT source</summary><pre>{escape(self.source)}</pre></details></div>"
        )

    def __repr__(self) -> str:
        return f"<viz.View {self.title!r}: {self.source.count(chr(10))} lines of DOT; .save('x.svg') or .source>"


def html_page(title: str, body: str, head: str = "") -> str:
    """A standalone HTML page: `body` (HTML) under a <title>; every viz view saves its .html files through this."""
    from html import escape

    return (
        '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n{head}</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def svg_element(svg: str) -> str:
    """The <svg> element alone, without the XML declaration and DOCTYPE that `dot` writes before it."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg
