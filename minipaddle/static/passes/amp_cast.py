"""Static AMP's rewrite: a Program pass that inserts `cast` ops so white-list ops compute in float16 (or bfloat16)
and black-list ops in float32 (paddle 2.6's `rewrite_program` / `cast_model_to_fp16`).

    O1: an op on the black list (or with no low-precision kernel) is float32, one on the white list low; a gray op
        (static AMP's third list: element-wise ops, activations, pooling, reshapes) follows the ops that made its
        inputs: float32 if one of them is black, low if one is white; any other op stays float32, for safety.
    O2 ("pure"): every op computes low except the black list's, which under O2 loses paddle's float16 black list
        (exp, softmax, the losses, ...: `black_list - FP16_BLACK_LIST`, as paddle 2.6's cast_model_to_fp16): only
        custom and EXTRA_BLACK_LIST ops (interpolations, embedding lookups, scatter) stay float32.
    use_promote=True (paddle.static.amp.decorate's flag, O1 and O2): an op on neither the white nor the black list
        computes in float32 if any of its floating inputs is float32 as the rewrite leaves it, else low (paddle's
        get_promote_dtype). Under O2 parameters count as low: paddle casts them to the low dtype first.

Each input whose dtype differs from what its op computes in gets a cast, `x.cast_fp16` (made once, then shared by
every op that needs it); the output variables take the dtypes the ops' shape/dtype rules now give. Parameters,
data and other persistable variables keep their dtypes (O1 casts them on the fly), and ops that write into them
(in-place updates) are left alone.

`amp_cast(program)` returns a rewritten copy (draw it with `passes.diff`); `rewrite_program` rewrites in place
(what `paddle.static.amp.decorate` does before appending backward).
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.op import OPS, Meta
from minipaddle.ops.amp_lists import FP16_BLACK_LIST
from minipaddle.ops.amp_names import paddle_op_name
from minipaddle.static.builder import flat_inputs, slot_inputs
from minipaddle.static.passes.amp_lists import AutoMixedPrecisionLists
from minipaddle.static.program import ROLE_FORWARD, OpDesc, Program

__all__ = ["amp_cast", "rewrite_program", "decide_dtypes"]

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
    for i, op in enumerate(block.ops):
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
                    use_fp16_guard: bool = False, use_promote: bool = False) -> Program:  # fmt: skip
    """Insert the casts into `program` itself (see the module docstring); returns it."""
    low = dtypes.to_dtype(dtype)
    block = program.global_block()
    decision = decide_dtypes(program, amp_lists, dtype, level, use_fp16_guard, use_promote)
    new_ops: list[OpDesc] = []
    made: dict[str, str] = {}  # "x" + dtype -> the cast variable's name
    for i, op in enumerate(block.ops):
        which = decision.get(i)
        if which is not None:
            want = low if which == "white" else dtypes.float32
            for names in op.inputs.values():
                for k, n in enumerate(names):
                    if n is None or not block.has_var(n):
                        continue
                    var = block.var(n)
                    if var.dtype not in _FLOATS or var.dtype is want:
                        continue
                    key = f"{n}.cast_{_SHORT[want.name]}"
                    if key not in made:
                        block.create_var(key, var.shape, want)
                        new_ops.append(_cast_op(n, key, want, op))
                        made[key] = key
                    names[k] = key
        new_ops.append(op)
        _infer_outputs(block, op)
    block.ops = new_ops
    program._version += 1
    return program


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
