"""act_pool_swap_pass (minipaddle's own): an activation before a max pool moved after it, into the pool.

    before: y = conv2d_fusion(x, w, b, activation='relu'); p = max_pool_infer(y, 2, 2)
    after:  y = conv2d_fusion(x, w, b);                    p = max_pool_infer(y, 2, 2, activation='relu')

relu, sigmoid and tanh never decrease, so the largest of a window's activations is the activation of its
largest value: max and the activation commute, and after a 2x2 pool the activation touches a quarter of the
numbers. relu after the pool costs nothing at all: the pool's last pass already takes the maximum with a floor
(the dtype's lowest value), which becomes 0. On LeNet's predictor at batch 64 the two relus were 0.9M of 18.3M
instructions a step (callgrind). The activation may be a conv2d_fusion's (or an fc's) or an op of its own.

The pool must not read its mask (the argmax positions move where the activation makes ties) and every window
must hold a number of x (no ceil_mode, each padding smaller than the kernel): a window of padding alone would be
the lowest value before and the activation of it after. One more difference, of NaN alone: a window whose
numbers are all NaN gives the lowest value before (the pool skips NaN) and relu's 0 after.
Paddle has no such pass (oneDNN fuses the activation into its conv instead); it runs last in minipaddle's list.
"""

from __future__ import annotations

from minipaddle.ops.fused import FC_ACTIVATIONS, MaxPoolInfer
from minipaddle.static.builder import flat_inputs
from minipaddle.static.passes.rewrite import new_op, protected_names, usage
from minipaddle.static.program import Program

_CARRIERS = ("conv2d_fusion", "fc")  # fused ops with an `activation` attribute the pool can take over


def act_pool_swap_pass(program: Program, ctx) -> Program:
    """A copy of `program` in which each relu/sigmoid/tanh read only by a max pool runs inside the pool instead."""
    new = program.clone()
    block = new.global_block()
    protected = protected_names(new, ctx.keep)
    readers, writers = usage(new, block)
    drop, moved = set(), 0
    for k, pool in enumerate(block.ops):
        if pool.type not in ("max_pool", "max_pool_infer") or pool.attrs.get("activation") is not None:
            continue
        outs = pool.output_names()
        if len(outs) > 1 and (outs[1] in protected or readers.get(outs[1])):
            continue  # the mask is read: the argmax positions must stay those of the activations
        if not _every_window_in_x(pool.attrs):
            continue
        (y,) = flat_inputs(pool)
        if y in protected or readers.get(y) != [k] or len(writers.get(y, [])) != 1:
            continue
        j = writers[y][0]
        src = block.ops[j]
        if src.type in _CARRIERS and src.attrs.get("activation") in FC_ACTIVATIONS:
            act, pool_input = src.attrs["activation"], y
            src.attrs = {**src.attrs, "activation": None}
        elif src.type in FC_ACTIVATIONS:
            (pool_input,) = flat_inputs(src)
            if any(j < wr <= k for wr in writers.get(pool_input, [])):
                continue  # the activation's input changes before the pool: the pool would read another value
            act = src.type
            drop.add(j)
            block.vars.pop(y, None)
        else:
            continue
        attrs = {**pool.attrs, "activation": act}
        block.ops[k] = new_op(MaxPoolInfer, [pool_input], outs[:1], attrs, pool)
        for mask in outs[1:]:
            block.vars.pop(mask, None)
        moved += 1
    block.ops = [op for i, op in enumerate(block.ops) if i not in drop]
    ctx.note(f"{moved} activation(s) moved after their max pool")
    return new


def _every_window_in_x(attrs: dict) -> bool:
    """Whether each window of the pool holds at least one number of x (not padding alone)."""
    if attrs.get("ceil_mode"):
        return False
    return all(before < k and after < k for (before, after), k in zip(attrs["paddings"], attrs["kernel_size"]))
