"""Constant folding: compute at build time what depends only on constants.

An op whose inputs are all constants (outputs of `assign_value` ops, or of ops folded before it) is run once,
now, with its own kernel, and replaced by an `assign_value` op holding the result:

    before: c1 = assign_value([2.0]); c2 = assign_value([3.0]); k = multiply(c1, c2); y = add(x, k)
    after:  c1 = assign_value([2.0]); c2 = assign_value([3.0]); k = assign_value([6.0]); y = add(x, k)

The constants it no longer needs (c1, c2) are left for dead_code_elimination. Random ops, control flow, and ops
writing persistable variables are never folded.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.op import OPS
from minipaddle.ops.constant import AssignValue, assign_value_attrs
from minipaddle.static.builder import flat_inputs
from minipaddle.static.passes.rewrite import new_op
from minipaddle.static.program import Program
from minipaddle.static.prune import pinned_names, sub_blocks

_KERNEL_ERRORS = (ValueError, TypeError, IndexError, ArithmeticError)


def constant_folding(program: Program) -> Program:
    """A copy of `program` in which every op computable from constants alone is replaced by its result."""
    new = program.clone()
    block = new.global_block()
    pinned = pinned_names(new)
    known: dict = {}  # name -> value, for names that hold a constant at this point of the block
    ops = []
    for op in block.ops:
        outs = op.output_names()
        movable = all(n not in pinned and not block.var(n).persistable for n in outs)
        values = _evaluate(op, known) if movable else None
        if values is not None and op.type != AssignValue.name:
            ops.extend(new_op(AssignValue, [], [n], assign_value_attrs(v), op) for n, v in zip(outs, values))
        else:
            ops.append(op)
        for n, v in zip(outs, values or [None] * len(outs)):
            if v is None:
                known.pop(n, None)  # a name written again by a non-constant op is no longer a constant
            else:
                known[n] = v
    block.ops = ops
    return new


def _evaluate(op, known: dict):
    """The op's output values if it can be computed from the known constants now, else None."""
    if op.type not in OPS or sub_blocks(op):  # control flow is never folded
        return None
    op_def, names = OPS[op.type], flat_inputs(op)
    foldable = op.type == AssignValue.name or (
        any(n is not None for n in names) and not op_def.random and all(n is None or n in known for n in names)
    )
    if not foldable:
        return None
    try:
        with np.errstate(all="ignore"):  # the same values as at run time, warnings there
            out = op_def.kernel(*[None if n is None else known[n] for n in names], **op.attrs)
    except _KERNEL_ERRORS:
        return None  # leave it to fail at run time, with the Executor's error message
    return [np.array(v) for v in (out if isinstance(out, tuple) else (out,))]
