"""Loss scaling in a training Program (paddle.static.amp.decorate) as paddle 2.6.2 writes it, for a Program being
written as Paddle's ProgramDesc (static/pdmodel.py).

minipaddle's decorator (static/amp/decorator.py) and paddle's put the same two fused ops between the backward and
the updates, but wire them differently:

    minipaddle                                       paddle 2.6.2
    [O2: cast of each gradient to the low dtype]     (the backward's gradients are float16 already)
    check_finite_and_unscale -> new variables        check_finite_and_unscale, in place on p@GRAD, FoundInfinite
                                                     find_infinite_scale.tmp_0; under O2 one per dtype group
                                                     (_fp32, _fp16), then concat + reduce_any of their flags
    update_loss_scaling (stop_update without         update_loss_scaling in place, only with dynamic loss
      dynamic scaling) + assigns of scale/counts       scaling of float16; under O2 one per group (the second
                                                       with stop_update True: it only zeroes its gradients)
    a guard per written persistable: a copy, then    nothing for SGD/Momentum; Adam/AdamW take the flag as
      where(found_inf, copy, new value)                SkipUpdate, through a memcpy to the CPU

So the Paddle file does what paddle's own Program does, also on a bad step (paddle's Momentum moves on a zeroed
gradient with its velocity, an SGD without dynamic scaling takes the Inf gradient), while minipaddle's Program, and
the one it reads back from the file (static/paddle_training.py), keeps every parameter and moment then.
decorate_bf16 (and decorate without dynamic scaling at a scale of 1.0) writes no loss scaling op at all, as paddle.

What the decorator was asked for (level, dtype, scale, dynamic) is in `program.amp_loss_scaling`
(AmpLossScaling, set by minimize, kept by minipaddle's JSON file); a Program without it is written by the ops
alone: a loss multiplied by its scale and paddle's checks. The scaled-loss elementwise_mul gets op_role Loss as the
loss op does, and under decorate (not decorate_bf16) the backward's casts of float16 gradients to the float32
gradients of float32 parameters move behind the backward with op_role Optimize, as paddle's update_role_var_grad
moves them (`move_gradient_casts`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "AmpLossScaling",
    "paddle_loss_scaling_ops",
    "with_skip_update",
    "move_gradient_casts",
    "without_same_dtype_casts",
    "AMP_OPS",
    "loss_scaling_of",
    "unscaled_loss",
]

ROLE_BACKWARD, ROLE_OPTIMIZE = 0x1, 0x2
_LOW_NAMES = {"float16": "fp16", "bfloat16": "fp16"}  # paddle names both groups _fp16


@dataclass(frozen=True)
class AmpLossScaling:
    """What paddle.static.amp.decorate was asked for, kept on the Program it minimized (its `amp_loss_scaling`)."""

    level: str  # 'O1' or 'O2'
    dtype: str  # 'float16' or 'bfloat16'
    init_loss_scaling: float
    dynamic: bool
    bf16_decorator: bool = False  # decorate_bf16: paddle's bfloat16 wrapper, which has no loss scaling

    @property
    def scales_the_loss(self) -> bool:
        """paddle multiplies the loss (and checks the gradients) unless the scale stays 1.0 or for decorate_bf16."""
        return not self.bf16_decorator and (self.dynamic or self.init_loss_scaling != 1.0)

    @property
    def updates_the_scale(self) -> bool:
        """paddle appends update_loss_scaling for dynamic scaling of float16 only."""
        return self.dynamic and self.dtype == "float16"


# Paddle's ops of the loss scaling in a training Program it wrote (with op_role Optimize; the casts are the float16
# gradients' casts that update_role_var_grad moved there, which minipaddle's own backward makes again)
AMP_OPS = frozenset({"check_finite_and_unscale", "update_loss_scaling", "concat", "reduce_any", "memcpy", "cast"})


def loss_scaling_of(updating: list, attrs_of) -> dict | None:
    """Reading: static.amp.decorate's loss scaling arguments from paddle's optimize-role op descs `updating`, or
    None when they hold no check_finite_and_unscale. Dynamic scaling is an update_loss_scaling op (its attributes
    the arguments); the scale's value is the loss_scaling_0 of the .pdopt (static.load), not in the .pdmodel."""
    if not any(o.type == "check_finite_and_unscale" for o in updating):
        return None
    updates = [attrs_of(o) for o in updating if o.type == "update_loss_scaling"]
    if not updates:
        return {"use_dynamic_loss_scaling": False}
    a = updates[0]
    return {"use_dynamic_loss_scaling": True, "incr_every_n_steps": int(a["incr_every_n_steps"]),
            "decr_every_n_nan_or_inf": int(a["decr_every_n_nan_or_inf"]), "incr_ratio": float(a["incr_ratio"]),
            "decr_ratio": float(a["decr_ratio"])}  # fmt: skip


def unscaled_loss(block, scaled: str) -> str | None:
    """Reading: the loss that the read op making `scaled` multiplies by a persistable scale (paddle's
    elementwise_mul(loss, loss_scaling_0)); that op is taken out of `block`, as minipaddle's decorator multiplies
    again. None when `scaled` is not made so."""
    for i, op in enumerate(block.ops):
        if op.outputs.get("Out") == [scaled]:
            x, y = op.inputs.get("x", [None])[0], op.inputs.get("y", [None])[0]
            if op.type != "multiply" or y not in block.vars or not block.vars[y].persistable:
                return None
            del block.ops[i]
            block.program._version += 1
            return x
    return None


def without_same_dtype_casts(forward: list, var_of) -> list:
    """The forward ops without the casts of a variable to its own dtype (O2's float16 parameters, cast to float16
    by the rewrite before minimize declared them float16), their readers reading the variable itself: paddle's
    O2 Program reads its float16 parameters directly, and its backward then makes p@GRAD itself."""
    alias, kept = {}, []
    for op in forward:
        if op.type == "cast":
            v = var_of(alias.get(op.inputs["x"][0], op.inputs["x"][0]))
            if v is not None and np.dtype(op.attrs["dtype"]) == np.dtype(v.dtype.name):
                alias[op.outputs["Out"][0]] = v.name
                continue
        if any(n in alias for ns in op.inputs.values() for n in ns):
            op = type(op)(op.type, {s: [alias.get(n, n) for n in ns] for s, ns in op.inputs.items()}, op.outputs,
                          op.attrs, op.role)  # fmt: skip
        kept.append(op)
    return kept


def _not_translated(op, why: str):
    return NotImplementedError(f"write_program_desc: the optimizer op '{op.type}' has no Paddle op here ({why}; "
                               f"static/paddle_amp_ops.py)")  # fmt: skip


def paddle_loss_scaling_ops(ops: list, var_of, settings: AmpLossScaling | None, taken) -> tuple:
    """Split minipaddle's optimize-role ops `ops` into (Paddle's loss scaling ops [(type, inputs, outputs, attrs
    {name: (AttrType name, value)})], the other ops with their gradients renamed to p@GRAD, the name of the flag
    Adam's SkipUpdate reads or None, the new variables {name: (shape, dtype name)}). `var_of(name)` is the
    minipaddle Variable of a name, `taken(name)` whether the Program has it already."""
    checks = [op for op in ops if op.type == "check_finite_and_unscale"]
    if not checks:
        return [], list(ops), None, {}
    if len(checks) > 1:
        raise _not_translated(checks[1], "a second check of the gradients")
    alias = {}  # minipaddle's name -> the Paddle variable it is (gradients are written in place)
    real = lambda n: alias.get(n, n)  # noqa: E731
    check = checks[0]
    start = ops.index(check)
    for op in ops[:start]:  # O2: the gradients cast to the low dtype (paddle's backward makes them so)
        if op.type != "cast" or not op.inputs["x"][0].endswith("@GRAD"):
            raise _not_translated(op, "before the gradients' check, only their casts")
        alias[op.outputs["Out"][0]] = op.inputs["x"][0]
    *grads, scale = [real(n) for n in check.inputs["arrays"]]
    *unscaled, found = check.outputs["Out"]
    alias.update(zip(unscaled, grads))
    found_alias = [found]
    kept, guards, update = [], set(), None
    counters = {n for op in ops if op.type == "update_loss_scaling" for n in op.inputs["arrays"][-2:]}
    for op in ops[start + 1 :]:
        ins = [real(n) for n in op.input_names() if n is not None]
        if op.outputs.get("Out", [None])[0] in counters and not var_of(op.outputs["Out"][0]).persistable:
            pass  # the zero step counters of static loss scaling (nothing keeps them; paddle has no op for them)
        elif op.type == "update_loss_scaling" and update is None:
            update = op
            *out_grads, new_scale, new_good, new_bad = op.outputs["Out"]
            alias.update(zip(out_grads, grads))
            alias.update({new_scale: scale, new_good: op.inputs["arrays"][-2], new_bad: op.inputs["arrays"][-1]})
        elif op.type == "assign" and op.outputs["Out"] == [ins[0]]:
            pass  # the scale and the counts written back: in place in Paddle's op
        elif op.type in ("cast", "reshape") and ins[0] in (*grads, *found_alias):
            alias[op.outputs["Out"][0]] = ins[0]  # a gradient's dtype, the flag's shape: Paddle's op takes them
            if ins[0] in found_alias:
                found_alias.append(op.outputs["Out"][0])
        elif op.type == "assign" and var_of(ins[0]) is not None and var_of(ins[0]).persistable:
            guards.add(op.outputs["Out"][0])  # the guard's copy of a persistable before the update
        elif op.type == "where" and real(op.inputs["cond"][0]) == found:
            guards.add(op.outputs["Out"][0])
        elif op.type == "assign" and ins[0] in guards:
            pass  # where(found_inf, copy, new value) written back: paddle has no guard
        else:
            kept.append(type(op)(op.type, {s: [real(n) for n in ns] for s, ns in op.inputs.items()}, op.outputs,
                                 op.attrs, op.role))  # fmt: skip
    if update is None:
        raise _not_translated(check, "a check of the gradients without update_loss_scaling after it")
    attrs = dict(update.attrs)
    settings = settings or AmpLossScaling("O1", "float16", 2.0, not attrs.get("stop_update", False))
    if not settings.scales_the_loss:
        return [], kept, None, {}
    writer = _Writer(grads, scale, update, settings, var_of, taken)
    return writer.ops(), kept, writer.found, writer.new_vars


class _Writer:
    """Paddle's check_finite_and_unscale (per dtype group under O2), concat/reduce_any and update_loss_scaling."""

    def __init__(self, grads, scale, update, settings, var_of, taken) -> None:
        self.grads, self.scale, self.settings, self.taken = grads, scale, settings, taken
        self.good, self.bad = update.inputs["arrays"][-2], update.inputs["arrays"][-1]
        self.update_attrs = update.attrs
        self.var_of = var_of
        self.out, self.new_vars = [], {}

    def fresh(self, prefix: str, shape, numbered: bool = True) -> str:
        """A new bool variable named as paddle names it (concat_0.tmp_0; find_infinite_scale.tmp_0 when not
        `numbered`), past the names the Program has."""
        name = _fresh(prefix, numbered, lambda n: self.taken(n) or n in self.new_vars)
        self.new_vars[name] = (list(shape), "bool")
        return name

    def add(self, kind: str, inputs: dict, outputs: dict, attrs: dict) -> None:
        self.out.append((kind, inputs, outputs, {**attrs, "op_role": ("INT", ROLE_OPTIMIZE)}))

    def groups(self) -> list:
        """[(paddle's name suffix, gradients)]: O1 one group; O2 the float32 gradients, then the low ones."""
        if self.settings.level != "O2":
            return [("", self.grads)]
        dtype = lambda g: np.dtype(self.var_of(g.removesuffix("@GRAD")).dtype.name)  # noqa: E731  the param's
        fp32 = [g for g in self.grads if dtype(g) == np.float32]
        low = [g for g in self.grads if dtype(g) != np.float32]
        return [(s, gs) for s, gs in (("_fp32", fp32), ("_" + _LOW_NAMES[self.settings.dtype], low)) if gs]

    def ops(self) -> list:
        groups = self.groups()
        flags = []
        for suffix, grads in groups:
            flag = self.fresh(f"find_infinite_scale{suffix}", [1], numbered=False)
            flags.append(flag)
            self.add("check_finite_and_unscale", {"X": grads, "Scale": [self.scale]},
                     {"Out": grads, "FoundInfinite": [flag]}, {"op_role_var": ("STRINGS", grads)})  # fmt: skip
        found = flags[0]
        if self.settings.level == "O2":  # paddle.any(paddle.concat(found_infs)), even of one flag
            joined = self.fresh("concat", [len(flags)])
            self.add("concat", {"X": flags, "AxisTensor": []}, {"Out": [joined]}, {"axis": ("INT", 0)})
            found = self.fresh("any", [])
            self.add("reduce_any", {"X": [joined], "AxisTensor": [], "AxisTensorList": []}, {"Out": [found]},
                     {"dim": ("INTS", []), "keep_dim": ("BOOLEAN", False), "reduce_all": ("BOOLEAN", True),
                      "in_dtype": ("INT", -1), "out_dtype": ("INT", -1)})  # fmt: skip
        if self.settings.updates_the_scale:
            a = self.update_attrs
            attrs = {"incr_every_n_steps": ("INT", int(a["incr_every_n_steps"])),
                     "decr_every_n_nan_or_inf": ("INT", int(a["decr_every_n_nan_or_inf"])),
                     "incr_ratio": ("FLOAT", float(a["incr_ratio"])),
                     "decr_ratio": ("FLOAT", float(a["decr_ratio"]))}  # fmt: skip
            for i, (_, grads) in enumerate(groups):  # the second group's op only zeroes its gradients
                self.add("update_loss_scaling",
                         {"X": grads, "FoundInfinite": [found], "PrevLossScaling": [self.scale],
                          "InGoodSteps": [self.good], "InBadSteps": [self.bad], "StopUpdate": []},
                         {"Out": grads, "LossScaling": [self.scale], "OutGoodSteps": [self.good],
                          "OutBadSteps": [self.bad]},
                         {**attrs, "stop_update": ("BOOLEAN", i > 0)})  # fmt: skip
        self.found = found
        return self.out


def _fresh(prefix: str, numbered: bool, taken) -> str:
    for k in range(1 << 20):
        name = f"{prefix}_{k}.tmp_0" if numbered else f"{prefix}.tmp_{k}"
        if not taken(name):
            return name
    raise RuntimeError(f"write_program_desc: no free name for {prefix}")


def with_skip_update(updates: list, found: str | None, new_vars: dict, taken) -> tuple:
    """(memcpy ops, the update ops): Adam and AdamW read the flag `found` as SkipUpdate, copied to the CPU by one
    memcpy before them, as paddle's decorator hands it to them (None: no check, nothing changes)."""
    if found is None or not any(kind in ("adam", "adamw") for kind, *_ in updates):
        return [], updates
    copy = _fresh("memcpy", True, lambda n: taken(n) or n in new_vars)
    new_vars[copy] = new_vars[found]
    memcpy = ("memcpy", {"X": [found]}, {"Out": [copy]},
              {"dst_place_type": ("INT", 0), "op_role": ("INT", ROLE_OPTIMIZE)})  # fmt: skip
    out = []
    for kind, inputs, outputs, attrs in updates:
        if kind in ("adam", "adamw"):
            inputs = {**inputs, "SkipUpdate": [copy]}
        out.append((kind, inputs, outputs, attrs))
    return [memcpy], out


def move_gradient_casts(block, grads: list, attr_of, set_attr) -> None:
    """paddle's update_role_var_grad on written op descs: each cast that makes a float32 parameter's gradient p@GRAD
    (of `grads`, in paddle's params_grads order) from a low-precision one moves behind the backward, in that order,
    with op_role Optimize and no op_role_var, and the op that made the low-precision gradient takes [p, its
    gradient] into its op_role_var."""
    wanted = {g: g.removesuffix("@GRAD") for g in grads}
    ops = list(block.ops)
    moved = []
    for i, od in enumerate(ops):
        outs = [a for v in od.outputs for a in v.arguments]
        if od.type != "cast" or len(outs) != 1 or outs[0] not in wanted or not attr_of(od, "op_role") & ROLE_BACKWARD:
            continue
        low = od.inputs[0].arguments[0]
        maker = next((o for o in reversed(ops[:i]) if low in [a for v in o.outputs for a in v.arguments]), None)
        if maker is not None:
            set_attr(maker, "op_role_var", "STRINGS", [wanted[outs[0]], low, *(attr_of(maker, "op_role_var") or [])])
        set_attr(od, "op_role", "INT", ROLE_OPTIMIZE)
        set_attr(od, "op_role_var", None, None)
        moved.append(i)
    if not moved:
        return
    moved.sort(key=lambda i: grads.index(ops[i].outputs[0].arguments[0]))
    order = [ops[i] for i in range(len(ops)) if i not in moved] + [ops[i] for i in moved]
    copies = [type(od)() for od in order]
    for c, od in zip(copies, order):
        c.CopyFrom(od)
    del block.ops[:]
    for c in copies:
        block.ops.add().CopyFrom(c)
