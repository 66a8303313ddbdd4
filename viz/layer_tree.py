"""The Layer tree as a widget you can fold: each Layer holding others is a section that opens and closes.

    viz.layer_tree(model, input_size=[1, 3, 32, 32])            # opened one level deep
    viz.layer_tree(model, input_size=[1, 3, 32, 32], expand=9)  # everything open

Each line names the layer and its class, its parameters (everything inside it, for a Layer holding others) and
the shapes in and out of its first call, measured by the dry run of viz/layers.py. The folding happens in the
browser, so it works in a saved page too (`.save('tree.html')`).
"""

from __future__ import annotations

from html import escape

from viz.layers import LayerRecord, params_text, shapes_text, trace_layers
from viz.widget_view import WidgetView

_ROW_STYLE = "font-family: monospace; font-size: 12px; padding: 2px 6px;"


def layer_tree(model, input_size=None, dtypes=None, input=None, expand: int = 1) -> LayerTree:
    """An ipywidgets tree of `model`'s Layers with parameter counts and (given an input) shapes.

    Args:
        model: a paddle.nn.Layer.
        input_size, dtypes, input: an input for the dry run that measures shapes, as in paddle.summary (all
            None: no shapes).
        expand: open the sections down to this depth (0: everything folded).

    Returns:
        LayerTree: shows itself in Jupyter; `.save('tree.html')` writes a page; `.root` is the measured tree.

    Example:
        >>> viz.layer_tree(paddle.vision.models.LeNet(), input_size=[1, 1, 28, 28])
    """
    if not isinstance(expand, int) or isinstance(expand, bool) or expand < 0:
        raise ValueError(f"layer_tree: expand must be a non-negative int, got {expand!r}")
    return LayerTree(trace_layers(model, input_size, dtypes, input), expand)


def describe(record: LayerRecord) -> str:
    """One line about a layer: 'features: Sequential · 56 params · [1, 1, 8, 8] → [1, 4, 4, 4]'."""
    name = record.type if not record.name else f"{record.name.rpartition('.')[2]}: {record.type}"
    parts = [name]
    if record.all_params():
        parts.append(params_text(record, recursive=True))
    if record.input_shapes is not None:
        parts.append(f"{shapes_text(record.input_shapes)} → {shapes_text(record.output_shapes)}")
    if record.calls > 1:
        parts.append(f"ran ×{record.calls}")
    return " · ".join(parts)


class LayerTree(WidgetView):
    """Nested ipywidgets Accordions, one per Layer that holds others; `.root` is the LayerRecord tree."""

    def __init__(self, root: LayerRecord, expand: int) -> None:
        self.root = root
        self.expand = expand
        super().__init__(self._widget(root), title="layer tree")

    def _widget(self, record: LayerRecord):
        import ipywidgets as widgets

        if record.is_leaf:
            return widgets.HTML(f'<div style="{_ROW_STYLE}">{escape(describe(record))}</div>')
        body = widgets.VBox([self._widget(c) for c in record.children], layout=widgets.Layout(margin="0 0 0 18px"))
        return widgets.Accordion(
            children=[body],
            titles=(describe(record),),
            selected_index=0 if record.depth < self.expand else None,
        )

    def lines(self) -> list:
        """The tree as indented text lines (what the widget shows with every section open)."""
        return ["    " * r.depth + describe(r) for r in self.root.walk()]
