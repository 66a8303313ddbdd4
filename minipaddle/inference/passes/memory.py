"""memory_optimize_pass: temporaries whose lifetimes do not overlap share one buffer (a name).

The predictor keeps every intermediate array of a run until the next run (as paddle's scope does), so the
number of distinct names is the memory a run holds. Liveness analysis (static/passes/reuse_buffers.py) lets a
later result of the same shape and dtype take the name of a temporary nobody reads any more. It changes no
value; it runs after the IR passes, when `Config.enable_memory_optim()` is on. The predictor then also has the
fused ops write into arrays it reuses run after run (inference/buffers.py), which is where most memory goes.
"""

from __future__ import annotations

from minipaddle.static.passes.reuse_buffers import buffer_count, reuse_buffers
from minipaddle.static.program import Program


def memory_optimize_pass(program: Program, ctx) -> Program:
    """A copy of `program` whose temporaries share buffers where their lifetimes allow."""
    before = buffer_count(program)
    new = reuse_buffers(program, keep=ctx.keep)
    ctx.note(f"{before} temporary buffers -> {buffer_count(new)}")
    return new
