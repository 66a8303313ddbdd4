"""Program passes: each a function Program -> new Program (the input is never changed), drawable before and after
with `diff(before, after)`.

    dead_code_elimination(program, keep)     drop ops that neither `keep` (fetched names) nor any state needs
    constant_folding(program)                compute constant-only ops now; replace them with assign_value
    fuse_fc(program, keep=())                matmul + add (+ relu/sigmoid/tanh) -> one fc op
    fold_conv_bn(program, scope=None, keep=())  conv + inference batch_norm -> conv with folded weights and bias
    reuse_buffers(program, keep=())          temporaries with disjoint lifetimes share one name (buffer)
    amp_cast(program, amp_lists=None, dtype='float16', level='O1')   AMP: cast ops around white and black ops
    convert_to_int8(program, scope=None, keep=())  quantized conv2d / matmul -> int8 weights, exact int32 products
    int8_as_paddle_ops(program, scope=None)  that int8 Program in Paddle's CPU ops, to save it as a .pdmodel

    infer = paddle.static.passes.apply_passes(program, ["constant_folding", "fuse_fc", "dead_code_elimination"],
                                              keep=[y])
"""

from __future__ import annotations

import inspect

from minipaddle.static.passes.amp_cast import amp_cast
from minipaddle.static.passes.constant_folding import constant_folding
from minipaddle.static.passes.dead_code import dead_code_elimination
from minipaddle.static.passes.diff import ProgramDiff, diff
from minipaddle.static.passes.fold_conv_bn import fold_conv_bn
from minipaddle.static.passes.fuse_fc import fuse_fc
from minipaddle.static.passes.int8 import convert_to_int8
from minipaddle.static.passes.int8_paddle_form import int8_as_paddle_ops
from minipaddle.static.passes.reuse_buffers import buffer_count, reuse_buffers
from minipaddle.static.program import Program

__all__ = [
    "PASSES", "ProgramDiff", "amp_cast", "apply_passes", "buffer_count", "constant_folding", "dead_code_elimination",
    "diff", "fold_conv_bn", "fuse_fc", "reuse_buffers", "convert_to_int8",
    "int8_as_paddle_ops",
]  # fmt: skip

PASSES = {
    "dead_code_elimination": dead_code_elimination,
    "constant_folding": constant_folding,
    "fuse_fc": fuse_fc,
    "fold_conv_bn": fold_conv_bn,
    "reuse_buffers": reuse_buffers,
    "amp_cast": amp_cast,
    "convert_to_int8": convert_to_int8,
}


def apply_passes(program: Program, names, keep=(), scope=None) -> Program:
    """Run the named passes in order; each gets the options it takes (`keep`: the names you will fetch;
    `scope`: where fold_conv_bn writes folded weights). Returns the final Program.

    Give `keep` whenever dead_code_elimination is among them: it keeps only what `keep` and the state need."""
    if not isinstance(program, Program):
        raise TypeError(f"apply_passes: program must be a Program, got {type(program).__name__}")
    names = [names] if isinstance(names, str) else list(names)
    unknown = [n for n in names if n not in PASSES]
    if unknown:
        raise ValueError(f"apply_passes: unknown pass(es) {unknown}; known: {sorted(PASSES)}")
    options = {"keep": keep, "scope": scope}
    for name in names:
        fn = PASSES[name]
        params = inspect.signature(fn).parameters
        program = fn(program, **{k: v for k, v in options.items() if k in params})
    return program
