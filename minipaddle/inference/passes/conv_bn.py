"""conv_bn_fuse_pass and conv_eltwiseadd_bn_fuse_pass: fold an inference batch norm into the conv before it.

In inference a batch norm is a fixed per-channel map y = z * a + c (a = gamma / sqrt(var + eps),
c = beta - mean * a), so conv then batch norm is one conv with each output channel's kernel scaled by a, plus a
bias (static/passes/fold_conv_bn.py does the arithmetic):

    conv_bn_fuse_pass:            z = conv2d(x, w); y = <batch norm>(z)             ->  y = conv2d(x, w*a) + c
    conv_eltwiseadd_bn_fuse_pass: z = conv2d(x, w); z1 = add(z, b); y = <bn>(z1)    ->  y = conv2d(x, w*a) + (b*a + c)

The folded weights are new persistable variables in the predictor's scope; the saved ones are left as they are.
"""

from __future__ import annotations

from minipaddle.static.passes.fold_conv_bn import fold_conv_bn
from minipaddle.static.passes.rewrite import usage
from minipaddle.static.program import Program


def _convs(program: Program, with_bias: bool) -> set:
    """The outputs of the convs whose one reader is (with_bias) or is not (not with_bias) an add."""
    block = program.global_block()
    readers, _ = usage(program, block)
    out = set()
    for op in block.ops:
        if op.type not in ("conv2d", "conv3d"):
            continue
        r = readers.get(op.output_names()[0], [])
        if len(r) == 1 and (block.ops[r[0]].type == "add") == with_bias:
            out.add(op.output_names()[0])
    return out


def _fold(program: Program, ctx, with_bias: bool) -> Program:
    before = _count(program)
    new = fold_conv_bn(program, scope=ctx.scope, keep=ctx.keep, convs=_convs(program, with_bias))
    folded = sum(a != b for a, b in zip(_weights(program), _weights(new)))
    ctx.note(f"{folded} batch norms folded into convs ({before - _count(new)} ops fewer)")
    return new


def _weights(program: Program) -> list:
    return [op.input_names()[1] for op in program.global_block().ops if op.type in ("conv2d", "conv3d")]


def _count(program: Program) -> int:
    return len(program.global_block().ops)


def conv_bn_fuse_pass(program: Program, ctx) -> Program:
    """A copy of `program` with each bias-free conv + batch norm folded into one conv + bias add."""
    return _fold(program, ctx, with_bias=False)


def conv_eltwiseadd_bn_fuse_pass(program: Program, ctx) -> Program:
    """A copy of `program` with each conv + bias add + batch norm folded into one conv + bias add."""
    return _fold(program, ctx, with_bias=True)
