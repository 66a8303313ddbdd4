"""What the passes share: which names a pass must leave alone, who reads and writes what, and making new ops."""

from __future__ import annotations

from minipaddle.static.builder import slot_inputs
from minipaddle.static.program import Block, OpDesc, Program, Variable
from minipaddle.static.prune import op_reads, pinned_names


def names_of(keep) -> set:
    """Variables or names (or one of them) as a set of names."""
    if keep is None:
        return set()
    if isinstance(keep, (str, Variable)):
        keep = [keep]
    out = set()
    for k in keep:
        if not isinstance(k, (str, Variable)):
            raise TypeError(f"keep: expected Variables or names, got {type(k).__name__}")
        out.add(k if isinstance(k, str) else k.name)
    return out


def protected_names(program: Program, keep) -> set:
    """Names a pass must neither remove nor rename: what the caller will fetch (`keep`), data and persistable
    variables (fed, or state that outlives a run), and everything control flow touches."""
    block = program.global_block()
    fixed = {n for n, v in block.vars.items() if v.is_data or v.persistable}
    return names_of(keep) | fixed | pinned_names(program)


def usage(program: Program, block: Block) -> tuple:
    """({name: indices of the ops reading it}, {name: indices of the ops writing it}) for one block."""
    readers: dict[str, list] = {}
    writers: dict[str, list] = {}
    for i, op in enumerate(block.ops):
        for n in op_reads(program, op):
            readers.setdefault(n, []).append(i)
        for n in op.output_names():
            writers.setdefault(n, []).append(i)
    return readers, writers


def new_op(op_def, inputs: list, outputs: list, attrs: dict, like: OpDesc) -> OpDesc:
    """An OpDesc for `op_def` reading `inputs` (names, positional) and writing `outputs`, with the role and Layer
    scope of the op it replaces (`like`), so drawings still group it under the right Layer."""
    return OpDesc(op_def.name, slot_inputs(op_def, inputs), {"Out": list(outputs)}, attrs, like.role, like.scope)
