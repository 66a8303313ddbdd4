"""simplify_with_basic_ops_pass: remove what does nothing at inference.

Paddle's pass removes `dropout` in inference: with `upscale_in_train` it is the identity, with
`downgrade_in_infer` it becomes `scale` by 1 - p. In a minipaddle inference Program a dropout has already
become that identity (an `assign` left by is_test_pass) or that `scale`, so this pass removes identities:
`assign`, and `scale` by 1 with bias 0. The readers of the removed op's result read its input instead.

    before: h = relu(x); d = assign(h); y = matmul(d, w)
    after:  h = relu(x); y = matmul(h, w)
"""

from __future__ import annotations

from minipaddle.static.passes.rewrite import protected_names
from minipaddle.static.program import Program
from minipaddle.static.prune import pinned_names


def _is_identity(op) -> bool:
    if op.type == "assign":
        return True
    if op.type == "scale":
        a = op.attrs
        return a.get("scale", 1.0) == 1.0 and a.get("bias", 0.0) == 0.0
    return False


def simplify_with_basic_ops_pass(program: Program, ctx) -> Program:
    """A copy of `program` without identity ops (the inference form of dropout)."""
    new = program.clone()
    block = new.global_block()
    keep = protected_names(new, ctx.keep) - {n for n, v in block.vars.items() if v.is_data}
    pinned = pinned_names(new)
    writes = {}
    for op in block.ops:
        for n in op.output_names():
            writes[n] = writes.get(n, 0) + 1
    alias: dict[str, str] = {}
    ops = []
    for op in block.ops:
        op.inputs = {s: [alias.get(n, n) for n in names] for s, names in op.inputs.items()}
        out = op.output_names()
        if _is_identity(op) and len(out) == 1 and out[0] not in keep and out[0] not in pinned and writes[out[0]] == 1:
            (src,) = [n for n in op.input_names() if n is not None]
            if writes.get(src, 0) <= 1:  # src keeps its value: its readers may read it directly
                alias[out[0]] = src
                block.vars.pop(out[0], None)
                continue
        ops.append(op)
    block.ops = ops
    ctx.note(f"{len(alias)} identity ops removed")
    return new
