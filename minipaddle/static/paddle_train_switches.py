"""The train/eval switches of a training Program (static/train_switch.py) written as Paddle's one op each.

minipaddle builds F.batch_norm and F.dropout in training mode as `cond(@IS_TRAINING@, training ops, inference
ops)`, so that `clone(for_test=True)` flips one constant. Paddle's training Program has one op there instead,
which its kernel runs in training mode and append_backward gives a grad op (static/paddle_grad_ops.py):

    batch_norm   X, Mean, Variance, Scale, Bias, is_test False  -> Y, MeanOut and VarianceOut (Mean and Variance
                 themselves: the moving statistics are updated in place), SavedMean, SavedVariance, ReserveSpace
    dropout      X, is_test False                               -> Out, Mask (uint8, 1 where a value was kept)

Dropout with p=1 (minipaddle's training branch is scale(x, 0)) is that dropout op with dropout_prob 1.0, as paddle
writes it (its mode from the inference branch: downscale_in_infer scales there); so is p=1 along axes with
upscale_in_train, which paddle 2.6.2 cannot build (it divides by 1 - p = 0). Dropout along axes has no Paddle op:
paddle 2.6 writes it as F.dropout's own ops, which are written here alike (with Paddle's backward of them:
elementwise_mul_grad, cast, scale), p=1 with downscale_in_infer too (the mask all zeros, no scale):

    scale(X, 1 / (1 - p)) (upscale_in_train only), shape(X), slice of each dropped axis's size, fill_constant 1 of
    the others, uniform_random over that shape (ShapeTensorList), fill_constant p, greater_equal, cast of the
    scaled X to its dtype, cast of the kept mask to it, elementwise_mul

The Paddle op's attributes are read back from the ops of the switch's training branch: batch_norm's epsilon and
normalized axes from its `standardize`, its momentum from the `scale` of the moving mean; dropout's probability
from the `full_like` its mask is drawn from (keep with probability 1 - p) and its mode from the `dropout` op's
scale (1 / (1 - p) upscales in training, 1 leaves inference to scale). Paddle's seed and fix_seed are extra
attributes paddle 2.6.2 leaves out of its ProgramDesc, so neither is written.

BatchNorm with weight_attr=False / bias_attr=False has no scale / shift (paddle 2.6.2's BatchNorm1D/2D/3D neither):
its batch_norm leaves Scale / Bias empty, as paddle writes it and its kernel runs it (a scale of ones, a shift of
zeros). Paddle's append_backward cannot build the grad of such a batch_norm (its batch_norm_grad needs Scale), so
a Program with a backward gets what Paddle's SyncBatchNorm and GroupNorm keep for weight_attr=False: a fixed scale of
ones (a shift of zeros), here a fill_constant before the op, which no gradient reaches: paddle trains on from it.
"""

from __future__ import annotations

from minipaddle.static.paddle_ops import DTYPE_NUMBERS, Steps, Temp
from minipaddle.static.program import ROLE_BACKWARD, TRAINING_FLAG

__all__ = ["paddle_switch_ops"]


def paddle_switch_ops(program, forward: list) -> dict:
    """{id(cond op): Steps of the one Paddle op} for each train/eval switch among the `forward` ops of block 0.

    NotImplementedError names a switch that is none of those above."""
    out = {}
    for op in forward:
        if op.type == "cond" and op.inputs["pred"] == [TRAINING_FLAG]:
            training = program.blocks[op.attrs["true_block"]].ops
            if op.group is not None and op.group.paddle_op == "batch_norm":
                out[id(op)] = _batch_norm(op, training, program)
            elif any(o.type == "dropout" for o in training) or _keeps_nothing(training):
                out[id(op)] = _dropout(op, training, program)
            else:
                kinds = sorted({o.type for o in training})
                raise NotImplementedError(f"a train/eval switch of the ops {kinds} is no Paddle op")
    return out


def _batch_norm(op, training: list, program) -> Steps:
    x, mean, var, scale, bias = op.group.inputs
    (standardize,) = [o for o in training if o.type == "standardize"]
    (decay,) = [o for o in training if o.type == "scale" and o.inputs["x"] == [mean]]
    xv = program.global_block().var(x)
    (channel,) = sorted(set(range(xv.ndim)) - {a % xv.ndim for a in standardize.attrs["axes"]})
    if channel not in (1, xv.ndim - 1):
        raise NotImplementedError(f"batch_norm over channel axis {channel} (Paddle's is 1 or the last)")
    c = xv.shape[channel]
    (y,) = op.outputs["Out"]  # (not the group's output name: a read Program renames it to the file's)
    temps = {f"{y}@saved_mean": Temp([c], xv.dtype), f"{y}@saved_variance": Temp([c], xv.dtype),
             f"{y}@reserve_space": Temp([-1], xv.dtype)}  # fmt: skip
    saved_mean, saved_var, reserve = temps
    attrs = {"epsilon": float(standardize.attrs["epsilon"]), "momentum": float(decay.attrs["scale"]),
             "data_layout": "NCHW" if channel == 1 else "NHWC", "is_test": False, "use_global_stats": False,
             "trainable_statistics": False}  # fmt: skip
    steps = []
    with_backward = any(o.role == ROLE_BACKWARD for o in program.global_block().ops)
    if with_backward:  # a fixed scale of ones and shift of zeros where there is none (see the module's docstring)
        dtype = program.global_block().var(mean).dtype.name
        for value, which in ((1.0, "scale"), (0.0, "bias")):
            if (scale if which == "scale" else bias) is None:
                fixed = f"{y}@fixed_{which}"
                temps[fixed] = Temp([c], dtype)
                steps.append(("fill_constant", {}, {"Out": [fixed]}, {"dtype": DTYPE_NUMBERS[dtype], "shape": [c],
                              "value": value, "str_value": str(value)}))  # fmt: skip
                scale, bias = (fixed, bias) if which == "scale" else (scale, fixed)
    inputs = {"X": [x], "Mean": [mean], "Variance": [var], "Scale": [scale] if scale else [],
              "Bias": [bias] if bias else []}  # fmt: skip
    outputs = {"Y": [y], "MeanOut": [mean], "VarianceOut": [var], "SavedMean": [saved_mean],
               "SavedVariance": [saved_var], "ReserveSpace": [reserve]}  # fmt: skip
    return Steps([*steps, ("batch_norm", inputs, outputs, attrs)], temps)


def _keeps_nothing(training: list) -> bool:
    """Whether a switch's training branch is dropout's with p = 1: x scaled by 0."""
    return [o.type for o in training] == ["scale"] and float(training[0].attrs["scale"]) == 0.0


def _dropout(op, training: list, program) -> Steps:
    types = [o.type for o in training]
    (out,) = op.outputs["Out"]
    if _keeps_nothing(training):  # p = 1
        downscale = bool(program.blocks[op.attrs["false_block"]].ops)  # (inference scales by 1 - p = 0)
        return _dropout_op(training[0].inputs["x"][0], out, 1.0, downscale, program)
    if types == ["full_like", "max", "bernoulli", "cast", "dropout"]:  # one mask along the axes `max` leaves out
        return _dropout_along_axes(training, out, program)
    if types != ["full_like", "bernoulli", "cast", "dropout"]:
        raise NotImplementedError(f"dropout built of {types} has no Paddle ops here")
    keep, drop = training[0], training[-1]
    downscale = float(drop.attrs["scale"]) == 1.0
    return _dropout_op(drop.inputs["x"][0], out, 1.0 - float(keep.attrs["value"]), downscale, program)


def _dropout_op(x: str, out: str, p: float, downscale: bool, program) -> Steps:
    mask = f"{out}@mask"
    mode = "downgrade_in_infer" if downscale else "upscale_in_train"
    attrs = {"dropout_prob": p, "is_test": False, "dropout_implementation": mode}
    shape = program.global_block().var(x).shape
    return Steps([("dropout", {"X": [x]}, {"Out": [out], "Mask": [mask]}, attrs)], {mask: Temp(shape, "uint8")})


def _dropout_along_axes(training: list, out: str, program) -> Steps:
    keep, most, _, _, drop = training
    p = float(f"{1.0 - float(keep.attrs['value']):.7g}")  # (the p the user wrote: 1 - 0.7 is 0.30000000000000004)
    x = drop.inputs["x"][0]
    xv = program.global_block().var(x)
    nd, dtype = xv.ndim, xv.dtype.name
    axes = [i for i in range(nd) if i not in {a % nd for a in most.attrs["axis"]}]
    mask_shape = [-1] * nd  # (as paddle declares a shape read from ShapeTensorList: unknown)
    temps, steps = {}, []

    def step(kind: str, inputs: dict, name: str, dims: list, dtype_: str, **attrs) -> str:
        temps[f"{out}@{name}"] = Temp(dims, dtype_)
        steps.append((kind, inputs, {"Out": [f"{out}@{name}"]}, attrs))
        return f"{out}@{name}"

    src = x
    if float(drop.attrs["scale"]) != 1.0:  # upscale_in_train
        src = step("scale", {"X": [x]}, "scaled", xv.shape, dtype, scale=float(drop.attrs["scale"]), bias=0.0,
                   bias_after_scale=True)  # fmt: skip
    shape = step("shape", {"Input": [x]}, "shape", [nd], "int32")
    sizes = {i: step("slice", {"Input": [shape]}, f"size{i}", [], "int32", axes=[0], starts=[i], ends=[i + 1],
                     decrease_axis=[0], infer_flags=[1]) for i in axes}  # fmt: skip
    for i in range(nd):
        if i not in sizes:
            sizes[i] = step("fill_constant", {}, f"size{i}", [], "int32", dtype=DTYPE_NUMBERS["int32"], shape=[],
                            value=1.0, str_value="1", force_cpu=True)  # fmt: skip
    uniform = step("uniform_random", {"ShapeTensorList": [sizes[i] for i in range(nd)]}, "uniform", mask_shape,
                   "float32", shape=[-1 if i in axes else 1 for i in range(nd)], dtype=DTYPE_NUMBERS["float32"],
                   min=0.0, max=1.0, seed=0)  # fmt: skip
    prob = step("fill_constant", {}, "p", [1], "float32", dtype=DTYPE_NUMBERS["float32"], shape=[1], value=p,
                str_value=str(p))  # fmt: skip
    kept = step("greater_equal", {"X": [uniform], "Y": [prob]}, "kept", mask_shape, "bool", axis=-1)
    number = DTYPE_NUMBERS[dtype]
    values = step("cast", {"X": [src]}, "values", xv.shape, dtype, in_dtype=number, out_dtype=number)
    mask = step("cast", {"X": [kept]}, "mask", mask_shape, dtype, in_dtype=DTYPE_NUMBERS["bool"], out_dtype=number)
    steps.append(("elementwise_mul", {"X": [values], "Y": [mask]}, {"Out": [out]}, {"axis": -1}))
    return Steps(steps, temps)
