"""minipaddle's optimizer update ops as Paddle's one optimizer op per parameter, for a training Program being
written as Paddle's ProgramDesc (static/pdmodel.py).

minipaddle's optimizers append small readable update ops per parameter (optimizer/*.py); Paddle 2.6 has one fused
op per parameter, with the same state variables under the same names (fc_0.w_0_moment1_0, learning_rate_0, ...),
so the translation is by pattern, per parameter:

    sgd                                              -> sgd
    momentum_velocity, momentum_param                -> momentum (mu, use_nesterov, l2 decay, rescale_grad)
    ema, ema_square, adam_param, scale, scale        -> adam, or adamw when the optimizer is AdamW
                                                        (beta1 = ema's decay, beta2 = ema_square's, epsilon, coeff)
    ema, ema_square, sparse_adam_param, scale, scale -> adam on a sparse gradient (and lazy_ema, lazy_ema_square
                                                        first with lazy_mode)

With multi_precision (a float16/bfloat16 parameter updated through its float32 master weight) minipaddle casts the
gradient to float32 and its update op writes the master and the parameter (`param_dtype`, Out = [master, param]);
Paddle's op takes the low-precision gradient itself and writes both too: Param and ParamOut the parameter,
MasterParam and MasterParamOut the master, multi_precision True.

The gradient clip's and weight decay's ops come before, written by static/paddle_clip_ops.py. Any other update op
(an op of another optimizer) gives NotImplementedError naming it: the caller then keeps minipaddle's JSON program.
"""

from __future__ import annotations

import numpy as np

__all__ = ["paddle_optimizer_ops"]

ROLE_OPTIMIZE = 0x2

_ADAM_SLOTS = (["Beta1Pow", "Beta1Tensor", "Beta2Pow", "Beta2Tensor", "EpsilonTensor", "Grad", "LearningRate",
                "MasterParam", "Moment1", "Moment2", "Param", "SkipUpdate"],
               ["Beta1PowOut", "Beta2PowOut", "Moment1Out", "Moment2Out", "ParamOut"])  # fmt: skip


_ADAM = ["ema", "ema_square", "adam_param", "scale", "scale"]
# On a sparse gradient: Paddle's same adam op, whose SelectedRows Grad picks its sparse kernel (the rows: the mask
# input, which Paddle's gradient holds itself).
# With lazy_mode the moments too move in the gradient's rows only.
_SPARSE_ADAM = (["ema", "ema_square", "sparse_adam_param", "scale", "scale"],
                ["lazy_ema", "lazy_ema_square", "sparse_adam_param", "scale", "scale"])  # fmt: skip


def _not_translated(op, why: str):
    return NotImplementedError(f"write_program_desc: the optimizer op '{op.type}' has no Paddle optimizer op here "
                               f"({why}; static/paddle_optimizer_ops.py)")  # fmt: skip


def paddle_optimizer_ops(ops: list, is_adamw: bool, clipped=()) -> list:
    """[(Paddle type, inputs {slot: names}, outputs, attrs {name: (Paddle AttrType name, value)})] for the
    minipaddle optimize-role ops `ops`, one Paddle op per parameter in their order; `clipped`: the variables a
    gradient clip wrote the gradients into (ClipGradByNorm's, ClipGradByValue's), gradients as `p@GRAD` are."""
    ops, low_grads = _without_gradient_casts(ops, set(clipped))
    out, i = [], 0
    while i < len(ops):
        op = ops[i]
        if op.type == "sgd":
            p, g, lr = op.inputs["param"][0], op.inputs["grad"][0], op.inputs["lr"][0]
            out.append(_op("sgd", p, g, {"Param": [p], "Grad": [g], "LearningRate": [lr], "MasterParam": []},
                           {"ParamOut": [p]}, {"multi_precision": ("BOOLEAN", False)}, op))  # fmt: skip
            i += 1
        elif op.type == "momentum_velocity":
            out.append(_momentum(op, ops[i + 1] if i + 1 < len(ops) else None))
            i += 2
        elif op.type in ("ema", "lazy_ema"):
            out.append(_adam(ops[i : i + 5], is_adamw))
            i += 5
        else:
            raise _not_translated(op, "not an update of sgd, momentum, adam or adamw")
    return [_with_low_grad(update, low_grads) for update in out]


def _without_gradient_casts(ops: list, clipped: set) -> tuple:
    """The ops without multi_precision's casts of float16/bfloat16 gradients to float32, and {cast output: the
    gradient it casts}: Paddle's update op reads the gradient itself."""
    kept, low_grads = [], {}
    for op in ops:
        source = op.inputs["x"][0] if op.type == "cast" else None
        grad = source is not None and (source.endswith("@GRAD") or source in clipped)
        if grad and np.dtype(op.attrs["dtype"]) == np.float32:
            low_grads[op.outputs["Out"][0]] = source
        else:
            kept.append(op)
    return kept, low_grads


def _with_low_grad(update: tuple, low_grads: dict) -> tuple:
    kind, inputs, outputs, attrs = update
    inputs = {slot: [low_grads.get(n, n) for n in names] for slot, names in inputs.items()}
    param, grad = attrs["op_role_var"][1]
    attrs = {**attrs, "op_role_var": ("STRINGS", [param, low_grads.get(grad, grad)])}
    return kind, inputs, outputs, attrs


def _op(kind: str, param: str, grad: str, inputs: dict, outputs: dict, attrs: dict, step) -> tuple:
    """One Paddle update op; `step` is minipaddle's op that writes the parameter: with `param_dtype`
    (multi_precision) `param` is the float32 master, and the op writes the parameter too (its Out[1])."""
    if step.attrs.get("param_dtype") is not None:
        master, param = step.outputs["Out"]
        inputs = {**inputs, "Param": [param], "MasterParam": [master]}
        outputs = {**outputs, "ParamOut": [param], "MasterParamOut": [master]}
        attrs = {**attrs, "multi_precision": ("BOOLEAN", True)}
    attrs = {**attrs, "op_role": ("INT", ROLE_OPTIMIZE), "op_role_var": ("STRINGS", [param, grad])}
    return kind, inputs, outputs, attrs


def _momentum(vel, step) -> tuple:
    if step is None or step.type != "momentum_param" or step.inputs["velocity"] != vel.inputs["velocity"]:
        raise _not_translated(vel, "a momentum_velocity not followed by its momentum_param")
    p, g, v, lr = step.inputs["param"][0], step.inputs["grad"][0], vel.inputs["velocity"][0], step.inputs["lr"][0]
    l2 = float(vel.attrs.get("l2_coeff", 0.0))
    attrs = {"mu": ("FLOAT", float(vel.attrs["mu"])), "use_nesterov": ("BOOLEAN", bool(step.attrs["use_nesterov"])),
             "regularization_method": ("STRING", "l2_decay" if l2 else ""), "regularization_coeff": ("FLOAT", l2),
             "rescale_grad": ("FLOAT", float(vel.attrs.get("rescale_grad", 1.0))),
             "multi_precision": ("BOOLEAN", False)}  # fmt: skip
    inputs = {"Param": [p], "Grad": [g], "Velocity": [v], "LearningRate": [lr], "MasterParam": []}
    return _op("momentum", p, g, inputs, {"ParamOut": [p], "VelocityOut": [v]}, attrs, step)


def _adam(group: list, is_adamw: bool) -> tuple:
    kinds = [op.type for op in group]
    if kinds not in (_ADAM, *_SPARSE_ADAM):
        raise _not_translated(group[0], f"an Adam update is ema, ema_square, adam_param (or sparse_adam_param), "
                                        f"scale, scale, not {kinds}")  # fmt: skip
    m1, m2, step, s1, s2 = group
    p, g = step.inputs["param"][0], m1.inputs["x"][0]
    b1, b2 = step.inputs["beta1_pow"][0], step.inputs["beta2_pow"][0]
    names = {"Beta1Pow": [b1], "Beta2Pow": [b2], "Grad": [g], "LearningRate": step.inputs["lr"],
             "Moment1": step.inputs["moment1"], "Moment2": step.inputs["moment2"], "Param": [p]}  # fmt: skip
    if s1.inputs["x"] != [b1] or s2.inputs["x"] != [b2] or m2.inputs["x"] != [g]:
        raise _not_translated(step, "its moments and beta powers are not updated as Adam's")
    inputs = {slot: names.get(slot, []) for slot in _ADAM_SLOTS[0]}
    outputs = {slot: names[slot.removesuffix("Out")] for slot in _ADAM_SLOTS[1]}
    attrs = {"beta1": ("FLOAT", float(m1.attrs["decay"])), "beta2": ("FLOAT", float(m2.attrs["decay"])),
             "epsilon": ("FLOAT", float(step.attrs["epsilon"])),
             "lazy_mode": ("BOOLEAN", bool(step.attrs.get("lazy_mode", False))),
             "min_row_size_to_use_multithread": ("LONG", 1000), "multi_precision": ("BOOLEAN", False),
             "use_global_beta_pow": ("BOOLEAN", False)}  # fmt: skip
    coeff = float(step.attrs.get("coeff", 0.0))
    if not is_adamw and not coeff:  # an update with decoupled weight decay in it is AdamW's
        return _op("adam", p, g, inputs, outputs, attrs, step)
    attrs.update({"coeff": ("FLOAT", coeff), "with_decay": ("BOOLEAN", bool(coeff)), "lr_ratio": ("FLOAT", 1.0)})
    return _op("adamw", p, g, inputs, outputs, attrs, step)
