"""An exported ONNX file drawn in minipaddle's style, beside the Program it came from.

    viz.draw_onnx("lenet.onnx")                          # the ONNX graph: nodes, inputs, outputs, initializers
    viz.draw_onnx("lenet.onnx", program=optimized)       # the Program on the left, the ONNX graph on the right

ONNX nodes are boxes like a Program's ops (an op exported as several nodes shows them together, since the
exporter names every node after the variable its op writes); graph inputs are data ellipses, initializers
parameter ellipses (show_initializers=False leaves them out), graph outputs bold. The file is read with the
onnx package (imported only here).
"""

from __future__ import annotations

from viz import dot, style
from viz.program import ProgramDrawing, check_program
from viz.render import View


def draw_onnx(path, program=None, show_initializers: bool = True) -> View:
    """Draw an ONNX model file (or onnx.ModelProto), optionally beside the Program it was exported from.

    Args:
        path: the .onnx file, or a loaded onnx.ModelProto.
        program: a paddle.static.Program to draw on the left, for comparison (None: the ONNX graph alone).
        show_initializers: draw the weights (initializers) as nodes.

    Returns:
        View (`.source` is the DOT text, `.save('model.svg')` writes a file).

    Example:
        >>> viz.draw_onnx(paddle.onnx.export(model, "lenet", spec))
    """
    import onnx

    model = path if isinstance(path, onnx.ModelProto) else onnx.load(str(path))
    opset = model.opset_import[0].version if model.opset_import else "?"
    title = f"ONNX opset {opset}: {len(model.graph.node)} nodes"
    g = dot.Digraph("onnx", graph={**style.GRAPH, "compound": "true", "label": title, "labelloc": "t"},
                    node=style.NODE, edge=style.EDGE)  # fmt: skip
    if program is not None:
        check_program(program, "draw_onnx")
        with g.cluster("program", f"Program: {len(program.global_block().ops)} ops", **style.PANEL_CLUSTER) as c:
            ProgramDrawing(program, show_vars=False, show_attrs=False, prefix="p_").emit(c)
        with g.cluster("onnx", "ONNX", **style.PANEL_CLUSTER) as c:
            _emit(c, model.graph, show_initializers)
    else:
        _emit(g, model.graph, show_initializers)
    return View(g.source(), title="onnx")


def _shape(value_info) -> str:
    dims = value_info.type.tensor_type.shape.dim
    return "[" + ", ".join(d.dim_param or str(d.dim_value) for d in dims) + "]"


def _emit(g, graph, show_initializers: bool) -> None:
    ids: dict = {}

    def vid(name: str) -> str:
        return ids.setdefault(name, f"o_v{len(ids)}")

    for vi in graph.input:
        g.node(vid(vi.name), f"{vi.name}\n{_shape(vi)}", **style.DATA_VAR)
    if show_initializers:
        for init in graph.initializer:
            g.node(vid(init.name), f"{init.name}\n{list(init.dims)}", **style.PARAMETER_VAR)
    initializers = {i.name for i in graph.initializer}
    outputs = {o.name for o in graph.output}
    for k, node in enumerate(graph.node):
        attrs = ", ".join(a.name for a in node.attribute)
        label = dot.html(f"<B>{dot.escape(node.op_type)}</B>"
                         + (f'<BR/><FONT POINT-SIZE="8">{dot.escape(attrs)}</FONT>' if attrs else ""))  # fmt: skip
        nid = f"o_n{k}"
        g.node(nid, label, **style.OP)
        for i in node.input:
            if not i or (i in initializers and not show_initializers):
                continue
            if i in ids:
                g.edge(ids[i], nid)
        for o in node.output:
            ids[o] = nid if o not in outputs else ids.get(o, vid(o))
            if o in outputs:
                g.node(ids[o], o, **style.OUTPUT)
                g.edge(nid, ids[o])
