"""A matplotlib figure as a viz view: shown in Jupyter as SVG, `.save(path)` writes .svg .png .pdf or .html.

The timeline and the collectives draw with matplotlib's object API (never pyplot, so a notebook's other
figures are left alone); this is what they return.
"""

from __future__ import annotations

import io
import os

from minipaddle.static.files import atomic_write
from viz.render import html_page, svg_element

_FORMATS = (".svg", ".png", ".pdf", ".html")


class FigureView:
    """A drawing made by `draw(fig)` on a fresh matplotlib Figure of `size` inches."""

    def __init__(self, draw, size: tuple, title: str) -> None:
        self._draw = draw
        self.size = size
        self.title = title

    def figure(self):
        from matplotlib.figure import Figure

        fig = Figure(figsize=self.size, layout="constrained")
        self._draw(fig)
        return fig

    def _render(self, fmt: str) -> bytes:
        import matplotlib

        out = io.BytesIO()
        with matplotlib.rc_context({"svg.fonttype": "none"}):  # text as text: smaller, and searchable
            self.figure().savefig(out, format=fmt, dpi=100)
        return out.getvalue()

    def svg(self) -> str:
        return self._render("svg").decode("utf-8")

    def _repr_svg_(self) -> str:
        return self.svg()

    def save(self, path) -> str:
        """Write the figure to `path` (.svg .png .pdf .html, from the suffix); returns path."""
        path = os.fspath(path)
        suffix = os.path.splitext(path)[1].lower()
        if suffix not in _FORMATS:
            raise ValueError(f"{self.title}.save: cannot tell the format from {path!r}; use one of {_FORMATS}")
        if suffix == ".html":
            data = html_page(self.title, svg_element(self.svg())).encode("utf-8")
        else:
            data = self._render(suffix[1:])
        atomic_write(path, data)
        return path

    def __repr__(self) -> str:
        return f"<viz.FigureView {self.title!r}; .save('x.svg')>"
