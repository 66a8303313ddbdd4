"""The autograd graph behind a Tensor, drawn like pytorchviz but with shapes, dtypes and Layer scopes.

    loss = model(x).mean()
    viz.draw_graph(loss, params=dict(model.named_parameters()))          # the whole graph
    viz.draw_graph(loss, depth=1)                                        # each top-level Layer folded to one box
    viz.draw_graph(loss, color_by={p: float(p.grad.norm()) for p in model.parameters()}, color_label="grad norm")

What the colours mean (viz/style.py): grey rounded boxes are ops (GradNodes: the op type, the shape and dtype of
each output, the attributes that are set); blue boxes are parameters, pale blue boxes other leaves that want a
gradient; orange boxes are the tensors an op saved for its backward (show_saved=True); green boxes are the outputs;
3-D boxes are Layer scopes folded by `depth`; dashed boxes around nodes are Layer scopes. Edges run in the
direction data flowed forward, from the leaves at the top to the outputs at the bottom.

Node ids are given in the order the ops ran (n0 ran first; leaves l0, l1, ...; outputs o0, ...; folded scopes g0, ...),
so the DOT text of the same computation is always the same. The graph is read only through the public API of
docs/autograd_graph.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import minipaddle as paddle
from minipaddle.autograd import GradNode, graph_nodes
from viz import dot, labels, style
from viz.heat import Heat, check_value, format_value
from viz.render import View


def draw_graph(tensors, show_saved: bool = False, depth: int | None = None, color_by=None, show_attrs: bool = True,
               params=None, color_label: str = "value", highlight=None) -> View:  # fmt: skip
    """Draw the autograd graph that produced `tensors` (a Tensor or a list of them).

    Args:
        tensors: the output(s) to draw the history of; they are highlighted in green.
        show_saved: also draw what each op saved for backward (orange), as pytorchviz's show_saved does.
        depth: fold Layer scopes deeper than this: with depth=1 everything under `features` becomes one box
            `features` that counts the ops and parameters inside; None draws every op.
        color_by: {GradNode, Tensor or drawn node id ('n3', 'l0'): number}: fills nodes with a heatmap colour (a
            non-leaf Tensor colours the op that made it; a folded box takes the largest value inside it, and a
            nan or inf is shown in its own colour). Keys not in this graph are ignored.
        show_attrs: write each op's attributes that are set (not None or False) under its name.
        params: {name: Tensor} (e.g. dict(model.named_parameters())): labels these leaves with their names.
        color_label: the caption of the colour legend.
        highlight: GradNodes, Tensors or drawn node ids to outline in blue (the inspector marks the picked node).

    Returns:
        View: shows itself in Jupyter; `.source` is the DOT text, `.save('graph.svg')` writes a file.

    Example:
        >>> x = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
        >>> w = paddle.create_parameter([3, 2], "float32")
        >>> viz.draw_graph(paddle.tanh(x @ w).sum(), params={"w": w}).save("graph.svg")
    """
    outputs = _tensor_list(tensors)
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 1):
        raise ValueError(f"draw_graph: depth must be a positive int or None, got {depth!r}")
    drawing = _GraphDrawing(outputs, show_saved, depth, show_attrs, _param_names(params))
    return drawing.view(color_by, color_label, highlight or ())


def _tensor_list(tensors) -> list:
    items = [tensors] if isinstance(tensors, paddle.Tensor) else tensors
    if not isinstance(items, (list, tuple)) or not items:
        raise TypeError(f"draw_graph: expected a Tensor or a non-empty list of Tensors, got {type(tensors).__name__}")
    unique = {}
    for t in items:
        if not isinstance(t, paddle.Tensor):
            raise TypeError(f"draw_graph: expected Tensors, got a {type(t).__name__} in the list")
        unique.setdefault(id(t), t)
    return list(unique.values())


def _param_names(params) -> dict:
    """{id(tensor): name} from a dict name -> Tensor or a list of (name, Tensor) pairs."""
    if params is None:
        return {}
    pairs = params.items() if isinstance(params, Mapping) else params
    names = {}
    for pair in pairs:
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and isinstance(pair[1], paddle.Tensor)):
            raise TypeError("draw_graph: params must map names to Tensors, e.g. dict(model.named_parameters())")
        names.setdefault(id(pair[1]), str(pair[0]))
    return names


def _scope_path(scope: str) -> tuple:
    return tuple(scope.split(".")) if scope else ()


class _GraphDrawing:
    """Walks the graph once, decides where each thing is drawn (which scope box, folded or not), then writes DOT."""

    def __init__(self, outputs: list, show_saved: bool, depth, show_attrs: bool, names: dict) -> None:
        self.outputs = outputs
        self.show_saved = show_saved
        self.depth = depth
        self.show_attrs = show_attrs
        self.names = names
        self.nodes = list(reversed(graph_nodes(outputs)))  # the order the ops ran
        self.node_id = {id(n): f"n{i}" for i, n in enumerate(self.nodes)}
        self.leaves = {}  # id(tensor) -> (drawn id, tensor), in order of first use
        for n in self.nodes:
            for src in n.next_nodes:
                if isinstance(src, paddle.Tensor):
                    self._add_leaf(src)
        for t in outputs:
            if t.grad_fn is None:
                self._add_leaf(t)
        self.rep = {}  # drawn id -> the id it is shown as (itself, or the folded scope box holding it)
        self.cluster_of = {}  # shown id -> the scope path of the box it sits in
        self.group_by_id = {}  # shown id -> {"path", "ops", "leaves"} for folded scopes
        self.group_of_path = {}  # scope path -> its shown id
        self._place_nodes()
        self._place_leaves()

    def _add_leaf(self, t) -> None:
        if id(t) not in self.leaves:
            self.leaves[id(t)] = (f"l{len(self.leaves)}", t)

    def _source_id(self, src) -> str:
        return self.node_id[id(src)] if isinstance(src, GradNode) else self.leaves[id(src)][0]

    # ---- where things go ----

    def _place_nodes(self) -> None:
        for n in self.nodes:
            nid, path = self.node_id[id(n)], _scope_path(n.scope)
            if self.depth is not None and len(path) >= self.depth:
                gid = self._group(path[: self.depth])
                self.group_by_id[gid]["ops"].append(n)
                self.rep[nid] = gid
            else:
                self.rep[nid] = nid
                self.cluster_of[nid] = path

    def _group(self, path: tuple) -> str:
        if path not in self.group_of_path:
            gid = f"g{len(self.group_of_path)}"
            self.group_of_path[path] = gid
            self.group_by_id[gid] = {"path": path, "ops": [], "leaves": []}
            self.cluster_of[gid] = path[:-1]
        return self.group_of_path[path]

    def _place_leaves(self) -> None:
        """A parameter used only inside one folded scope is folded into it (and counted there); any other leaf sits in
        the innermost scope box that holds all its users (a Layer's parameters are drawn inside the Layer's box).
        Other leaves are inputs, so they stay visible even when their users are folded."""
        users = {lid: [] for lid, _ in self.leaves.values()}
        for n in self.nodes:
            for src in n.next_nodes:
                if isinstance(src, paddle.Tensor):
                    users[self.leaves[id(src)][0]].append(self.rep[self.node_id[id(n)]])
        outputs = {id(t) for t in self.outputs}
        for key, (lid, t) in self.leaves.items():
            shown = set(users[lid])
            folds = len(shown) == 1 and next(iter(shown)) in self.group_by_id and self._is_parameter(t)
            if folds and key not in outputs:
                self.group_by_id[next(iter(shown))]["leaves"].append(t)
                self.rep[lid] = next(iter(shown))
            else:
                self.rep[lid] = lid
                self.cluster_of[lid] = _common_prefix([self.cluster_of[u] for u in users[lid]])

    # ---- colours ----

    def _values(self, color_by) -> dict:
        """{shown id: number}; a folded box takes the largest value among what it holds."""
        if color_by is None:
            return {}
        if not isinstance(color_by, Mapping):
            got = type(color_by).__name__
            raise TypeError(f"draw_graph: color_by must be a dict {{node or tensor: number}}, got {got}")
        drawn = set(self.rep)
        values = {}
        for key, value in color_by.items():
            did = self._drawn_id(key)
            if did is None or did not in drawn:
                continue  # not in this graph (e.g. a parameter this output does not use)
            check_value(value)
            shown = self.rep[did]
            values[shown] = value if shown not in values else _larger(values[shown], value)
        return values

    def _drawn_id(self, key):
        if isinstance(key, GradNode):
            return self.node_id.get(id(key))
        if isinstance(key, paddle.Tensor):
            if key.grad_fn is not None:
                return self.node_id.get(id(key.grad_fn))
            return self.leaves[id(key)][0] if id(key) in self.leaves else None
        if isinstance(key, str):
            return key
        raise TypeError(f"draw_graph: color_by keys must be GradNodes, Tensors or node ids, got {type(key).__name__}")

    # ---- DOT ----

    def view(self, color_by, color_label: str, highlight=()) -> View:
        values = self._values(color_by)
        heat = Heat(list(values.values()), color_label) if values else None
        outlined = {self.rep[d] for d in map(self._drawn_id, highlight) if d in self.rep}
        members = {}  # scope path -> [(id, label, attrs)], in drawing order

        def put(shown_id, label, attrs) -> None:
            if heat is not None and shown_id in values:
                attrs = {**attrs, **heat.node_attrs(values[shown_id])}
            if shown_id in outlined:
                attrs = {**attrs, **style.HIGHLIGHT}
            members.setdefault(self.cluster_of[shown_id], []).append((shown_id, label, attrs))

        def note(shown_id) -> list:
            return [f"{color_label}={format_value(values[shown_id])}"] if shown_id in values else []

        edges = {}  # (tail, head) -> [count, attrs]
        drawn_groups = set()
        for n in self.nodes:
            nid = self.node_id[id(n)]
            shown = self.rep[nid]
            if shown != nid:
                if shown not in drawn_groups:
                    drawn_groups.add(shown)
                    put(shown, self._group_label(self.group_by_id[shown], note(shown)), style.FOLDED)
            else:
                put(nid, self._op_label(n, note(nid)), style.OP)
                if self.show_saved:
                    for key, t in n.saved_tensors().items():
                        sid = f"{nid}_{key}"
                        self.cluster_of[sid] = self.cluster_of[nid]
                        put(sid, labels.node_label(f"saved {key}", [labels.tensor_text(t.shape, t.dtype)]), style.SAVED)
                        edges[(sid, nid)] = [1, style.SAVED_EDGE]
            for src in n.next_nodes:
                if src is not None:
                    tail = self.rep[self._source_id(src)]
                    if tail != shown:
                        edges.setdefault((tail, shown), [0, {}])[0] += 1
        outputs = {id(t) for t in self.outputs}
        for key, (lid, t) in self.leaves.items():
            if self.rep[lid] == lid:
                kind = style.OUTPUT if key in outputs else self._leaf_style(t)
                put(lid, labels.node_label(self._leaf_title(t, key in outputs), [_tensor_text(t)], note(lid)), kind)
        many = len(self.outputs) > 1
        for k, t in enumerate(t for t in self.outputs if t.grad_fn is not None):
            oid = f"o{k}"
            self.cluster_of[oid] = ()
            title = f"output {k}" if many else "output"
            name = [self.names[id(t)]] if id(t) in self.names else []
            put(oid, labels.node_label(title, [_tensor_text(t)], name), style.OUTPUT)
            edges[(self.rep[self.node_id[id(t.grad_fn)]], oid)] = [1, {}]
        if heat is not None:
            self.cluster_of["legend"] = ()
            put("legend", heat.legend(), {"shape": "plaintext", "style": "solid"})

        g = dot.Digraph("autograd", graph=style.GRAPH, node=style.NODE, edge=style.EDGE)
        _emit_scopes(g, members)
        for (tail, head), (count, attrs) in edges.items():
            g.edge(tail, head, **({"label": f"×{count}"} if count > 1 else {}), **attrs)
        return View(g.source(), title="autograd graph")

    def _op_label(self, n, extra: list) -> dot.Html:
        lines = [labels.tensor_text(s, d) for s, d in zip(n.output_shapes, n.output_dtypes)]
        small = labels.attr_lines(n.attrs) if self.show_attrs else []
        if self.show_saved and n.released:
            small.append("saved values released")
        return labels.node_label(n.type, lines, small + extra)

    def _leaf_title(self, t, is_output: bool) -> str:
        if id(t) in self.names:
            title = self.names[id(t)]
        elif isinstance(t, paddle.Parameter):
            title = t.name
        else:
            title = "leaf"
        return f"output: {title}" if is_output else title

    def _is_parameter(self, t) -> bool:
        return isinstance(t, paddle.Parameter) or id(t) in self.names

    def _leaf_style(self, t) -> dict:
        return style.PARAMETER if self._is_parameter(t) else style.LEAF

    def _group_label(self, group: dict, extra: list) -> dot.Html:
        ops = group["ops"]
        lines = [f"{len(ops)} op{'s' if len(ops) != 1 else ''}"]
        params = group["leaves"]
        if params:
            count = sum(t.size for t in params)
            lines.append(f"{len(params)} param{'s' if len(params) != 1 else ''} · {count:,} values")
        return labels.node_label(".".join(group["path"]), lines, [_op_summary(ops)] + extra)


def _tensor_text(t) -> str:
    return labels.tensor_text(t.shape, t.dtype)


def _op_summary(ops: list) -> str:
    """The op types inside a folded box, most frequent first: 'matmul ×2, add ×2, tanh'."""
    counts = {}
    for n in ops:
        counts[n.type] = counts.get(n.type, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])  # stable: ties keep the order the ops ran
    parts = [f"{t} ×{c}" if c > 1 else t for t, c in ranked[:4]]
    return ", ".join(parts) + (", ..." if len(ranked) > 4 else "")


def _common_prefix(paths: list) -> tuple:
    if not paths:
        return ()
    first = paths[0]
    n = 0
    while n < len(first) and all(len(p) > n and p[n] == first[n] for p in paths):
        n += 1
    return first[:n]


def _larger(a, b):
    """The larger of two values for a folded box; a nan or inf wins, so a bad value inside is never hidden."""
    if not math.isfinite(a):
        return a
    if not math.isfinite(b):
        return b
    return max(a, b)


def _emit_scopes(g: dot.Digraph, members: dict) -> None:
    """Declare every node inside nested dashed boxes, one per Layer scope (s0, s1, ... in order of first use)."""
    children, cluster_id = {}, {}
    for path in members:
        for i in range(1, len(path) + 1):
            if path[:i] not in cluster_id:
                cluster_id[path[:i]] = f"s{len(cluster_id)}"
                children.setdefault(path[: i - 1], []).append(path[:i])

    def emit(graph: dot.Digraph, path: tuple) -> None:
        for nid, label, attrs in members.get(path, []):
            graph.node(nid, label, **attrs)
        for child in children.get(path, []):
            with graph.cluster(cluster_id[child], ".".join(child), **style.SCOPE_CLUSTER) as c:
                emit(c, child)

    emit(g, ())
