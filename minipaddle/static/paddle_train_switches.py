"""The train/eval switches of a training Program (static/train_switch.py) written as Paddle's one op each.

minipaddle builds F.batch_norm and F.dropout in training mode as `cond(@IS_TRAINING@, training ops, inference
ops)`, so that `clone(for_test=True)` flips one constant. Paddle's training Program has one op there instead,
which its kernel runs in training mode and append_backward gives a grad op (static/paddle_grad_ops.py):

    batch_norm   X, Mean, Variance, Scale, Bias, is_test False  -> Y, MeanOut and VarianceOut (Mean and Variance
                 themselves: the moving statistics are updated in place), SavedMean, SavedVariance, ReserveSpace
    dropout      X, is_test False                               -> Out, Mask (uint8, 1 where a value was kept)

The Paddle op's attributes are read back from the ops of the switch's training branch: batch_norm's epsilon and
normalized axes from its `standardize`, its momentum from the `scale` of the moving mean; dropout's probability
from the `full_like` its mask is drawn from (keep with probability 1 - p) and its mode from the `dropout` op's
scale (1 / (1 - p) upscales in training, 1 leaves inference to scale). Paddle's seed and fix_seed are extra
attributes paddle 2.6.2 leaves out of its ProgramDesc, so neither is written.
"""

from __future__ import annotations

from minipaddle.static.paddle_ops import Steps, Temp
from minipaddle.static.program import TRAINING_FLAG

__all__ = ["paddle_switch_ops"]


def paddle_switch_ops(program, forward: list) -> dict:
    """{id(cond op): Steps of the one Paddle op} for each train/eval switch among the `forward` ops of block 0.

    NotImplementedError names a switch that is not Paddle's one op (dropout along axes, which paddle 2.6 writes as
    uniform_random, greater_equal and multiply; a normalization without scale or shift)."""
    out = {}
    for op in forward:
        if op.type == "cond" and op.inputs["pred"] == [TRAINING_FLAG]:
            training = program.blocks[op.attrs["true_block"]].ops
            if op.group is not None and op.group.paddle_op == "batch_norm":
                out[id(op)] = _batch_norm(op, training, program)
            elif any(o.type == "dropout" for o in training):
                out[id(op)] = _dropout(op, training, program)
            else:
                kinds = sorted({o.type for o in training})
                raise NotImplementedError(f"a train/eval switch of the ops {kinds} is no Paddle op")
    return out


def _batch_norm(op, training: list, program) -> Steps:
    x, mean, var, scale, bias = op.group.inputs
    if scale is None or bias is None:
        raise NotImplementedError("batch_norm without a scale or a shift (Paddle's op reads both)")
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
    inputs = {"X": [x], "Mean": [mean], "Variance": [var], "Scale": [scale], "Bias": [bias]}
    outputs = {"Y": [y], "MeanOut": [mean], "VarianceOut": [var], "SavedMean": [saved_mean],
               "SavedVariance": [saved_var], "ReserveSpace": [reserve]}  # fmt: skip
    return Steps([("batch_norm", inputs, outputs, attrs)], temps)


def _dropout(op, training: list, program) -> Steps:
    types = [o.type for o in training]
    if types != ["full_like", "bernoulli", "cast", "dropout"]:  # a `max` in between shares the mask along axes
        raise NotImplementedError(f"dropout built of {types}: along axes, paddle 2.6 writes no dropout op")
    keep, drop = training[0], training[-1]
    p = 1.0 - float(keep.attrs["value"])
    x = drop.inputs["x"][0]
    (out,) = op.outputs["Out"]
    xv = program.global_block().var(x)
    mask = f"{out}@mask"
    mode = "downgrade_in_infer" if float(drop.attrs["scale"]) == 1.0 else "upscale_in_train"
    attrs = {"dropout_prob": p, "is_test": False, "dropout_implementation": mode}
    return Steps([("dropout", {"X": [x]}, {"Out": [out], "Mask": [mask]}, attrs)], {mask: Temp(xv.shape, "uint8")})
