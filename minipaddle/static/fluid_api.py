"""What paddle 2.6 keeps of fluid's API in paddle.static: WeightNormParamAttr (a weight kept as a norm g and a
direction v), auc (ROC-AUC whose counters live in persistable variables across Executor runs), ctr_metric_bundle
(CTR sums kept the same way), and the accelerator place lists of a CPU build."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import STATE, static_mode_off, unique_name
from minipaddle.core.tensor import Tensor
from minipaddle.nn.initializer import Assign
from minipaddle.nn.param_attr import ParamAttr
from minipaddle.ops.fluid_ops import Auc
from minipaddle.static.builder import slot_inputs
from minipaddle.static.parameters import declare_parameter, declare_persistable
from minipaddle.static.program import default_main_program
from minipaddle.tensor.checks import check_tensor

__all__ = ["WeightNormParamAttr", "auc", "ctr_metric_bundle", "cuda_places", "xpu_places"]


# ---- weight normalization ---------------------------------------------------------------------------------------


class WeightNormParamAttr(ParamAttr):
    """A ParamAttr that makes a weight w = g * v / ||v|| (Salimans & Kingma, 2016) in static mode.

    A static layer asking for weight `fc_0.w_0` gets two parameters instead, `fc_0.w_0_g` (the norms: shape 1
    everywhere but along `dim`, or all ones for dim=None) and `fc_0.w_0_v` (the direction, the weight's shape,
    drawn by `initializer`), and the Program computes w from them; the startup Program sets g = ||v||, so w starts
    as the initializer made it. The norm is taken over every axis but `dim` (over all of v for dim=None).

    Args:
        dim: the axis that keeps one norm per slice, or None for one norm of the whole weight.
        name, initializer, learning_rate, regularizer, trainable, do_model_average, need_clip: as ParamAttr
            (given to both g and v; `name` names the pair `name_g`, `name_v`).

    Example:
        >>> paddle.enable_static()
        >>> x = paddle.static.data("x", [-1, 3], "float32")
        >>> y = paddle.static.nn.fc(x, 4, weight_attr=paddle.static.WeightNormParamAttr(dim=None))
    """

    def __init__(self, dim=None, name=None, initializer=None, learning_rate=1.0, regularizer=None, trainable=True,
                 do_model_average=False, need_clip=True):  # fmt: skip
        if dim is not None and (not isinstance(dim, int) or isinstance(dim, bool) or dim < 0):
            raise TypeError(f"WeightNormParamAttr: dim must be None or a non-negative int, got {dim!r}")
        super().__init__(name, initializer, learning_rate, regularizer, trainable, do_model_average, need_clip)
        self.dim = dim

    def _make_parameter(self, name: str, shape, param_maker, fn: str):
        return make_weight_normalized(self, name, shape, param_maker, fn)


def _plain_attr(attr: WeightNormParamAttr, name: str, initializer) -> ParamAttr:
    return ParamAttr(name, initializer, attr.learning_rate, attr.regularizer, attr.trainable, attr.do_model_average,
                     attr.need_clip)  # fmt: skip


def make_weight_normalized(attr: WeightNormParamAttr, name: str, shape, param_maker, fn: str):
    """The weight w = g * v / ||v|| of a layer parameter called `name`, in the Program being built.

    `param_maker(attr, shape)` makes an initialized dynamic Parameter from a ParamAttr (the layer's own defaults
    apply to v); g starts as ||v||. Both are then declared in the main and startup Programs."""
    if not STATE.static_mode:
        raise RuntimeError(
            f"{fn}: WeightNormParamAttr works in static mode only (paddle.enable_static()); in dynamic mode use "
            "paddle.nn.utils.weight_norm(layer)"
        )
    with static_mode_off():
        v = param_maker(_plain_attr(attr, name + "_v", attr.initializer), shape)
        if attr.dim is not None and attr.dim >= v.ndim:
            raise ValueError(f"{fn}: WeightNormParamAttr's dim must be less than the weight's rank {v.ndim}, "
                             f"got {attr.dim}")  # fmt: skip
        axes = tuple(i for i in range(v.ndim) if i != attr.dim)
        norms = np.sqrt(np.sum(np.square(v.numpy()), axis=axes, keepdims=True))
        g = param_maker(_plain_attr(attr, name + "_g", Assign(norms)), norms.shape)
    g, v = declare_parameter(g), declare_parameter(v)
    norm = ops.sqrt(ops.sum(ops.square(v), axis=axes, keepdim=True))  # no epsilon, as Paddle
    return ops.multiply(v, ops.divide(g, norm))


# ---- auc --------------------------------------------------------------------------------------------------------


def auc(input, label, curve="ROC", num_thresholds=4095, topk=1, slide_steps=1, ins_tag_weight=None):  # noqa: A002
    """The area under the ROC curve of a binary classifier, over all batches run so far and over the last
    `slide_steps` batches.

    The probability of the positive class (input's last column) is put into one of num_thresholds + 1 buckets;
    counters of positive and negative samples per bucket live in four persistable int64 variables, so in static
    mode they add up across Executor runs (reset them by running the startup Program again). In dynamic mode each
    call starts from zero counters.

    Args:
        input: [N, 2] (or [N, 1]) float32/float64 probabilities; the last column is the positive class's.
        label: [N, 1] (or [N]) int32/int64 labels, positive when > 0.
        curve: 'ROC' (Paddle computes the ROC area whatever this says).
        num_thresholds: the number of buckets minus one.
        topk: unused (Paddle's too).
        slide_steps: how many recent batches batch_auc covers.
        ins_tag_weight: accepted as Paddle does and not used (Paddle's op does not read it either).

    Returns:
        (auc, batch_auc, [batch_stat_pos, batch_stat_neg, stat_pos, stat_neg]): two float64 0-d values and the
        counter variables.

    Example:
        >>> predict = paddle.static.data("predict", [-1, 2], "float32")
        >>> label = paddle.static.data("label", [-1, 1], "int64")
        >>> auc_out, batch_auc_out, states = paddle.static.auc(predict, label)
    """
    for arg, t, allowed in (("input", input, ("float32", "float64")), ("label", label, ("int32", "int64")),
                            ("ins_tag_weight", ins_tag_weight, ("float32", "float64"))):  # fmt: skip
        if t is None and arg == "ins_tag_weight":
            continue
        check_tensor(t, "auc", arg)
        if t.dtype.name not in allowed:
            raise TypeError(f"auc: {arg} must be {' or '.join(allowed)}, got {t.dtype.name}")
    for arg, value in (("num_thresholds", num_thresholds), ("slide_steps", slide_steps)):
        if not isinstance(value, int) or isinstance(value, bool) or value < (1 if arg == "num_thresholds" else 0):
            raise ValueError(f"auc: {arg} must be a {'positive' if arg == 'num_thresholds' else 'non-negative'} "
                             f"int, got {value!r}")  # fmt: skip
    length = num_thresholds + 1
    shapes = [[(1 + slide_steps) * length + 1]] * 2 + [[1, length]] * 2
    states = [_counter(shape) for shape in shapes]
    batch_auc, batch_pos, batch_neg = _append_auc(input, label, *states[:2], num_thresholds, slide_steps, curve)
    global_auc, pos, neg = _append_auc(input, label, *states[2:], num_thresholds, 0, curve)
    return global_auc, batch_auc, [batch_pos, batch_neg, pos, neg]


def _counter(shape):
    zeros = np.zeros(shape, np.int64)
    if not STATE.static_mode:
        return Tensor(zeros)
    return declare_persistable(unique_name("_generated_var"), zeros)


def _append_auc(input, label, stat_pos, stat_neg, num_thresholds, slide_steps, curve):  # noqa: A002
    """One auc op; in static mode it writes its new counters back into the persistable variables it read."""
    if not STATE.static_mode:
        return ops.auc(input, label, stat_pos, stat_neg, num_thresholds, slide_steps, curve)
    block = default_main_program().current_block()
    out = block.create_var(unique_name("auc") + ".tmp_0", (), "float64")
    attrs = {"num_thresholds": num_thresholds, "slide_steps": slide_steps, "curve": curve}
    names = [input.name, label.name, stat_pos.name, stat_neg.name]
    block.append_op(Auc.name, slot_inputs(Auc, names), {"Out": [out.name, stat_pos.name, stat_neg.name]}, attrs,
                    scope=STATE.scope)  # fmt: skip
    return out, stat_pos, stat_neg


# ---- ctr_metric_bundle ------------------------------------------------------------------------------------------


def ctr_metric_bundle(input, label, ins_tag_weight=None):  # noqa: A002
    """Running sums for click-through-rate metrics, kept in six persistable float32 variables that add up across
    Executor runs (reset them by running the startup Program again; in dynamic mode each call starts from zero).

    With N the instance number (local_ins_num): MAE = local_abserr / N, RMSE = sqrt(local_sqrerr / N),
    predicted_ctr = local_prob / N, q = local_q / N. Per batch, the sums grow by sum((input - label)^2),
    sum(|input - label|), sum(input), w * sum(sigmoid(input)), sum(label) and w * batch size, where w is
    ins_tag_weight's first value (1 for real data, 0 for fake data; 1 when it is None).

    Args:
        input: [N, 1] (or [N]) float32 predicted probabilities.
        label: float32 labels of input's shape (Paddle's kernels run float32 labels only).
        ins_tag_weight: [N, 1] float32 tags whose first row weighs the batch's q and instance number, or None.

    Returns:
        (local_sqrerr, local_abserr, local_prob, local_q, local_pos_num, local_ins_num): the persistable sums,
        of shape [1] but local_q and local_ins_num, [1, 1] (as Paddle's, which broadcast against the tag).

    Example:
        >>> predict = paddle.static.data("predict", [-1, 1], "float32")
        >>> label = paddle.static.data("label", [-1, 1], "float32")
        >>> sqrerr, abserr, prob, q, pos, ins = paddle.static.ctr_metric_bundle(predict, label)
    """
    for arg, t in (("input", input), ("label", label), ("ins_tag_weight", ins_tag_weight)):
        if t is None and arg == "ins_tag_weight":
            continue
        check_tensor(t, "ctr_metric_bundle", arg)
        if t.dtype.name != "float32":  # Paddle builds other dtypes but its kernels then fail at run time
            raise TypeError(f"ctr_metric_bundle: {arg} must be float32, got {t.dtype.name}")
    if list(input.shape) != list(label.shape):
        raise ValueError(f"ctr_metric_bundle: input and label must have the same shape, got {list(input.shape)} "
                         f"and {list(label.shape)}")  # fmt: skip
    if input.ndim not in (1, 2) or (input.ndim == 2 and input.shape[1] != 1):
        raise ValueError(f"ctr_metric_bundle: input must be [N, 1] or [N] (one probability per instance), got "
                         f"{list(input.shape)}")  # fmt: skip
    if ins_tag_weight is None:
        ins_tag_weight = ops.full_like(ops.reshape(input, (-1, 1))[0:1], 1.0)
    # Paddle's order of creation, and so of the `_generated_var_k` names: abserr, sqrerr, prob, q, pos, ins
    abserr, sqrerr, prob, q, pos_num, ins_num = (_ctr_sum(s) for s in [(1,)] * 3 + [(1, 1), (1,), (1, 1)])
    if STATE.static_mode:  # Paddle's nine batch temporaries come next; take their names so later ones match
        for _ in range(9):
            unique_name("_generated_var")
    diff = ops.subtract(input, label)
    weight = ins_tag_weight[0:1]
    ones = ops.full_like(ops.reshape(label, (-1, 1)), 1.0)
    batch = [
        (sqrerr, ops.reshape(ops.sum(ops.square(diff)), (1,))),
        (abserr, ops.sum(ops.abs(diff))),
        (prob, ops.sum(input, axis=(0,))),
        (q, ops.multiply(ops.sum(ops.sigmoid(input), axis=(0,)), weight)),
        (pos_num, ops.sum(label, axis=(0,))),
        (ins_num, ops.multiply(ops.sum(ones, axis=(0,)), weight)),
    ]
    add = get_op("add")
    for total, value in batch:
        apply_inplace(add, total, (value, total))
    return sqrerr, abserr, prob, q, pos_num, ins_num


def _ctr_sum(shape):
    zeros = np.zeros(shape, np.float32)
    if not STATE.static_mode:
        return Tensor(zeros)
    return declare_persistable(unique_name("_generated_var"), zeros)


# ---- places -----------------------------------------------------------------------------------------------------


def cuda_places(device_ids=None):
    """The GPU places to run on. minipaddle, like Paddle's CPU build, has none: this raises."""
    raise RuntimeError("cuda_places: minipaddle runs on the CPU only (Paddle's CPU build: 'Not compiled with CUDA'); "
                       "use paddle.static.cpu_places()")  # fmt: skip


def xpu_places(device_ids=None):
    """The XPU places to run on. minipaddle, like Paddle's CPU build, has none: this raises."""
    raise RuntimeError("xpu_places: minipaddle runs on the CPU only (Paddle's CPU build: 'Not compiled with XPU'); "
                       "use paddle.static.cpu_places()")  # fmt: skip
