"""constant_folding_pass: compute at load time what depends on the weights alone.

An op whose inputs are all persistable (weights read from the model file, no op writes them) or constants is
run once, now, with its own kernel; its result becomes a persistable variable in the predictor's scope and the
op leaves the Program. In a minipaddle Program the conv bias reshape is such an op:

    before: b4 = reshape(conv.b, [1, -1, 1, 1]); y = add(conv2d(x, w), b4)     (reshape runs every time)
    after:  y = add(conv2d(x, w), b4)                                          (b4 is a weight now)

Random ops, control flow, and ops that write persistable variables are never folded.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.op import OPS
from minipaddle.static.builder import flat_inputs
from minipaddle.static.passes.rewrite import names_of, usage
from minipaddle.static.program import Program
from minipaddle.static.prune import drop_unused_vars, pinned_names, sub_blocks

_KERNEL_ERRORS = (ValueError, TypeError, IndexError, ArithmeticError)


def constant_folding_pass(program: Program, ctx) -> Program:
    """A copy of `program` in which every op computable from weights and constants alone is replaced by its
    result, a new persistable variable whose value goes into `ctx.scope`."""
    new = program.clone()
    block = new.global_block()
    _, writers = usage(new, block)
    keep, pinned = names_of(ctx.keep), pinned_names(new)
    known = {n: np.asarray(ctx.scope.vars[n]) for n, v in block.vars.items()
             if v.persistable and n in ctx.scope.vars and n not in writers}  # fmt: skip
    ops, folded = [], 0
    for op in block.ops:
        outs = op.output_names()
        values = None
        if not any(n in keep or n in pinned or block.var(n).persistable or len(writers[n]) > 1 for n in outs):
            values = _evaluate(op, known)
        if values is None:
            ops.append(op)
            continue
        for name, value in zip(outs, values):
            known[name] = value
            v = block.var(name)
            v.persistable, v.stop_gradient = True, True
            ctx.scope.vars[name] = value
        folded += 1
    block.ops = ops
    stays = keep | {n for n, v in block.vars.items() if v.is_data}
    drop_unused_vars(block, stays)
    ctx.note(f"{folded} ops folded into constants")
    return new


def _evaluate(op, known: dict):
    if op.type not in OPS or sub_blocks(op):
        return None
    op_def, names = OPS[op.type], flat_inputs(op)
    if op_def.random or not all(n is None or n in known for n in names):
        return None
    if op.type != "assign_value" and not any(n is not None for n in names):
        return None  # an op of no inputs that is not a constant (a random or shape-taking op): leave it
    try:
        with np.errstate(all="ignore"):
            out = op_def.kernel(*[None if n is None else known[n] for n in names], **op.attrs)
    except _KERNEL_ERRORS:
        return None
    return [np.array(v) for v in (out if isinstance(out, tuple) else (out,))]
