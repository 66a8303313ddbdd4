"""Gradient clipping and weight decay in a training Program, both ways, as paddle 2.6.2 writes them between its
backward and its optimizer ops (all with op_role Optimize, clipping first, then decay, as both optimizers do):

    ClipGradByGlobalNorm  squared_l2_norm per gradient, sum, sqrt, fill_constant(clip_norm), elementwise_max,
                          elementwise_div, then elementwise_mul of each gradient by the factor, in place; with
                          float16/bfloat16 (or float64) gradients, one sum per dtype, each cast to float32 (float64)
                          and summed again, and the factor cast to each low-precision gradient's dtype
    ClipGradByNorm        clip_by_norm(max_norm) per gradient, into a new variable
    ClipGradByValue       clip(min, max) per gradient, into a new variable
    (a SELECTED_ROWS gradient, nn.Embedding(sparse=True)'s: its global norm squares get_tensor_from_selected_rows of
    merge_selected_rows of it; clip_by_norm's output is SELECTED_ROWS too, clip's is declared a LOD_TENSOR; the
    kernels merge the rows first, so each computes what the dense gradient of the same values gives)
    L2Decay(coeff)        scale(param, coeff), then sum(grad, that) into the gradient, in place
    L1Decay(coeff)        sign(param), scale(coeff), sum, likewise
(Momentum takes an L2Decay in its own op, regularization_method: no ops here, in Paddle as in minipaddle.)

Writing (`paddle_grad_edits`): minipaddle's clips and regularizers (nn/clip.py, regularizer.py) append small ops
on the gradient (multiply, sum, add, sqrt, maximum, divide, ...). They are recognised by the expression that each
update op's gradient is of the raw gradient `p@GRAD`, found through the ops that made it, not by their order; an
op of that kind that no recognised expression explains gives NotImplementedError naming it. A global norm over one
float32 gradient computes what ClipGradByNorm does, and is written as clip_by_norm. The casts among those ops are
the clip's; a cast an update op reads is multi_precision's (static/paddle_optimizer_ops.py). A ClipGradByValue's
bounds of a float16/bfloat16 gradient are its dtype's constants: written as the shortest decimal that rounds to them
(0.01, as the user wrote it and Paddle stores it, not 0.01000213623046875).

Reading (`clip_and_decay_of`): Paddle's ops give the clip (its class name and arguments) and each parameter's
regularizer, which optimizer/from_paddle_ops.py builds the optimizer with.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from minipaddle.static.paddle_ops import DTYPE_NUMBERS

__all__ = ["paddle_grad_edits", "clip_and_decay_of", "CLIP_AND_DECAY_OPS"]

ROLE_OPTIMIZE = 0x2
# minipaddle's ops a clip or a regularizer is made of (a `scale` only when it makes a new variable: Adam scales
# its beta powers in place)
_GRAD_MATH = frozenset({"multiply", "sum", "add", "sqrt", "assign_value", "maximum", "minimum", "divide", "sign"})
# Paddle's ops a clip or a regularizer is made of, in a training Program it wrote
CLIP_AND_DECAY_OPS = frozenset({"squared_l2_norm", "sum", "sqrt", "fill_constant", "elementwise_max", "elementwise_div",
                                "elementwise_mul", "clip_by_norm", "clip", "scale", "sign", "cast",
                                "merge_selected_rows", "get_tensor_from_selected_rows"})  # fmt: skip
_LOW = ("float16", "bfloat16")


def _number(value) -> float:
    """A float32 attribute as it was written in Python (0.1 is stored as 0.10000000149011612)."""
    return float(f"{float(value):.7g}")


def _not_translated(op, why: str):
    return NotImplementedError(f"write_program_desc: the optimizer op '{op.type}' has no Paddle op here ({why}; "
                               f"static/paddle_clip_ops.py)")  # fmt: skip


def _is_grad_math(op, update_reads: set) -> bool:
    if op.type == "scale":
        return op.outputs["Out"] != op.inputs["x"]
    if op.type == "cast":  # the clip's own, unless an update op reads it (multi_precision's cast to float32)
        return op.outputs["Out"][0] not in update_reads
    return op.type in _GRAD_MATH


def _shortest(value: float, dtype: str) -> float:
    """The shortest decimal that rounds to `value` in `dtype` (the number a user wrote for that constant)."""
    kind = {"float16": np.float16, "bfloat16": ml_dtypes.bfloat16}.get(dtype, np.float32)
    for digits in range(1, 10):
        if kind(float(f"{value:.{digits}g}")) == kind(value):
            return float(f"{value:.{digits}g}")
    return value


def paddle_grad_edits(ops: list, var_of, sparse=frozenset()) -> tuple:
    """Split minipaddle's optimize-role ops `ops` into (Paddle's clip and decay ops as [(type, inputs, outputs,
    attrs {name: (AttrType name, value)})], the update ops with their gradient inputs renamed to the variables
    those ops leave the gradients in, the new variables {name: (shape, dtype name)}, the names of those that are
    SELECTED_ROWS). `var_of(name)` is the minipaddle Variable of a name; `sparse`: the gradients that are
    SELECTED_ROWS in Paddle (nn.Embedding(sparse=True)'s)."""
    update_reads = {n for op in ops if op.type != "cast" and not _is_grad_math(op, set()) for n in op.input_names()}
    stage = [op for op in ops if _is_grad_math(op, update_reads)]
    if not stage:
        return [], [op for op in ops], {}, set()
    edits = _Edits(stage, var_of, sparse)
    updates = [op for op in ops if not _is_grad_math(op, update_reads)]
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
    return edits.out, renamed, edits.new_vars, edits.rows_vars


class _Edits:
    """The expressions of the gradients over minipaddle's clip and decay ops, and Paddle's ops written for them."""

    def __init__(self, stage: list, var_of, sparse=frozenset()) -> None:
        self.sparse = sparse  # the gradients that are SELECTED_ROWS in Paddle
        self.rows_vars: set = set()  # the new variables that are SELECTED_ROWS
        self.made = {op.outputs["Out"][0]: op for op in stage}
        self.index = {id(op): i for i, op in enumerate(stage)}
        self.first_square: dict = {}  # raw gradient -> where its sum of squares is (the parameters' order)
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
        dtype = str(op.attrs.get("dtype"))
        value = float(op.attrs["values"][0])
        return _shortest(value, dtype) if dtype in _LOW else value

    def _dtype(self, name: str) -> str:
        if name in self.new_vars:
            return self.new_vars[name][1]
        return self.var_of(name).dtype.name

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
        factor = mul and mul.inputs["y"][0]
        cast = factor and self._op(factor, "cast")  # the factor in a float16/bfloat16 (float32) gradient's dtype
        div = mul and self._op(cast.inputs["x"][0] if cast else factor, "divide")
        top = div and self._op(div.inputs["y"][0], "maximum")
        norm = top and self._op(top.inputs["x"][0], "sqrt")
        if norm is None:
            return name, None
        limit, again = self._const(div.inputs["x"][0]), self._const(top.inputs["y"][0])
        groups = self._groups(norm.inputs["x"][0])
        if limit is None or limit != again or groups is None:
            return name, None
        raw = mul.inputs["x"][0]
        self.used.update({id(mul), id(div), id(top), id(norm)} | ({id(cast)} if cast else set()))
        if cast is None and groups == [(None, [raw])]:
            return raw, ("norm", limit)
        return raw, ("global", div.outputs["Out"][0], limit, groups)

    def _addends(self, name: str) -> tuple:
        """(the names an add chain at `name` sums, x before y; its add ops)."""
        op = self.made.get(name)
        if op is None or op.type != "add":
            return [name], []
        xs, x_adds = self._addends(op.inputs["x"][0])
        ys, y_adds = self._addends(op.inputs["y"][0])
        return xs + ys, x_adds + y_adds + [op]

    def _square(self, name: str):
        """(the raw gradient whose sum of squares `name` is, the ops) or None: sum(g * g), with a float16/bfloat16
        g cast to float32 first, and the sum cast back to g's dtype when it is a global norm's squared_l2_norm."""
        down = self._op(name, "cast")
        op = self.made.get(down.inputs["x"][0]) if down else self.made.get(name)
        if op is None or op.type != "sum" or op.attrs.get("axis") is not None:
            return None
        sq = self._op(op.inputs["x"][0], "multiply")
        if not sq or sq.inputs["x"] != sq.inputs["y"]:
            return None
        up = self._op(sq.inputs["x"][0], "cast")
        raw = up.inputs["x"][0] if up else sq.inputs["x"][0]
        if down is not None and (up is None or self._dtype(raw) != self._dtype(name)):
            return None
        self.first_square.setdefault(raw, self.index[id(op)])
        return raw, [o for o in (down, op, sq, up) if o is not None]

    def _groups(self, name: str):
        """The gradients whose squares the global norm's square `name` adds up, as Paddle's groups by dtype:
        [(the dtype the group's sum is cast to, or None for the last, widest one; its raw gradients)], or None."""
        groups, widest, seen = [], [], []
        leaves, adds = self._addends(name)
        seen += adds
        for leaf in leaves:
            cast = self._op(leaf, "cast")
            square = self._square(leaf)
            if square is None and cast is not None:  # a dtype's sum, cast to the widest
                inner, inner_adds = self._addends(cast.inputs["x"][0])
                squares = [self._square(n) for n in inner]
                if None in squares or len({self._dtype(raw) for raw, _ in squares}) != 1:
                    return None
                groups.append((str(cast.attrs["dtype"]), [raw for raw, _ in squares]))
                seen += [cast, *inner_adds, *(o for _, made in squares for o in made)]
            elif square is not None:
                widest.append(square[0])
                seen += square[1]
            else:
                return None
        if widest:
            groups.append((None, widest))
        self.used.update(id(op) for op in seen)
        return groups

    # ---- writing Paddle's ops ----

    def _fresh(self, pattern: str, like: str | None, dtype: str = "float32") -> str:
        """A new variable named as Paddle names it (`pattern` as "clip_{}.tmp_0"), none of the Program's, shaped
        like the variable `like` (else [1] of `dtype`, the shape of a norm in Paddle)."""
        n = self.counts.get(pattern, 0)
        while pattern.format(n) in self.new_vars or self.var_of(pattern.format(n)) is not None:
            n += 1
        self.counts[pattern], name = n + 1, pattern.format(n)
        v = self.var_of(like) if like is not None else None
        self.new_vars[name] = (list(v.shape), v.dtype.name) if v is not None else ([1], dtype)
        return name

    def _cast(self, name: str, dtype: str, role_var: list) -> str:
        """Paddle's cast of the norm variable `name` to `dtype` (its `astype`, into tmp_N)."""
        out = self._fresh("tmp_{}", None, dtype)
        self._add("cast", {"X": [name]}, {"Out": [out]}, role_var, in_dtype=("INT", DTYPE_NUMBERS[self._dtype(name)]),
                  out_dtype=("INT", DTYPE_NUMBERS[dtype]), use_mkldnn=("BOOLEAN", False))  # fmt: skip
        return out

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
            if raw in self.sparse:  # (Paddle's clip_by_norm declares its output as its input; its clip does not)
                self.rows_vars.add(new)
            return new
        _, factor, limit, groups = clip
        if factor not in self.factors:  # the norm once, at the first gradient it scales
            self.factors[factor] = self._global_norm(limit, groups)
        scale = self.factors[factor]
        if self._dtype(raw) in _LOW:  # Paddle casts the factor only to a float16/bfloat16 gradient's dtype
            scale = self._cast(scale, self._dtype(raw), [param, raw])
        self._add("elementwise_mul", {"X": [raw], "Y": [scale]}, {"Out": [raw]}, [param, raw], axis=("INT", -1))
        return raw

    def _global_norm(self, limit: float, groups: list) -> str:
        raws = sorted((raw for _, rs in groups for raw in rs), key=self.first_square.get)
        squares = {}
        for raw in raws:  # in the parameters' order, each of its gradient's dtype
            role_var, dense = [raw.removesuffix("@GRAD"), raw], raw
            if raw in self.sparse:  # the norm of a SELECTED_ROWS gradient: of its rows merged, as a dense tensor
                merged = self._fresh("merge_selected_rows_{}.tmp_0", role_var[0])
                dense = self._fresh("get_tensor_from_selected_rows_{}.tmp_0", role_var[0])
                self.rows_vars.add(merged)
                self._add("merge_selected_rows", {"X": [raw]}, {"Out": [merged]}, role_var)
                self._add("get_tensor_from_selected_rows", {"X": [merged]}, {"Out": [dense]}, role_var)
            squares[raw] = self._fresh("squared_l2_norm_{}.tmp_0", None, self._dtype(raw))
            self._add("squared_l2_norm", {"X": [dense]}, {"Out": [squares[raw]]}, role_var)
        last = [raws[-1].removesuffix("@GRAD"), raws[-1]]  # Paddle's shared ops carry the last gradient's names
        add_n = {"use_mkldnn": ("BOOLEAN", False), "mkldnn_data_type": ("STRING", "float32")}
        totals = []
        for cast_to, rs in groups:  # a sum per dtype (even of one), cast to the widest but the widest's own
            totals.append(self._fresh("add_n_{}.tmp_0", None, self._dtype(rs[0])))
            self._add("sum", {"X": [squares[r] for r in rs]}, {"Out": [totals[-1]]}, last, **add_n)
            if cast_to is not None:
                totals[-1] = self._cast(totals[-1], cast_to, last)
        total = totals[0]
        wide = self._dtype(total)
        if len(totals) > 1:
            total = self._fresh("add_n_{}.tmp_0", None, wide)
            self._add("sum", {"X": totals}, {"Out": [total]}, last, **add_n)
        norm, top = self._fresh("sqrt_{}.tmp_0", None, wide), self._fresh("fill_constant_{}.tmp_0", None, wide)
        self._add("sqrt", {"X": [total]}, {"Out": [norm]}, last)
        self._add("fill_constant", {"ShapeTensor": [], "ShapeTensorList": [], "ValueTensor": []}, {"Out": [top]}, last,
                  dtype=("INT", DTYPE_NUMBERS[wide]), shape=("LONGS", [1]), value=("FLOAT", limit), str_value=("STRING",
                  str(_number(limit))), force_cpu=("BOOLEAN", False), place_type=("INT", -1))  # fmt: skip
        bigger = self._fresh("elementwise_max_{}", None, wide)
        scale = self._fresh("elementwise_div_{}", None, wide)
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
            if div is not None and div.type == "cast":  # the factor cast to a float16/bfloat16 gradient's dtype
                div = made.get(slots_of(div, "inputs")["X"][0])
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
