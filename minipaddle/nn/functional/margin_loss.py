"""Losses on margins and embeddings (paddle.nn.functional): hinge_embedding_loss, cosine_embedding_loss,
triplet_margin_loss, triplet_margin_with_distance_loss, multi_margin_loss, soft_margin_loss and
multi_label_soft_margin_loss. Each is a composition of ops, written as Paddle 2.6 computes it."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import in_dynamic_mode
from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.common import check_positive_int
from minipaddle.nn.functional.distance import pairwise_distance
from minipaddle.nn.functional.loss import _check_reduction, _float_pair, _reduce
from minipaddle.nn.functional.sequence import _all_in_range
from minipaddle.tensor.checks import (
    PreconditionNotMetError,
    check_broadcast,
    check_float,
    check_float_tensor,
    check_in_range,
    check_min_rank,
    check_number,
    check_tensor,
)

__all__ = [
    "hinge_embedding_loss",
    "cosine_embedding_loss",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "multi_margin_loss",
    "soft_margin_loss",
    "multi_label_soft_margin_loss",
    "margin_cross_entropy",
    "class_center_sample",
]


def hinge_embedding_loss(input, label, margin=1.0, reduction="mean", name=None) -> Tensor:
    """input where label == 1, max(0, margin - input) where label == -1 (input: a distance)."""
    margin = check_float(margin, "hinge_embedding_loss", "margin")
    _check_reduction(reduction, "hinge_embedding_loss")
    input, label = _float_pair(input, label, "hinge_embedding_loss")
    # paddle 2.6 says ValueError for two shapes that do not broadcast, PreconditionNotMet when one is empty: both
    check_broadcast(input, label, "hinge_embedding_loss", error=PreconditionNotMetError)
    zeros = ops.full_like(input, 0)
    positive = ops.where(ops.equal(label, 1.0), input, zeros)
    negative = ops.where(ops.equal(label, -1.0), ops.relu(ops.scale(input, -1.0, float(margin))), zeros)
    return _reduce(ops.add(positive, negative), reduction)


def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None) -> Tensor:
    """1 - cos(input1, input2) where label == 1, max(0, cos - margin) where label == -1 (rows of [N, D])."""
    fn = "cosine_embedding_loss"
    # the range paddle 2.6 documents (a cosine lies in it) and its Layer enforces; its function checks nothing and
    # turns an infinite or NaN margin into a loss of 0, inf or NaN without a word
    margin = check_in_range(margin, fn, "margin", -1, 1)
    _check_reduction(reduction, fn)
    input1, input2 = _float_pair(input1, input2, fn, ("input1", "input2"))
    check_tensor(label, fn, "label")
    if label.ndim != 1:
        raise ValueError(f"{fn}: 1D target tensor expected, multi-target not supported (label shape {label.shape})")
    if input1.shape != input2.shape or input1.ndim > 2:
        raise ValueError(f"{fn}: input1 and input2 must have one shape, 1-D or 2-D; got {input1.shape}, "
                         f"{input2.shape}")  # fmt: skip
    dot = ops.sum(ops.multiply(input1, input2), (input1.ndim - 1,))
    sq1 = ops.scale(ops.sum(ops.multiply(input1, input1), (input1.ndim - 1,)), 1.0, 10e-12)
    sq2 = ops.scale(ops.sum(ops.multiply(input2, input2), (input1.ndim - 1,)), 1.0, 10e-12)
    cos = ops.divide(dot, ops.sqrt(ops.multiply(sq1, sq2)))
    zeros = ops.full_like(cos, 0)
    label = ops.cast(label, cos.dtype)
    similar = ops.where(ops.equal(label, 1.0), ops.scale(cos, -1.0, 1.0), zeros)
    dissimilar = ops.where(ops.equal(label, -1.0), ops.clip(ops.scale(cos, 1.0, -float(margin)), 0.0, None), zeros)
    out = ops.add(similar, dissimilar)
    return _reduce(out, reduction)


def _check_triplet(input, positive, negative, margin, reduction, fn: str) -> None:
    """The arguments both triplet losses check: a known reduction, margin >= 0, three tensors of one shape."""
    _check_reduction(reduction, fn)
    if check_float(margin, fn, "margin") < 0:
        raise ValueError(f"{fn}: the margin should be non-negative, got {margin}")
    for arg, t in (("input", input), ("positive", positive), ("negative", negative)):
        check_tensor(t, fn, arg)
    check_float_tensor(input, fn, "input")  # distances of integer points would be computed in integers
    if not input.shape == positive.shape == negative.shape:
        raise ValueError(f"{fn}: input, positive and negative must have one shape, got {input.shape}, "
                         f"{positive.shape} and {negative.shape}")  # fmt: skip


def _triplet_hinge(d_pos, d_neg, margin, reduction) -> Tensor:
    """max(0, d_pos - d_neg + margin), reduced: the loss both triplet losses end with."""
    return _reduce(ops.clip(ops.scale(ops.subtract(d_pos, d_neg), 1.0, float(margin)), 0.0, None), reduction)


def triplet_margin_with_distance_loss(input, positive, negative, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean", name=None) -> Tensor:  # fmt: skip
    """max(0, d(input, positive) - d(input, negative) + margin), with d a distance function (default: the
    pairwise L2 distance); swap=True also tries d(positive, negative) as the negative distance."""
    fn = "triplet_margin_with_distance_loss"
    _check_triplet(input, positive, negative, margin, reduction, fn)
    if distance_function is not None and not callable(distance_function):
        raise TypeError(f"{fn}: distance_function must be a callable (a, b) -> distances, got "
                        f"{type(distance_function).__name__}")  # fmt: skip
    distance = distance_function if distance_function is not None else (lambda a, b: pairwise_distance(a, b, 2.0))
    d_pos, d_neg = distance(input, positive), distance(input, negative)
    if swap:
        d_neg = ops.minimum(d_neg, distance(positive, negative))
    # "all > 0", not "none <= 0": a NaN distance (from a NaN input) is refused too, as paddle 2.6 does
    if in_dynamic_mode() and not (np.all(d_pos.numpy() > 0) and np.all(d_neg.numpy() > 0)):
        raise ValueError(f"{fn}: the distance function must give positive distances (not zero, negative or NaN)")
    return _triplet_hinge(d_pos, d_neg, margin, reduction)


def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-6, swap=False, reduction="mean",
                        name=None) -> Tensor:  # fmt: skip
    """max(0, |input - positive|_p - |input - negative|_p + margin): the anchor nearer its positive than its
    negative, by a margin."""
    fn = "triplet_margin_loss"
    _check_triplet(input, positive, negative, margin, reduction, fn)
    d_pos = pairwise_distance(input, positive, p, epsilon)
    d_neg = pairwise_distance(input, negative, p, epsilon)
    if swap:
        d_neg = ops.minimum(d_neg, pairwise_distance(positive, negative, p, epsilon))
    return _triplet_hinge(d_pos, d_neg, margin, reduction)


def multi_margin_loss(input, label, p=1, margin=1.0, weight=None, reduction="mean", name=None) -> Tensor:
    """The multi-class hinge loss: mean over classes j of max(0, margin - x[y] + x[j])^p, without the j = y term
    (Paddle subtracts its margin^p / C).

    With `weight`, Paddle 2.6 subtracts an [N, 1] correction from the [N] per-sample losses, which broadcasts to
    an [N, N] result ('none') that 'mean' and 'sum' then reduce; minipaddle reproduces it.
    """
    margin = check_float(margin, "multi_margin_loss", "margin")
    fn = "multi_margin_loss"
    p = check_float(p, fn, "p")
    if not abs(p) <= 2**63 - 1:  # (paddle 2.6 passes p as an int64)
        raise ValueError(f"{fn}: p must be within int64's range, got {p!r}")
    try:
        margin_p = margin**p
    except OverflowError:  # paddle 2.6 raises Python's OverflowError here
        raise ValueError(f"{fn}: margin ** p overflows a float (margin={margin}, p={p:g})") from None
    _check_reduction(reduction, fn)
    check_tensor(input, fn, "input")
    check_tensor(label, fn, "label")
    if input.ndim != 2:
        raise ValueError(f"{fn}: input must be 2-D [N, C], got shape {input.shape}")
    check_min_rank(label, 1, fn, "label")
    if input.shape[0] != label.shape[0]:
        raise ValueError(f"{fn}: input and label must have the same batch size, got {input.shape[0]} and "
                         f"{label.shape[0]}")  # fmt: skip
    if input.dtype.is_integer:  # paddle 2.6's margin - x[y] + x makes a float of an int input (dynamic mode)
        input = ops.cast(input, dtypes.default_float())
    n, c = input.shape
    column = ops.reshape(label, (n, 1))
    ids = Tensor(np.arange(c).reshape(1, c))
    picked = ops.sum(ops.multiply(input, ops.cast(ops.equal(ids, column), input.dtype)), (1,), keepdim=True)
    margins = ops.add(ops.scale(picked, -1.0, float(margin)), input)
    if weight is not None:
        check_tensor(weight, fn, "weight")
        if weight.shape[0] != c:
            raise ValueError(f"{fn}: weight has {weight.shape[0]} entries but input has {c} classes")
        w = ops.reshape(ops.embedding(ops.reshape(label, (n,)), ops.reshape(ops.cast(weight, input.dtype),
                                                                             (c, 1))), (n, 1))  # fmt: skip
        margins = ops.multiply(w, margins)
        # As Paddle 2.6: the [N] means minus the [N, 1] weighted correction broadcast to [N, N].
        loss = ops.subtract(ops.mean(ops.pow(ops.clip(margins, 0.0, None), p), (1,)), ops.scale(w, margin_p / c))
    else:
        loss = ops.scale(ops.mean(ops.pow(ops.clip(margins, 0.0, None), p), (1,)), 1.0, -margin_p / c)
    return _reduce(loss, reduction)


def soft_margin_loss(input, label, reduction="mean", name=None) -> Tensor:
    """log(1 + exp(-label * input)) for labels +-1."""
    fn = "soft_margin_loss"
    _check_reduction(reduction, fn)
    input, label = _float_pair(input, label, fn, ints="float")
    if input.shape != label.shape:
        raise ValueError(f"{fn}: input's shape must equal label's shape, got {input.shape} and {label.shape}")
    return _reduce(ops.log(ops.scale(ops.exp(ops.neg(ops.multiply(label, input))), 1.0, 1.0)), reduction)


def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean", name=None) -> Tensor:
    """Binary cross entropy of each (independent) label, averaged over the labels: one loss per sample."""
    fn = "multi_label_soft_margin_loss"
    _check_reduction(reduction, fn)
    input, label = _float_pair(input, label, fn, complex_ok=True)
    if input.shape != label.shape:
        raise ValueError(f"{fn}: the input and label should have the same shape, got {input.shape}!={label.shape}")
    log_sig = ops.neg(ops.softplus(ops.neg(input), 1.0, 20.0))
    log_sig_neg = ops.neg(ops.softplus(input, 1.0, 20.0))
    loss = ops.neg(ops.add(ops.multiply(label, log_sig), ops.multiply(ops.scale(label, -1.0, 1.0), log_sig_neg)))
    if weight is not None:
        loss = ops.multiply(loss, ops.cast(check_tensor(weight, fn, "weight"), input.dtype))
    return _reduce(ops.mean(loss, (input.ndim - 1,)), reduction)


# ---- margin softmax (ArcFace, CosFace) --------------------------------------------------------------------------


def margin_cross_entropy(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0, group=None,
                         return_softmax=False, reduction="mean"):  # fmt: skip
    r"""The combined margin softmax loss of ArcFace / CosFace / SphereFace, on one device.

    logits are cosines (normalized features times normalized class weights). The target class's logit
    cos(theta) becomes cos(margin1 * theta + margin2) - margin3, every logit is multiplied by `scale`, and the
    loss is the softmax cross entropy of the result.

    Args:
        logits (Tensor): [N, num_classes], float, each in [-1, 1].
        label (Tensor): [N] or [N, 1], int32/int64.
        margin1, margin2, margin3 (float): m1, m2, m3 above. scale (float): s above.
        group: the model-parallel group; minipaddle runs on one device, so only None or False.
        return_softmax (bool): also return the softmax of the scaled, margined logits.
        reduction (str): 'none' ([N, 1] losses), 'mean' or 'sum'. Default 'mean'.

    Returns:
        Tensor or (Tensor, Tensor): the loss, and the softmax (the shape of logits) when return_softmax.

    Note: paddle 2.6 has only a GPU kernel for this; minipaddle computes the same formula with exact gradients.

    Example:
        >>> logits = paddle.to_tensor([[0.3, 0.8], [0.6, -0.2]])
        >>> F.margin_cross_entropy(logits, paddle.to_tensor([1, 0]), scale=4.0).shape
        []
    """
    fn = "margin_cross_entropy"
    check_float_tensor(logits, fn, "logits")
    check_tensor(label, fn, "label")
    if group not in (None, False):
        raise ValueError(f"{fn}: minipaddle runs on one device, so group must be None or False, got {group!r}")
    if label.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{fn}: label must be int32 or int64, got {label.dtype.name}")
    if logits.ndim - 1 != label.ndim and logits.ndim != label.ndim:
        raise ValueError(f"{fn}: label must have one dimension less than logits or as many, got logits "
                         f"{logits.shape} and label {label.shape}")  # fmt: skip
    if reduction not in ("none", "mean", "sum", None):
        raise ValueError(f"{fn}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")
    m1, m2, m3, s = (float(check_number(v, fn, a)) for v, a in
                     ((margin1, "margin1"), (margin2, "margin2"), (margin3, "margin3"), (scale, "scale")))  # fmt: skip
    if label.ndim == logits.ndim - 1:
        label = ops.reshape(label, (*label.shape, 1))
    if label.shape[-1] != 1 or tuple(label.shape[:-1]) != tuple(logits.shape[:-1]):
        raise ValueError(f"{fn}: label must be [N] or [N, 1] for logits {logits.shape}, got {label.shape}")
    num_classes = logits.shape[-1]
    if not _all_in_range(label, 0, num_classes):
        raise ValueError(f"{fn}: every label must be in [0, {num_classes})")
    label = ops.cast(label, np.int64)
    class_axis = logits.ndim - 1  # the raw op takes a non-negative axis
    target = ops.take_along_axis(logits, label, class_axis)
    margined = target
    if abs(m1 - 1.0) > 1e-8 or abs(m2) > 1e-8:  # as paddle's kernel: no acos/cos round trip without a margin
        margined = ops.cos(ops.scale(ops.acos(target), m1, m2))
    if abs(m3) > 1e-8:
        margined = ops.scale(margined, 1.0, -m3)
    is_target = ops.cast(ops.one_hot(ops.reshape(label, tuple(label.shape[:-1])), num_classes), logits.dtype.np)
    adjusted = ops.add(logits, ops.multiply(is_target, ops.subtract(margined, target)))
    log_probs = ops.log_softmax(ops.scale(adjusted, s), class_axis)
    loss = ops.neg(ops.take_along_axis(log_probs, label, class_axis))
    if reduction == "mean":
        loss = ops.mean(loss)
    elif reduction == "sum":
        loss = ops.sum(loss)
    return (loss, ops.exp(log_probs)) if return_softmax else loss


def class_center_sample(label, num_classes, num_samples, group=None) -> tuple:
    """PartialFC's class center sampling, on one device: keep every class that occurs in `label` (the positive
    centers, sorted) and fill up to `num_samples` with other classes drawn at random (from the generator
    `paddle.seed` sets); relabel the samples by their center's place in the kept list.

    Args:
        label (Tensor): [N], int32 or int64, in [0, num_classes).
        num_classes (int): the number of classes. num_samples (int): how many centers to keep, at most num_classes.
        group: the model-parallel group; minipaddle runs on one device, so only None or False.

    Returns:
        (Tensor, Tensor): the remapped labels ([N]) and the sampled class centers ([max(num_samples, positives)]),
        both of label's dtype.

    Example:
        >>> remapped, centers = F.class_center_sample(paddle.to_tensor([7, 2, 7]), 10, 4)
        >>> remapped.tolist(), centers.shape
        ([1, 0, 1], [4])
    """
    fn = "class_center_sample"
    check_tensor(label, fn, "label")
    if group not in (None, False):
        raise ValueError(f"{fn}: minipaddle runs on one device, so group must be None or False, got {group!r}")
    if label.ndim != 1:
        raise ValueError(f"{fn}: label must be 1-D [N], got shape {label.shape}")
    if label.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{fn}: label must be int32 or int64, got {label.dtype.name}")
    num_classes = check_positive_int(num_classes, fn, "num_classes")
    num_samples = check_positive_int(num_samples, fn, "num_samples")
    if num_samples > num_classes:
        raise ValueError(f"{fn}: num_samples ({num_samples}) must be at most num_classes ({num_classes})")
    return ops.class_center_sample(label, num_classes, num_samples)
