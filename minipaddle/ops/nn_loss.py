"""Loss ops that need a kernel of their own for numerical stability (and class_center_sample, PartialFC's
sampling of the classes a margin loss computes, which has no gradient):

- softmax_with_cross_entropy: softmax and cross entropy fused, computed from log-softmax (never log(softmax)),
  with hard (int) or soft (distribution) labels and an ignore_index; the shifted logits are floored at -64, as in
  paddle's kernel, so the loss of one sample is at most about 64. The label gets no gradient (as paddle's).
  Outputs (softmax, loss); the loss keeps the class axis with size 1. Its gradient for the logits is an op too,
  softmax_with_cross_entropy_grad (one kernel, as Paddle's), whose own grad rule gives double backward.
- binary_cross_entropy: -(y log x + (1 - y) log(1 - x)) with the logs clamped at -100 and a gradient that stays
  finite at x = 0 and x = 1, as Paddle's kernel; none for the label.
- sigmoid_cross_entropy_with_logits: sigmoid and binary cross entropy in one stable formula, with Paddle's
  positive-class weighting (forward and gradient exactly as Paddle 2.6 computes them).
- kldiv_loss: label * (log(label) - x) elementwise, 0 where label <= 0; none of its gradient goes to the label (as
  paddle's kldiv_loss op), so a teacher's distribution is not trained through it.

The other losses are compositions of ops, in minipaddle/nn/functional/loss.py.
"""

from __future__ import annotations

import functools

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.ops.activation import shifted_logits

__all__ = [
    "softmax_with_cross_entropy",
    "softmax_with_cross_entropy_grad",
    "binary_cross_entropy",
    "sigmoid_cross_entropy_with_logits",
    "kldiv_loss",
    "class_center_sample",
]


TOLERABLE = 1e20  # paddle's kApproInf: an infinite log-probability counts as +-1e20 in cross-entropy without softmax


def _at_labels(shape: tuple, safe: np.ndarray, axis: int) -> tuple:
    """The index that picks each sample's class along `axis` of an array of `shape` (safe: the class ids, shape's
    size 1 at axis): what np.take_along_axis / put_along_axis build on every call, behind their Python wrappers."""
    axis %= len(shape)
    before, after = _positions(shape, axis)
    return (*before, safe, *after)


@functools.lru_cache(maxsize=64)
def _positions(shape: tuple, axis: int) -> tuple:
    """The index arrays of every axis but `axis` (0..d-1, laid along their axis), before it and after it: the same
    for every batch of one shape, so made once (index arrays are only read)."""
    ranges = [np.arange(d).reshape((1,) * i + (d,) + (1,) * (len(shape) - i - 1)) for i, d in enumerate(shape)]
    return tuple(ranges[:axis]), tuple(ranges[axis + 1 :])


def _class_ids(n: int, ndim: int, axis: int) -> Tensor:
    """0..n-1 laid along `axis` of an ndim-dimensional tensor, for comparing with labels (a one-hot by equality)."""
    return Tensor(np.arange(n).reshape([n if i == axis else 1 for i in range(ndim)]))


@register
class SoftmaxWithCrossEntropy(OpDef):
    """(softmax, loss) of logits along `axis`.

    Hard labels (ints, size 1 along `axis`): loss = -log softmax[label], 0 where label == ignore_index.
    Soft labels (same shape as logits): loss = -sum(label * log softmax).
    With use_softmax=False the input is already a probability distribution and softmax is the input itself.
    """

    name = "softmax_with_cross_entropy"
    amp = "black"
    saves_outputs = True
    none_for_unused_outputs = True  # cross_entropy uses only the loss: skip the softmax output's backward then

    def kernel(self, logits, label, soft_label, use_softmax, ignore_index, axis):
        if use_softmax:  # floored at -64 as paddle's softmax (ops/activation.py): a loss is at most about 64
            shifted = shifted_logits(logits, axis)
            log_p = shifted - np.log(np.add.reduce(np.exp(shifted), axis=axis, keepdims=True))  # (np.sum's core)
            prob = np.exp(log_p)
        else:
            prob = logits
            with np.errstate(divide="ignore", invalid="ignore"):  # paddle's TolerableValue: log(0) is -1e20, not -inf
                log_p = np.clip(np.log(logits), -TOLERABLE, TOLERABLE)
        if soft_label:
            loss = -np.sum(label * log_p, axis=axis, keepdims=True)
            return prob.astype(logits.dtype), loss.astype(logits.dtype)
        if label.ndim != logits.ndim:  # (take_along_axis refused it; the fancy index below would broadcast it)
            raise ValueError(f"label must have the rank of logits ({logits.ndim}, size 1 along axis {axis}), "
                             f"got shape {list(label.shape)}")  # fmt: skip
        ignored = label == ignore_index
        safe = np.where(ignored, 0, label).astype(np.int64, copy=False)
        n = logits.shape[axis]
        # (the ufuncs' reduce: ndarray.min and .max each call a Python wrapper first)
        if safe.size and (np.minimum.reduce(safe, axis=None) < 0 or np.maximum.reduce(safe, axis=None) >= n):
            raise ValueError(f"labels must be in [0, {n}) or equal ignore_index ({ignore_index}), "
                             f"got values in [{label.min()}, {label.max()}]")  # fmt: skip
        loss = -log_p[_at_labels(log_p.shape, safe, axis)]
        loss[ignored] = 0
        return prob.astype(logits.dtype, copy=False), loss.astype(logits.dtype, copy=False)  # (both are new arrays)

    def grad(self, node, g_prob, g_loss):
        logits, label = node.inputs
        attrs = node.attrs
        use_softmax, axis = attrs["use_softmax"], attrs["axis"]
        prob = node.output(0)
        d_logits = None
        if node.needs_grad(0):
            if g_loss is not None:  # the loss's part in one op, as Paddle's softmax_with_cross_entropy_grad
                d_logits = softmax_with_cross_entropy_grad(prob if use_softmax else logits, label, g_loss, **attrs)
            if g_prob is not None:  # the softmax output's own part
                via_prob = _softmax_backward(prob, g_prob, axis) if use_softmax else g_prob
                d_logits = via_prob if d_logits is None else ops.add(d_logits, via_prob)
        return d_logits, None  # the label gets no gradient, soft or hard (paddle 2.6: distillation's teacher too)

    def infer_meta(self, logits: Meta, label: Meta, soft_label, use_softmax, ignore_index, axis) -> tuple:
        loss = tuple(1 if i == axis % len(logits.shape) else d for i, d in enumerate(logits.shape))
        return logits, Meta(loss, logits.dtype)


@register
class SoftmaxWithCrossEntropyGrad(OpDef):
    """The gradient of softmax_with_cross_entropy's loss w.r.t. its logits, in one kernel (Paddle's op of the same
    name), given `prob` (the softmax; the input itself with use_softmax=False), the label and the loss's gradient:

        with softmax:     (prob * sum(target) - target) * g_loss
        without softmax:  -target / prob * g_loss

    target is the soft label, or for hard labels the one-hot of the label (all zeros where label == ignore_index,
    so ignored samples get no gradient). Written as one op because it runs in every classifier's backward pass,
    where the same formula as separate ops costs ten trips through the door.
    """

    name = "softmax_with_cross_entropy_grad"

    def kernel(self, prob, label, g_loss, soft_label, use_softmax, ignore_index, axis):
        if soft_label:
            if use_softmax:
                d = prob * np.sum(label, axis=axis, keepdims=True) - label
            else:
                d = -(label / prob)
            d *= g_loss
            return d.astype(prob.dtype, copy=False)
        valid = label != ignore_index
        safe = np.where(valid, label, 0).astype(np.int64, copy=False)
        g = np.where(valid, g_loss, 0).astype(prob.dtype, copy=False)  # ignored samples: no gradient
        at = _at_labels(prob.shape, safe, axis)
        if use_softmax:  # prob - one_hot(label), for the valid samples
            d = prob * g
            d[at] -= g
        else:  # -1 / prob at the label, 0 elsewhere
            d = np.zeros_like(prob)
            d[at] = -g / prob[at]
        return d

    def grad(self, node, gg):
        prob, label, g_loss = node.inputs
        soft, use_softmax, axis = node.attrs["soft_label"], node.attrs["use_softmax"], node.attrs["axis"]
        target = label if soft else _hard_target(prob, label, node.attrs["ignore_index"], axis)
        d_prob = d_g = None  # the label gets no gradient, as in the forward op
        if use_softmax:  # d = (prob * total - target) * g
            total = ops.sum(target, (axis,), keepdim=True)
            if node.needs_grad(0):
                d_prob = ops.multiply(ops.multiply(gg, total), g_loss)
            if node.needs_grad(2):
                d_g = ops.sum(ops.multiply(gg, ops.subtract(ops.multiply(prob, total), target)), (axis,), keepdim=True)
        else:  # d = -target / prob * g
            ratio = ops.divide(target, prob)
            if node.needs_grad(0):
                d_prob = ops.multiply(ops.multiply(gg, ops.divide(ratio, prob)), g_loss)
            if node.needs_grad(2):
                d_g = ops.neg(ops.sum(ops.multiply(gg, ratio), (axis,), keepdim=True))
        return d_prob, None, d_g

    def infer_meta(self, prob: Meta, label: Meta, g_loss: Meta, soft_label, use_softmax, ignore_index, axis) -> Meta:
        return Meta(prob.shape, prob.dtype)


def softmax_with_cross_entropy_grad(prob: Tensor, label: Tensor, g_loss: Tensor, soft_label: bool,
                                    use_softmax: bool, ignore_index: int, axis: int) -> Tensor:  # fmt: skip
    attrs = {"soft_label": soft_label, "use_softmax": use_softmax, "ignore_index": ignore_index, "axis": axis}
    return apply(SoftmaxWithCrossEntropyGrad, (prob, label, g_loss), attrs)


def _hard_target(prob: Tensor, label: Tensor, ignore_index: int, axis: int) -> Tensor:
    """The one-hot of hard labels along `axis` as ops (zeros where label == ignore_index), in prob's dtype."""
    valid = ops.cast(ops.not_equal(label, ignore_index), prob.dtype)
    one_hot = ops.cast(ops.equal(_class_ids(prob.shape[axis], prob.ndim, axis), label), prob.dtype)
    return ops.multiply(one_hot, valid)


def _softmax_backward(prob: Tensor, g: Tensor, axis: int) -> Tensor:
    """The gradient through softmax of a gradient `g` on its output: prob * (g - sum(g * prob))."""
    inner = ops.sum(ops.multiply(g, prob), (axis,), keepdim=True)
    return ops.multiply(prob, ops.subtract(g, inner))


def softmax_with_cross_entropy(logits: Tensor, label: Tensor, soft_label: bool, use_softmax: bool, ignore_index: int,
                               axis: int) -> tuple:  # fmt: skip
    attrs = {"soft_label": soft_label, "use_softmax": use_softmax, "ignore_index": ignore_index, "axis": axis}
    return apply(SoftmaxWithCrossEntropy, (logits, label), attrs)


@register
class BinaryCrossEntropy(OpDef):
    """-(label * log(x) + (1 - label) * log(1 - x)), each log clamped at -100 (so x = 0 or 1 gives 100, not inf)."""

    name = "binary_cross_entropy"

    def kernel(self, x, label):
        # x must be probabilities: outside [0, 1] (or NaN) a log is NaN and the loss would be NaN without a word.
        # Paddle 2.6's CPU kernel refuses such a value too; the check is here, so a static Program refuses it at run
        inside = (x >= 0) & (x <= 1)
        if not inside.all():
            bad = x[~inside].flat[0]
            raise ValueError(f"binary_cross_entropy: input must hold probabilities in [0, 1], got {bad}")
        with np.errstate(divide="ignore"):
            log_x = np.maximum(np.log(x), -100)
            log_1mx = np.maximum(np.log(1 - x), -100)
        return (-(label * log_x + (1 - label) * log_1mx)).astype(x.dtype)

    def grad(self, node, g):
        x, label = node.inputs
        # (x - label) / (x (1 - x)), its denominator kept at least 1e-12 (Paddle's bce_loss_grad)
        denominator = ops.maximum(ops.multiply(x, ops.subtract(1.0, x)), 1e-12)
        dx = ops.multiply(g, ops.divide(ops.subtract(x, label), denominator))
        return dx, None  # the label gets no gradient (paddle 2.6's bce_loss_grad has none)

    def infer_meta(self, x: Meta, label: Meta) -> Meta:
        return Meta(x.shape, x.dtype)


def binary_cross_entropy(x: Tensor, label: Tensor) -> Tensor:
    return apply(BinaryCrossEntropy, (x, label))


@register
class SigmoidCrossEntropyWithLogits(OpDef):
    """max(x, 0) - x * label + w * log(1 + exp(-|x|)), with w the positive-class weight per element (1 without).

    Without a weight this is exactly -(label log sigmoid(x) + (1 - label) log(1 - sigmoid(x))), and its gradient
    sigmoid(x) - label. With a weight w != 1, Paddle 2.6's kernels are not each other's derivative: the loss
    scales only the log term, while the gradient for x is w * sigmoid(x) - label. minipaddle computes both as
    Paddle does, so that training with pos_weight follows the same path. The label and the weight get no gradient,
    as in Paddle.
    """

    name = "sigmoid_cross_entropy_with_logits"
    amp = "black"

    def kernel(self, x, label, weight):  # weight may be None; no default, so static mode sees it as an input slot
        tail = np.log1p(np.exp(-np.abs(x)))
        if weight is not None:
            tail = weight * tail
        return (np.maximum(x, 0) - x * label + tail).astype(x.dtype)

    def grad(self, node, g):
        x, label, weight = node.inputs
        prob = ops.sigmoid(x)
        if weight is not None:
            prob = ops.multiply(weight, prob)
        dx = ops.multiply(g, ops.subtract(prob, label))
        return dx, None, None  # the label and the weight get no gradient (paddle 2.6's kernel gives none)

    def infer_meta(self, x: Meta, label: Meta, weight: Meta) -> Meta:
        return Meta(x.shape, x.dtype)


def sigmoid_cross_entropy_with_logits(x: Tensor, label: Tensor, weight: Tensor | None = None) -> Tensor:
    return apply(SigmoidCrossEntropyWithLogits, (x, label, weight))


@register
class KldivLoss(OpDef):
    """The pointwise KL divergence label * (log(label) - x) of log-probabilities x, 0 where label <= 0 (unreduced:
    kl_div reduces it). Its gradient is -label for x where label > 0, and nothing for the label: paddle 2.6's
    kldiv_loss_grad has no label output."""

    name = "kldiv_loss"  # (AMP: "promote", as paddle's lists leave kldiv_loss out of both)

    def kernel(self, x, label):
        positive = label > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            loss = label * (np.log(np.where(positive, label, 1)) - x)
        return np.where(positive, loss, 0).astype(x.dtype)

    def grad(self, node, g):
        label = node.inputs[1]
        dx = ops.where(ops.greater_than(label, 0.0), ops.neg(ops.multiply(g, label)), ops.full_like(g, 0))
        return dx, None

    def infer_meta(self, x: Meta, label: Meta) -> Meta:
        return Meta(x.shape, x.dtype)


def kldiv_loss(x: Tensor, label: Tensor) -> Tensor:
    return apply(KldivLoss, (x, label))


@register
class ClassCenterSample(OpDef):
    """Sample `num_samples` class centers out of `num_classes`: every class in `label` (sorted), then, if room is
    left, other classes drawn at random without replacement. Returns the labels renumbered by their place among
    the sampled centers, and the sampled centers."""

    name = "class_center_sample"
    differentiable = False
    saves_inputs = False
    random = True

    def kernel(self, label, num_classes, num_samples):
        positive, remapped = np.unique(label, return_inverse=True)
        room = num_samples - len(positive)
        if room > 0:
            others = np.setdiff1d(np.arange(num_classes, dtype=label.dtype), positive)
            positive = np.concatenate([positive, STATE.rng.permutation(others)[:room]])
        return remapped.reshape(label.shape).astype(label.dtype), positive.astype(label.dtype)

    def infer_meta(self, label: Meta, num_classes, num_samples) -> tuple:
        return label, Meta((-1,), label.dtype)


def class_center_sample(label: Tensor, num_classes: int, num_samples: int) -> tuple:
    return apply(ClassCenterSample, (label,), {"num_classes": num_classes, "num_samples": num_samples})
