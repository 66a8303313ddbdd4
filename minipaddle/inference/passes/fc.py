"""fc_fuse_pass and repeated_fc_relu_fuse_pass: the matmul + bias (+ activation) chains as fused ops.

    fc_fuse_pass:               t = matmul(x, w); u = add(t, b); y = relu(u)   ->  y = fc(x, w, b, 'relu')
    repeated_fc_relu_fuse_pass: h = fc(x, w0, b0, 'relu'); y = fc(h, w1, b1, 'relu')
                                    ->  y = fusion_repeated_fc_relu(x, w0, b0, w1, b1)

Paddle's fc_fuse_pass first maps matmul_v2 to mul (gpu_cpu_map_matmul_v2_to_mul_pass); minipaddle has one
matmul op, so the fuse reads it directly (static/passes/fuse_fc.py does the matching).
"""

from __future__ import annotations

from minipaddle.ops.fused import RepeatedFCRelu
from minipaddle.static.builder import flat_inputs
from minipaddle.static.passes.fuse_fc import fuse_fc
from minipaddle.static.passes.rewrite import new_op, protected_names, usage
from minipaddle.static.program import Program


def fc_fuse_pass(program: Program, ctx) -> Program:
    """A copy of `program` with each matmul + add (+ relu/sigmoid/tanh) replaced by one `fc` op."""
    before = sum(op.type == "matmul" for op in program.global_block().ops)
    new = fuse_fc(program, keep=ctx.keep)
    ctx.note(f"{before - sum(op.type == 'matmul' for op in new.global_block().ops)} matmuls fused into fc")
    return new


def repeated_fc_relu_fuse_pass(program: Program, ctx) -> Program:
    """A copy of `program` with each run of two or more fc+relu ops, each reading the previous one's result
    alone, replaced by one `fusion_repeated_fc_relu` op."""
    new = program.clone()
    block = new.global_block()
    protected = protected_names(new, ctx.keep)
    readers, writers = usage(new, block)

    def relu_fc(i: int) -> bool:
        op = block.ops[i]
        return op.type == "fc" and op.attrs.get("activation") == "relu" and flat_inputs(op)[2] is not None

    def follower(i: int):
        out = block.ops[i].output_names()[0]
        r = readers.get(out, [])
        if out in protected or len(r) != 1 or len(writers.get(out, [])) != 1 or not relu_fc(r[0]):
            return None
        return r[0] if flat_inputs(block.ops[r[0]])[0] == out else None

    replace, used, runs = {}, set(), 0
    for i in range(len(block.ops)):
        if i in used or not relu_fc(i):
            continue
        chain = [i]
        while (j := follower(chain[-1])) is not None:
            chain.append(j)
        if len(chain) < 2:
            continue
        names = [flat_inputs(block.ops[chain[0]])[0]]
        for c in chain:
            names += flat_inputs(block.ops[c])[1:]
        last = block.ops[chain[-1]]
        for c in chain[:-1]:
            replace[c] = None
            block.vars.pop(block.ops[c].output_names()[0], None)
        replace[chain[-1]] = new_op(RepeatedFCRelu, names, last.output_names(), {}, last)
        used.update(chain)
        runs += 1
    block.ops = [replace.get(i, op) for i, op in enumerate(block.ops) if replace.get(i, op) is not None]
    ctx.note(f"{runs} runs of fc+relu fused")
    return new
