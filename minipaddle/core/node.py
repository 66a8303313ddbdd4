"""GradNode: the record an op leaves behind when a gradient may be needed.

Each node remembers which op ran, with which attributes, on which input Tensors (its edges back in the graph),
under which Layer scope, and, when its grad rule needs them, the values of its outputs. Backward
(core/autograd.py) walks these nodes; viz draws them through the public introspection methods at the bottom.

Outputs are saved as bare arrays, not as Tensors: a Tensor points at its node, so a node holding its own outputs
would make a reference cycle. `node.output(i)` rebuilds the output Tensor on demand, attached to this node, so
grad rules that use it (tanh: 1 - y*y) can themselves be differentiated.
"""

from __future__ import annotations

from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor


class GradNode:
    __slots__ = (
        "op",
        "attrs",
        "inputs",
        "edges",
        "input_versions",
        "out_shapes",
        "out_dtypes",
        "out_data",
        "out_versions",
        "scope",
        "out_hooks",
        "released",
        "input_meta",
        "packed",
        "__weakref__",
    )

    def __init__(self, op, inputs: tuple, attrs: dict, outputs: tuple, scope: str) -> None:
        self.op = op
        self.attrs = attrs
        self.inputs = inputs
        # Where each input's gradient goes, fixed now: (the GradNode that made it, which output), (the leaf, 0), or
        # None when no gradient flows. Fixed at creation because an in-place op later re-attaches a tensor to a new
        # node, and this op used the value from before: its gradient belongs to the old history.
        # The version of each input when it was used, for the ops whose grad rule reads them (checked first).
        # (One plain loop for both, not two comprehensions: this runs for every recorded op.)
        edges, versions = [], [] if op.saves_inputs else None
        for t in inputs:
            edges.append(None if t is None or t.stop_gradient else (t._node or t, t._out_index))
            if versions is not None:
                versions.append(0 if t is None else t._version[0])
        self.edges = tuple(edges)
        self.input_versions = None if versions is None else tuple(versions)
        if len(outputs) == 1:  # the common case, without building lists
            self.out_shapes = (outputs[0]._data.shape,)
            self.out_dtypes = (outputs[0]._data.dtype,)
        else:
            self.out_shapes = tuple([o._data.shape for o in outputs])
            self.out_dtypes = tuple([o._data.dtype for o in outputs])
        if op.saves_outputs:
            self.out_data = tuple([o._data for o in outputs])
            self.out_versions = tuple([(o._version, o._version[0]) for o in outputs])
        else:
            self.out_data = None
            self.out_versions = None
        self.scope = scope
        self.out_hooks = None  # {output index: [hook, ...]} from Tensor.register_hook on a non-leaf
        self.released = False  # True once backward has run without retain_graph
        self.input_meta = None  # after release: {i: (shape, dtype)} of the inputs without an edge
        self.packed = None  # what saved_tensors_hooks packed (set by the door when hooks are on: core/saved_hooks)

    # ---- what grad rules read ----

    def input(self, i: int) -> Tensor:
        """The i-th input Tensor, as it was when the op ran (backward checks it was not changed since)."""
        return self.inputs[i]

    def input_shape(self, i: int) -> tuple:
        """The shape input i had when the op ran (reshape_ and friends may reshape a tensor in place later)."""
        edge = self.edges[i]
        if edge is not None and type(edge[0]) is GradNode:
            return edge[0].out_shapes[edge[1]]
        return tuple(self.inputs[i].shape)

    def needs_grad(self, i: int) -> bool:
        """Whether input i wants a gradient; grad rules may return None for inputs that do not."""
        t = self.inputs[i]
        return t is not None and not t.stop_gradient

    def output(self, i: int = 0) -> Tensor:
        """The i-th output, attached to this node (so a grad rule using it can be differentiated again)."""
        if self.out_data is None:
            raise RuntimeError(f"op {self.op.name!r} did not save its outputs; set saves_outputs = True on its OpDef")
        return Tensor(self.out_data[i], stop_gradient=False, node=self, out_index=i, version=self.out_versions[i][0])

    def release(self) -> None:
        """Drop what the node holds after backward, so memory is freed and a second backward fails clearly.

        Only the graph's shape stays (what viz draws after backward). The input Tensors go: keeping them would keep
        each step's batch and activations alive for as long as anyone holds the loss (`losses.append(loss)`).
        Their shapes and dtypes stay known: an input made by another node is described by that node's
        `out_shapes`/`out_dtypes`, a leaf wanting a gradient is still reached through `edges`, and only the inputs
        without an edge (constants, the batch) have their shape and dtype noted here. This runs for every node of
        every backward and numpy's `.shape` is not free, so nothing else is copied."""
        self.released = True
        self.out_data = None
        edges = self.edges
        if None in edges:  # (a scan in C: most nodes have an edge for every input, and need no notes)
            noted = {}
            for i, t in enumerate(self.inputs):
                if t is not None and edges[i] is None:
                    noted[i] = (t._data.shape, t._data.dtype)
            self.input_meta = noted
        self.inputs = None
        self.packed = None

    def _input_meta(self, i: int):
        """(shape, numpy dtype) of input i as it was when the op ran, or None for an absent input."""
        if self.inputs is not None:
            t = self.inputs[i]
            return None if t is None else (t._data.shape, t._data.dtype)
        edge = self.edges[i]
        if edge is None:  # no edge: noted by release(), unless the input was absent
            return self.input_meta.get(i)
        producer, k = edge
        if type(producer) is GradNode:
            return producer.out_shapes[k], producer.out_dtypes[k]
        return producer._data.shape, producer._data.dtype  # a leaf

    # ---- public introspection (documented in docs/autograd_graph.md; viz reads only these) ----

    @property
    def type(self) -> str:
        """The op's name, e.g. 'matmul'."""
        return self.op.name

    @property
    def next_nodes(self) -> list:
        """One entry per input: the GradNode that made it, the leaf Tensor itself, or None (no gradient flows)."""
        return [None if e is None else e[0] for e in self.edges]

    @property
    def input_shapes(self) -> list:
        metas = [self._input_meta(i) for i in range(len(self.edges))]
        return [None if m is None else list(m[0]) for m in metas]

    @property
    def input_dtypes(self) -> list:
        metas = [self._input_meta(i) for i in range(len(self.edges))]
        return [None if m is None else dtypes.from_numpy(m[1]) for m in metas]

    @property
    def output_shapes(self) -> list:
        return [list(s) for s in self.out_shapes]

    @property
    def output_dtypes(self) -> list:
        return [dtypes.from_numpy(d) for d in self.out_dtypes]

    def saved_tensors(self) -> dict:
        """The values the grad rule will read: {'x0': input 0, ..., 'out0': output 0, ...}."""
        saved = {}
        if self.op.saves_inputs and not self.released:
            saved.update({f"x{i}": t for i, t in enumerate(self.inputs) if t is not None})
        if self.out_data is not None:
            saved.update({f"out{i}": self.output(i) for i in range(len(self.out_data))})
        return saved

    def __repr__(self) -> str:
        where = f" in {self.scope}" if self.scope else ""
        return f"<GradNode {self.op.name}{where} -> {self.output_shapes}>"
