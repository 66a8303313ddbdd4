"""Pack and unpack hooks on the values a GradNode saves for backward (`paddle.autograd.saved_tensors_hooks`).

While a pair of hooks is active in this thread, every op that records a GradNode hands each tensor its grad rule
will read (its inputs when the op's `saves_inputs`, its outputs when `saves_outputs`: the same tensors paddle 2.6
packs) to `pack_hook`, and keeps what that returns. When backward reaches the node, `unpack_hook` turns each back
into a Tensor, and the grad rule runs on those. So a student can see exactly which values backward needs, or move
them out of the way (to disk, to a compressed form) and back.

The node still holds its input Tensors for the graph's edges and the in-place version check, so the hooks change
what the grad rule computes with, not what stays alive. An unpacked value is a constant to the graph: a second-order
gradient (create_graph=True) does not flow back through it.
"""

from __future__ import annotations

from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor


class SavedTensorsHooks:
    """One active pair: `pack(tensor) -> anything`, `unpack(anything) -> Tensor`."""

    __slots__ = ("pack", "unpack")

    def __init__(self, pack, unpack) -> None:
        self.pack = pack
        self.unpack = unpack


def active_hooks() -> SavedTensorsHooks | None:
    return STATE.saved_tensors_hooks


def set_hooks(hooks: SavedTensorsHooks | None) -> SavedTensorsHooks | None:
    """Make `hooks` this thread's active pair; returns the previous one (blocks nest)."""
    prev = STATE.saved_tensors_hooks
    STATE.saved_tensors_hooks = hooks
    return prev


def pack_saved(hooks: SavedTensorsHooks, op, inputs: tuple, outputs: tuple):
    """The packed values of a new node (the door calls this only while hooks are active), or None when the op
    saves nothing."""
    if not (op.saves_inputs or op.saves_outputs):
        return None
    return Packed(hooks, inputs if op.saves_inputs else None, outputs if op.saves_outputs else None)


class Packed:
    """What one node saved, packed; unpacked when backward reaches the node, once per value."""

    __slots__ = ("unpack", "inputs", "outputs", "unpacked")

    def __init__(self, hooks: SavedTensorsHooks, inputs, outputs) -> None:
        self.unpack = hooks.unpack
        self.inputs = None if inputs is None else tuple([None if t is None else hooks.pack(t) for t in inputs])
        self.outputs = None if outputs is None else tuple([hooks.pack(t) for t in outputs])
        self.unpacked = None  # (inputs, out_data) once unpacked (a retained graph's second backward reuses them)

    def run_grad(self, node, out_grads: list):
        """Run node's grad rule with the unpacked values in place of the saved ones (node.inputs, node.out_data)."""
        if self.unpacked is None:
            self.unpacked = self._unpack_all(node)
        kept = node.inputs, node.out_data
        node.inputs, node.out_data = self.unpacked
        try:
            return node.op.grad(node, *out_grads)
        finally:
            node.inputs, node.out_data = kept

    def _unpack_all(self, node) -> tuple:
        inputs, out_data = node.inputs, node.out_data
        if self.inputs is not None:
            inputs = tuple([t if t is None else Tensor(self._unpack(p, t, node, f"input {i}")._data, t.stop_gradient)
                            for i, (p, t) in enumerate(zip(self.inputs, node.inputs))])  # fmt: skip
        if self.outputs is not None:
            out_data = tuple([self._unpack(p, node.output(i), node, f"output {i}")._data
                              for i, p in enumerate(self.outputs)])  # fmt: skip
        return inputs, out_data

    def _unpack(self, packed, saved: Tensor, node, what: str) -> Tensor:
        t = self.unpack(packed)
        where = f"saved_tensors_hooks: unpack_hook for {what} of op '{node.op.name}'"
        if not isinstance(t, Tensor):
            raise TypeError(f"{where} must return a Tensor, got {type(t).__name__}")
        if tuple(t.shape) != tuple(saved.shape) or t.dtype != saved.dtype:
            raise ValueError(f"{where} must return the saved tensor's shape and dtype ({saved.shape}, "
                             f"{saved.dtype.name}), got {t.shape}, {t.dtype.name}")  # fmt: skip
        return t
