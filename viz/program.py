"""A static Program drawn as Netron and VisualDL draw one: ops as boxes, variables as ellipses, data flowing down.

    viz.draw_program(main)                      # every block; sub-blocks of cond / while as boxes
    viz.draw_program(main, show_vars=False)     # ops only: intermediate variables become edges labelled by shape
    viz.draw_program(main, block=1)             # one block (and the blocks inside it)

Ops are coloured by role (viz/style.py): grey for forward ops, pink with a dashed border for backward ops (made by
append_backward), lavender for optimizer ops. Variables: blue for parameters, yellow for data (feeds), green for
other persistable variables, dashed pink for gradients (written only by backward ops), white for the rest. A
sub-block is a grey box inside its parent's box, joined by a dashed edge to each op that runs it (the edge says
which attribute names it, e.g. `true_block`). Ids are derived from block and position (`op0_3` is op 3 of block
0, `var1_0` the first variable of block 1), so the DOT text of the same Program is always the same.

Only the public Program data is read: Program.blocks, Block.vars / ops / parent_idx / idx, OpDesc.type / inputs /
outputs / attrs / role, Variable.name / shape / dtype / persistable / is_parameter / is_data.
"""

from __future__ import annotations

import minipaddle as paddle
from viz import dot, labels, style
from viz.render import View

SUB_BLOCK_SUFFIX = "_block"  # control-flow ops name the blocks they run in attributes ending with this


def draw_program(program, show_vars: bool = True, block: int | None = None, show_attrs: bool = True) -> View:
    """Draw a static Program: its ops, variables and sub-blocks.

    Args:
        program: a paddle.static.Program.
        show_vars: draw every variable as a node (True), or only the inputs, parameters and final outputs, with the
            variables between two ops drawn as edges labelled by their shape (False).
        block: draw only this block and the blocks nested in it (None: the whole Program).
        show_attrs: write each op's attributes that are set under its name.

    Returns:
        View: shows itself in Jupyter; `.source` is the DOT text, `.save('program.svg')` writes a file.

    Example:
        >>> main = paddle.static.default_main_program()
        >>> viz.draw_program(main).save("main.svg")
    """
    check_program(program, "draw_program")
    if block is not None and (not isinstance(block, int) or isinstance(block, bool) or
                              not 0 <= block < len(program.blocks)):  # fmt: skip
        raise ValueError(f"draw_program: block must be an index from 0 to {len(program.blocks) - 1}, got {block!r}")
    g = dot.Digraph("program", graph={**style.GRAPH, "compound": "true"}, node=style.NODE, edge=style.EDGE)
    drawing = ProgramDrawing(program, show_vars=show_vars, show_attrs=show_attrs, root=block or 0)
    drawing.emit(g)
    drawing.emit_role_legend(g)
    return View(g.source(), title="program")


def check_program(program, fn: str) -> None:
    if not isinstance(program, paddle.static.Program):
        raise TypeError(f"{fn}: expected a paddle.static.Program, got {type(program).__name__}")


def sub_block_refs(op) -> list:
    """[(attribute name, block index)] for the sub-blocks an op runs (`cond`: true_block and false_block)."""
    return [(k, v) for k, v in op.attrs.items() if k.endswith(SUB_BLOCK_SUFFIX) and isinstance(v, int)]


class ProgramDrawing:
    """Lays one Program out into a Digraph (or into a cluster of one, for the before/after panels of a pass diff).

    `prefix` keeps the ids of two Programs drawn side by side apart; `op_marks` {(block, op index): kind} and
    `var_marks` {(block, var name): kind} colour what a pass removed, added or changed (kinds of style.DIFF);
    `notes` {(block, op index) or (block, var name): [line, ...]} adds small lines under a node's name.
    """

    def __init__(self, program, show_vars: bool = True, show_attrs: bool = True, root: int = 0, prefix: str = "",
                 op_marks=None, var_marks=None, notes=None) -> None:  # fmt: skip
        self.program = program
        self.show_vars = show_vars
        self.show_attrs = show_attrs
        self.prefix = prefix
        self.op_marks = op_marks or {}
        self.var_marks = var_marks or {}
        self.notes = notes or {}
        self.blocks = self._blocks_under(root)
        self.root = root
        self.var_id = {}  # (block idx, name) -> node id
        for b in program.blocks:
            for k, name in enumerate(b.vars):
                self.var_id[(b.idx, name)] = f"{prefix}var{b.idx}_{k}"
        self.undeclared = {}  # name -> node id, for names no block declares (a broken Program still draws)
        self.producers, self.consumers = self._uses()

    def _blocks_under(self, root: int) -> list:
        """Block `root` and every block nested in it, parents before children."""
        keep = [root]
        for b in self.program.blocks:
            if b.parent_idx in keep and b.idx not in keep:
                keep.append(b.idx)
        return keep

    def _resolve(self, block_idx: int, name: str) -> tuple:
        """(block idx, name) of the variable `name` as seen from block `block_idx` (its own block or a parent)."""
        idx = block_idx
        while idx >= 0:
            if name in self.program.blocks[idx].vars:
                return (idx, name)
            idx = self.program.blocks[idx].parent_idx
        # Not in scope lexically, yet the Executor's environment is flat: a backward sub-block reads the values its
        # forward sub-block computed (cond_grad's branch reads the true branch's tanh output).
        for b in self.program.blocks:
            if name in b.vars:
                return (b.idx, name)
        return (-1, name)

    def _node_of_var(self, key: tuple) -> str:
        if key[0] >= 0:
            return self.var_id[key]
        return self.undeclared.setdefault(key[1], f"{self.prefix}undeclared_{len(self.undeclared)}")

    def _uses(self) -> tuple:
        """{var key: [op id, ...]} for the ops (in the drawn blocks) that write and that read each variable."""
        producers, consumers = {}, {}
        for b in self.blocks:
            for i, op in enumerate(self.program.blocks[b].ops):
                oid = self.op_id(b, i)
                for name in op.input_names():
                    if name is not None:
                        consumers.setdefault(self._resolve(b, name), []).append(oid)
                for name in op.output_names():
                    if name is not None:
                        producers.setdefault(self._resolve(b, name), []).append((oid, op.role))
        return producers, consumers

    def op_id(self, block_idx: int, i: int) -> str:
        return f"{self.prefix}op{block_idx}_{i}"

    def cluster_name(self, block_idx: int) -> str:
        return f"{self.prefix}b{block_idx}"

    # ---- which variables are nodes ----

    def _is_edge_var(self, key: tuple) -> bool:
        """With show_vars=False, a plain variable written by one op and read by another becomes an edge."""
        if self.show_vars or key[0] < 0:
            return False
        v = self.program.blocks[key[0]].vars[key[1]]
        return not (v.persistable or v.is_data) and key in self.producers and key in self.consumers

    # ---- writing ----

    def emit(self, g: dot.Digraph) -> None:
        """Declare the nodes block by block (sub-blocks as nested boxes), then every edge."""
        first_node = {}
        self._emit_block(g, self.root, first_node)
        outer = {}  # variables of blocks not drawn (block=k draws one block): declared at the top level
        for b in self.blocks:  # names that no block declares still get a node (a broken Program still draws)
            for op in self.program.blocks[b].ops:
                for name in op.input_names() + op.output_names():
                    key = (-1, None) if name is None else self._resolve(b, name)
                    if name is not None and key[0] < 0:
                        self._node_of_var(key)
                    elif key[0] >= 0 and key[0] not in self.blocks and key not in outer and not self._is_edge_var(key):
                        outer[key] = True
        for key in outer:
            v = self.program.blocks[key[0]].vars[key[1]]
            g.node(self.var_id[key], self._var_label(key, v), **self._var_style(key, v))
        for name, nid in self.undeclared.items():
            g.node(nid, labels.node_label(name, ["(not declared)"]), **{**style.VAR, "style": "dashed"})
        for b in self.blocks:
            for i, op in enumerate(self.program.blocks[b].ops):
                self._emit_op_edges(g, b, i, op, first_node)

    def _emit_block(self, g: dot.Digraph, b: int, first_node: dict) -> None:
        block = self.program.blocks[b]
        declared = []  # node ids declared here; a sub-block edge points at the first op (the top of the box)
        for name, v in block.vars.items():
            key = (b, name)
            unused = key not in self.producers and key not in self.consumers and not v.is_data
            if self._is_edge_var(key) or (not self.show_vars and unused):
                continue
            g.node(self.var_id[key], self._var_label(key, v), **self._var_style(key, v))
            declared.append(self.var_id[key])
        for i, op in enumerate(block.ops):
            attrs = {**style.ROLE.get(op.role, style.OP), **style.DIFF.get(self.op_marks.get((b, i)), {})}
            g.node(self.op_id(b, i), self._op_label(b, i, op), **attrs)
            declared.insert(i, self.op_id(b, i))
        if not declared:  # an empty block still needs a node for the edges that run it to point at
            declared.append(f"{self.cluster_name(b)}_empty")
            g.node(declared[0], "(empty block)", shape="plaintext", style="solid")
        first_node[b] = declared[0]
        for child in self.blocks:
            if self.program.blocks[child].parent_idx == b and child != b:
                with g.cluster(self.cluster_name(child), self._block_title(child), **style.BLOCK_CLUSTER) as c:
                    self._emit_block(c, child, first_node)

    def _emit_op_edges(self, g: dot.Digraph, b: int, i: int, op, first_node: dict) -> None:
        oid = self.op_id(b, i)
        many_in, many_out = len(op.inputs) > 1, len(op.outputs) > 1
        for slot, names in op.inputs.items():
            for name in names:
                if name is None:
                    continue
                key = self._resolve(b, name)
                label = {"label": slot} if many_in else {}
                if self._is_edge_var(key):
                    v = self.program.blocks[key[0]].vars[key[1]]
                    for producer, _ in self.producers[key]:
                        g.edge(producer, oid, label=labels.tensor_text(v.shape, v.dtype))
                else:
                    g.edge(self._node_of_var(key), oid, **label)
        for slot, names in op.outputs.items():
            for name in names:
                key = None if name is None else self._resolve(b, name)
                if key is not None and not self._is_edge_var(key):
                    g.edge(oid, self._node_of_var(key), **({"label": slot} if many_out else {}))
        for attr, sub in sub_block_refs(op):
            if sub in first_node:
                lhead = f"cluster_{self.cluster_name(sub)}"
                g.edge(oid, first_node[sub], label=attr, lhead=lhead, **style.SUB_BLOCK_EDGE)

    def emit_role_legend(self, g: dot.Digraph) -> None:
        """A key to the op colours, drawn only when the Program has backward or optimizer ops."""
        roles = []
        for b in self.blocks:
            for op in self.program.blocks[b].ops:
                if op.role not in roles:
                    roles.append(op.role)
        if roles == [] or roles == ["forward"]:
            return
        cells = "".join(
            f'<TD BGCOLOR="{style.ROLE.get(r, style.OP)["fillcolor"]}">{dot.escape(r)}</TD>'
            for r in ("forward", "backward", "optimize") if r in roles
        )  # fmt: skip
        legend = dot.html(f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="2" CELLPADDING="4"><TR>{cells}</TR></TABLE>')
        g.node(f"{self.prefix}roles", legend, shape="plaintext", style="solid")

    # ---- labels ----

    def _op_label(self, b: int, i: int, op) -> dot.Html:
        small = labels.attr_lines(op.attrs, skip=[k for k, _ in sub_block_refs(op)]) if self.show_attrs else []
        return labels.node_label(op.type, [], small + list(self.notes.get((b, i), [])))

    def _var_label(self, key: tuple, v) -> dot.Html:
        kinds = [k for k, flag in (("parameter", v.is_parameter), ("data", v.is_data),
                                   ("persistable", v.persistable and not v.is_parameter)) if flag]  # fmt: skip
        return labels.node_label(v.name, [labels.tensor_text(v.shape, v.dtype)], kinds + self.notes.get(key, []))

    def _var_style(self, key: tuple, v) -> dict:
        if v.is_parameter:
            kind = style.PARAMETER_VAR
        elif v.is_data:
            kind = style.DATA_VAR
        elif v.persistable:
            kind = style.PERSISTABLE_VAR
        elif key in self.producers and all(role == "backward" for _, role in self.producers[key]):
            kind = style.GRAD_VAR
        else:
            kind = style.VAR
        return {**kind, **style.DIFF.get(self.var_marks.get(key), {})}

    def _block_title(self, b: int) -> str:
        """'block 1: cond true_block', named after the first op that runs it."""
        for parent in self.blocks:
            for op in self.program.blocks[parent].ops:
                for attr, sub in sub_block_refs(op):
                    if sub == b:
                        return f"block {b}: {op.type} {attr}"
        return f"block {b}"
