"""inference_op_replace_pass: ops that keep something for their gradient replaced by their inference forms.

Paddle's analysis pass of this name swaps ops for the forms that keep no training state (its
`conditional_block` becomes `conditional_block_infer`). In minipaddle the op that pays for its gradient at
inference is max_pool: its second output, the mask of where each maximum was, is what max_pool_grad reads, and
computing it costs as much as the maxima. Where nothing reads the mask, the pass puts in `max_pool_infer`
(ops/fused.py), the maxima alone:

    before: y, mask = max_pool(x, 2, 2)     (mask read by no one)
    after:  y = max_pool_infer(x, 2, 2)

It changes no value. It runs after the IR passes, with switch_ir_optim off too, as paddle's analysis passes do.
"""

from __future__ import annotations

from minipaddle.ops.fused import MaxPoolInfer
from minipaddle.static.builder import flat_inputs
from minipaddle.static.passes.rewrite import new_op, protected_names, usage
from minipaddle.static.program import Program


def inference_op_replace_pass(program: Program, ctx) -> Program:
    """A copy of `program` in which each max_pool whose mask nobody reads is a max_pool_infer."""
    new = program.clone()
    block = new.global_block()
    protected = protected_names(new, ctx.keep)
    readers, _ = usage(new, block)
    replaced = 0
    for i, op in enumerate(block.ops):
        if op.type != "max_pool":
            continue
        out, mask = op.output_names()
        if mask in protected or readers.get(mask):
            continue
        block.ops[i] = new_op(MaxPoolInfer, flat_inputs(op), [out], dict(op.attrs), op)
        block.vars.pop(mask, None)
        replaced += 1
    ctx.note(f"{replaced} max_pool -> max_pool_infer (no mask)")
    return new
