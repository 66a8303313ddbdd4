"""fc fusion: `matmul(x, w) -> add(b) [-> relu | sigmoid | tanh]` becomes one `fc` op (ops/fused.py).

    before: t0 = matmul(x, w); t1 = add(t0, b); y = relu(t1)
    after:  y = fc(x, w, b, activation='relu')

The pattern matches only when each intermediate (t0, t1) is read by the next op of the chain alone, is not
fetched (`keep`), and the bias does not change the result's shape; the fused op writes the chain's last name,
so the ops after it read the same variable as before.
"""

from __future__ import annotations

from minipaddle.ops.fused import FC, FC_ACTIVATIONS
from minipaddle.ops.kinds import broadcast_shapes
from minipaddle.static.builder import flat_inputs
from minipaddle.static.passes.rewrite import new_op, protected_names, usage
from minipaddle.static.program import Program


def fuse_fc(program: Program, keep=()) -> Program:
    """A copy of `program` with each matmul + add (+ activation) chain replaced by one `fc` op."""
    new = program.clone()
    block = new.global_block()
    protected = protected_names(new, keep)
    readers, writers = usage(new, block)

    def next_op(name: str, after: int):
        """The index of the one op that reads `name`, if it is a private intermediate of a chain."""
        r = readers.get(name, [])
        if name in protected or len(r) != 1 or len(writers.get(name, [])) != 1 or r[0] <= after:
            return None
        return r[0]

    replace: dict[int, object] = {}  # op index -> its replacement, or None to drop it
    gone = []  # the chains' intermediate variables
    for i, op in enumerate(block.ops):
        if op.type != "matmul" or i in replace or op.attrs.get("transpose_x") or op.attrs.get("transpose_y"):
            continue
        x, w = flat_inputs(op)
        mm_out = op.output_names()[0]
        j = next_op(mm_out, i)
        if len(block.var(w).shape) != 2 or j is None or block.ops[j].type != "add" or j in replace:
            continue
        a, b = flat_inputs(block.ops[j])
        bias = b if a == mm_out else a
        add_out = block.ops[j].output_names()[0]
        out_shape = tuple(block.var(mm_out).shape)
        if bias == mm_out or _broadcast(out_shape, tuple(block.var(bias).shape)) != out_shape:
            continue
        chain = [i, j]
        k = next_op(add_out, j)
        activation = None
        if k is not None and block.ops[k].type in FC_ACTIVATIONS and k not in replace:
            activation = block.ops[k].type
            chain.append(k)
        end = chain[-1]
        # x, w and the bias must still hold the same values where the fused op will run (the chain's end); the
        # bias may be made between the matmul and the add (a constant built there)
        if any(writers_between(writers, n, i, end) for n in (x, w)) or writers_between(writers, bias, j, end):
            continue
        out = block.ops[end].output_names()[0]
        gone += [block.ops[c].output_names()[0] for c in chain[:-1]]
        for c in chain:
            replace[c] = None
        replace[end] = new_op(FC, [x, w, bias], [out], {"activation": activation}, block.ops[end])
    block.ops = [replace.get(i, op) for i, op in enumerate(block.ops) if replace.get(i, op) is not None]
    for name in gone:
        del block.vars[name]
    return new


def writers_between(writers: dict, name: str, start: int, end: int) -> bool:
    return any(start < w <= end for w in writers.get(name, []))


def _broadcast(a: tuple, b: tuple):
    try:
        return broadcast_shapes(a, b, "fc")
    except ValueError:
        return None
