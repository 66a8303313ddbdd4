"""WidgetView: what the interactive viz views return (the Layer tree, the inspector). Jupyter shows the live
widget; `.save('x.html')` writes a standalone page that works without Python (ipywidgets' embedding).

    tree = viz.layer_tree(model, input_size=[1, 4])
    tree                                   # in a notebook: the widget
    tree.save("tree.html")                 # a page that loads the widget renderer from the jsDelivr CDN
    tree.save("tree.html", widget_js="embed.js")   # or from a copy of @jupyter-widgets/html-manager's dist/embed.js

Everything a saved page shows was computed in Python beforehand, and the controls that change it are linked in
the browser (`jslink`), so folding, picking and stepping work in the saved page too.
"""

from __future__ import annotations

import os

from minipaddle.static.files import atomic_write
from viz.render import html_page

_PAGE_STYLE = "<style>body { font-family: system-ui, sans-serif; margin: 1.5em; }</style>\n"


class WidgetView:
    """An ipywidgets widget (`.widget`) that shows itself in Jupyter and saves itself as an HTML page."""

    def __init__(self, widget, title: str) -> None:
        self.widget = widget
        self.title = title

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        return self.widget._repr_mimebundle_(include=include, exclude=exclude, **kwargs)

    def html_page(self, widget_js: str | None = None) -> str:
        """A standalone page holding the widget's state; `widget_js` is the URL or path of html-manager's
        embed.js (default: the copy on the jsDelivr CDN that matches the installed ipywidgets)."""
        from ipywidgets import embed

        snippet = embed.embed_snippet(
            [self.widget],
            state=embed.dependency_state([self.widget]),  # (the default would embed every widget of the kernel)
            embed_url=widget_js or embed.DEFAULT_EMBED_SCRIPT_URL,
            requirejs=False,
            cors=widget_js is None,
        )
        return html_page(self.title, snippet, head=_PAGE_STYLE)

    def save(self, path, widget_js: str | None = None) -> str:
        """Write the widget as a standalone HTML page (the only format a live widget has); returns path."""
        path = os.fspath(path)
        if os.path.splitext(path)[1].lower() != ".html":
            raise ValueError(f"{type(self).__name__}.save: a widget saves as .html, got {path!r}")
        atomic_write(path, self.html_page(widget_js).encode("utf-8"))
        return path

    def __repr__(self) -> str:
        return f"<viz.{type(self).__name__} {self.title!r}: show it in Jupyter, or .save('x.html')>"
