"""Control flow in a Program: `cond`, `while_loop`, `case`, `switch_case`, built as sub-blocks.

`cond(pred, true_fn, false_fn)` builds each branch into its own sub-block and appends one `cond` op that names
both blocks; the Executor runs one of them. `while_loop(cond, body, loop_vars)` builds the condition and the
body into sub-blocks and appends one `while` op; the Executor runs the body until the condition is false,
keeping each iteration's values when a gradient will be needed.

Backward goes through both: the gradient of a `cond` is another `cond` whose branches are the backward of
each branch; the gradient of a `while` runs the body's backward block once per recorded iteration, last first.

In dynamic mode the same functions simply run Python control flow on the values (as Paddle does).
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.state import STATE, unique_name
from minipaddle.core.tensor import Tensor
from minipaddle.static.backward import backward_ops
from minipaddle.static.block_ops import register_block_op
from minipaddle.static.executor import run_plan
from minipaddle.static.program import Variable, default_main_program
from minipaddle.tensor.array import TensorArray

# ---- helpers --------------------------------------------------------------------------------------------------


def _flatten(structure) -> list:
    if isinstance(structure, (list, tuple)):
        return [x for item in structure for x in _flatten(item)]
    if isinstance(structure, dict):
        return [x for key in sorted(structure) for x in _flatten(structure[key])]
    return [structure]


def _pack(structure, flat: list):
    """Rebuild `structure`'s nesting with the values of `flat`, in order."""
    it = iter(flat)

    def build(s):
        if isinstance(s, (list, tuple)):
            return type(s)(build(x) for x in s)
        if isinstance(s, dict):
            return {k: build(s[k]) for k in sorted(s)}
        return next(it)

    return build(structure)


def _as_var(x, fn: str) -> Variable:
    """A branch result as a Variable of the current block (numbers and Tensors become constants)."""
    if isinstance(x, Variable):
        return x
    if isinstance(x, Tensor):
        return ops.assign(x)  # the builder turns the Tensor's values into an assign_value op
    if isinstance(x, (bool, int, float, np.number)):
        return ops.assign(Tensor(np.asarray(x, dtype=np.float32 if isinstance(x, float) else np.int64)))
    raise TypeError(f"{fn}: a branch must return Variables, Tensors or numbers, got {type(x).__name__}")


def external_reads(program, block_idx: int) -> list:
    """Names read by the ops of a block (and its sub-blocks) that are defined outside it, in first-read order."""
    inner = set()
    for idx in _block_and_descendants(program, block_idx):
        inner.update(program.blocks[idx].vars)
    reads = []
    for idx in _block_and_descendants(program, block_idx):
        for desc in program.blocks[idx].ops:
            names = desc.input_names() + [n for k, v in desc.attrs.items() if k.endswith("_outs") for n in v]
            for n in names:
                if n is not None and n not in inner and n not in reads:
                    reads.append(n)
    return reads


def _block_and_descendants(program, block_idx: int) -> list:
    """The block and every block nested in it, through the `*_block` attributes of its ops."""
    out, todo = [], [block_idx]
    while todo:
        idx = todo.pop()
        out.append(idx)
        for desc in program.blocks[idx].ops:
            todo.extend(v for k, v in desc.attrs.items() if k.endswith("_block") and v not in out)
    return out


def _merged_shape(a: tuple, b: tuple) -> tuple:
    if len(a) != len(b):
        return a
    return tuple(x if x == y else -1 for x, y in zip(a, b))


# ---- cond ------------------------------------------------------------------------------------------------------


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """Run `true_fn()` if `pred` is true, else `false_fn()`; both must return the same structure.

    Args:
        pred: a one-element bool Tensor/Variable.
        true_fn, false_fn: functions of no arguments (None: the branch returns nothing).

    Example:
        >>> out = paddle.static.nn.cond(x < y, lambda: x + y, lambda: x - y)
    """
    if not STATE.static_mode:  # dynamic mode: plain Python control flow
        take = bool(pred)
        fn = true_fn if take else false_fn
        return None if fn is None else fn()
    if not isinstance(pred, Variable):
        raise TypeError(f"cond: pred must be a bool Variable, got {type(pred).__name__}")
    if pred.dtype.name != "bool":
        raise TypeError(f"cond: pred must be a bool Variable, got dtype {pred.dtype.name}")
    for label, fn in (("true_fn", true_fn), ("false_fn", false_fn)):
        if fn is not None and not callable(fn):
            raise TypeError(f"cond: {label} must be callable, got {type(fn).__name__}")

    program = default_main_program()
    parent = program.current_block()
    results = []
    for fn in (true_fn, false_fn):
        with program.sub_block() as block:
            out = fn() if fn is not None else None
        results.append((block, out, _flatten(out) if out is not None else []))
    arrays = _branch_arrays(program, results)
    results = [(b, out, [_as_var(x.var if isinstance(x, TensorArray) else x, "cond") for x in flat])
               for b, out, flat in results]  # fmt: skip
    (tb, t_out, t_flat), (fb, f_out, f_flat) = results
    if t_out is None or f_out is None:
        if not (t_out is None and f_out is None):
            raise ValueError("cond: one branch returns values and the other returns None; both must match")
        outs = []
    else:
        if len(t_flat) != len(f_flat):
            raise ValueError(
                f"cond: true_fn returns {len(t_flat)} values but false_fn returns {len(f_flat)}; "
                "both branches must return the same structure"
            )
        for i, (a, b) in enumerate(zip(t_flat, f_flat)):
            if a.dtype != b.dtype:
                raise TypeError(f"cond: output {i} is {a.dtype.name} in true_fn but {b.dtype.name} in false_fn")
        base = unique_name("cond")
        outs = [
            parent.create_var(
                f"{base}.tmp_{i}",
                _merged_shape(tuple(a.shape), tuple(b.shape)),
                a.dtype,
                stop_gradient=a.stop_gradient and b.stop_gradient,
            )  # fmt: skip
            for i, (a, b) in enumerate(zip(t_flat, f_flat))
        ]
    reads = [n for n in external_reads(program, tb.idx) + external_reads(program, fb.idx) if n != pred.name]
    parent.append_op(
        "cond",
        {"pred": [pred.name], "inputs": list(dict.fromkeys(reads))},
        {"Out": [o.name for o in outs]},
        {
            "true_block": tb.idx,
            "false_block": fb.idx,
            "true_outs": [v.name for v in t_flat],
            "false_outs": [v.name for v in f_flat],
        },  # fmt: skip
        scope=STATE.scope,
    )
    outs = [TensorArray(o.dtype, o) if i in arrays else o for i, o in enumerate(outs)]
    return _pack(t_out, outs) if outs else None


def _branch_arrays(program, results) -> set:
    """The positions where the branches of a cond return tensor arrays (travelling as their values, so the
    result is a tensor array again). An empty array (no element written yet) becomes, in its own branch, an empty
    array of the elements the other branch's array holds."""
    (_, _, t_flat), (_, _, f_flat) = results
    arrays = set()
    for i, (a, b) in enumerate(zip(t_flat, f_flat)):
        if not (isinstance(a, TensorArray) or isinstance(b, TensorArray)):
            continue
        if not (isinstance(a, TensorArray) and isinstance(b, TensorArray)):
            kinds = [type(v).__name__ for v in (a, b)]
            raise TypeError(f"cond: output {i} is a {kinds[0]} in true_fn but a {kinds[1]} in false_fn; a tensor "
                            "array must meet a tensor array")  # fmt: skip
        if a.var is None and b.var is None:
            raise ValueError(f"cond: output {i} is an empty tensor array in both branches: its element shape is "
                             "not known; write an element in one of them")  # fmt: skip
        for (block, _, _), empty, full in ((results[0], a, b), (results[1], b, a)):
            if empty.var is None:
                prev = program.current_block_idx
                program.current_block_idx = block.idx
                try:
                    empty.var = ops.create_array((empty.dtype or full.dtype).np.name, tuple(full.var.shape[1:]))
                    empty.dtype = empty.dtype or full.dtype
                finally:
                    program.current_block_idx = prev
        arrays.add(i)
    return arrays


class CondStep:
    """Executor step for `cond`: run the chosen branch's plan, then copy its results to the op's outputs."""

    def __init__(self, desc, sub_plans: dict) -> None:
        self.desc = desc
        self.sub_plans = sub_plans
        self.pred = desc.inputs["pred"][0]
        self.outs = desc.outputs.get("Out", [])

    def run(self, env: dict) -> None:
        take = bool(np.asarray(env[self.pred]).reshape(-1)[0])
        key = "true" if take else "false"
        run_plan(self.sub_plans[f"{key}_block"], env)
        for out, src in zip(self.outs, self.desc.attrs[f"{key}_outs"]):
            env[out] = env[src]


def case(pred_fn_pairs, default=None, name=None):
    """The first function whose predicate is true runs (else `default`): a chain of `cond`s."""
    if not isinstance(pred_fn_pairs, (list, tuple)) or not pred_fn_pairs:
        raise TypeError("case: pred_fn_pairs must be a non-empty list of (pred, fn) pairs")
    for pair in pred_fn_pairs:
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and callable(pair[1])):
            raise TypeError(f"case: each entry must be a (pred, callable) pair, got {pair!r}")
    (pred, fn), rest = pred_fn_pairs[0], list(pred_fn_pairs[1:])
    if not rest:
        if default is None:  # Paddle: the last function is the default
            return fn()
        return cond(pred, fn, default)
    return cond(pred, fn, lambda: case(rest, default))


def switch_case(branch_index, branch_fns, default=None, name=None):
    """Run `branch_fns[branch_index]` (a dict {index: fn}, or a list of fns / (index, fn) pairs)."""
    if isinstance(branch_fns, dict):
        pairs = sorted(branch_fns.items())
    elif isinstance(branch_fns, (list, tuple)):
        pairs = [p if isinstance(p, (list, tuple)) else (i, p) for i, p in enumerate(branch_fns)]
    else:
        raise TypeError(f"switch_case: branch_fns must be a dict or list, got {type(branch_fns).__name__}")
    for index, fn in pairs:
        if not isinstance(index, int) or not callable(fn):
            raise TypeError(f"switch_case: each branch must be (int index, callable), got ({index!r}, {fn!r})")
    if default is None:
        (*pairs, (_, default)) = pairs  # Paddle: the branch with the largest index is the default
    if not STATE.static_mode:
        i = int(branch_index)
        return dict(pairs).get(i, default)()
    return case([(ops.equal(branch_index, Tensor(np.asarray(i, branch_index.dtype.np))), fn) for i, fn in pairs],
                default)  # fmt: skip


# ---- while_loop ---------------------------------------------------------------------------------------------------


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """Repeat `loop_vars = body(*loop_vars)` while `cond(*loop_vars)` is true; return the final loop_vars.

    Example:
        >>> i = paddle.full([1], 0, 'int64'); s = paddle.full([1], 0.0)
        >>> i, s = paddle.static.nn.while_loop(lambda i, s: i < 10, lambda i, s: [i + 1, s + 2.0], [i, s])
    """
    if not callable(cond) or not callable(body):
        raise TypeError("while_loop: cond and body must be callable")
    if not isinstance(loop_vars, (list, tuple)) or not loop_vars:
        raise TypeError("while_loop: loop_vars must be a non-empty list or tuple")
    if not STATE.static_mode:
        values = list(loop_vars)
        while bool(cond(*values)):
            values = body(*values)
            values = list(values) if isinstance(values, (list, tuple)) else [values]
        return values

    program = default_main_program()
    parent = program.current_block()
    # A tensor array travels as its current value; cond and body see it as a TensorArray (a fresh handle).
    arrays = {i for i, v in enumerate(loop_vars) if isinstance(v, TensorArray)}
    if any(loop_vars[i].var is None for i in arrays):
        _elements_from_trial(program, body, loop_vars, arrays)
    # The loop state lives in variables of the parent block, copied from loop_vars (so loop_vars stay intact).
    state = [ops.assign(_as_var(v.var if i in arrays else v, "while_loop")) for i, v in enumerate(loop_vars)]

    def seen(values):
        return [TensorArray(v.dtype, v) if i in arrays else v for i, v in enumerate(values)]

    with program.sub_block() as cb:
        c = cond(*seen(state))
        if not isinstance(c, Variable) or c.dtype.name != "bool":
            raise TypeError("while_loop: cond must return a bool Variable")
    with program.sub_block() as bb:
        new = body(*seen(state))
        new = list(new) if isinstance(new, (list, tuple)) else [new]
        if len(new) != len(state):
            raise ValueError(f"while_loop: body returns {len(new)} values for {len(state)} loop variables")
        for i in arrays:
            if not isinstance(new[i], TensorArray):
                raise TypeError(f"while_loop: loop variable {i} is a tensor array but body returns "
                                f"{type(new[i]).__name__}")  # fmt: skip
        new = [_as_var(v.var if isinstance(v, TensorArray) else v, "while_loop") for v in new]
        for i, (s, n) in enumerate(zip(state, new)):
            if s.dtype != n.dtype:
                raise TypeError(f"while_loop: loop variable {i} is {s.dtype.name} but body returns {n.dtype.name}")
    base = unique_name("while")
    outs = [parent.create_var(f"{base}.tmp_{i}", s.shape, s.dtype, stop_gradient=s.stop_gradient)
            for i, s in enumerate(state)]  # fmt: skip
    reads = [n for n in external_reads(program, cb.idx) + external_reads(program, bb.idx) if n not in
             {s.name for s in state}]  # fmt: skip
    parent.append_op(
        "while",
        {"loop_vars": [s.name for s in state], "inputs": list(dict.fromkeys(reads))},
        {"Out": [o.name for o in outs]},
        {
            "cond_block": cb.idx,
            "body_block": bb.idx,
            "cond_outs": [c.name],
            "body_outs": [n.name for n in new],
            "keep_history": False,
            "is_test": bool(is_test),
        },  # fmt: skip
        scope=STATE.scope,
    )
    for i in arrays:  # a tensor array is updated in place, as Paddle's LoDTensorArray variable
        loop_vars[i].var = outs[i]
    return [loop_vars[i] if i in arrays else o for i, o in enumerate(outs)]


def _elements_from_trial(program, body, loop_vars, arrays: set) -> None:
    """An empty tensor array among a while_loop's variables (create_array, written inside the loop, as Paddle
    allows): a trial trace of the body, thrown away, tells the shape of the elements it writes; the array then
    starts as an empty array of such elements."""
    n_blocks = len(program.blocks)
    trial = [TensorArray(v.dtype, v.var) if i in arrays else v for i, v in enumerate(loop_vars)]
    with program.sub_block():
        body(*trial)
    del program.blocks[n_blocks:]
    for i in arrays:
        v, written = loop_vars[i], trial[i]
        if v.var is None:
            if written.var is None:
                raise ValueError(f"while_loop: loop variable {i} is an empty tensor array that the body never "
                                 "writes to: its element shape is not known")  # fmt: skip
            v.dtype = written.dtype
            v.var = ops.create_array(written.dtype.np.name, tuple(written.var.shape[1:]))


def in_place_names(plan: list) -> list:
    """The names an op of `plan` reads and writes again: state updated in place (a moving-average quantizer's
    state and accum, batch norm's running statistics), which is the body's state too, besides the loop's own."""
    names = []
    for step in plan:
        if step.sub_plans is None:
            names += [n for n in step.writes if n in step.reads and n not in names]
    return names


class WhileStep:
    """Executor step for `while`. With `keep_history` (set when a backward goes through the loop), it saves the
    values each iteration started from, for the backward pass."""

    MAX_ITERATIONS = 10_000_000

    def __init__(self, desc, sub_plans: dict) -> None:
        self.desc = desc
        self.sub_plans = sub_plans
        self.state = desc.inputs["loop_vars"]
        self.outs = desc.outputs["Out"]
        self.cond_out = desc.attrs["cond_outs"][0]
        self.body_outs = desc.attrs["body_outs"]
        self.history_key = self.outs[0] + "@HISTORY"
        self.in_place = in_place_names(sub_plans["body_block"])

    def run(self, env: dict) -> None:
        history = [] if self.desc.attrs.get("keep_history") else None
        for _ in range(self.MAX_ITERATIONS):
            run_plan(self.sub_plans["cond_block"], env)
            if not bool(np.asarray(env[self.cond_out]).reshape(-1)[0]):
                break
            if history is not None:
                history.append({n: env[n] for n in self.state + [n for n in self.in_place if n in env]})
            run_plan(self.sub_plans["body_block"], env)
            new = [env[n] for n in self.body_outs]
            for n, v in zip(self.state, new):
                env[n] = v
        else:
            raise RuntimeError(f"while_loop: stopped after {self.MAX_ITERATIONS} iterations; is cond ever false?")
        for out, n in zip(self.outs, self.state):
            env[out] = env[n]
        if history is not None:
            env[self.history_key] = history


# ---- backward through control flow ------------------------------------------------------------------------------


def cond_grad(desc, block, out_grads: dict, wanted: set, no_grad: set) -> dict:
    """Gradients of a `cond` op's inputs: a `cond` whose branches are the backward of each forward branch."""
    program = block.program
    targets_wanted = [n for n in desc.inputs["inputs"] if n in wanted]
    if not targets_wanted:
        return {}
    parent = program.current_block()
    branch_outs = {}
    for key in ("true", "false"):
        fwd = program.blocks[desc.attrs[f"{key}_block"]]
        with program.sub_block() as gb:
            outs = [fwd.var(n) for n in desc.attrs[f"{key}_outs"]]
            seeds = [out_grads.get(o) for o in desc.outputs["Out"]]
            pairs = [(v, g) for v, g in zip(outs, seeds) if g is not None]
            sources = [block.var(n) for n in targets_wanted]
            grads = backward_ops(fwd, [v for v, _ in pairs], [g for _, g in pairs], no_grad, sources=sources)
            final = []
            for n in targets_wanted:
                g = grads.get(n)
                final.append(g if g is not None else ops.full_like(block.var(n), 0.0))
        branch_outs[key] = (gb, final)
    base = unique_name("cond_grad")
    outs = [parent.create_var(f"{base}.tmp_{i}", block.var(n).shape, block.var(n).dtype, stop_gradient=False)
            for i, n in enumerate(targets_wanted)]  # fmt: skip
    reads = external_reads(program, branch_outs["true"][0].idx) + external_reads(program, branch_outs["false"][0].idx)
    parent.append_op(
        "cond",
        {"pred": desc.inputs["pred"], "inputs": list(dict.fromkeys(reads))},
        {"Out": [o.name for o in outs]},
        {
            "true_block": branch_outs["true"][0].idx,
            "false_block": branch_outs["false"][0].idx,
            "true_outs": [g.name for g in branch_outs["true"][1]],
            "false_outs": [g.name for g in branch_outs["false"][1]],
        },  # fmt: skip
    )
    return dict(zip(targets_wanted, outs))


def while_grad(desc, block, out_grads: dict, wanted: set, no_grad: set) -> dict:
    """Gradients of a `while` op's loop variables and outside inputs: the body's backward, once per iteration."""
    program = block.program
    state = desc.inputs["loop_vars"]
    ext = [n for n in desc.inputs["inputs"] if n in wanted]
    grad_state = [n for n, o in zip(state, desc.outputs["Out"]) if o in out_grads or n in wanted]
    float_state = [n for n in state if block.var(n).dtype.is_floating or block.var(n).dtype.is_complex]
    if not (ext or any(n in float_state for n in grad_state)):
        return {}
    desc.attrs["keep_history"] = True
    program._version += 1
    body = program.blocks[desc.attrs["body_block"]]
    parent = program.current_block()
    with program.sub_block() as gb:
        # Each iteration's incoming gradient of the body's outputs is fed into these placeholders.
        seeds = [gb.create_var(f"{n}@GRAD@ITER", body.var(n).shape, body.var(n).dtype, stop_gradient=False)
                 for n in desc.attrs["body_outs"]]  # fmt: skip
        body_outs = [body.var(n) for n in desc.attrs["body_outs"]]
        keep = [(v, s) for v, s, n in zip(body_outs, seeds, state) if n in float_state]
        sources = [block.var(n) for n in state if n in float_state] + [block.var(n) for n in ext]
        grads = backward_ops(body, [v for v, _ in keep], [s for _, s in keep], no_grad, sources=sources)

        def grad_or_zeros(n):
            g = grads.get(n)
            return g if g is not None else ops.full_like(block.var(n), 0.0)

        state_grads = [grad_or_zeros(n) if n in float_state else None for n in state]
        ext_grads = [grad_or_zeros(n) for n in ext]
    base = unique_name("while_grad")
    outs_state = [parent.create_var(f"{base}.state_{i}", block.var(n).shape, block.var(n).dtype, stop_gradient=False)
                  for i, n in enumerate(state) if n in float_state]  # fmt: skip
    outs_ext = [parent.create_var(f"{base}.input_{i}", block.var(n).shape, block.var(n).dtype, stop_gradient=False)
                for i, n in enumerate(ext)]  # fmt: skip
    incoming = [out_grads[o].name if o in out_grads else None for o in desc.outputs["Out"]]
    reads = [n for n in external_reads(program, gb.idx) + external_reads(program, desc.attrs["body_block"])
             if n not in incoming]  # fmt: skip
    parent.append_op(
        "while_grad",
        {"out_grads": incoming, "inputs": list(dict.fromkeys(reads))},
        {"Out": [o.name for o in outs_state + outs_ext]},
        {
            "grad_block": gb.idx,
            "body_block": desc.attrs["body_block"],
            "history": desc.outputs["Out"][0] + "@HISTORY",
            "state": state,
            "float_state": float_state,
            "seeds": [s.name for s in seeds],
            "state_grads": [g.name for g in state_grads if g is not None],
            "ext": ext,
            "ext_grads": [g.name for g in ext_grads],
        },  # fmt: skip
    )
    result = {n: o for n, o in zip([n for n in state if n in float_state], outs_state)}
    result.update(dict(zip(ext, outs_ext)))
    return result


class WhileGradStep:
    """Executor step for `while_grad`: for each recorded iteration, last first, restore the values the body
    started from, recompute the body (so its inner values are that iteration's), feed the gradient of its
    outputs, and run the body's backward block."""

    def __init__(self, desc, sub_plans: dict) -> None:
        self.desc = desc
        self.sub_plans = sub_plans

    def run(self, env: dict) -> None:
        a = self.desc.attrs
        history = env.get(a["history"])
        if history is None:
            raise RuntimeError("while_grad: the forward while_loop kept no history; run forward and backward together")
        state_float = [n in a["float_state"] for n in a["state"]]
        carry = []
        for name, n in zip(self.desc.inputs["out_grads"], a["state"]):
            carry.append(env[name] if name is not None else np.zeros_like(env[n]))
        ext_total = [np.zeros_like(env[n]) for n in a["ext"]]
        # The recomputation of each iteration starts from that iteration's in-place state (recorded with the loop
        # state) and must not leave it updated again: the forward's final values are put back afterwards.
        final = {n: env[n] for n in in_place_names(self.sub_plans["body_block"]) if n in env}
        for values in reversed(history):
            env.update(values)
            run_plan(self.sub_plans["body_block"], env)  # recompute the iteration's inner values from its start
            for seed, g in zip(a["seeds"], carry):
                env[seed] = g
            run_plan(self.sub_plans["grad_block"], env)
            new_carry, k = [], 0
            for is_float, g in zip(state_float, carry):
                if is_float:
                    new_carry.append(env[a["state_grads"][k]])
                    k += 1
                else:
                    new_carry.append(g)
            carry = new_carry
            for i, n in enumerate(a["ext_grads"]):
                ext_total[i] = ext_total[i] + env[n]
        env.update(final)
        outs = self.desc.outputs["Out"]
        float_carry = [g for g, f in zip(carry, state_float) if f]
        for name, value in zip(outs, float_carry + ext_total):
            env[name] = value


register_block_op("cond", CondStep, cond_grad)
register_block_op("while", WhileStep, while_grad)
register_block_op("while_grad", WhileGradStep)
