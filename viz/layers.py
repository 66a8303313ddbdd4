"""A Layer's hierarchy, measured by one dry run: every sublayer with its parameters and input/output shapes.

    tree = viz.trace_layers(model, input_size=[1, 3, 32, 32])   # the records the layer views are drawn from
    viz.draw_layers(model, input_size=[1, 3, 32, 32])            # the hierarchy as a graph (a View)
    viz.draw_layers(model)                                       # without an input: the tree and parameters only

The dry run calls the model once, in eval mode and without recording gradients, with forward post-hooks on
every sublayer (`Layer.register_forward_post_hook`) that note the shapes going in and out; afterwards the hooks
are removed and every layer's training flag is put back, so the model is left as it was.

In the graph, a rounded blue box is a Layer holding others (its parameter count is everything inside it), a
square white box a Layer that computes; each box says its name, class, the shapes in and out of its first call
(and how often it ran), and its parameters. Node ids are L0, L1, ... in `named_sublayers` order, so the DOT text
of the same model is always the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import minipaddle as paddle
from viz import dot, labels, style
from viz.render import View


@dataclass
class LayerRecord:
    """One Layer of the tree. `name` is its structured name ('' for the model itself, 'features.0' below it)."""

    name: str
    layer: object
    depth: int
    children: list = field(default_factory=list)
    params: list = field(default_factory=list)  # its own Parameters (not its sublayers'), each once in the tree
    param_names: list = field(default_factory=list)  # their attribute names: 'weight', 'bias', '_mean'
    input_shapes: list | None = None  # of the first call; None when the layer did not run
    output_shapes: list | None = None
    input_dtypes: list | None = None
    output_dtypes: list | None = None
    outputs_per_call: list = field(default_factory=list)  # [(shapes, dtypes)] of every call, in order

    @property
    def calls(self) -> int:
        return len(self.outputs_per_call)

    @property
    def type(self) -> str:
        return type(self.layer).__name__

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def walk(self):
        """This record and every record below it, depth first, in `named_sublayers` order."""
        stack = [self]
        while stack:
            r = stack.pop()
            yield r
            stack.extend(reversed(r.children))

    def all_params(self) -> list:
        return [p for r in self.walk() for p in r.params]

    def num_params(self, recursive: bool = True) -> int:
        return sum(p.size for p in (self.all_params() if recursive else self.params))


def trace_layers(model, input_size=None, dtypes=None, input=None) -> LayerRecord:
    """The Layer tree of `model`, with shapes from one dry run when an input is given.

    Args:
        model: a paddle.nn.Layer.
        input_size: the input shape (a list of ints, or a list of shapes for several inputs), as paddle.summary
            takes it; a batch size of -1 or None is run as 1. InputSpecs are accepted too.
        dtypes: the input dtype(s) (default float32), as paddle.summary.
        input: the input Tensor(s) themselves, instead of input_size.

    Returns:
        LayerRecord: the model's record; `.walk()` lists every layer.
    """
    if not isinstance(model, paddle.nn.Layer):
        raise TypeError(f"trace_layers: expected a paddle.nn.Layer, got {type(model).__name__}")
    root = _build(model)
    inputs = make_inputs(input_size, dtypes, input, "trace_layers")
    if inputs is not None:
        _dry_run(model, root, inputs)
    return root


def _build(model) -> LayerRecord:
    """Records for every sublayer, linked to their parents; a shared parameter belongs to its first layer."""
    records = {}
    seen_params = set()
    root = None
    for name, layer in model.named_sublayers(include_self=True):
        parent_name = name.rpartition(".")[0] if name else None
        depth = 0 if not name else name.count(".") + 1
        record = LayerRecord(name, layer, depth)
        for key, p in layer.named_parameters(include_sublayers=False):
            if id(p) not in seen_params:
                seen_params.add(id(p))
                record.params.append(p)
                record.param_names.append(key)
        records[name] = record
        if root is None:
            root = record
        else:
            records[parent_name].children.append(record)
    return root


def make_inputs(input_size, dtypes, input, fn: str):
    """The dry run's input Tensors (a list), or None when neither input_size nor input is given."""
    if input is not None:
        tensors = [input] if isinstance(input, paddle.Tensor) else list(input)
        if not tensors or not all(isinstance(t, paddle.Tensor) for t in tensors):
            raise TypeError(f"{fn}: input must be a Tensor or a list of Tensors")
        return tensors
    if input_size is None:
        return None
    shapes = _shapes(input_size, fn)
    if dtypes is None:
        dtypes = ["float32"] * len(shapes)
    elif isinstance(dtypes, (str, paddle.dtype, np.dtype)):
        dtypes = [dtypes] * len(shapes)
    if len(dtypes) != len(shapes):
        raise ValueError(f"{fn}: got {len(shapes)} input shapes but {len(dtypes)} dtypes")
    # Ones rather than random numbers: the dry run must not draw from the global random generator.
    return [paddle.ones([1 if s is None or s < 0 else s for s in shape], dtype) for shape, dtype in zip(shapes, dtypes)]


def _shapes(input_size, fn: str) -> list:
    """[shape, ...] from one shape, an InputSpec, or a list of either."""
    if isinstance(input_size, paddle.static.InputSpec):
        return [list(input_size.shape)]
    if isinstance(input_size, (list, tuple)) and input_size:
        if all(isinstance(s, int) or s is None for s in input_size):
            return [list(input_size)]
        return [s for item in input_size for s in _shapes(item, fn)]
    raise TypeError(f"{fn}: input_size must be a shape like [1, 3, 32, 32] or a list of shapes, got {input_size!r}")


def _dry_run(model, root: LayerRecord, inputs: list) -> None:
    by_layer = {id(r.layer): r for r in root.walk()}
    modes = [(layer, layer.training) for layer in model.sublayers(include_self=True)]

    def note(layer, layer_inputs, outputs):
        r = by_layer.get(id(layer))
        if r is not None:
            r.outputs_per_call.append(_tensor_meta(outputs))
            if r.calls == 1:
                r.input_shapes, r.input_dtypes = _tensor_meta(layer_inputs)
                r.output_shapes, r.output_dtypes = r.outputs_per_call[0]

    handles = [r.layer.register_forward_post_hook(note) for r in by_layer.values()]
    model.eval()  # Dropout and BatchNorm must not change anything (BatchNorm's running statistics) in a dry run
    try:
        with paddle.no_grad():
            model(*inputs)
    finally:
        for h in handles:
            h.remove()
        for layer, training in modes:
            layer.training = training


def _tensor_meta(value) -> tuple:
    """([shape, ...], [dtype, ...]) of the Tensors in a value (a Tensor, or lists, tuples and dicts of them)."""
    shapes, dtypes_ = [], []
    stack = [value]
    while stack:
        v = stack.pop(0)
        if isinstance(v, paddle.Tensor):
            shapes.append(list(v.shape))
            dtypes_.append(v.dtype)
        elif isinstance(v, (list, tuple)):
            stack[0:0] = list(v)
        elif isinstance(v, dict):
            stack[0:0] = list(v.values())
    return shapes, dtypes_


def shapes_text(shapes) -> str:
    """'[1, 3, 8, 8]' for one shape, '[1, 4], [1, 4]' for several, '?' when the layer did not run."""
    if shapes is None:
        return "?"
    return ", ".join(labels.shape_text(s) for s in shapes) if shapes else "-"


def params_text(record: LayerRecord, recursive: bool) -> str:
    """'1,234 params', with how many are not trainable when some are."""
    params = record.all_params() if recursive else record.params
    total = sum(p.size for p in params)
    frozen = sum(p.size for p in params if not p.trainable)
    text = f"{total:,} param{'s' if total != 1 else ''}"
    return text + (f" ({frozen:,} non-trainable)" if frozen else "")


def draw_layers(model, input_size=None, dtypes=None, input=None, depth: int | None = None) -> View:
    """Draw a Layer's hierarchy as a tree: each sublayer with its class, shapes in and out, and parameters.

    Args:
        model: a paddle.nn.Layer.
        input_size, dtypes, input: an input for the dry run that measures the shapes, as in paddle.summary
            (leave all None to draw the tree and parameters without shapes).
        depth: draw layers down to this depth (1: the model's children); deeper layers are counted in their
            ancestor's box. None draws every layer.

    Returns:
        View: shows itself in Jupyter; `.source` is the DOT text, `.save('layers.svg')` writes a file.

    Example:
        >>> model = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
        >>> viz.draw_layers(model, input_size=[1, 4]).save("layers.svg")
    """
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 0):
        raise ValueError(f"draw_layers: depth must be a non-negative int or None, got {depth!r}")
    root = trace_layers(model, input_size, dtypes, input)
    g = dot.Digraph(
        "layers", graph={**style.GRAPH, "rankdir": "LR", "ranksep": "0.4"}, node=style.NODE, edge=style.EDGE
    )
    ids = {}  # structured name -> node id
    for record in root.walk():
        if depth is not None and record.depth > depth:
            continue
        nid = ids[record.name] = f"L{len(ids)}"
        folded = depth is not None and record.depth == depth and not record.is_leaf
        kind = style.LAYER_LEAF if record.is_leaf else style.FOLDED if folded else style.LAYER
        g.node(nid, _label(record, folded), **kind)
        if record is not root:
            g.edge(ids[record.name.rpartition(".")[0]], nid)
    return View(g.source(), title="layer tree")


def _label(record: LayerRecord, folded: bool) -> dot.Html:
    title = record.name.rpartition(".")[2] if record.name else record.type
    lines = [record.type] if record.name else []
    if record.input_shapes is not None:
        lines.append(f"{shapes_text(record.input_shapes)} → {shapes_text(record.output_shapes)}")
    small = [params_text(record, recursive=True)] if record.all_params() else []
    if folded:
        n = sum(1 for _ in record.walk()) - 1
        small.append(f"{n} sublayer{'s' if n != 1 else ''} folded")
    if record.calls > 1:
        small.append(f"ran ×{record.calls}")
    return labels.node_label(title, lines, small)
