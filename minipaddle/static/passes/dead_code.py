"""Dead-code elimination: drop the ops whose results nobody needs.

An op is needed when it computes a name in `keep` (what you will fetch), writes a persistable variable (a
parameter update, a running statistic), or computes an input of a needed op. Everything else is dead:

    before: x -> matmul -> add -> relu -> mean      keep=[relu out]
                      \\-> exp (unused)
    after:  x -> matmul -> add -> relu
"""

from __future__ import annotations

from minipaddle.static.passes.rewrite import names_of
from minipaddle.static.program import Program
from minipaddle.static.prune import drop_unused_vars, needed_ops


def dead_code_elimination(program: Program, keep) -> Program:
    """A copy of `program` without the ops that neither `keep` (names or Variables) nor any state needs.

    Variables no remaining op uses are dropped too (data variables, persistables and `keep` stay).
    """
    keep = names_of(keep)
    new = program.clone()
    block = new.global_block()
    needed = needed_ops(new, keep, keep_state_writes=True)
    block.ops = [op for op, alive in zip(block.ops, needed) if alive]
    stays = keep | {n for n, v in block.vars.items() if v.is_data or v.persistable}
    drop_unused_vars(block, stays)
    return new
