"""Gradient clipping and weight decay in a training Program, both ways, as paddle 2.6.2 writes them between its
backward and its optimizer ops (all with op_role Optimize, clipping first, then decay, as both optimizers do):

    ClipGradByGlobalNorm  squared_l2_norm per gradient, sum, sqrt, fill_constant(clip_norm), elementwise_max,
                          elementwise_div, then elementwise_mul of each gradient by the factor, in place
    ClipGradByNorm        clip_by_norm(max_norm) per gradient, into a new variable
    ClipGradByValue       clip(min, max) per gradient, into a new variable
    L2Decay(coeff)        scale(param, coeff), then sum(grad, that) into the gradient, in place
    L1Decay(coeff)        sign(param), scale(coeff), sum, likewise
(Momentum takes an L2Decay in its own op, regularization_method: no ops here, in Paddle as in minipaddle.)

Writing (`paddle_grad_edits`): minipaddle's clips and regularizers (nn/clip.py, regularizer.py) append small ops
on the gradient (multiply, sum, add, sqrt, maximum, divide, ...). They are recognised by the expression that each
update op's gradient is of the raw gradient `p@GRAD`, found through the ops that made it, not by their order; an
op of that kind that no recognised expression explains gives NotImplementedError naming it. A global norm over one
gradient computes what ClipGradByNorm does, and is written as clip_by_norm.

Reading (`clip_and_decay_of`): Paddle's ops give the clip (its class name and arguments) and each parameter's
regularizer, which optimizer/from_paddle_ops.py builds the optimizer with.
"""

from __future__ import annotations

__all__ = ["paddle_grad_edits", "clip_and_decay_of", "CLIP_AND_DECAY_OPS"]

ROLE_OPTIMIZE = 0x2
_FLOAT32 = 5  # Paddle's VarType number of float32
# minipaddle's ops a clip or a regularizer is made of (a `scale` only when it makes a new variable: Adam scales
# its beta powers in place)
_GRAD_MATH = frozenset({"multiply", "sum", "add", "sqrt", "assign_value", "maximum", "minimum", "divide", "sign"})
# Paddle's ops a clip or a regularizer is made of, in a training Program it wrote
CLIP_AND_DECAY_OPS = frozenset({"squared_l2_norm", "sum", "sqrt", "fill_constant", "elementwise_max", "elementwise_div",
                                "elementwise_mul", "clip_by_norm", "clip", "scale", "sign"})  # fmt: skip


def _number(value) -> float:
    """A float32 attribute as it was written in Python (0.1 is stored as 0.10000000149011612)."""
    return float(f"{float(value):.7g}")


def _not_translated(op, why: str):
    return NotImplementedError(f"write_program_desc: the optimizer op '{op.type}' has no Paddle op here ({why}; "
                               f"static/paddle_clip_ops.py)")  # fmt: skip


def _is_grad_math(op) -> bool:
    if op.type == "scale":
        return op.outputs["Out"] != op.inputs["x"]
    return op.type in _GRAD_MATH


def paddle_grad_edits(ops: list, var_of) -> tuple:
    """Split minipaddle's optimize-role ops `ops` into (Paddle's clip and decay ops as [(type, inputs, outputs,
    attrs {name: (AttrType name, value)})], the update ops with their gradient inputs renamed to the variables
    those ops leave the gradients in, the new variables {name: (shape, dtype name)}). `var_of(name)` is the
    minipaddle Variable of a name."""
    stage = [op for op in ops if _is_grad_math(op)]
    if not stage:
        return [], [op for op in ops], {}
    edits = _Edits(stage, var_of)
    updates = [op for op in ops if not _is_grad_math(op)]
    finals = list(dict.fromkeys(n for op in updates for n in op.input_names() if n in edits.made))
    plans = [edits.plan(n) for n in finals]
    unexplained = [op for op in stage if id(op) not in edits.used]
    if unexplained:
        raise _not_translated(unexplained[0], "not part of a ClipGradBy* or an L1Decay/L2Decay minipaddle writes")
    rename = {}
    for final, (param, raw, clip, _) in zip(finals, plans):
        rename[final] = edits.write_clip(param, raw, clip)
    for final, (param, _, _, decay) in zip(finals, plans):
        if decay is not None:
            edits.write_decay(param, rename[final], decay)
    renamed = [type(op)(op.type, {s: [rename.get(n, n) for n in ns] for s, ns in op.inputs.items()}, op.outputs,
                        op.attrs, op.role) for op in updates]  # fmt: skip
    return edits.out, renamed, edits.new_vars


class _Edits:
    """The expressions of the gradients over minipaddle's clip and decay ops, and Paddle's ops written for them."""

    def __init__(self, stage: list, var_of) -> None:
        self.made = {op.outputs["Out"][0]: op for op in stage}
        self.var_of = var_of
        self.used: set = set()  # ids of the ops an expression explained
        self.out: list = []
        self.new_vars: dict = {}
        self.factors: dict = {}  # minipaddle's global-norm factor -> the variable Paddle's ops leave it in
        self.counts: dict = {}  # name pattern -> the next number to try

    # ---- reading minipaddle's expressions ----

    def _op(self, name: str, kind: str):
        op = self.made.get(name)
        return op if op is not None and op.type == kind else None

    def _const(self, name: str):
        op = self._op(name, "assign_value")
        if op is None or len(op.attrs.get("values", [])) != 1:
            return None
        self.used.add(id(op))
        return float(op.attrs["values"][0])

    def plan(self, final: str) -> tuple:
        """(param, its raw gradient, the clip, the decay) that the gradient variable `final` is."""
        g, decay = self._decay(final)
        raw, clip = self._clip(g)
        if raw in self.made or not raw.endswith("@GRAD"):
            raise _not_translated(self.made.get(raw, self.made[final]), f"'{final}' is no clip or decay of a gradient")
        param = raw.removesuffix("@GRAD")
        if decay is not None and decay[1] != param:
            raise _not_translated(self.made[final], f"the decay of '{decay[1]}' is added to the gradient of '{param}'")
        return param, raw, clip, decay

    def _decay(self, name: str) -> tuple:
        """(the gradient before decay, (L1Decay|L2Decay, param, coeff) or None)."""
        add = self._op(name, "add")
        scale = add and self._op(add.inputs["y"][0], "scale")
        if scale is None or float(scale.attrs.get("bias", 0.0)) != 0.0:
            return name, None
        src = scale.inputs["x"][0]
        sign = self._op(src, "sign")
        if sign is None and src in self.made:
            return name, None
        self.used.update({id(add), id(scale)} | ({id(sign)} if sign else set()))
        kind, param = ("L1Decay", sign.inputs["x"][0]) if sign else ("L2Decay", src)
        return add.inputs["x"][0], (kind, param, float(scale.attrs["scale"]))

    def _clip(self, name: str) -> tuple:
        """(the raw gradient, the clip: ("value", min, max), ("norm", clip_norm), ("global", factor name,
        clip_norm, [raw gradients in the sum]) or None)."""
        low = self._op(name, "minimum")
        high = low and self._op(low.inputs["x"][0], "maximum")
        if high is not None:
            lo, hi = self._const(high.inputs["y"][0]), self._const(low.inputs["y"][0])
            if lo is not None and hi is not None:
                self.used.update({id(low), id(high)})
                return high.inputs["x"][0], ("value", lo, hi)
        mul = self._op(name, "multiply")
        div = mul and self._op(mul.inputs["y"][0], "divide")
        top = div and self._op(div.inputs["y"][0], "maximum")
        norm = top and self._op(top.inputs["x"][0], "sqrt")
        if norm is None:
            return name, None
        limit, again = self._const(div.inputs["x"][0]), self._const(top.inputs["y"][0])
        raws = self._squares(norm.inputs["x"][0])
        if limit is None or limit != again or raws is None:
            return name, None
        raw = mul.inputs["x"][0]
        self.used.update({id(mul), id(div), id(top), id(norm)})
        if raws == [raw]:
            return raw, ("norm", limit)
        return raw, ("global", mul.inputs["y"][0], limit, raws)

    def _squares(self, name: str):
        """The raw gradients whose sums of squares `name` adds up (in their order), or None."""
        raws, todo, seen = [], [name], []
        while todo:
            op = self.made.get(todo.pop())
            if op is not None and op.type == "add":
                todo += [op.inputs["y"][0], op.inputs["x"][0]]  # x first off the stack: the order of the sum
                seen.append(op)
                continue
            sq = op is not None and op.type == "sum" and op.attrs.get("axis") is None
            sq = sq and self._op(op.inputs["x"][0], "multiply")
            if not sq or sq.inputs["x"] != sq.inputs["y"]:
                return None
            raws.append(sq.inputs["x"][0])
            seen += [op, sq]
        self.used.update(id(op) for op in seen)
        return raws

    # ---- writing Paddle's ops ----

    def _fresh(self, pattern: str, like: str | None) -> str:
        """A new variable named as Paddle names it (`pattern` as "clip_{}.tmp_0"), none of the Program's, shaped
        like the variable `like` (else [1], the shape of a norm in Paddle)."""
        n = self.counts.get(pattern, 0)
        while pattern.format(n) in self.new_vars or self.var_of(pattern.format(n)) is not None:
            n += 1
        self.counts[pattern], name = n + 1, pattern.format(n)
        v = self.var_of(like) if like is not None else None
        self.new_vars[name] = (list(v.shape), v.dtype.name) if v is not None else ([1], "float32")
        return name

    def _add(self, kind: str, inputs: dict, outputs: dict, role_var: list, **attrs) -> None:
        attrs = {**attrs, "op_role": ("INT", ROLE_OPTIMIZE), "op_role_var": ("STRINGS", role_var)}
        self.out.append((kind, inputs, outputs, attrs))

    def write_clip(self, param: str, raw: str, clip) -> str:
        """Paddle's clip of the gradient `raw` of `param`: the variable the clipped gradient is in."""
        if clip is None:
            return raw
        if clip[0] == "value":
            new = self._fresh("clip_{}.tmp_0", param)
            self._add("clip", {"X": [raw], "Min": [], "Max": []}, {"Out": [new]}, [param, new],
                      min=("FLOAT", clip[1]), max=("FLOAT", clip[2]))  # fmt: skip
            return new
        if clip[0] == "norm":
            new = self._fresh("clip_by_norm_{}.tmp_0", param)
            self._add("clip_by_norm", {"X": [raw]}, {"Out": [new]}, [param, new], max_norm=("FLOAT", clip[1]))
            return new
        _, factor, limit, raws = clip
        if factor not in self.factors:  # the norm once, at the first gradient it scales
            self.factors[factor] = self._global_norm(limit, raws)
        self._add("elementwise_mul", {"X": [raw], "Y": [self.factors[factor]]}, {"Out": [raw]}, [param, raw],
                  axis=("INT", -1))  # fmt: skip
        return raw

    def _global_norm(self, limit: float, raws: list) -> str:
        squares = []
        for raw in raws:
            p = raw.removesuffix("@GRAD")
            squares.append(self._fresh("squared_l2_norm_{}.tmp_0", None))
            self._add("squared_l2_norm", {"X": [raw]}, {"Out": [squares[-1]]}, [p, raw])
        last = [raws[-1].removesuffix("@GRAD"), raws[-1]]  # Paddle's shared ops carry the last gradient's names
        total, norm = self._fresh("add_n_{}.tmp_0", None), self._fresh("sqrt_{}.tmp_0", None)
        top = self._fresh("fill_constant_{}.tmp_0", None)
        self._add("sum", {"X": squares}, {"Out": [total]}, last, use_mkldnn=("BOOLEAN", False),
                  mkldnn_data_type=("STRING", "float32"))  # fmt: skip
        self._add("sqrt", {"X": [total]}, {"Out": [norm]}, last)
        self._add("fill_constant", {"ShapeTensor": [], "ShapeTensorList": [], "ValueTensor": []}, {"Out": [top]}, last,
                  dtype=("INT", _FLOAT32), shape=("LONGS", [1]), value=("FLOAT", limit), str_value=("STRING",
                  str(_number(limit))), force_cpu=("BOOLEAN", False), place_type=("INT", -1))  # fmt: skip
        bigger, scale = self._fresh("elementwise_max_{}", None), self._fresh("elementwise_div_{}", None)
        self._add("elementwise_max", {"X": [top], "Y": [norm]}, {"Out": [bigger]}, last, axis=("INT", -1))
        self._add("elementwise_div", {"X": [top], "Y": [bigger]}, {"Out": [scale]}, last, axis=("INT", -1))
        return scale

    def write_decay(self, param: str, grad: str, decay: tuple) -> None:
        """Paddle's weight decay of `param` added to its gradient `grad` in place."""
        kind, _, coeff = decay
        src = param
        if kind == "L1Decay":
            src = self._fresh("_generated_var_{}", param)
            self._add("sign", {"X": [param]}, {"Out": [src]}, [param, grad])
        term = self._fresh("_generated_var_{}", param)
        self._add("scale", {"X": [src], "ScaleTensor": []}, {"Out": [term]}, [param, grad], scale=("FLOAT", coeff),
                  bias=("FLOAT", 0.0), bias_after_scale=("BOOLEAN", True))  # fmt: skip
        self._add("sum", {"X": [grad, term]}, {"Out": [grad]}, [param, grad], use_mkldnn=("BOOLEAN", False),
                  mkldnn_data_type=("STRING", "float32"))  # fmt: skip


def clip_and_decay_of(ops: list, attrs_of, slots_of) -> tuple:
    """From the Optimize-role ops (descs) of a training Program paddle 2.6 wrote: (the clip as (class name, args,
    the parameters it clips) or None, {param: (L1Decay|L2Decay, coeff)}). `attrs_of(op)` gives an op's attributes,
    `slots_of(op, "inputs"|"outputs")` its {slot: names}. A clip op of another form gives ValueError."""
    mine = [o for o in ops if o.type in CLIP_AND_DECAY_OPS and attrs_of(o).get("op_role", 0) & ROLE_OPTIMIZE]
    made = {n: o for o in mine for n in slots_of(o, "outputs").get("Out", [])}
    param_of = lambda o: attrs_of(o).get("op_role_var", [None])[0]  # noqa: E731 (each op names its parameter)
    clips = []
    for o in mine:
        attrs = attrs_of(o)
        if o.type == "clip":
            clips.append(("ClipGradByValue", (_number(attrs["max"]), _number(attrs["min"])), param_of(o)))
        elif o.type == "clip_by_norm":
            clips.append(("ClipGradByNorm", (_number(attrs["max_norm"]),), param_of(o)))
        elif o.type == "elementwise_mul":
            div = made.get(slots_of(o, "inputs")["Y"][0])
            top = div is not None and made.get(slots_of(div, "inputs")["X"][0])
            if not top or top.type != "fill_constant":
                raise ValueError(f"a gradient clip's elementwise_mul of '{param_of(o)}' is not by a global norm")
            value = attrs_of(top).get("str_value") or attrs_of(top)["value"]
            clips.append(("ClipGradByGlobalNorm", (_number(value),), param_of(o)))
    kinds = {(kind, args) for kind, args, _ in clips}
    if len(kinds) > 1:
        raise ValueError(f"the gradients are clipped in more than one way: {sorted(kinds)}")
    clip = (*kinds.pop(), [p for _, _, p in clips]) if kinds else None
    decays = {}
    for o in mine:
        if o.type == "scale":
            src = made.get(slots_of(o, "inputs")["X"][0])
            kind = "L1Decay" if src is not None and src.type == "sign" else "L2Decay"
            decays[param_of(o)] = (kind, _number(attrs_of(o)["scale"]))
    return clip, decays
