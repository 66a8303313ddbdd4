"""Folding batch_norm into the convolution before it, for inference.

In inference, batch_norm uses its running statistics, so it is a fixed per-channel affine map:
y = (z - mean) / sqrt(var + eps) * gamma + beta = z * a + c. A convolution followed by a per-channel affine map
is a convolution with each output channel's kernel scaled by a, plus a bias c' = conv_bias * a + c:

    before: z = conv2d(x, w); z1 = add(z, reshape(bias)); n = subtract(z1, reshape(mean));
            n1 = multiply(n, rsqrt(scale(reshape(var)))); n2 = multiply(n1, reshape(gamma)); y = add(n2, ...)
    after:  z = conv2d(x, w_folded); y = add(z, c_folded)

The pass looks for the chain as it is built (F.batch_norm in eval mode is made of ops): starting at a conv2d /
conv3d whose weight is a persistable variable, it follows add / subtract / multiply / divide ops whose other
operand is per-channel and computable from persistable values and constants alone (evaluated now, from the
scope). The folded weight and bias are new persistable variables written into the scope; the original
Program and its variables are untouched.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.op import OPS
from minipaddle.core.state import unique_name
from minipaddle.static.builder import flat_inputs
from minipaddle.static.executor import global_scope
from minipaddle.static.passes.rewrite import names_of, new_op, protected_names, usage
from minipaddle.static.program import Program
from minipaddle.static.prune import sub_blocks

_CONVS = ("conv2d", "conv3d")
_AFFINE = ("add", "subtract", "multiply", "divide")


def fold_conv_bn(program: Program, scope=None, keep=(), convs=None) -> Program:
    """A copy of `program` with each conv followed by an inference batch_norm (or any per-channel affine chain)
    folded into the conv's weight and one bias add. New weights go into `scope` (default: the global scope).
    `convs`: fold only the convs writing these names (default: all)."""
    scope = global_scope() if scope is None else scope
    new = program.clone()
    block = new.global_block()
    protected = protected_names(new, keep)
    readers, writers = usage(new, block)
    const = _constant_values(new, scope, writers)

    def next_op(name: str):
        r = readers.get(name, [])
        ok = name not in protected and len(r) == 1 and len(writers.get(name, [])) == 1
        return r[0] if ok else None

    drop, add_at, touched = set(), {}, set()
    for conv in block.ops:
        if conv.type not in _CONVS or (convs is not None and conv.output_names()[0] not in convs):
            continue
        x, w = flat_inputs(conv)
        if w not in const or not block.var(w).persistable:
            continue
        weight = const[w]
        nd, channels = weight.ndim, weight.shape[0]
        per_channel = (1, channels) + (1,) * (nd - 2)
        a, c = np.ones(channels), np.zeros(channels)
        chain, cur = [], conv.output_names()[0]
        while (j := next_op(cur)) is not None and block.ops[j].type in _AFFINE:
            step = _affine_step(block.ops[j], cur, const, per_channel)
            if step is None:
                break
            a, c = step(a, c)
            chain.append(j)
            cur = block.ops[j].output_names()[0]
        if len(chain) < 2:  # a lone bias add is already as small as the folded form
            continue
        w_name, b_name = unique_name(f"{w}_folded"), unique_name(f"{w}_folded_bias")
        block.create_parameter(w_name, weight.shape, block.var(w).dtype, trainable=False)
        block.create_parameter(b_name, per_channel, block.var(w).dtype, trainable=False)
        scope.vars[w_name] = (weight * a.reshape((-1,) + (1,) * (nd - 1))).astype(weight.dtype)
        scope.vars[b_name] = c.reshape(per_channel).astype(weight.dtype)
        conv.inputs = {slot: [w_name if n == w else n for n in names] for slot, names in conv.inputs.items()}
        last = block.ops[chain[-1]]
        add_at[chain[-1]] = new_op(OPS["add"], [conv.output_names()[0], b_name], [cur], {}, last)
        drop.update(chain)
        touched.update(n for j in chain for n in block.ops[j].input_names() + block.ops[j].output_names())
        touched.add(w)
    if not add_at:
        return new
    block.ops = [add_at.get(i, op) for i, op in enumerate(block.ops) if i in add_at or i not in drop]
    _drop_dead_constants(new, const, touched, names_of(keep))
    return new


def _affine_step(op, cur: str, const: dict, per_channel: tuple):
    """(a, c) -> the map after `op`, when op is `cur (+-*/) k` with k per-channel and constant; else None."""
    x, y = flat_inputs(op)
    other = y if x == cur else x
    if other == cur or other not in const:
        return None
    k = const[other]
    try:
        if k.ndim > len(per_channel) or np.broadcast_shapes(k.shape, per_channel) != per_channel:
            return None
    except ValueError:
        return None
    k = np.broadcast_to(k, per_channel).reshape(-1).astype(np.float64)
    if op.type == "add":
        return lambda a, c: (a, c + k)
    if op.type == "multiply":
        return lambda a, c: (a * k, c * k)
    if op.type == "subtract":
        return (lambda a, c: (a, c - k)) if x == cur else (lambda a, c: (-a, k - c))
    return (lambda a, c: (a / k, c / k)) if x == cur else None  # k / z is not affine in z


def _constant_values(program: Program, scope, writers: dict) -> dict:
    """name -> value for what is known before the block runs: persistable variables no op of the block writes
    (from the scope), and the results of ops that read only such values (constants, reshaped statistics)."""
    block = program.global_block()
    known = {n: np.asarray(scope.vars[n]) for n, v in block.vars.items()
             if v.persistable and n in scope.vars and n not in writers}  # fmt: skip
    for op in block.ops:
        if op.type not in OPS or sub_blocks(op):  # control flow is never a constant
            continue
        op_def, names = OPS[op.type], flat_inputs(op)
        if op_def.random or not all(n is None or n in known for n in names):
            continue
        if any(block.var(n).persistable for n in op.output_names()):
            continue
        try:
            with np.errstate(all="ignore"):
                out = op_def.kernel(*[None if n is None else known[n] for n in names], **op.attrs)
        except (ValueError, TypeError, IndexError, ArithmeticError):
            continue
        known.update(zip(op.output_names(), (np.asarray(o) for o in (out if isinstance(out, tuple) else (out,)))))
    return known


def _drop_dead_constants(program: Program, const: dict, touched: set, keep: set) -> None:
    """Remove the ops that only computed constants for the folded chains (reshaped statistics), then the
    variables the folding left unused (the old weights and statistics; data variables and `keep` stay)."""
    block = program.global_block()
    while True:
        readers, _ = usage(program, block)
        dead = {i for i, op in enumerate(block.ops)
                if any(n in touched for n in op.output_names())
                and all(n in const and n not in readers and n not in keep for n in op.output_names())}  # fmt: skip
        if not dead:
            break
        touched.update(n for i in dead for n in block.ops[i].input_names() + block.ops[i].output_names())
        block.ops = [op for i, op in enumerate(block.ops) if i not in dead]
    used = {n for op in block.ops for n in op.input_names() + op.output_names()}
    for name in touched - used - keep:
        if name in block.vars and not block.vars[name].is_data:
            del block.vars[name]
