"""Loss functions (paddle.nn.functional), with paddle 2.6's shapes and reductions.

cross_entropy and softmax_with_cross_entropy use the fused op `softmax_with_cross_entropy`, binary_cross_entropy
its own op (both in minipaddle/ops/nn_loss.py); the rest are compositions of ops written as their formulas read.

reduction: 'mean' (the default) averages, 'sum' adds, 'none' returns the loss per element.

Two of paddle 2.6's choices that matter in training, followed here:
- The label gets no gradient in cross_entropy / softmax_with_cross_entropy (soft labels too), binary_cross_entropy,
  binary_cross_entropy_with_logits and kl_div (and their Layers): the label is data. So knowledge distillation that
  feeds the teacher's soft labels without detaching them trains the same as under paddle (the teacher gets
  nothing). Losses written as formulas (mse_loss, smooth_l1_loss, ...) differentiate their label as any input, as
  paddle's formulas do.
- Softmax and log-softmax floor the shifted logits at -64 (paddle's kernels do): a probability is never below
  exp(-64) ~ 1.6e-28, so the cross-entropy of a hopeless sample is about 64, not its exact value (4000 for logits
  +-2000), and its gradient stays softmax - one_hot. A model whose logits blow up (a high learning rate) sees
  bounded losses and trains on, as under paddle. Without softmax, log(0) counts as -1e20 (paddle's TolerableValue).
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import in_dynamic_mode, no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.input import label_smooth, one_hot
from minipaddle.ops.low_precision import finfo
from minipaddle.tensor.checks import (
    PreconditionNotMetError,
    check_bool,
    check_flag,
    check_float,
    check_float_tensor,
    check_int,
    check_nonnegative,
    check_probability,
    check_same_shape,
    check_tensor,
    normalize_axis,
)
from minipaddle.tensor.math import binary_operands

__all__ = [
    "cross_entropy",
    "softmax_with_cross_entropy",
    "nll_loss",
    "gaussian_nll_loss",
    "poisson_nll_loss",
    "mse_loss",
    "square_error_cost",
    "l1_loss",
    "smooth_l1_loss",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "sigmoid_focal_loss",
    "kl_div",
    "margin_ranking_loss",
    "log_loss",
    "dice_loss",
    "npair_loss",
    "ctc_loss",
    "hsigmoid_loss",
]


def _check_reduction(reduction, fn: str, allowed=("sum", "mean", "none")) -> None:
    if reduction not in allowed:
        raise ValueError(f"{fn}: reduction should be {', '.join(repr(r) for r in allowed)}, got {reduction!r}")


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return ops.mean(loss)
    if reduction == "sum":
        return ops.sum(loss)
    return loss


def _float_pair(input, label, fn: str, names=("input", "label"), ints=None, complex_ok=False) -> tuple[Tensor, Tensor]:
    """input and label of one dtype: a float input, the label cast to it (or promoted with it).

    Some of paddle 2.6's losses check dtypes only in static mode, and their dynamic formulas run on more: with
    ints="keep" an integer input stays integral (mse_loss: (x - y)^2 of ints is an int), with ints="float" it is
    computed in the default float dtype (soft_margin_loss: its exp makes a float); complex_ok lets a complex input
    through (l1_loss, the log-sigmoid losses). minipaddle accepts the same inputs in both modes.
    """
    check_tensor(input, fn, names[0])
    check_tensor(label, fn, names[1])
    d = input.dtype
    if ints == "float" and d.is_integer:
        input = ops.cast(input, dtypes.default_float())
    elif not (d.is_floating or (ints == "keep" and d.is_integer) or (complex_ok and d.is_complex)):
        raise TypeError(f"{fn}: {names[0]} must be a float tensor, got {d.name}")
    return binary_operands(input, ops.cast(label, input.dtype) if not label.dtype.is_floating else label, fn)


def _class_mask(label: Tensor, n: int, ndim: int, axis: int, dtype) -> Tensor:
    """1.0 at each label's class along `axis` (label has size 1 there), 0.0 elsewhere: a one-hot by equality."""
    ids = Tensor(np.arange(n).reshape([n if i == axis else 1 for i in range(ndim)]))
    return ops.cast(ops.equal(ids, label), dtype)


# ---- cross entropy -------------------------------------------------------------------------------------------


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean", soft_label=False, axis=-1,
                  use_softmax=True, label_smoothing=0.0, name=None) -> Tensor:  # fmt: skip
    """Softmax cross entropy between logits and labels.

    Args:
        input: logits, classes along `axis` (probabilities instead when use_softmax=False).
        label: int class ids of shape input.shape without the class axis (or with it, of size 1); or, with
            soft_label=True, a distribution shaped like input.
        weight: a [C] tensor of per-class weights (hard labels) or None.
        ignore_index: a label value that contributes no loss (and is left out of the mean).
        reduction: 'mean' averages over the non-ignored labels (weighted: divides by the sum of their weights);
            'sum'; 'none' returns one loss per label, shaped like the label ([N] for labels [N], [N, 1] for
            labels [N, 1] and for soft labels).
        label_smoothing: mixes the one-hot labels with the uniform distribution by this amount.

    The label gets no gradient, and the loss of one sample is at most about 64 (the logits' distance to their max is
    floored at -64), as in paddle 2.6: see this module's docstring.

    Example:
        >>> logits = paddle.to_tensor([[2.0, 0.5, 0.1]])
        >>> F.cross_entropy(logits, paddle.to_tensor([0]))   # 0.3168...
    """
    fn = "cross_entropy"
    _check_reduction(reduction, fn)
    check_tensor(input, fn, "input")
    check_tensor(label, fn, "label")
    if not input.dtype.is_floating:
        raise TypeError(f"{fn}: input must be a float tensor of logits, got {input.dtype.name}")
    ignore_index = check_int(ignore_index, fn, "ignore_index")
    soft_label, use_softmax = check_bool(soft_label, fn, "soft_label"), check_bool(use_softmax, fn, "use_softmax")
    label_smoothing = check_probability(label_smoothing, fn, "label_smoothing")
    if ignore_index > 0 and soft_label:
        raise ValueError(f"{fn}: with soft_label=True, ignore_index should be -100, got {ignore_index}")
    if input.ndim == 0:
        raise ValueError(f"{fn}: input must have at least one dimension")
    axis = normalize_axis(axis, input.ndim, fn)
    label_was_squeezed = label.ndim == input.ndim - 1
    if label_was_squeezed:
        label = ops.reshape(label, tuple(label.shape[:axis] + [1] + label.shape[axis:]))
    elif label.ndim != input.ndim:
        raise ValueError(f"{fn}: label must have input's rank or one less; got input {input.shape}, "
                         f"label {label.shape}")  # fmt: skip
    if label_smoothing > 0.0:
        if not soft_label:
            hard = ops.reshape(label, tuple(d for i, d in enumerate(label.shape) if i != axis))
            label = _move_last(one_hot(hard, input.shape[axis]), axis)
            label_was_squeezed = False  # as Paddle: smoothed labels keep the class axis in 'none' output
        label = ops.cast(label_smooth(_move_axis_last(label, axis), epsilon=label_smoothing), input.dtype)
        label = _move_last(label, axis)
        soft_label = True
    if soft_label and list(label.shape) != input.shape:
        raise ValueError(f"{fn}: soft labels must have input's shape {input.shape}, got {label.shape}")
    if not soft_label and label.dtype.is_floating:
        raise TypeError(f"{fn}: hard labels must be integers, got {label.dtype.name} (pass soft_label=True?)")
    if not soft_label and label.shape[axis] != 1:
        raise ValueError(f"{fn}: hard labels need size 1 on the class axis, got label shape {label.shape}")
    label_in = ops.cast(label, input.dtype) if soft_label and label.dtype != input.dtype else label
    loss = ops.softmax_with_cross_entropy(input, label_in, soft_label, use_softmax, ignore_index, axis)[1]

    weights = None
    if weight is not None:
        check_tensor(weight, fn, "weight")
        if weight.shape[-1] != input.shape[axis]:
            raise ValueError(f"{fn}: input's class dimension ({input.shape[axis]}) must equal weight's "
                             f"({weight.shape[-1]}) when weight is provided")  # fmt: skip
        w = ops.reshape(ops.cast(weight, input.dtype), tuple(input.shape[axis] if i == axis else 1
                                                             for i in range(input.ndim)))  # fmt: skip
        if soft_label:
            weights = ops.sum(ops.multiply(label_in, w), (axis,), keepdim=True)
        else:
            mask = _class_mask(label, input.shape[axis], input.ndim, axis, input.dtype)
            weights = ops.sum(ops.multiply(mask, w), (axis,), keepdim=True)  # 0 for ignored labels
        loss = ops.multiply(loss, weights)

    if reduction == "sum":
        return ops.sum(loss)
    if reduction == "mean":
        if not soft_label and weights is None and in_dynamic_mode() and not _any_ignored(label, ignore_index):
            return ops.mean(loss)  # as paddle 2.6's dynamic mode: every label counts, so the mean is a plain mean
        if not soft_label:
            valid = ops.cast(ops.not_equal(label, ignore_index), input.dtype)
            total = ops.sum(valid if weights is None else ops.multiply(valid, weights))
            return ops.divide(ops.sum(loss), ops.maximum(total, _tiny_like(total)))
        if weights is not None:
            total = ops.sum(weights)
            return ops.divide(ops.sum(loss), ops.maximum(total, _tiny_like(total)))
        return ops.mean(loss)
    if label_was_squeezed:
        loss = ops.reshape(loss, tuple(d for i, d in enumerate(loss.shape) if i != axis))
    return loss


def _any_ignored(label: Tensor, ignore_index: int) -> bool:
    """Whether some label equals ignore_index (a value known now: dynamic mode only)."""
    return bool(ops.any(ops.equal(label, ignore_index)).item())


def _tiny_like(t: Tensor) -> Tensor:
    """Where a mean's denominator is 0 (every label ignored), divide by 1 instead (Paddle: count + (count == 0))."""
    return ops.cast(ops.equal(t, 0.0), t.dtype)


def _move_axis_last(t: Tensor, axis: int) -> Tensor:
    if axis == t.ndim - 1:
        return t
    return ops.transpose(t, tuple(i for i in range(t.ndim) if i != axis) + (axis,))


def _move_last(t: Tensor, axis: int) -> Tensor:
    """Put t's last axis at position `axis` (the inverse of _move_axis_last)."""
    if axis == t.ndim - 1:
        return t
    perm = list(range(t.ndim - 1))
    perm.insert(axis, t.ndim - 1)
    return ops.transpose(t, tuple(perm))


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100, numeric_stable_mode=True,
                               return_softmax=False, axis=-1):  # fmt: skip
    """The fluid-style fused softmax + cross entropy: the per-sample loss, with the class axis kept (size 1).

    Returns:
        loss, or (loss, softmax) when return_softmax=True.
    """
    fn = "softmax_with_cross_entropy"
    check_tensor(logits, fn, "logits")
    check_tensor(label, fn, "label")
    axis = normalize_axis(axis, logits.ndim, fn)
    soft_label = check_flag(soft_label, fn, "soft_label")
    check_flag(numeric_stable_mode, fn, "numeric_stable_mode")  # (always stable here)
    ignore_index = check_int(ignore_index, fn, "ignore_index")
    if label.ndim == logits.ndim - 1:
        label = ops.reshape(label, tuple(label.shape[:axis] + [1] + label.shape[axis:]))
    if soft_label and label.dtype != logits.dtype:
        label = ops.cast(label, logits.dtype)
    prob, loss = ops.softmax_with_cross_entropy(logits, label, soft_label, True, ignore_index, axis)
    return (loss, prob) if return_softmax else loss


def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean", name=None) -> Tensor:
    """Negative log likelihood from log-probabilities: -weight[label] * input[n, label, ...].

    Args:
        input: [N, C] or [N, C, d1, ...] log-probabilities (e.g. from log_softmax on axis 1).
        label: [N] or [N, d1, ...] int class ids (also [N, 1] or [N, 1, d1, ...], as paddle 2.6 takes, except
            [N, 1, H, W] for a 4-D input, which paddle's 4-D kernel refuses).
        reduction: 'mean' divides the summed loss by the summed weights of the non-ignored labels.
    """
    fn = "nll_loss"
    _check_reduction(reduction, fn)
    ignore_index = check_int(ignore_index, fn, "ignore_index")
    check_tensor(input, fn, "input")
    check_tensor(label, fn, "label")
    if input.ndim < 2:
        raise ValueError(f"{fn}: expected 2 or more dimensions (got {input.ndim})")
    if label.dtype.is_floating or label.dtype.is_complex:
        raise TypeError(f"{fn}: label must hold int class ids, got {label.dtype.name}")
    if label.ndim == input.ndim == 4:  # paddle 2.6 reshapes other ranks' labels, but hands a 4-D input as it is
        raise ValueError(f"{fn}: for a 4-D input the label must have 3 dimensions [N, H, W], got {label.shape}")
    if label.ndim == input.ndim and label.shape[1:2] == [1]:  # [N, 1, d1, ...], as paddle 2.6 accepts: drop the 1
        label = ops.reshape(label, tuple(label.shape[:1] + label.shape[2:]))
    if label.ndim != input.ndim - 1 or label.shape != [input.shape[0]] + input.shape[2:]:
        raise ValueError(f"{fn}: label must have shape {[input.shape[0]] + input.shape[2:]} for input "
                         f"{input.shape}, got {label.shape}")  # fmt: skip
    c = input.shape[1]
    if in_dynamic_mode():  # paddle 2.6's kernel refuses a class id out of range (in static mode values come later)
        ids = label.numpy()
        bad = ids[(ids != ignore_index) & ((ids < 0) | (ids >= c))]
        if bad.size:
            raise ValueError(f"{fn}: label holds class id {int(bad[0])}, out of range for {c} classes "
                             f"(expected 0 <= label < {c}, or ignore_index={ignore_index})")  # fmt: skip
    label1 = ops.reshape(label, tuple([label.shape[0], 1] + label.shape[1:]))
    mask = _class_mask(label1, c, input.ndim, 1, input.dtype)
    valid = ops.cast(ops.not_equal(label1, ignore_index), input.dtype)
    per_class = mask
    if weight is not None:
        check_tensor(weight, fn, "weight")
        per_class = ops.multiply(mask, ops.reshape(ops.cast(weight, input.dtype), (1, c) + (1,) * (input.ndim - 2)))
    weights = ops.multiply(ops.sum(per_class, (1,)), ops.reshape(valid, tuple(label.shape)))
    loss = ops.neg(ops.sum(ops.multiply(input, per_class), (1,)))
    loss = ops.multiply(loss, ops.reshape(valid, tuple(label.shape)))
    if reduction == "none":
        return loss
    if reduction == "sum":
        return ops.sum(loss)
    total = ops.sum(weights)
    return ops.divide(ops.sum(loss), ops.maximum(total, _tiny_like(total)))


def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-6, reduction="mean", name=None) -> Tensor:
    """The negative log likelihood of label under N(input, variance): 0.5 (log(variance) + (input - label)^2 /
    variance), plus 0.5 log(2 pi) with full=True.

    As in Paddle 2.6, variance is clipped to at least epsilon inside no_grad, so no gradient reaches it.
    variance may have input's shape, or lack (or have size 1 in) the last axis.
    """
    epsilon = check_float(epsilon, "gaussian_nll_loss", "epsilon")
    fn = "gaussian_nll_loss"
    _check_reduction(reduction, fn)
    input, label = _float_pair(input, label, fn)
    # paddle 2.6 clips variance to [epsilon, the dtype's largest value] and refuses an empty interval, so NaN and
    # +inf (a NaN loss, an infinite one) are refused; -inf clips nothing (variance is >= 0 anyway) and passes
    largest = float(finfo(input.dtype.np).max)
    if not epsilon <= largest:
        raise ValueError(f"{fn}: epsilon must be a number <= {largest:.6g} (the largest {input.dtype.name}), "
                         f"got {epsilon!r}")  # fmt: skip
    check_tensor(variance, fn, "variance")
    if variance.shape != input.shape:
        if input.shape[:-1] == variance.shape:
            variance = ops.reshape(variance, tuple(variance.shape) + (1,))
        elif not (input.shape[:-1] == variance.shape[:-1] and variance.shape[-1] == 1):
            raise ValueError(f"{fn}: variance has shape {variance.shape}, which does not fit input {input.shape}")
    if in_dynamic_mode() and np.any(variance.numpy() < 0):
        raise ValueError(f"{fn}: variance has negative entry/entries")
    with no_grad():
        variance = ops.clip(ops.cast(variance, input.dtype), float(epsilon), None)
    diff = ops.subtract(input, label)
    loss = ops.scale(ops.add(ops.log(variance), ops.divide(ops.multiply(diff, diff), variance)), 0.5)
    if full:
        loss = ops.scale(loss, 1.0, 0.5 * float(np.log(2 * np.pi)))
    return _reduce(loss, reduction)


def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-8, reduction="mean", name=None) -> Tensor:
    """The Poisson negative log likelihood: exp(input) - label * input (log_input=True, input = log rate), or
    input - label * log(input + epsilon); full=True adds Stirling's term for labels > 1."""
    epsilon = check_float(epsilon, "poisson_nll_loss", "epsilon")
    fn = "poisson_nll_loss"
    log_input, full = check_bool(log_input, fn, "log_input"), check_bool(full, fn, "full")
    if epsilon <= 0:
        raise ValueError(f"{fn}: epsilon should be positive, got {epsilon}")
    _check_reduction(reduction, fn)
    input, label = _float_pair(input, label, fn, ints="float", complex_ok=True)
    if input.shape != label.shape:
        raise ValueError(f"{fn}: input's shape must equal label's shape, got {input.shape} and {label.shape}")
    if log_input:
        loss = ops.subtract(ops.exp(input), ops.multiply(label, input))
    else:
        loss = ops.subtract(input, ops.multiply(label, ops.log(ops.scale(input, 1.0, float(epsilon)))))
    if full:
        safe = ops.where(ops.greater_than(label, 1.0), label, ops.full_like(label, 1))
        stirling = ops.add(ops.subtract(ops.multiply(safe, ops.log(safe)), safe),
                           ops.scale(ops.log(ops.scale(safe, 2 * np.pi)), 0.5))  # fmt: skip
        loss = ops.add(loss, ops.where(ops.greater_than(label, 1.0), stirling, ops.full_like(label, 0)))
    return _reduce(loss, reduction)


# ---- regression ------------------------------------------------------------------------------------------------


def mse_loss(input, label, reduction="mean", name=None) -> Tensor:
    """(input - label)^2, reduced.

    Example:
        >>> F.mse_loss(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0, 4.0]))   # 2.0
    """
    _check_reduction(reduction, "mse_loss")
    input, label = _float_pair(input, label, "mse_loss", ints="keep")
    diff = ops.subtract(input, label)
    return _reduce(ops.multiply(diff, diff), reduction)


def square_error_cost(input, label) -> Tensor:
    """(input - label)^2, elementwise (no reduction)."""
    input, label = _float_pair(input, label, "square_error_cost", ints="keep")
    diff = ops.subtract(input, label)
    return ops.multiply(diff, diff)


def l1_loss(input, label, reduction="mean", name=None) -> Tensor:
    """|input - label|, reduced."""
    _check_reduction(reduction, "l1_loss")
    input, label = _float_pair(input, label, "l1_loss", complex_ok=True)
    return _reduce(ops.abs(ops.subtract(input, label)), reduction)


def smooth_l1_loss(input, label, reduction="mean", delta=1.0, name=None) -> Tensor:
    """The Huber loss: 0.5 r^2 where |r| <= delta, delta * (|r| - 0.5 delta) beyond, with r = input - label."""
    delta = check_float(delta, "smooth_l1_loss", "delta")
    _check_reduction(reduction, "smooth_l1_loss")
    input, label = _float_pair(input, label, "smooth_l1_loss")
    check_same_shape(input, label, "smooth_l1_loss", "input", "label")  # (paddle 2.6 does not broadcast them)
    r = ops.subtract(input, label)
    size = ops.abs(r)
    quadratic = ops.scale(ops.multiply(r, r), 0.5)
    linear = ops.scale(size, float(delta), -0.5 * delta * delta)
    return _reduce(ops.where(ops.less_equal(size, float(delta)), quadratic, linear), reduction)


# ---- binary classification ------------------------------------------------------------------------------


def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None) -> Tensor:
    """-(label log(input) + (1 - label) log(1 - input)) for probabilities `input` (logs clamped at -100). The label
    gets no gradient, as in paddle 2.6.

    Example:
        >>> F.binary_cross_entropy(paddle.to_tensor([0.8]), paddle.to_tensor([1.0]))   # 0.2231
    """
    _check_reduction(reduction, "binary_cross_entropy")
    input, label = _float_pair(input, label, "binary_cross_entropy")
    if input.shape != label.shape:
        raise ValueError(f"binary_cross_entropy: input {input.shape} and label {label.shape} must have one shape")
    loss = ops.binary_cross_entropy(input, label)
    if weight is not None:
        loss = ops.multiply(loss, ops.cast(check_tensor(weight, "binary_cross_entropy", "weight"), input.dtype))
    return _reduce(loss, reduction)


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean", pos_weight=None,
                                     name=None) -> Tensor:  # fmt: skip
    """Sigmoid and binary cross entropy in one stable formula: max(logit, 0) - label * logit + log(1 + exp(-|logit|)).

    Args:
        weight: multiplies each element's loss.
        pos_weight: the weight of the positive class, per class (broadcast along the last axis). As in Paddle 2.6,
            it scales only the log(1 + exp(-|logit|)) term, by 1 + (pos_weight - 1) * label, and the gradient is
            that factor times sigmoid(logit), minus label (see the op sigmoid_cross_entropy_with_logits).
    """
    fn = "binary_cross_entropy_with_logits"
    _check_reduction(reduction, fn)
    logit, label = _float_pair(logit, label, fn, ("logit", "label"))
    check_same_shape(logit, label, fn, "logit", "label")  # (paddle 2.6 does not broadcast them)
    log_weight = None
    if pos_weight is not None:
        pw = ops.cast(check_tensor(pos_weight, fn, "pos_weight"), logit.dtype)
        log_weight = ops.add(ops.multiply(ops.scale(pw, 1.0, -1.0), label), ops.full_like(label, 1))
        if log_weight.shape != logit.shape:
            log_weight = ops.expand(log_weight, tuple(logit.shape))
    loss = ops.sigmoid_cross_entropy_with_logits(logit, label, log_weight)
    if weight is not None:
        loss = ops.multiply(loss, ops.cast(check_tensor(weight, fn, "weight"), logit.dtype))
    return _reduce(loss, reduction)


def sigmoid_focal_loss(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum", name=None) -> Tensor:
    """The focal loss (RetinaNet): alpha_t * (1 - p_t)^gamma * BCE-with-logits, which down-weights easy examples.

    Args:
        normalizer: a tensor with one value to divide the loss by (e.g. the number of positives).
        reduction: 'sum' by default.
    """
    alpha = check_float(alpha, "sigmoid_focal_loss", "alpha")
    gamma = check_float(gamma, "sigmoid_focal_loss", "gamma")
    fn = "sigmoid_focal_loss"
    _check_reduction(reduction, fn)
    logit, label = _float_pair(logit, label, fn, ("logit", "label"))
    check_same_shape(logit, label, fn, "logit", "label")
    if normalizer is not None:
        check_tensor(normalizer, fn, "normalizer")
        if normalizer.ndim > 1:
            raise ValueError(f"{fn}: expected zero or one dimension of normalizer, got {normalizer.ndim}")
    loss = binary_cross_entropy_with_logits(logit, label, reduction="none")
    pred = ops.sigmoid(logit)
    not_label = ops.scale(label, -1.0, 1.0)
    p_t = ops.add(ops.multiply(pred, label), ops.multiply(ops.scale(pred, -1.0, 1.0), not_label))
    alpha_t = ops.add(ops.scale(label, float(alpha)), ops.scale(not_label, 1.0 - alpha))
    loss = ops.multiply(ops.multiply(alpha_t, loss), ops.pow(ops.scale(p_t, -1.0, 1.0), float(gamma)))
    if normalizer is not None:
        loss = ops.divide(loss, ops.cast(normalizer, loss.dtype))
    return _reduce(loss, reduction)


def log_loss(input, label, epsilon=1e-4, name=None) -> Tensor:
    """-label log(input + epsilon) - (1 - label) log(1 - input + epsilon), elementwise."""
    input, label = _float_pair(input, label, "log_loss")
    if input.ndim != 2 or input.shape[1] != 1:  # one probability per row, as paddle 2.6 requires
        raise ValueError(f"log_loss: input must be of shape [N, 1], got {input.shape}")
    check_same_shape(input, label, "log_loss", "input", "label")
    epsilon = check_nonnegative(epsilon, "log_loss", "epsilon")
    positive = ops.multiply(label, ops.log(ops.scale(input, 1.0, epsilon)))
    negative = ops.multiply(ops.scale(label, -1.0, 1.0), ops.log(ops.scale(input, -1.0, 1.0 + epsilon)))
    return ops.neg(ops.add(positive, negative))


# ---- distributions, ranking, segmentation, metric learning -------------------------------------------------


def kl_div(input, label, reduction="mean", name=None) -> Tensor:
    """The KL divergence label * (log(label) - input), with input given as log-probabilities (0 where label <= 0).

    reduction: 'mean' (over all elements), 'batchmean' (sum / batch size), 'sum' or 'none'.

    As in paddle 2.6 (its kldiv_loss op), the label gets no gradient, in both modes, even when it requires one:
    distilling into a student from a teacher's distribution trains the student only.
    """
    _check_reduction(reduction, "kl_div", ("sum", "mean", "none", "batchmean"))
    check_tensor(input, "kl_div", "input")
    check_tensor(label, "kl_div", "label")
    input, label = binary_operands(input, label, "kl_div")
    check_same_shape(input, label, "kl_div", "input", "label")  # (paddle 2.6 does not broadcast them)
    loss = ops.kldiv_loss(input, label)
    if reduction == "batchmean":
        return ops.scale(ops.sum(loss), 1.0 / input.shape[0]) if input.ndim else loss
    return _reduce(loss, reduction)


def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean", name=None) -> Tensor:
    """max(0, -label * (input - other) + margin): label 1 means input should rank above other, -1 below."""
    margin = check_float(margin, "margin_ranking_loss", "margin")
    _check_reduction(reduction, "margin_ranking_loss")
    input, other = _float_pair(input, other, "margin_ranking_loss", ("input", "other"))
    check_tensor(label, "margin_ranking_loss", "label")
    out = ops.multiply(ops.subtract(other, input), ops.cast(label, input.dtype))
    if margin != 0.0:
        out = ops.scale(out, 1.0, float(margin))
    return _reduce(ops.relu(out), reduction)


def dice_loss(input, label, epsilon=0.00001, name=None) -> Tensor:
    """1 - 2 |X n Y| / (|X| + |Y|), averaged over the batch: input holds class probabilities on the last axis,
    label the int classes ([..., 1])."""
    fn = "dice_loss"
    epsilon = check_float(epsilon, fn, "epsilon")
    check_tensor(input, fn, "input")
    check_tensor(label, fn, "label")
    if input.ndim < 2 or label.ndim != input.ndim or label.shape[-1] != 1 or input.shape[:-1] != label.shape[:-1]:
        raise ValueError(f"{fn}: expected input [N, ..., C] and label [N, ..., 1], got {input.shape} and {label.shape}")
    label = ops.cast(one_hot(ops.reshape(label, tuple(label.shape[:-1])), input.shape[-1]), input.dtype)
    axes = tuple(range(1, input.ndim))
    intersection = ops.sum(ops.multiply(input, label), axes)
    denominator = ops.add(ops.sum(input, axes), ops.sum(label, axes))
    score = ops.scale(ops.divide(ops.scale(intersection, 2.0), ops.scale(denominator, 1.0, epsilon)), -1.0, 1.0)
    return ops.mean(score)


def npair_loss(anchor, positive, labels, l2_reg=0.002) -> Tensor:
    """The N-pair loss: softmax cross entropy of anchor-positive similarities against same-label targets, plus
    an L2 penalty on the embeddings."""
    l2_reg = check_float(l2_reg, "npair_loss", "l2_reg")
    fn = "npair_loss"
    for arg, t in (("anchor", anchor), ("positive", positive), ("labels", labels)):
        check_tensor(t, fn, arg)
    for arg, t in (("anchor", anchor), ("positive", positive)):
        check_float_tensor(t, fn, arg)
    if anchor.size == 0 or positive.size == 0:
        raise ValueError(f"{fn}: anchor and positive must not be empty")
    if anchor.ndim != 2 or positive.shape != anchor.shape:
        raise ValueError(f"{fn}: anchor and positive must both be [N, D], got {anchor.shape} and {positive.shape}")
    if labels.ndim == 0 or labels.size != anchor.shape[0]:  # [N] or [N, 1], as paddle reshapes it
        raise ValueError(f"{fn}: labels must hold one label per anchor row ({anchor.shape[0]}), got shape "
                         f"{labels.shape}")  # fmt: skip
    n = labels.shape[0]
    column = ops.reshape(labels, (n, 1))
    same = ops.cast(ops.equal(column, ops.reshape(labels, (1, n))), anchor.dtype)
    targets = ops.divide(same, ops.sum(same, (1,), keepdim=True))
    l2 = ops.add(ops.mean(ops.sum(ops.multiply(anchor, anchor), (1,))),
                 ops.mean(ops.sum(ops.multiply(positive, positive), (1,))))  # fmt: skip
    l2 = ops.scale(l2, 0.25 * l2_reg)
    similarity = ops.matmul(anchor, positive, transpose_y=True)
    ce = ops.softmax_with_cross_entropy(similarity, targets, True, True, -100, 1)[1]
    return ops.add(l2, ops.mean(ops.sum(ops.multiply(targets, ce), (0,))))


# ---- sequences and trees ----------------------------------------------------------------------------------------


def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean", norm_by_times=False):
    """Connectionist temporal classification: -log p(labels | inputs), summed over every alignment.

    Args:
        log_probs: [max_time, batch, classes] unnormalized scores (Paddle's warpctc applies softmax itself,
            so does this).
        labels: [batch, max_label_length] int class ids (padded).
        input_lengths, label_lengths: [batch] int lengths.
        blank: the blank class.
        reduction: 'mean' averages loss / label_length over the batch; 'sum'; 'none' gives [batch].
        norm_by_times: divide the gradient (not the loss) by each input length, as Paddle does.

    One op, warpctc (minipaddle/ops/ctc_loss.py), as in paddle: its kernel runs the forward and backward
    recursions and keeps the gradient, so the labels are read only when the op runs (static mode works too).
    """
    fn = "ctc_loss"
    _check_reduction(reduction, fn)
    for arg, t in (("log_probs", log_probs), ("labels", labels), ("input_lengths", input_lengths),
                   ("label_lengths", label_lengths)):  # fmt: skip
        check_tensor(t, fn, arg)
    blank = check_int(blank, fn, "blank")
    if log_probs.ndim != 3 or labels.ndim != 2:
        raise ValueError(f"{fn}: expected log_probs [time, batch, classes] and labels [batch, length], got "
                         f"{log_probs.shape} and {labels.shape}")  # fmt: skip
    if not log_probs.dtype.is_floating:
        raise TypeError(f"{fn}: log_probs must be a float tensor, got {log_probs.dtype.name}")
    classes = log_probs.shape[2]
    if classes >= 0 and not 0 <= blank < classes:  # (-1: known only when a static Program runs)
        raise ValueError(f"{fn}: blank must be in [0, {classes}), the classes of log_probs, got {blank}")
    for arg, t in (("input_lengths", input_lengths), ("label_lengths", label_lengths)):
        if t.ndim != 1 or t.shape[0] not in (log_probs.shape[1], -1):  # paddle 2.6: PreconditionNotMet
            raise PreconditionNotMetError(f"{fn}: {arg} must be 1-D with one length per sample "
                                          f"({log_probs.shape[1]}), got shape {t.shape}")  # fmt: skip
    if in_dynamic_mode():
        steps = log_probs.shape[0]
        in_len, lab_len = input_lengths.numpy(), label_lengths.numpy()
        if in_len.max(initial=0) > steps or lab_len.max(initial=0) > labels.shape[1]:
            raise ValueError(f"{fn}: lengths exceed the padded sizes ({steps} steps, {labels.shape[1]} labels)")
    norm_by_times = check_flag(norm_by_times, fn, "norm_by_times")
    loss = ops.warpctc(log_probs, labels, input_lengths, label_lengths, blank, norm_by_times)
    if reduction == "mean":
        return ops.mean(ops.divide(loss, ops.cast(label_lengths, loss.dtype)))
    return ops.sum(loss) if reduction == "sum" else loss


def hsigmoid_loss(input, label, num_classes, weight, bias=None, path_table=None, path_code=None, is_sparse=False,
                  name=None) -> Tensor:  # fmt: skip
    """Hierarchical sigmoid: each class is a leaf of a binary tree, and its loss is the binary cross entropy of
    the left/right decisions on its path, each made by a sigmoid of a row of `weight` (O(log C) per sample).

    Args:
        input: [N, D] features; label: [N] or [N, 1] int classes.
        num_classes: the number of classes (for the default tree: a complete binary tree, class c at
            c + num_classes in heap order, weight rows [num_classes - 1, D]).
        weight, bias: [num_nodes, D] and [num_nodes, 1].
        path_table, path_code: [N, L] node indices (-1 pads) and 0/1 decisions of a custom tree.

    Returns:
        [N, 1]: sum over the path of log(1 + exp(pre)) - code * pre, with pre = weight[node] . x + bias[node]
        clipped to [-40, 40] (as Paddle: every path is read over the tree's depth, bit_length(num_classes - 1),
        and a shorter one adds log(2) per missing node).

    The paths come from the op hsigmoid_path (minipaddle/ops/tree_paths.py), which reads the labels when it runs,
    so the loss builds in static mode too.
    """
    fn = "hsigmoid_loss"
    check_flag(is_sparse, fn, "is_sparse")  # (the gradient is dense here either way)
    for arg, t in (("input", input), ("label", label), ("weight", weight)):
        check_tensor(t, fn, arg)
    for arg, t in (("bias", bias), ("path_table", path_table), ("path_code", path_code)):
        if t is not None:
            check_tensor(t, fn, arg)
    if (path_table is None) != (path_code is None):
        raise ValueError(f"{fn}: path_table and path_code must be given together")
    num_classes = check_int(num_classes, fn, "num_classes", 2, 2**62)
    if num_classes < 2:
        raise ValueError(f"{fn}: expected num_classes >= 2 (got {num_classes})")
    if input.ndim != 2 or weight.ndim != 2 or weight.shape[1] != input.shape[1]:
        raise ValueError(f"{fn}: expected input [N, D] and weight [num_nodes, D], got {input.shape} and "
                         f"{weight.shape}")  # fmt: skip
    if bias is not None and (bias.ndim not in (1, 2) or bias.size != weight.shape[0]):
        raise ValueError(f"{fn}: bias must be [num_nodes, 1] with weight's {weight.shape[0]} rows, got {bias.shape}")
    n = input.shape[0]
    if path_table is None:
        label = ops.reshape(label, (n,))
    elif path_code is None:
        raise ValueError(f"{fn}: path_table needs its path_code")
    nodes, decisions, mask = ops.hsigmoid_path(label, path_table, path_code, num_classes)  # int64 [N, depth]
    pre = ops.sum(ops.multiply(ops.embedding(nodes, weight), ops.reshape(input, (n, 1, input.shape[1]))), (2,))
    if bias is not None:
        pre = ops.add(pre, ops.reshape(ops.embedding(nodes, ops.reshape(bias, (bias.shape[0], 1))), pre.shape))
    # Padded path positions count with pre = 0, adding log(2) each, as Paddle's kernel does (a constant: the
    # gradients are unaffected).
    pre = ops.multiply(ops.clip(pre, -40.0, 40.0), ops.cast(mask, input.dtype))
    decisions = ops.cast(decisions, input.dtype)
    per_node = ops.subtract(ops.softplus(pre, 1.0, 40.0), ops.multiply(decisions, pre))
    return ops.sum(per_node, (1,), keepdim=True)
