"""IrGraph: the graph the static quantization passes rewrite, over a minipaddle Program.

Paddle's passes work on `IrGraph(core.Graph(program.desc), for_test)`, a C++ graph of op and variable nodes,
and `graph.to_program()` turns it back into a Program. minipaddle's Program is already plain data with ops in
run order, so its IrGraph is a thin view over a copy of the Program's global block: the nodes wrap its OpDescs
and Variables, and the few rewriting methods the passes need (create a variable, insert an op before or after
another, point an op at a different input, remove ops) edit that copy in place, keeping the ops in an order the
Executor can run. `to_program()` gives a copy of the result.

    graph = IrGraph(main_program, for_test=False)
    QuantizationTransformPass(scope, place).apply(graph)
    quant_program = graph.to_program()
"""

from __future__ import annotations

import os
import subprocess

import numpy as np

from minipaddle.static.program import OpDesc, Program, Variable


class IrNode:
    """A node of an IrGraph: an op (`op()` gives its OpDesc) or a variable (`var()` gives its Variable)."""

    def __init__(self, graph: IrGraph, item) -> None:
        self.graph, self.item = graph, item

    def name(self) -> str:
        return self.item.type if isinstance(self.item, OpDesc) else self.item.name

    def is_op(self) -> bool:
        return isinstance(self.item, OpDesc)

    def is_var(self) -> bool:
        return isinstance(self.item, Variable)

    def op(self) -> OpDesc:
        return self.item

    def var(self) -> Variable:
        return self.item

    def persistable(self) -> bool:
        return self.is_var() and self.item.persistable

    def __repr__(self) -> str:
        return f"IrNode({'op' if self.is_op() else 'var'} {self.name()})"


class IrGraph:
    """The rewritable graph of a Program's global block (a copy: the Program given is not changed).

    Args:
        program (Program): the Program to rewrite (Paddle passes `core.Graph(program.desc)`; minipaddle takes the
            Program itself).
        for_test (bool): whether the graph is for inference; passes built with is_test=None take it from here.
    """

    def __init__(self, program, for_test: bool = False) -> None:
        if not isinstance(program, Program):
            raise TypeError(f"IrGraph: expected a minipaddle Program, got {type(program).__name__}")
        self._program = program.clone()
        self._for_test = bool(for_test)
        self._block_idx = 0
        # a user function's output -> the variable it read (Paddle's table: the freeze pass finds weights by it)
        self.out_node_mapping_table: dict = {}
        self.user_parameters: list = []  # (optimizer, parameter names) of user functions (user_functions.py)
        self._placed: dict = {}  # persistable name -> the block whose graph made it (they all live in block 0)

    # ---- sub-graphs: one per block (control flow) ----

    def all_sub_graphs(self, for_test: bool = False) -> list:
        """One graph per block of the Program, block 0 first, each rewriting its own block of the same Program
        (Paddle's all_sub_graphs, for_test False by default as Paddle's). A sub-graph sees its block's variables
        and those its ops read from enclosing blocks, as Paddle's sub-graph nodes; the persistables a pass makes
        in it (scales, zero points, statistics) are put in block 0, where the Executor keeps them between runs."""
        return [self.get_sub_graph(i, for_test) for i in range(self._program.num_blocks)]

    def get_sub_graph(self, i: int, for_test: bool = False) -> IrGraph:
        if not 0 <= i < self._program.num_blocks:
            raise IndexError(f"IrGraph.get_sub_graph: the Program has {self._program.num_blocks} block(s), got {i}")
        sub = object.__new__(IrGraph)
        sub.__dict__.update(self.__dict__)  # (the same Program and tables; its own block)
        sub._for_test, sub._block_idx = bool(for_test), i
        return sub

    def sub_graph_size(self) -> int:
        return self._program.num_blocks

    # ---- what Paddle's IrGraph answers ----

    @property
    def block(self):
        return self._program.block(self._block_idx)

    def is_test(self) -> bool:
        return self._for_test

    def all_op_nodes(self) -> list:
        return [IrNode(self, op) for op in self.block.ops]

    def all_var_nodes(self) -> list:
        return [IrNode(self, self.var(n)) for n in sorted(self._names())]

    def all_persistable_nodes(self) -> list:
        return [node for node in self.all_var_nodes() if node.var().persistable]

    def _names(self) -> set:
        """The variables of this graph: its block's own and those its ops use (Paddle's sub-graph var nodes);
        block 0 also has every variable declared there but those other blocks' graphs put there."""
        used = {n for op in self.block.ops for n in op.input_names() + op.output_names() if n is not None}
        own = {n for n in self.block.vars if self._placed.get(n, self._block_idx) == self._block_idx}
        return own | {n for n in used if self.block.has_var(n)}

    def to_program(self) -> Program:
        return self._program.clone()

    def draw(self, save_path: str, name: str, marked_nodes=None, remove_ctr_var: bool = True) -> None:
        """Write the graph as Graphviz DOT text to `save_path/name.dot` (ops as boxes, variables as ellipses,
        `marked_nodes` filled red), then, as Paddle, run `dot -Tpdf` on it if the command is installed.

        Args: save_path (str), name (str) as Paddle's (quant_aware(draw_graph=True) writes ./graph.pdf.dot and
        ./graph.pdf.pdf); marked_nodes (IrNode or iterable of them); remove_ctr_var: accepted (minipaddle's
        graph has no control-dependency variables). Where Paddle's subprocess call raises without `dot`,
        minipaddle prints Paddle's message and keeps the .dot file (viz.draw_program draws it in a notebook).
        """
        print(f"Total ops num = {len(self.block.ops)}.")
        if marked_nodes is None:
            marked_nodes = ()
        elif isinstance(marked_nodes, IrNode):
            marked_nodes = (marked_nodes,)
        marked = {id(n.item) for n in marked_nodes}
        os.makedirs(save_path, exist_ok=True)
        dot_path = os.path.join(save_path, name) + ".dot"
        with open(dot_path, "w") as fh:
            fh.write(self._dot(marked))
        pdf_path = os.path.splitext(dot_path)[0] + ".pdf"
        try:
            exit_code = subprocess.call(["dot", "-Tpdf", dot_path, "-o", pdf_path])
        except FileNotFoundError:
            exit_code = 1
        if exit_code != 0:
            print("The dot command is needed for creating pdf files.")
            print(f"The {dot_path} is saved as the dot filetype.")

    def _dot(self, marked: set) -> str:
        """DOT text: one node per op and per variable an op reads or writes, edges in the data's direction."""
        lines, ids = ["digraph G {"], {}

        def node(item, label: str, shape: str) -> str:
            if id(item) not in ids:
                ids[id(item)] = f"node_{len(ids)}"
                fill = ' style=filled fillcolor="#ff8888"' if id(item) in marked else ""
                lines.append(f'  {ids[id(item)]} [label="{label}" shape={shape}{fill}];')
            return ids[id(item)]

        for op in self.block.ops:
            o = node(op, op.type, "box")
            for n in op.input_names():
                if n is not None and self.block.has_var(n):
                    lines.append(f"  {node(self.var(n), n, 'ellipse')} -> {o};")
            for n in op.output_names():
                if self.block.has_var(n):
                    lines.append(f"  {o} -> {node(self.var(n), n, 'ellipse')};")
        return "\n".join(lines + ["}"]) + "\n"

    def __repr__(self) -> str:
        return (f"<IrGraph block {self._block_idx} for_test={self._for_test}: {len(self.block.ops)} op(s), "
                f"{len(self._names())} var(s)>")  # fmt: skip

    # ---- the edits the passes make ----

    def has_var(self, name: str) -> bool:
        """Whether the graph has `name`: in its block or an enclosing one, but not a persistable another block's
        graph made in block 0 that this block's ops do not use (Paddle's sub-graphs do not see those)."""
        if not self.block.has_var(name):
            return False
        placer = self._placed.get(name, self._block_idx)
        return placer == self._block_idx or any(name in op.input_names() + op.output_names() for op in self.block.ops)

    def var(self, name: str) -> Variable:
        return self.block.var(name)

    def create_var(self, name: str, like: Variable, shape=None, dtype=None, persistable=False) -> Variable:
        """A variable shaped like `like` (or `shape`), or the one already named so (persistables in block 0)."""
        block = self._program.global_block() if persistable else self.block
        found = block.vars.get(name) if persistable else (self.var(name) if self.block.has_var(name) else None)
        if found is not None:
            return found
        if persistable and self._block_idx:
            self._placed[name] = self._block_idx
        return block.create_var(name, tuple(like.shape if shape is None else shape),
                                like.dtype if dtype is None else dtype, persistable=persistable)  # fmt: skip

    def create_persistable(self, name: str, value: np.ndarray, scope, like: Variable | None = None) -> Variable:
        """A persistable variable holding `value` in `scope` (Paddle's create_persistable_node + _init_var_node)."""
        v = self.create_var(name, like, shape=value.shape, dtype=value.dtype, persistable=True)
        v.persistable = True
        scope.vars[name] = np.array(value)
        return v

    def set_dtype(self, name: str, dtype: np.dtype) -> None:
        """Record that variable `name` now holds `dtype` (a weight frozen to int8 keeps its name, as in Paddle).
        A Variable's dtype is that of its stand-in array (static/program.py), so the stand-in is replaced."""
        v = self.var(name)
        v._data = np.broadcast_to(np.zeros((), dtype), v._data.shape)

    def insert_before(self, anchor: OpDesc, op: OpDesc) -> OpDesc:
        self.block.ops.insert(self._index(anchor), op)
        return op

    def insert_after(self, anchor: OpDesc, op: OpDesc) -> OpDesc:
        self.block.ops.insert(self._index(anchor) + 1, op)
        return op

    def update_input_link(self, old: str, new: str, op: OpDesc) -> None:
        """`op` reads `new` where it read `old`."""
        for slot, names in op.inputs.items():
            op.inputs[slot] = [new if n == old else n for n in names]

    def remove_op(self, op: OpDesc) -> None:
        self.block.ops.remove(op)

    def readers(self, name: str) -> list:
        return [op for op in self.block.ops if name in op.input_names()]

    def writer(self, name: str):
        for op in self.block.ops:
            if name in op.output_names():
                return op
        return None

    def remove_unused_vars(self) -> None:
        """Drop this block's variables no op of any block reads or writes any more (data variables stay)."""
        used = {n for b in self._program.blocks for op in b.ops for n in op.input_names() + op.output_names()}
        for name in [n for n, v in self.block.vars.items() if n not in used and not v.is_data]:
            del self.block.vars[name]

    def _index(self, op: OpDesc) -> int:
        for i, o in enumerate(self.block.ops):
            if o is op:
                return i
        raise ValueError(f"IrGraph: op {op.type} is not in this graph")

    def constant_names(self) -> set:
        """Persistable variables and what ops compute from them alone (a reshaped bias): not activations."""
        const = {node.name() for node in self.all_persistable_nodes()}
        for op in self.block.ops:
            ins = [n for n in op.input_names() if n is not None]
            if all(n in const for n in ins):
                const.update(op.output_names())
        return const

    def weight_names(self) -> set:
        """Persistable variables and their reshapes and casts (minipaddle's conv2d reshapes its bias; Paddle's
        weights are the persistables and their casts). Unlike constant_names, what other ops compute from
        weights is an activation here, as in Paddle (PACT's clipping of a weight feeds an add of two of them)."""
        weights = {node.name() for node in self.all_persistable_nodes()}
        for op in self.block.ops:
            ins = [n for n in op.input_names() if n is not None]
            if op.type in ("reshape", "cast") and ins and all(n in weights for n in ins):
                weights.update(op.output_names())
        return weights
