"""The inspector: pick a tensor of an autograd graph and see its values and its gradient; step through backward.

    loss = model(x).mean()
    viz.inspect(loss, params=dict(model.named_parameters()))     # call it BEFORE loss.backward()

Tab "Pick a tensor": a dropdown lists every tensor of the graph in the order the forward made it (the ids n3,
l0 are the node ids of viz.draw_graph); the graph shows the picked one outlined in blue, beside its statistics
(shape, dtype, min, max, mean, std, NaN/Inf/zero counts) and histograms, for its value and its gradient.

Tab "Step backward": step k shows the graph after k gradients have arrived, coloured by arrival (pale =
early, dark red = the one that just arrived), and the statistics of the gradient that just arrived.

How stepping works, with public APIs only: the inspector puts a hook on every tensor of the graph
(`Tensor.register_hook`, called when a tensor's gradient is complete), runs one real backward with `paddle.grad`
(retain_graph=True, so the graph stays usable, and no parameter's `.grad` is touched), records each gradient in
the order backward delivered it, and removes the hooks. The widget then replays the recording one step at a
time: backward runs once, the stepping is a replay of what it did. Leaves (parameters and inputs) receive their
gradients last, all at once, as backward finishes (that is when Paddle adds them into `.grad`).

Every panel and step is computed up front, and the dropdown, the slider and the play button are linked in the
browser, so a saved page (`.save('inspector.html')`) is as interactive as the notebook; only the two step buttons
need a running Python kernel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

import numpy as np

import minipaddle as paddle
from minipaddle.autograd import GradNode, graph_nodes
from viz import labels
from viz.graph import draw_graph
from viz.tensor_stats import array_stats, histogram_svg, stats_table_html
from viz.widget_view import WidgetView

MAX_TENSORS = 60  # each tensor costs a few drawings up front; a larger graph is better folded with draw_graph(depth=)
_GRAPH_BOX = "width:560px;border:1px solid #ddd;padding:4px"
_GRAPH_HEIGHT = 560  # px: a taller graph is scaled down to fit beside its numbers


@dataclass
class Entry:
    """One tensor of the graph: the Tensor, its node id in draw_graph ('n3' for an op's output, 'l0' for a leaf),
    its label, its value, and its gradient with the step at which it arrived (1 = first; None: no gradient)."""

    tensor: object
    node_id: str
    label: str
    value: np.ndarray
    grad: np.ndarray | None = None
    step: int | None = None


def inspect(tensors, params=None, bins: int = 30) -> Inspector:
    """Open the inspector on the autograd graph behind `tensors` (call it before backward frees the graph).

    Args:
        tensors: the output Tensor (usually the loss) or a list of them; backward starts from them with ones.
        params: {name: Tensor}, e.g. dict(model.named_parameters()), to name the parameters.
        bins: the number of histogram bars.

    Returns:
        Inspector: shows itself in Jupyter; `.entries` holds every tensor with its value and gradient,
        `.steps` the entries in the order their gradients arrived; `.save('inspector.html')` writes a page.

    Example:
        >>> loss = paddle.tanh(x @ w).sum()
        >>> viz.inspect(loss, params={"w": w})
    """
    outputs = [tensors] if isinstance(tensors, paddle.Tensor) else list(tensors)
    if not outputs or not all(isinstance(t, paddle.Tensor) for t in outputs):
        raise TypeError(f"inspect: expected a Tensor or a list of Tensors, got {type(tensors).__name__}")
    nodes = graph_nodes(outputs)
    if not nodes:
        raise ValueError("inspect: these tensors have no autograd graph (no input had stop_gradient=False)")
    if any(n.released for n in nodes):
        raise RuntimeError(
            "inspect: backward already ran on this graph and freed its values; call viz.inspect(loss) before "
            "loss.backward(), or run backward with retain_graph=True"
        )
    entries = _entries(outputs, list(reversed(nodes)), params or {})
    if len(entries) > MAX_TENSORS:
        raise ValueError(
            f"inspect: the graph has {len(entries)} tensors, more than the {MAX_TENSORS} the inspector draws; "
            "inspect a smaller piece (one layer's output) or look at the whole with viz.draw_graph(loss, depth=1)"
        )
    _record_backward(outputs, entries)
    return Inspector(outputs, entries, params, bins)


def _entries(outputs: list, ran: list, params: dict) -> list:
    """Every tensor of the graph, in the order the forward made it, with draw_graph's ids."""
    names = {id(t): name for name, t in params.items()}
    node_id = {id(n): f"n{i}" for i, n in enumerate(ran)}
    made = {}  # id(node) -> the Tensors it made (read from its consumers' inputs, and from the outputs)
    for n in ran:
        for src, t in zip(n.next_nodes, n.inputs):
            if isinstance(src, GradNode) and t.grad_fn is src:
                made.setdefault(id(src), {})[id(t)] = t
    for t in outputs:
        if t.grad_fn is not None:
            made.setdefault(id(t.grad_fn), {})[id(t)] = t
    entries, leaf_ids = [], {}
    for n in ran:
        for src in n.next_nodes:
            if isinstance(src, paddle.Tensor) and id(src) not in leaf_ids:
                lid = leaf_ids[id(src)] = f"l{len(leaf_ids)}"
                title = names.get(id(src)) or (src.name if isinstance(src, paddle.Parameter) else "leaf")
                entries.append(Entry(src, lid, f"{lid} · {title} · {_meta(src)}", src.numpy()))
        for t in made.get(id(n), {}).values():
            where = f" · in {n.scope}" if n.scope else ""
            label = f"{node_id[id(n)]} · {n.type} → {_meta(t)}{where}"
            entries.append(Entry(t, node_id[id(n)], label, t.numpy()))
    return entries


def _meta(t) -> str:
    return labels.tensor_text(t.shape, t.dtype)


def _record_backward(outputs: list, entries: list) -> None:
    """One real backward, with a hook on every tensor noting each gradient as it arrives (see the docstring)."""
    arrived = []

    def hook_for(entry):
        def note(grad):
            arrived.append(entry)
            entry.grad = np.array(grad.numpy())
            entry.step = len(arrived)

        return note

    handles = [e.tensor.register_hook(hook_for(e)) for e in entries]
    leaves = [e.tensor for e in entries if e.tensor.is_leaf]
    try:
        paddle.grad(outputs, leaves, retain_graph=True, allow_unused=True)
    finally:
        for h in handles:
            h.remove()


def _fit(svg: str) -> str:
    """The SVG scaled to the box's width and at most _GRAPH_HEIGHT tall (its viewBox keeps the proportions)."""
    if not svg.startswith("<svg"):
        return svg  # the DOT source shown when graphviz is missing
    head_end = svg.find(">")
    head = re.sub(r'\s(width|height)="[^"]*"', "", svg[:head_end])
    style = f' style="width:100%;height:auto;max-height:{_GRAPH_HEIGHT}px"'
    return head + style + svg[head_end:]


class Inspector(WidgetView):
    """The inspector widget (a Tab of two pages); `.entries`, `.steps` and `.widget` are its parts."""

    def __init__(self, outputs: list, entries: list, params, bins: int) -> None:
        self.outputs = outputs
        self.entries = entries
        self.steps = sorted((e for e in entries if e.step is not None), key=lambda e: e.step)
        self.params = params
        self.bins = bins
        self._histograms = {}
        super().__init__(self._build(), title="inspector")

    # ---- pictures ----

    def _graph_html(self, **kwargs) -> str:
        picture = _fit(draw_graph(self.outputs, params=self.params, **kwargs).inline_html())
        return f'<div class="viz-graph" style="{_GRAPH_BOX}">{picture}</div>'

    def _histogram(self, e: Entry) -> str:
        if id(e) not in self._histograms:
            svg = histogram_svg({"value": e.value, "gradient": e.grad}, self.bins)
            self._histograms[id(e)] = f'<div class="viz-histogram">{svg}</div>'
        return self._histograms[id(e)]

    def _stats(self, e: Entry) -> str:
        grad = None if e.grad is None else array_stats(e.grad)
        return stats_table_html({"value": array_stats(e.value), "gradient": grad})

    # ---- the two pages ----

    def _panel(self, e: Entry):
        import ipywidgets as widgets

        arrived = f"its gradient arrived at backward step {e.step}" if e.step else "no gradient reached it"
        side = f"<b>{escape(e.label)}</b><br><i>{arrived}</i>{self._stats(e)}{self._histogram(e)}"
        return widgets.HBox([widgets.HTML(self._graph_html(highlight=[e.tensor])), widgets.HTML(side)])

    def _frame(self, k: int):
        """Step k of the replay: k gradients have arrived (k = 0: backward has not started)."""
        import ipywidgets as widgets

        done = self.steps[:k]
        graph = self._graph_html(color_by={e.tensor: e.step for e in done}, color_label="backward step")
        if k == 0:
            side = (f"<b>before backward</b><br>{len(self.steps)} gradients will arrive, starting with the "
                    "outputs' (ones); move the slider or press step ▶")  # fmt: skip
        else:
            e = done[-1]
            side = (f"<b>step {k} of {len(self.steps)}: the gradient of</b><br>{escape(e.label)}<br>"
                    f"{self._stats(e)}{self._histogram(e)}")  # fmt: skip
        return widgets.HBox([widgets.HTML(graph), widgets.HTML(side)])

    def _build(self):
        import ipywidgets as widgets

        picker = widgets.Dropdown(options=[e.label for e in self.entries], description="tensor",
                                  layout=widgets.Layout(width="640px"))  # fmt: skip
        panels = widgets.Stack([self._panel(e) for e in self.entries], selected_index=0)
        widgets.jslink((picker, "index"), (panels, "selected_index"))

        n = len(self.steps)
        slider = widgets.IntSlider(
            value=0, min=0, max=n, description="backward step", style={"description_width": "initial"},
            layout=widgets.Layout(width="420px"),
        )  # fmt: skip
        play = widgets.Play(value=0, min=0, max=n, interval=900, description="replay backward")
        frames = widgets.Stack([self._frame(k) for k in range(n + 1)], selected_index=0)
        widgets.jslink((play, "value"), (slider, "value"))
        widgets.jslink((slider, "value"), (frames, "selected_index"))
        back = widgets.Button(description="◀ back", layout=widgets.Layout(width="80px"))
        step = widgets.Button(description="step ▶", button_style="primary", layout=widgets.Layout(width="80px"))
        back.on_click(lambda _: setattr(slider, "value", max(slider.value - 1, 0)))
        step.on_click(lambda _: setattr(slider, "value", min(slider.value + 1, n)))
        self.picker, self.slider = picker, slider

        tabs = widgets.Tab([
            widgets.VBox([picker, panels]),
            widgets.VBox([widgets.HBox([back, step, play, slider]), frames]),
        ])  # fmt: skip
        tabs.titles = ("Pick a tensor", "Step backward")
        return tabs
