"""Static AMP's rewrite: a Program pass that inserts `cast` ops so white-list ops compute in float16 (or bfloat16)
and black-list ops in float32 (paddle 2.6's `rewrite_program` / `cast_model_to_fp16`).

    O1: an op on the black list (or with no low-precision kernel) is float32, one on the white list low; a gray op
        (static AMP's third list: element-wise ops, activations, pooling, reshapes) follows the ops that made its
        inputs: float32 if one of them is black, low if one is white; any other op stays float32, for safety.
    O2 ("pure"): every op computes low except the black list's, which under O2 loses paddle's float16 black list
        (exp, softmax, the losses, ...: `black_list - FP16_BLACK_LIST`, as paddle 2.6's cast_model_to_fp16): only
        custom and EXTRA_BLACK_LIST ops (interpolations, embedding lookups, scatter) stay float32. Their
        parameters are O2's low parameters all the same (paddle stores an embedding table in float16): they read
        them rounded to the low dtype and cast back, `w.cast_fp16.cast_fp32`.
    use_promote=True (paddle.static.amp.decorate's flag, O1 and O2): an op on neither the white nor the black list
        computes in float32 if any of its floating inputs is float32 as the rewrite leaves it, else low (paddle's
        get_promote_dtype). Under O2 parameters count as low: paddle casts them to the low dtype first.

Each input whose dtype differs from what its op computes in gets a cast, `x.cast_fp16` (made once, then shared by
every op that needs it), with the input's stop_gradient; an op's casts stand before it in the reverse order of its
inputs (paddle inserts each one right before the op). A cast to bfloat16 is named `x.cast_fp16` too, as paddle's
float16 code path (static.amp.decorate, cast_model_to_fp16) names it; its bf16 module (decorate_bf16,
cast_model_to_bf16) writes `x.cast_bf16`: `low_suffix` says which. The output variables take the dtypes the ops'
shape/dtype rules now give. Parameters, data and other persistable variables keep their dtypes (O1 casts them on
the fly), and ops that write into them (in-place updates) are left alone. O2's parameters are cast on the fly
too, so the Program runs on the float32 values the startup Program makes; `low_parameters` names them, and
paddle.static.amp.cast_parameters_to_fp16 (amp_init) then stores them low, as paddle does (the casts of a float16
parameter to float16 change nothing).

A normalization is one Paddle op (batch_norm, layer_norm, group_norm, instance_norm) that minipaddle builds from
several ops; static/op_groups.py marks them as a group, and the rewrite decides the group as that one op by the
lists, with the rule both modes share (minipaddle/ops/amp_norms.py): batch_norm and layer_norm cast only x (and
only x decides under use_promote), the group computes in float32 as built, and its output is rounded once to x's
dtype. Under O2 a normalization's parameters count as `paddle.amp.decorate` leaves them: float32 for batch_norm,
and for layer_norm and instance_norm with float16; the others are cast to the low dtype. So a static AMP
Program computes a normalization as dynamic mode's auto_cast does.

`amp_cast(program)` returns a rewritten copy (draw it with `passes.diff`); `rewrite_program` rewrites in place
(what `paddle.static.amp.decorate` does before appending backward).
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.op import OPS, Meta
from minipaddle.ops.amp_lists import FP16_BLACK_LIST
from minipaddle.ops.amp_names import paddle_op_name
from minipaddle.ops.amp_norms import cast_inputs, keeps_float32_parameters
from minipaddle.static.builder import flat_inputs, slot_inputs
from minipaddle.static.control_flow import _block_and_descendants
from minipaddle.static.passes.amp_lists import AutoMixedPrecisionLists
from minipaddle.static.program import ROLE_FORWARD, OpDesc, Program

__all__ = ["amp_cast", "rewrite_program", "decide_dtypes", "low_parameters", "mark_dtype"]

_CAST = OPS["cast"]
_FLOATS = (dtypes.float32, dtypes.float16, dtypes.bfloat16)
_SHORT = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32"}
GUARD = "__use_fp16__"  # the name scope of fp16_guard


def _lists(amp_lists, dtype: str):
    return AutoMixedPrecisionLists(dtype=dtype) if amp_lists is None else amp_lists


def decide_dtypes(program: Program, amp_lists=None, dtype: str = "float16", level: str = "O1",
                  use_fp16_guard: bool = False, use_promote: bool = False) -> dict:  # fmt: skip
    """{op index: 'white' | 'black' | None} for the global block's forward ops, by paddle's rule; None: the op is
    left as it is (a gray op no list decided, a cast, an in-place update). With use_fp16_guard (O2), only the ops
    built inside `paddle.static.amp.fp16_guard()` may compute low; use_promote: see the module docstring."""
    amp_lists = _lists(amp_lists, dtype)
    block = program.global_block()
    producer: dict[str, int] = {}
    decision: dict[int, str | None] = {}
    black = amp_lists.black_list - FP16_BLACK_LIST if level == "O2" else amp_lists.black_list
    black = black | amp_lists.unsupported_list
    low = dtypes.to_dtype(dtype)
    leaves = {}  # var name -> its dtype as the rewrite leaves it, for the promote rule
    group, group_decision = None, None
    for i, op in enumerate(block.ops):
        if op.group is not None:  # one Paddle op built of several: decided once, at its first op
            if op.group is not group:
                group = op.group
                group_decision = _decide_group(block, op, amp_lists, level, black, low, dtype, use_fp16_guard,
                                               use_promote, producer, decision, leaves)  # fmt: skip
            decision[i] = group_decision
            for n in op.output_names():
                producer[n] = i
            if group_decision is not None and group.output in op.output_names():
                leaves[group.output] = _group_output_dtype(group_decision, low)
            continue
        name = paddle_op_name(op.type, op.attrs)
        guarded = level != "O2" or not use_fp16_guard or GUARD in op.scope
        if op.role != ROLE_FORWARD or op.type == "cast" or _writes_state(block, op):
            decision[i] = None
        elif name in black or not guarded or _reads_black_var(op, amp_lists):
            decision[i] = "black"
        elif name in amp_lists.white_list:
            decision[i] = "white"
        elif use_promote:
            came = [_leaves_as(block, n, leaves, low, level) for n in op.input_names() if n is not None]
            decision[i] = "black" if dtypes.float32 in came else "white"
        elif level == "O2":
            decision[i] = "white"
        elif name in amp_lists.gray_list:
            made_by = [decision.get(producer[n]) for n in op.input_names() if n in producer]
            decision[i] = "black" if "black" in made_by else ("white" if "white" in made_by else None)
        else:
            decision[i] = "black"  # "for numerical safety", as paddle: ops in no list compute in float32
        for n in op.output_names():
            producer[n] = i
            if decision[i] is not None and n is not None and block.has_var(n) and block.var(n).dtype in _FLOATS:
                leaves[n] = low if decision[i] == "white" else dtypes.float32
    return decision


def _decide_group(block, first: OpDesc, amp_lists, level, black, low, dtype, use_fp16_guard, use_promote,
                  producer, decision, leaves):  # fmt: skip
    """'white' | 'black' | None for the Paddle op that the group of `first` computes (the rule of decide_dtypes,
    applied to the one op: its name, its inputs, the producers of its inputs)."""
    group = first.group
    name = group.paddle_op
    guarded = level != "O2" or not use_fp16_guard or GUARD in first.scope
    if first.role != ROLE_FORWARD:
        return None
    black_var = any(n in (amp_lists.black_varnames or ()) for n in (*group.inputs, group.output))
    if name in black or not guarded or black_var:
        return "black"
    if name in amp_lists.white_list:
        return "white"
    if use_promote:
        keep = keeps_float32_parameters(name, dtype)
        came = [_group_input_dtype(block, group.inputs[k], leaves, low, level, keep)
                for k in cast_inputs(name, len(group.inputs)) if group.inputs[k] is not None]  # fmt: skip
        return "black" if dtypes.float32 in came else "white"
    if level == "O2":
        return "white"
    if name in amp_lists.gray_list:
        made_by = [decision.get(producer[n]) for n in group.inputs if n in producer]
        return "black" if "black" in made_by else ("white" if "white" in made_by else None)
    return "black"  # an op in no list computes in float32, as any other


def _group_input_dtype(block, name: str, leaves: dict, low, level: str, keep_float32_parameters: bool):
    """The dtype an input of a group has after the rewrite; under O2 a parameter has the dtype decorate gives it."""
    if level == "O2" and keep_float32_parameters and block.has_var(name) and block.var(name).is_parameter:
        return block.var(name).dtype
    return _leaves_as(block, name, leaves, low, level)


def _group_output_dtype(which: str, low):
    """The group's output dtype after the rewrite: x's, which the rule always casts (see _enter_group)."""
    return low if which == "white" else dtypes.float32


def _leaves_as(block, name: str, leaves: dict, low, level: str):
    """The dtype variable `name` has after the rewrite: its producer's decision, low for O2's parameters (paddle
    casts them first), else its own dtype (None when not floating)."""
    if name in leaves:
        return leaves[name]
    if not block.has_var(name):
        return None
    var = block.var(name)
    if var.dtype not in _FLOATS:
        return None
    return low if level == "O2" and var.is_parameter else var.dtype


def _writes_state(block, op: OpDesc) -> bool:
    return any(block.has_var(n) and block.var(n).persistable for n in op.output_names())


def _reads_black_var(op: OpDesc, amp_lists) -> bool:
    names = amp_lists.black_varnames or ()
    return any(n in names for n in op.input_names() + op.output_names())


def rewrite_program(program: Program, amp_lists=None, dtype: str = "float16", level: str = "O1",
                    use_fp16_guard: bool = False, use_promote: bool = False,
                    low_suffix: str = "fp16") -> Program:  # fmt: skip
    """Insert the casts into `program` itself (see the module docstring); returns it. `low_suffix` ends the names
    of the casts to the low dtype: "fp16" (paddle's float16 code path, whatever the dtype) or "bf16" (its bf16
    module)."""
    low = dtypes.to_dtype(dtype)
    block = program.global_block()
    amp_lists = _lists(amp_lists, dtype)
    decision = decide_dtypes(program, amp_lists, dtype, level, use_fp16_guard, use_promote)
    # O2's low parameters include those a black-list op reads (paddle: an embedding table used by a matmul too):
    # stored low, such an op reads them cast back to float32
    stored_low = amp_lists.black_list - FP16_BLACK_LIST - amp_lists.unsupported_list if level == "O2" else set()
    new_ops: list[OpDesc] = []
    casts = _Casts(block, new_ops, {**_SHORT, low.name: low_suffix})
    group, renames, rounded_to = None, {}, None
    for i, op in enumerate(block.ops):
        which = decision.get(i)
        if op.group is not None:  # one Paddle op: its inputs are cast once, the ops inside compute as built
            if op.group is not group:
                group, renames, rounded_to = op.group, {}, None
                if which is not None:
                    renames, rounded_to = _enter_group(block, op, which, low, level, dtype, casts)
            _rename_inputs(program, op, renames)
            new_ops.append(op)
            if rounded_to is not None and group.output in op.output_names():
                _round_output(block, op, group.output, rounded_to, new_ops)
            continue
        if which is not None:
            want = low if which == "white" else dtypes.float32
            round_trip = which == "black" and paddle_op_name(op.type, op.attrs) in stored_low
            round_trip = round_trip and (not use_fp16_guard or GUARD in op.scope)
            per_input = []  # the casts each input needed, to stand in reverse order as paddle inserts them
            for names in op.inputs.values():
                for k, n in enumerate(names):
                    if n is None or not block.has_var(n):
                        continue
                    var = block.var(n)
                    if var.dtype not in _FLOATS:
                        continue
                    start = len(new_ops)
                    if round_trip and var.is_parameter and var.dtype is dtypes.float32:
                        n = casts.to(n, low, op)
                    elif var.dtype is want:
                        continue
                    names[k] = casts.to(n, want, op)
                    per_input.append(new_ops[start:])
                    del new_ops[start:]
            for made in reversed(per_input):
                new_ops.extend(made)
        new_ops.append(op)
        _infer_outputs(block, op)
    block.ops = new_ops
    program._version += 1
    return program


class _Casts:
    """The cast variables a rewrite makes ("x.cast_fp16"): each made once, then shared by every op that reads it.
    `suffixes` names each dtype's casts ({"float16": "fp16", "float32": "fp32", ...})."""

    def __init__(self, block, new_ops: list, suffixes: dict) -> None:
        self.block, self.new_ops, self.suffixes = block, new_ops, suffixes
        self.made: set[str] = set()

    def to(self, name: str, dtype, like: OpDesc) -> str:
        """The name of `name` cast to `dtype`, appending its cast op (with `like`'s role and scope) the first time
        it is needed; the cast variable keeps the input's stop_gradient, as paddle's."""
        key = f"{name}.cast_{self.suffixes[dtype.name]}"
        if key not in self.made:
            var = self.block.var(name)
            self.block.create_var(key, var.shape, dtype, stop_gradient=var.stop_gradient)
            self.new_ops.append(_cast_op(name, key, dtype, like))
            self.made.add(key)
        return key


def _enter_group(block, first: OpDesc, which: str, low, level: str, dtype: str, casts: _Casts):
    """Cast the group's inputs for the Paddle op it computes, as decided (`which`): the inputs the rule casts go to
    the op's dtype; under O2 the parameters decorate would cast go to the low dtype; then each low input gets a
    float32 copy, as the fused kernel computes in float32. Returns ({input name: the name the group's ops read
    instead}, the dtype to round the output to, or None to leave it as built)."""
    group = first.group
    want = low if which == "white" else dtypes.float32
    cast = cast_inputs(group.paddle_op, len(group.inputs))
    keep_parameters = keeps_float32_parameters(group.paddle_op, dtype)
    renames, x_dtype = {}, None
    for k, name in enumerate(group.inputs):
        if name is None or not block.has_var(name) or block.var(name).dtype not in _FLOATS:
            continue
        var = block.var(name)
        if k in cast:
            target = want
        elif level == "O2" and var.is_parameter and not keep_parameters:
            target = low
        else:
            target = var.dtype
        now = name if target is var.dtype else casts.to(name, target, first)
        if target is not dtypes.float32:
            now = casts.to(now, dtypes.float32, first)
        if now != name:
            renames[name] = now
        if k == 0:
            x_dtype = target
    built = block.var(group.output).dtype if block.has_var(group.output) else None
    rounded_to = x_dtype if x_dtype is not None and x_dtype is not built and built is dtypes.float32 else None
    return renames, rounded_to


def _rename_inputs(program: Program, op: OpDesc, renames: dict) -> None:
    """Make `op`, and the ops of its sub-blocks (a switch's branches read the outer variables by name), read the
    renamed variables."""
    if not renames:
        return
    descs = [op] + [d for k, v in op.attrs.items() if k.endswith("_block")
                    for idx in _block_and_descendants(program, v) for d in program.blocks[idx].ops]  # fmt: skip
    for desc in descs:
        for names in desc.inputs.values():
            names[:] = [renames.get(n, n) for n in names]


def _round_output(block, op: OpDesc, name: str, dtype, new_ops: list) -> None:
    """`op` writes the group's float32 result into `name@fp32`, and a cast rounds it once into `name` (`dtype`)."""
    var = block.var(name)
    inner = f"{name}@fp32"
    block.create_var(inner, var.shape, dtypes.float32, stop_gradient=var.stop_gradient)
    for names in op.outputs.values():
        names[:] = [inner if n == name else n for n in names]
    new_ops.append(_cast_op(inner, name, dtype, op))
    _set_dtype(var, dtype)


def _cast_op(name: str, out: str, dtype, like: OpDesc) -> OpDesc:
    """`out = cast(name, dtype)`, with the role and Layer scope of the op it feeds."""
    return OpDesc("cast", slot_inputs(_CAST, [name]), {"Out": [out]}, {"dtype": dtype.np}, like.role, like.scope)


def _infer_outputs(block, op: OpDesc) -> None:
    """Give the op's output variables the dtypes its shape/dtype rule gives for its (possibly cast) inputs."""
    op_def = OPS.get(op.type)
    if op_def is None or op.type == "cast":
        return
    metas = [None if n is None else Meta(tuple(block.var(n).shape), block.var(n).dtype) for n in flat_inputs(op)]
    try:
        out = op_def.infer_meta(*metas, **op.attrs)
    except Exception:  # an op whose rule cannot run on these dtypes keeps its outputs as they were
        return
    outs = out if isinstance(out, tuple) and not isinstance(out, Meta) else (out,)
    for n, meta in zip(op.output_names(), outs):
        if n is not None and block.has_var(n) and not block.var(n).persistable and meta is not None:
            var = block.var(n)
            if var.dtype is not meta.dtype and var.dtype in _FLOATS:
                _set_dtype(var, meta.dtype)


def low_parameters(program: Program, dtype: str = "float16") -> list:
    """The names of the parameters that `program` computes with in `dtype` after the rewrite (paddle 2.6's O2
    marks these float16 in the Program and `cast_parameters_to_fp16` converts their values): those the rewrite
    casts to `dtype`, and those already marked `dtype`. A parameter only black-list ops read is not among them."""
    low = dtypes.to_dtype(dtype)
    params = {p.name: p for block in program.blocks for p in block.all_parameters()}
    names = {n for n, p in params.items() if p.dtype is low}
    for block in program.blocks:
        for op in block.ops:
            if op.type == "cast" and op.attrs.get("dtype") == low.np:
                names.update(n for n in op.input_names() if n in params)
    return sorted(names)


def mark_dtype(program: Program, names, dtype: str) -> None:
    """Declare the variables `names` of `program` (in every block) as `dtype`: what their values now are."""
    low = dtypes.to_dtype(dtype)
    for block in program.blocks:
        for n in names:
            if n in block.vars:
                _set_dtype(block.vars[n], low)


def _set_dtype(var, dtype) -> None:
    var._data = np.broadcast_to(np.zeros((), dtype.np), var._data.shape)


def amp_cast(program: Program, amp_lists=None, dtype: str = "float16", level: str = "O1",
             use_fp16_guard: bool = False, use_promote: bool = False) -> Program:  # fmt: skip
    """A copy of `program` with AMP's casts inserted (the input is not changed)."""
    if not isinstance(program, Program):
        raise TypeError(f"amp_cast: program must be a Program, got {type(program).__name__}")
    if level not in ("O1", "O2"):
        raise ValueError(f"amp_cast: level must be 'O1' or 'O2', got {level!r}")
    return rewrite_program(program.clone(), amp_lists, dtype, level, use_fp16_guard, use_promote)
