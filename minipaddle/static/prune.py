"""Which ops a result needs: the liveness walk behind `save_inference_model` and dead-code elimination.

Walking a block's ops from last to first with the set of names still needed ("live"): an op is needed when it
writes a live name (or state, when asked), and then its inputs become live. Names in `stop_at` (the feeds) come
from outside, so what computes them is not needed.

An op with sub-blocks (`cond`, `while`) also reads what its sub-blocks read from outside, and may name variables
in its attributes (`true_outs`, `state`): those all count as reads, and passes never rename them.
"""

from __future__ import annotations

from minipaddle.static.control_flow import external_reads
from minipaddle.static.program import Block, OpDesc, Program


def sub_blocks(op: OpDesc) -> list:
    """The indices of the blocks an op runs (its `*_block` attributes)."""
    return [v for k, v in op.attrs.items() if k.endswith("_block")]


def _attr_names(value) -> list:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in _attr_names(v)]
    return []


def op_reads(program: Program, op: OpDesc) -> set:
    """Every name `op` may read when it runs: its inputs, and for control flow also what its sub-blocks read from
    outside and the variable names in its attributes."""
    names = {n for n in op.input_names() if n is not None}
    for idx in sub_blocks(op):
        names.update(external_reads(program, idx))
        names.update(n for v in op.attrs.values() for n in _attr_names(v))
    return names


def pinned_names(program: Program) -> set:
    """Names that passes must not rename or remove: everything control flow touches (inside sub-blocks, and the
    names a control-flow op reads, writes or mentions)."""
    pinned = set()
    for block in program.blocks:
        for op in block.ops:
            if block.idx > 0 or sub_blocks(op):
                pinned |= op_reads(program, op) | {n for n in op.output_names() if n is not None}
    return pinned


def read_counts(program: Program, block: Block) -> dict:
    """How many ops of `block` read each name."""
    counts: dict[str, int] = {}
    for op in block.ops:
        for n in op_reads(program, op):
            counts[n] = counts.get(n, 0) + 1
    return counts


def needed_ops(program: Program, targets, stop_at=(), keep_state_writes: bool = False) -> list:
    """For each op of the global block, whether `targets` need it (see the module docstring).

    Args:
        targets: the names whose values are wanted after the block runs.
        stop_at: names given from outside (feeds): their producers are not needed for them.
        keep_state_writes: also keep every op that writes a persistable variable (an optimizer step, a running
            statistic), and ops with no outputs (they exist for their effects).
    """
    block = program.global_block()
    stop = set(stop_at)
    live = set(targets) - stop
    needed = [False] * len(block.ops)
    for i in range(len(block.ops) - 1, -1, -1):
        op = block.ops[i]
        outs = [n for n in op.output_names() if n is not None]
        writes_state = any(block.has_var(n) and block.var(n).persistable for n in outs)
        if any(n in live for n in outs) or (keep_state_writes and (writes_state or not outs)):
            needed[i] = True
            live = (live - set(outs)) | (op_reads(program, op) - stop)
    return needed


def drop_unused_vars(block: Block, keep) -> list:
    """Remove the variables of `block` that no op reads or writes, except those in `keep`; return their names."""
    program = block.program
    used = {n for op in block.ops for n in op_reads(program, op) | set(op.output_names())}
    for b in program.blocks[1:]:  # sub-blocks see their parents' variables
        used |= {n for op in b.ops for n in op.input_names() + op.output_names()}
    dropped = [name for name in block.vars if name not in used and name not in keep]
    for name in dropped:
        del block.vars[name]
    return dropped


def prune(program: Program, feed_names, fetch_names) -> Program:
    """An inference copy of `program` with only what computes `fetch_names` from `feed_names` and persistables.

    The copy is `clone(for_test=True)` (no backward or optimizer ops, ops in inference mode), cut down to the ops
    the fetches need; variables nothing uses are dropped, parameters included, so the copy names exactly the
    parameters an inference model must carry. A fetch that needs a data variable missing from the feeds is
    a ValueError naming it.
    """
    feed_names, fetch_names = list(feed_names), list(fetch_names)
    new = program.clone(for_test=True)
    block = new.global_block()
    for name in feed_names + fetch_names:
        if not block.has_var(name):
            raise ValueError(f"prune: the program has no variable {name!r} to feed or fetch")
    needed = needed_ops(new, fetch_names, stop_at=feed_names)
    block.ops = [op for op, keep in zip(block.ops, needed) if keep]
    available = set(feed_names) | {n for n, v in block.vars.items() if v.persistable}
    for op in block.ops:
        missing = sorted(n for n in op_reads(new, op) if n not in available and block.has_var(n))
        if missing:
            raise ValueError(
                f"prune: fetching {fetch_names} needs {missing} (read by op '{op.type}'), which is neither fed nor "
                f"computed from the feeds {feed_names}; add it to the feeds"
            )
        available.update(op.output_names())
    unknown = [n for n in fetch_names if n not in available]
    if unknown:
        raise ValueError(f"prune: no op computes {unknown} and they are not fed")
    drop_unused_vars(block, keep=set(feed_names) | set(fetch_names))
    return new
