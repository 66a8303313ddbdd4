"""conv_elementwise_add_act_fuse_pass: conv2d, its bias add and its activation as one `conv2d_fusion` op.

    before: z = conv2d(x, w); z1 = add(z, b); y = relu(z1)        (three ops, three arrays)
    after:  y = conv2d_fusion(x, w, b, activation='relu')        (one op; bias and relu applied in place)

The bias must be a weight with one value per output channel (after constant_folding_pass a conv bias is one),
and the intermediates must be read by the next op of the chain alone. Paddle runs this pass on GPU (its fused
op is cuDNN's); minipaddle's fused kernel (ops/fused.py) runs on the CPU.
"""

from __future__ import annotations

from minipaddle.ops.fused import FC_ACTIVATIONS, Conv2DFusion
from minipaddle.static.builder import flat_inputs
from minipaddle.static.passes.rewrite import new_op, protected_names, usage
from minipaddle.static.program import Program


def conv_elementwise_add_act_fuse_pass(program: Program, ctx) -> Program:
    """A copy of `program` with each conv2d + per-channel bias add + relu/sigmoid/tanh as one conv2d_fusion."""
    new = program.clone()
    block = new.global_block()
    protected = protected_names(new, ctx.keep)
    readers, writers = usage(new, block)

    def only_reader(name: str):
        r = readers.get(name, [])
        ok = name not in protected and len(r) == 1 and len(writers.get(name, [])) == 1
        return r[0] if ok else None

    replace, fused = {}, 0
    for i, conv in enumerate(block.ops):
        if conv.type != "conv2d":
            continue
        x, w = flat_inputs(conv)
        out = conv.output_names()[0]
        j = only_reader(out)
        if j is None or block.ops[j].type != "add":
            continue
        a, b = flat_inputs(block.ops[j])
        bias = b if a == out else a
        if not _per_channel_weight(block, bias, block.var(w).shape[0]) or writers.get(bias):
            continue
        add_out = block.ops[j].output_names()[0]
        k = only_reader(add_out)
        if k is None or block.ops[k].type not in FC_ACTIVATIONS or flat_inputs(block.ops[k]) != [add_out]:
            continue
        act = block.ops[k]
        if any(i < wr <= k for n in (x, w) for wr in writers.get(n, [])):
            continue  # an input changes between the conv and the activation: the fused op would read another value
        attrs = {**conv.attrs, "activation": act.type}
        replace[i], replace[j] = None, None
        replace[k] = new_op(Conv2DFusion, [x, w, bias], act.output_names(), attrs, conv)
        block.vars.pop(out, None)
        block.vars.pop(add_out, None)
        fused += 1
    block.ops = [replace.get(i, op) for i, op in enumerate(block.ops) if replace.get(i, op) is not None]
    ctx.note(f"{fused} conv2d + add + activation fused into conv2d_fusion")
    return new


def _per_channel_weight(block, name: str, channels: int) -> bool:
    if not block.has_var(name) or not block.var(name).persistable:
        return False
    shape = tuple(block.var(name).shape)
    return shape in ((1, channels, 1, 1), (channels, 1, 1))
