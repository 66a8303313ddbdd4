"""A small DOT writer: nodes, edges and nested clusters, written in the order they were added.

viz writes DOT text itself rather than through the graphviz package's builder, so the text (which golden tests
compare) depends only on viz, never on the installed graphviz version; the package is used only to render.

    g = Digraph(graph={"rankdir": "TB"})
    g.node("n0", html("<B>tanh</B>"), shape="box")
    with g.cluster("s0", "features.0") as c:
        c.node("n1", "matmul")
    g.edge("n1", "n0")
    print(g.source())
"""

from __future__ import annotations

import contextlib
import html as _html


class Html(str):
    """A label written in graphviz's HTML-like language; emitted between < > instead of quotes."""


def html(markup: str) -> Html:
    return Html(markup)


def escape(text) -> str:
    """Text made safe to place inside an HTML-like label."""
    return _html.escape(str(text), quote=False)


def quote(value) -> str:
    """A DOT attribute value or id: HTML labels in < >, everything else a double-quoted string."""
    if isinstance(value, Html):
        return f"<{value}>"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def _attr_list(attrs: dict) -> str:
    items = [f"{k}={quote(v)}" for k, v in attrs.items() if v is not None]
    return f" [{' '.join(items)}]" if items else ""


class Digraph:
    """A directed graph, or a cluster inside one (clusters nest: `cluster()` on a cluster)."""

    def __init__(self, name: str = "G", graph: dict | None = None, node: dict | None = None,
                 edge: dict | None = None, cluster: bool = False) -> None:  # fmt: skip
        self.name = name
        self.is_cluster = cluster
        self.lines: list = []  # statements (str) and nested clusters (Digraph), in order
        self.graph_attrs = dict(graph or {})
        self.node_defaults = dict(node or {})
        self.edge_defaults = dict(edge or {})

    def node(self, node_id: str, label=None, **attrs) -> None:
        self.lines.append(f"{quote(node_id)}{_attr_list({'label': label, **attrs})}")

    def edge(self, tail: str, head: str, **attrs) -> None:
        self.lines.append(f"{quote(tail)} -> {quote(head)}{_attr_list(attrs)}")

    @contextlib.contextmanager
    def cluster(self, cluster_id: str, label=None, **attrs):
        """A nested box; graphviz draws a subgraph as a box only when its name starts with 'cluster'."""
        child = Digraph(f"cluster_{cluster_id}", graph={"label": label, **attrs}, cluster=True)
        self.lines.append(child)
        yield child

    def source(self) -> str:
        return "\n".join(self._lines(0)) + "\n"

    def _lines(self, indent: int) -> list:
        pad = "\t" * indent
        head = f"subgraph {quote(self.name)} {{" if self.is_cluster else f"digraph {quote(self.name)} {{"
        out = [pad + head]
        inner = pad + "\t"
        for k, v in self.graph_attrs.items():
            if v is not None:
                out.append(f"{inner}{k}={quote(v)}")
        if self.node_defaults:
            out.append(f"{inner}node{_attr_list(self.node_defaults)}")
        if self.edge_defaults:
            out.append(f"{inner}edge{_attr_list(self.edge_defaults)}")
        for line in self.lines:
            out.extend(line._lines(indent + 1) if isinstance(line, Digraph) else [inner + line])
        out.append(pad + "}")
        return out
