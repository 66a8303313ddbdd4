"""Buffer reuse: give a new result the name (the buffer) of a temporary that is dead by then.

The Executor keeps each name's latest array until the run ends, so a run holds one array per distinct name.
Liveness analysis finds, for each temporary, the last op that reads it; after that op its buffer is free, and a
later result of the same shape and dtype can take its name instead of a new one. The op that reads a buffer for
the last time may write its own result into it: that is an in-place op.

    before: t0 = matmul(x, w); t1 = add(t0, b); t2 = relu(t1); y = scale(t2)      4 temporaries
    after:  t0 = matmul(x, w); t0 = add(t0, b); t0 = relu(t0); y = scale(t0)      2 (y is kept: it is fetched)

Names in `keep` (what you will fetch), data and persistable variables, and names used by control flow keep
their own buffers.
"""

from __future__ import annotations

from minipaddle.static.passes.rewrite import protected_names, usage
from minipaddle.static.program import Program
from minipaddle.static.prune import op_reads


def reuse_buffers(program: Program, keep=()) -> Program:
    """A copy of `program` whose temporaries share buffers wherever their lifetimes do not overlap."""
    new = program.clone()
    block = new.global_block()
    readers, writers = usage(new, block)
    protected = protected_names(new, keep)
    movable = {n for n, w in writers.items() if len(w) == 1 and n not in protected and block.has_var(n)}
    last_read = {n: r[-1] for n, r in readers.items()}

    def key(name: str) -> tuple:
        v = block.var(name)
        return tuple(v.shape), v.dtype.name

    free: dict[tuple, list] = {}  # (shape, dtype) -> names of free buffers
    buffer: dict[str, str] = {}  # temporary -> the buffer (name) it lives in
    for i, op in enumerate(block.ops):
        dying = [n for n in op_reads(new, op) if n in movable and last_read[n] == i]
        op.inputs = {slot: [buffer.get(n, n) for n in names] for slot, names in op.inputs.items()}
        for n in dying:  # freed before the outputs are placed, so an output may reuse an input's buffer
            free.setdefault(key(n), []).append(buffer.get(n, n))
        outs = op.output_names()
        for n in outs:
            if n in movable and free.get(key(n)):
                buffer[n] = free[key(n)].pop()
        op.outputs = {slot: [buffer.get(n, n) for n in names] for slot, names in op.outputs.items()}
        for n in outs:
            if n in movable and n not in last_read:  # never read: its buffer is free at once
                free.setdefault(key(n), []).append(buffer.get(n, n))
    for n in buffer:
        del block.vars[n]
    return new


def buffer_count(program: Program) -> int:
    """How many temporary arrays a run of `program` holds at its end (and peak): one per distinct name the
    global block's ops write, except persistable variables, which live in the Scope anyway."""
    block = program.global_block()
    written = {n for op in block.ops for n in op.output_names()}
    return sum(1 for n in written if not (block.has_var(n) and block.var(n).persistable))
