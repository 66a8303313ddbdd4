"""Op-table section: activations, linear/embedding, dropout, normalization and losses (issue 4, "nn core").

Each numpy reference is written from the formula, independently of minipaddle's ops. Functions that draw random
masks (dropout) seed the generator inside the call, so every call (forward, gradcheck's nudges) sees the same
mask, and the reference draws that mask from numpy's generator with the same seed.
"""

from __future__ import annotations

import math

import numpy as np

import minipaddle as paddle
import minipaddle.nn.functional as F
from minipaddle import ops
from tests.op_table.common import OpInfo, Sample, distinct, pos, r, unary_samples


def _kw(fn, *names):
    """fn with its last positional arguments passed as the keywords `names`: the op table turns only positional
    arrays into Tensors, so tensor keyword arguments (weight=..., bias=...) travel positionally."""

    def call(*args, **kwargs):
        head, tail = args[: len(args) - len(names)], args[len(args) - len(names) :]
        return fn(*head, **dict(zip(names, tail)), **kwargs)

    return call


# ---- activation references ---------------------------------------------------------------------------------

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softplus(x, beta=1.0, threshold=20.0):
    return np.where(beta * x > threshold, x, np.log1p(np.exp(beta * x)) / beta)


def _elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * (np.exp(x) - 1))


def _cast_like(fn):
    """A reference computed in float64, returned in its first argument's dtype (as minipaddle returns)."""

    def ref(x, *args, **kwargs):
        return np.asarray(fn(x, *args, **kwargs)).astype(x.dtype)

    return ref


ACTIVATIONS = {
    "relu6": lambda x: np.clip(x, 0, 6),
    "leaky_relu": lambda x, negative_slope=0.01: np.where(x > 0, x, negative_slope * x),
    "elu": _elu,
    "selu": lambda x, scale=1.0507009873554805, alpha=1.6732632423543772: scale * _elu(x, alpha),
    "celu": lambda x, alpha=1.0: np.maximum(x, 0) + np.minimum(0, alpha * (np.exp(x / alpha) - 1)),
    "gelu": lambda x, approximate=False: (
        0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))) if approximate
        else 0.5 * x * (1 + _erf(x / math.sqrt(2)))),
    "log_sigmoid": lambda x: np.log(_sigmoid(x)),
    "hardsigmoid": lambda x, slope=0.1666667, offset=0.5: np.clip(slope * x + offset, 0, 1),
    "hardswish": lambda x: x * np.clip(x + 3, 0, 6) / 6,
    "hardtanh": lambda x, min=-1.0, max=1.0: np.clip(x, min, max),
    "hardshrink": lambda x, threshold=0.5: np.where(np.abs(x) > threshold, x, 0),
    "softshrink": lambda x, threshold=0.5: np.where(x > threshold, x - threshold,
                                                    np.where(x < -threshold, x + threshold, 0)),
    "tanhshrink": lambda x: x - np.tanh(x),
    "thresholded_relu": lambda x, threshold=1.0: np.where(x > threshold, x, 0),
    "softplus": _softplus,
    "softsign": lambda x: x / (1 + np.abs(x)),
    "swish": lambda x: x * _sigmoid(x),
    "silu": lambda x: x * _sigmoid(x),
    "mish": lambda x: x * np.tanh(_softplus(x)),
}  # fmt: skip

# Values keep away from each activation's kinks (0, +-threshold, +-3, the clip edges), where a numerical
# derivative straddles two pieces.
KINKED = {"relu6": 6.0, "hardtanh": 1.0, "hardshrink": 0.5, "softshrink": 0.5, "thresholded_relu": 1.0,
          "hardsigmoid": 3.0, "hardswish": 3.0, "leaky_relu": 0.0}  # fmt: skip


def _away_from_kinks(edge: float):
    def make(rng, *shape):
        x = r(rng, *shape, low=-2 * max(edge, 1) - 1, high=2 * max(edge, 1) + 1)
        for k in {0.0, edge, -edge}:
            x = np.where(np.abs(x - k) < 0.05, x + 0.2, x)
        return x

    return make


def _activation_entries() -> list:
    entries = []
    for name, ref in ACTIVATIONS.items():
        make = _away_from_kinks(KINKED[name]) if name in KINKED else r
        entries.append(
            OpInfo(
                name,
                getattr(F, name),
                _cast_like(ref),
                unary_samples(make),
                double_grad=name in ("elu", "gelu", "softplus", "selu", "mish", "hardswish"),
            )
        )
    with_args = [
        ("leaky_relu_slope", "leaky_relu", {"negative_slope": 0.2}),
        ("elu_alpha", "elu", {"alpha": 0.5}),
        ("celu_alpha", "celu", {"alpha": 2.0}),
        ("gelu_approximate", "gelu", {"approximate": True}),
        ("softplus_beta", "softplus", {"beta": 2.0, "threshold": 3.0}),
        ("hardtanh_range", "hardtanh", {"min": -0.5, "max": 1.5}),
        ("softshrink_threshold", "softshrink", {"threshold": 1.0}),
    ]
    for label, name, kwargs in with_args:
        entries.append(
            OpInfo(
                label,
                getattr(F, name),
                _cast_like(ACTIVATIONS[name]),
                lambda rng, kw=kwargs: [Sample((_away_from_kinks(1.5)(rng, 3, 4),), kw)],
            )
        )
    return entries  # fmt: skip


def prelu_ref(x, weight, data_format="NCHW"):
    if weight.size > 1:
        shape = [1] * x.ndim
        shape[x.ndim - 1 if data_format[-1] == "C" else 1] = weight.size
        weight = weight.reshape(shape)
    return np.where(x > 0, x, weight * x)


def prelu_samples(rng):
    x = _away_from_kinks(0.0)
    return [
        Sample((x(rng, 2, 3, 4), r(rng, 1)), {}, "one slope"),
        Sample((x(rng, 2, 3, 4), r(rng, 3)), {}, "per channel"),
        Sample((x(rng, 2, 4, 3), r(rng, 3)), {"data_format": "NHWC"}, "channels last"),
    ]


def maxout_ref(x, groups, axis=1):
    axis = axis % 4
    shape = list(x.shape[:axis]) + [x.shape[axis] // groups, groups] + list(x.shape[axis + 1 :])
    return x.reshape(shape).max(axis=axis + 1)


def glu_ref(x, axis=-1):
    a, b = np.split(x, 2, axis=axis)
    return a * _sigmoid(b)


# ---- linear, embedding, similarity ----------------------------------------------------------------------------


def bilinear_ref(x1, x2, weight, bias=None):
    out = np.einsum("ni,oij,nj->no", x1, weight, x2)
    return out if bias is None else out + bias


def embedding_samples(rng):
    ids = np.array([[1, 3, 1], [0, 2, 3]])
    return [
        Sample((ids, r(rng, 4, 3)), {}, "repeated ids"),
        Sample((ids, r(rng, 4, 3)), {"padding_idx": 1}, "padding_idx"),
        Sample((np.array([2, 2, 0]), r(rng, 3, 2)), {"padding_idx": -1}, "negative padding_idx"),
        Sample((ids, r(rng, 4, 3)), {"sparse": True}, "sparse"),
    ]


def embedding_rows_ref(ids, rows):
    return np.isin(np.arange(rows), ids)


def embedding_ref(ids, weight, padding_idx=None, sparse=False):
    out = weight[ids]
    if padding_idx is not None:
        out[ids == padding_idx % weight.shape[0]] = 0
    return out


def cosine_ref(x1, x2, axis=1, eps=1e-8):
    w12 = np.sum(x1 * x2, axis=axis)
    n = np.sqrt(np.maximum(np.sum(x1 * x1, axis=axis) * np.sum(x2 * x2, axis=axis), eps * eps))
    return w12 / n


def pnorm_ref(d, p, axis, keepdim=False):
    if p == np.inf:
        return np.max(np.abs(d), axis=axis, keepdims=keepdim)
    return np.sum(np.abs(d) ** p, axis=axis, keepdims=keepdim) ** (1 / p)


# ---- dropout: seeded inside the call, so each call draws the same mask -----------------------------------


def _keep(shape, p, seed):
    """The keep-mask F.dropout draws after paddle.seed(seed): bernoulli(1 - p), i.e. uniform(0, 1) < 1 - p."""
    return np.random.default_rng(seed).random(size=tuple(shape)) < np.float32(1 - p)


def seeded_dropout(x, p=0.5, axis=None, mode="upscale_in_train", seed=3):
    paddle.seed(seed)
    return F.dropout(x, p=p, axis=axis, mode=mode)


def dropout_ref(x, p=0.5, axis=None, mode="upscale_in_train", seed=3):
    shape = x.shape if axis is None else [d if i in np.atleast_1d(axis) else 1 for i, d in enumerate(x.shape)]
    out = x * _keep(shape, p, seed)
    return out / (1 - p) if mode == "upscale_in_train" else out


def seeded_dropout2d(x, p=0.5, seed=4):
    paddle.seed(seed)
    return F.dropout2d(x, p=p)


def dropout2d_ref(x, p=0.5, seed=4):
    return x * _keep([x.shape[0], x.shape[1], 1, 1], p, seed) / (1 - p)


def seeded_alpha_dropout(x, p=0.5, seed=5):
    paddle.seed(seed)
    return F.alpha_dropout(x, p=p)


def alpha_dropout_ref(x, p=0.5, seed=5):
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    a = ((1 - p) * (1 + p * alpha_p**2)) ** -0.5
    keep = _keep(x.shape, p, seed)
    return (np.where(keep, x, alpha_p) * a - a * alpha_p * p).astype(x.dtype)


# ---- normalization ------------------------------------------------------------------------------------------------


def _standardize(x, axes, eps):
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def _per_channel(t, ndim, axis):
    return t.reshape([t.size if i == axis else 1 for i in range(ndim)])


def batch_norm_fn(x, weight, bias, data_format="NCHW"):
    """Training mode, with fresh running statistics each call (they are updated in place)."""
    c = x.shape[1] if data_format[1] == "C" else x.shape[-1]
    mean, var = paddle.zeros([c], x.dtype), paddle.ones([c], x.dtype)
    return F.batch_norm(x, mean, var, weight, bias, training=True, data_format=data_format)


def batch_norm_ref(x, weight, bias, data_format="NCHW"):
    axis = 1 if data_format[1] == "C" else x.ndim - 1
    axes = tuple(i for i in range(x.ndim) if i != axis)
    y = _standardize(x, axes, 1e-5)
    return y * _per_channel(weight, x.ndim, axis) + _per_channel(bias, x.ndim, axis)


def batch_norm_eval_fn(x, mean, var, weight, bias):
    return F.batch_norm(x, mean, var, weight, bias, training=False)


def batch_norm_eval_ref(x, mean, var, weight, bias):
    c = lambda t: _per_channel(t, x.ndim, 1)  # noqa: E731
    return (x - c(mean)) / np.sqrt(c(var) + 1e-5) * c(weight) + c(bias)


def layer_norm_ref(x, normalized_shape, weight=None, bias=None, epsilon=1e-5):
    k = 1 if isinstance(normalized_shape, int) else len(normalized_shape)
    shape = x.shape[x.ndim - k :]
    y = _standardize(x, tuple(range(x.ndim - k, x.ndim)), epsilon)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y


def instance_norm_ref(x, weight=None, bias=None, eps=1e-5):
    y = _standardize(x, tuple(range(2, x.ndim)), eps)
    return y * _per_channel(weight, x.ndim, 1) + _per_channel(bias, x.ndim, 1) if weight is not None else y


def group_norm_ref(x, num_groups, epsilon=1e-5, weight=None, bias=None, data_format="NCHW"):
    if data_format == "NHWC":
        x = np.moveaxis(x, -1, 1)
    n, c = x.shape[:2]
    y = _standardize(x.reshape(n, num_groups, -1), (2,), epsilon).reshape(x.shape)
    if weight is not None:
        y = y * _per_channel(weight, x.ndim, 1) + _per_channel(bias, x.ndim, 1)
    return np.moveaxis(y, 1, -1) if data_format == "NHWC" else y


def lrn_ref(x, size, alpha=1e-4, beta=0.75, k=1.0, data_format="NCHW"):
    c = x.shape[1]
    sq = np.pad(x * x, [(0, 0), (size // 2, (size - 1) // 2)] + [(0, 0)] * (x.ndim - 2))
    window = sum(sq[:, i : i + c] for i in range(size))
    return x / (k + alpha / size * window) ** beta


def normalize_ref(x, p=2, axis=1, epsilon=1e-12):
    return x / np.maximum(pnorm_ref(x, float(p), axis, keepdim=True), epsilon)


# ---- losses ---------------------------------------------------------------------------------------------------


def _log_softmax(x, axis=-1):
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def cross_entropy_ref(input, label, weight=None, ignore_index=-100, reduction="mean", soft_label=False, axis=-1,
                      use_softmax=True, label_smoothing=0.0):  # fmt: skip
    axis = axis % input.ndim
    log_p = _log_softmax(input, axis) if use_softmax else np.log(input)
    squeezed = label.ndim == input.ndim - 1
    if squeezed:
        label = np.expand_dims(label, axis)
    c = input.shape[axis]
    if label_smoothing:
        hard = np.squeeze(label, axis)
        label = np.moveaxis(np.eye(c)[hard], -1, axis) * (1 - label_smoothing) + label_smoothing / c
        soft_label, squeezed = True, False
    if soft_label:
        w = np.ones_like(log_p[:1]) if weight is None else _per_channel(weight, input.ndim, axis)
        loss = -np.sum(label * log_p, axis=axis, keepdims=True)
        per = np.sum(label * w, axis=axis, keepdims=True)
        valid = np.ones_like(loss)
    else:
        valid = (label != ignore_index).astype(input.dtype)
        safe = np.where(label == ignore_index, 0, label)
        loss = -np.take_along_axis(log_p, safe, axis=axis) * valid
        per = valid if weight is None else np.take(weight, safe) * valid
    if weight is not None:
        loss = loss * per
    loss = loss.astype(input.dtype)
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        if weight is None and soft_label:
            return loss.mean()
        total = (per.sum() if weight is not None else valid.sum()).astype(input.dtype)
        return loss.sum() / (total if total else 1)
    return np.squeeze(loss, axis) if squeezed else loss


def _softmax(x, axis=-1):
    return np.exp(_log_softmax(x, axis))


def ce_samples(rng):
    x = r(rng, 4, 5)
    return [
        Sample((x, rng.integers(0, 5, size=4)), {}, "hard mean"),
        Sample((x, rng.integers(0, 5, size=(4, 1))), {"reduction": "none"}, "labels [N, 1], none"),
        Sample((x, rng.integers(0, 5, size=4)), {"reduction": "sum"}, "sum"),
        Sample((x, _softmax(r(rng, 4, 5))), {"soft_label": True}, "soft"),
        Sample((x, _softmax(r(rng, 4, 5))), {"soft_label": True, "reduction": "none"}, "soft none"),
        Sample((x, np.array([1, 3, 3, 0])), {"ignore_index": 3}, "ignore_index"),
        Sample((r(rng, 2, 5, 3), rng.integers(0, 5, size=(2, 3))), {"axis": 1}, "axis 1"),
        Sample((_softmax(r(rng, 4, 5)), rng.integers(0, 5, size=4)), {"use_softmax": False}, "probabilities"),
        Sample((_softmax(r(rng, 4, 5)), _softmax(r(rng, 4, 5))), {"soft_label": True, "use_softmax": False},
               "soft probabilities"),
        Sample((x, rng.integers(0, 5, size=4)), {"label_smoothing": 0.1, "reduction": "none"}, "label smoothing"),
    ]  # fmt: skip


def weighted_ce_samples(rng):
    x = r(rng, 4, 5)
    return [
        Sample((x, rng.integers(0, 5, size=4), pos(rng, 5)), {}, "weighted mean"),
        Sample((x, np.array([1, 3, 3, 0]), pos(rng, 5)), {"ignore_index": 3, "reduction": "none"}, "ignore none"),
        Sample((x, np.array([1, 3, 3, 0]), pos(rng, 5)), {"ignore_index": 3}, "ignore mean"),
        Sample((x, _softmax(r(rng, 4, 5)), pos(rng, 5)), {"soft_label": True}, "soft"),
    ]


def swce_ref(logits, label, soft_label=False, ignore_index=-100, numeric_stable_mode=True, return_softmax=False,
             axis=-1):  # fmt: skip
    return cross_entropy_ref(logits, label, soft_label=soft_label, ignore_index=ignore_index, reduction="none",
                             axis=axis)  # fmt: skip


def nll_ref(input, label, weight=None, ignore_index=-100, reduction="mean"):
    c = input.shape[1]
    w = np.ones(c, input.dtype) if weight is None else weight
    valid = label != ignore_index
    safe = np.where(valid, label, 0)
    picked = np.take_along_axis(input, safe[:, None], axis=1)[:, 0]
    wt = w[safe] * valid
    loss = -picked * wt
    if reduction == "none":
        return loss.astype(input.dtype)
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / wt.sum()


def nll_samples(rng):
    logp = np.log(_softmax(r(rng, 4, 5), 1))
    return [
        Sample((logp, rng.integers(0, 5, size=4)), {}, "mean"),
        Sample(
            (np.log(_softmax(r(rng, 2, 3, 2, 2), 1)), rng.integers(0, 3, size=(2, 2, 2))),
            {"reduction": "none"},
            "4-d none",
        ),
    ]


def _reduce(loss, reduction):
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def regression_samples(rng):
    return [
        Sample((r(rng, 3, 4), r(rng, 3, 4)), {}, "mean"),
        Sample((r(rng, 3, 4), r(rng, 3, 4)), {"reduction": "sum"}, "sum"),
        Sample((r(rng, 5), r(rng, 5)), {"reduction": "none"}, "none"),
    ]


def smooth_l1_ref(input, label, reduction="mean", delta=1.0):
    d = np.abs(input - label)
    return _reduce(np.where(d <= delta, 0.5 * d * d, delta * (d - 0.5 * delta)), reduction)


def bce_ref(input, label, weight=None, reduction="mean"):
    loss = -(label * np.maximum(np.log(input), -100) + (1 - label) * np.maximum(np.log(1 - input), -100))
    return _reduce(loss if weight is None else loss * weight, reduction)


def bce_samples(rng):
    return [
        Sample((pos(rng, 3, 4) / 2.1, rng.integers(0, 2, size=(3, 4)).astype(float)), {}, "hard labels"),
        Sample((pos(rng, 3, 4) / 2.1, pos(rng, 3, 4) / 2.1), {"reduction": "none"}, "soft labels"),
    ]


def bce_logits_ref(logit, label, weight=None, reduction="mean", pos_weight=None):
    tail = np.log1p(np.exp(-np.abs(logit)))
    if pos_weight is not None:
        tail = tail * (1 + (pos_weight - 1) * label)
    loss = np.maximum(logit, 0) - logit * label + tail
    return _reduce(loss if weight is None else loss * weight, reduction)


def bce_logits_samples(rng):
    return [
        Sample((r(rng, 3, 4) * 3, rng.integers(0, 2, size=(3, 4)).astype(float)), {}, "mean"),
        Sample((r(rng, 3, 4) * 3, pos(rng, 3, 4) / 2.1), {"reduction": "sum"}, "soft labels sum"),
    ]


def focal_ref(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum"):
    p = _sigmoid(logit)
    ce = bce_logits_ref(logit, label, reduction="none")
    p_t = p * label + (1 - p) * (1 - label)
    loss = (alpha * label + (1 - alpha) * (1 - label)) * ce * (1 - p_t) ** gamma
    return _reduce(loss if normalizer is None else loss / normalizer, reduction)


def kl_ref(input, label, reduction="mean"):
    loss = np.where(label > 0, label * (np.log(np.where(label > 0, label, 1)) - input), 0)
    return loss.sum() / input.shape[0] if reduction == "batchmean" else _reduce(loss, reduction)


def dice_ref(input, label, epsilon=1e-5):
    onehot = np.eye(input.shape[-1], dtype=input.dtype)[label[..., 0]]
    axes = tuple(range(1, input.ndim))
    inter = (input * onehot).sum(axis=axes)
    return np.mean(1 - 2 * inter / (input.sum(axis=axes) + onehot.sum(axis=axes) + epsilon))


def npair_ref(anchor, positive, labels, l2_reg=0.002):
    same = (labels[:, None] == labels[None, :]).astype(anchor.dtype)
    targets = same / same.sum(axis=1, keepdims=True)
    l2 = (np.mean(np.sum(anchor**2, 1)) + np.mean(np.sum(positive**2, 1))) * 0.25 * l2_reg
    ce = -np.sum(targets * _log_softmax(anchor @ positive.T, 1), axis=1, keepdims=True)
    return l2 + np.mean(np.sum(targets * ce, 0))


def ctc_ref(logits, labels, input_lengths, label_lengths, blank=0, reduction="mean", norm_by_times=False):
    """The CTC forward recursion written out with loops, per sample, in log space."""
    log_p = _log_softmax(logits.astype(np.float64), -1)
    losses = []
    for n in range(logits.shape[1]):
        ext = [blank]
        for label in labels[n, : label_lengths[n]]:
            ext += [int(label), blank]
        alpha = np.full(len(ext), -np.inf)
        alpha[0] = log_p[0, n, ext[0]]
        if len(ext) > 1:
            alpha[1] = log_p[0, n, ext[1]]
        for t in range(1, input_lengths[n]):
            new = np.full(len(ext), -np.inf)
            for s in range(len(ext)):
                terms = [alpha[s]] + ([alpha[s - 1]] if s > 0 else [])
                if s > 1 and ext[s] != blank and ext[s] != ext[s - 2]:
                    terms.append(alpha[s - 2])
                new[s] = np.logaddexp.reduce(terms) + log_p[t, n, ext[s]]
            alpha = new
        losses.append(-np.logaddexp.reduce(alpha[-2:]))
    loss = np.array(losses, logits.dtype)
    if reduction == "mean":
        return np.mean(loss / label_lengths).astype(logits.dtype)
    return loss.sum() if reduction == "sum" else loss


def ctc_samples(rng):
    return [
        Sample((r(rng, 6, 3, 5), np.array([[1, 2, 2], [3, 0, 0], [4, 1, 0]], "int32"), np.array([6, 4, 5]),
                np.array([3, 1, 2])), {}, "mean, repeated label"),
        Sample((r(rng, 4, 2, 4), np.array([[0, 1], [2, 2]], "int32"), np.array([4, 4]), np.array([2, 0])),
               {"blank": 3, "reduction": "none"}, "blank 3, an empty label"),
    ]  # fmt: skip


def hsigmoid_ref(x, label, num_classes, weight, bias=None, path_table=None, path_code=None):
    out = np.zeros((x.shape[0], 1), x.dtype)
    for i in range(x.shape[0]):
        if path_table is None:
            code = int(label.reshape(-1)[i]) + num_classes
            depth = int(num_classes - 1).bit_length()  # every path is read over the tree's depth (paddle)
            nodes = [(code >> (j + 1)) - 1 if j < int(np.log2(code)) else -1 for j in range(depth)]
            bits = [(code >> j) & 1 for j in range(depth)]
        else:
            nodes, bits = path_table[i], path_code[i]
        for node, bit in zip(nodes, bits):
            pre = 0.0 if node < 0 else np.clip(weight[node] @ x[i] + (0 if bias is None else bias[node, 0]), -40, 40)
            out[i, 0] += np.log1p(np.exp(pre)) - (bit if node >= 0 else 0) * pre  # padding adds log 2, as Paddle
    return out


def _reduce_ref(loss, reduction):
    return _reduce(np.asarray(loss), reduction)


def cosine_embedding_ref(x1, x2, label, margin=0, reduction="mean"):
    cos = (x1 * x2).sum(-1) / np.sqrt(((x1**2).sum(-1) + 1e-11) * ((x2**2).sum(-1) + 1e-11))
    return _reduce_ref(np.where(label == 1, 1 - cos, 0) + np.where(label == -1, np.maximum(cos - margin, 0), 0),
                       reduction)  # fmt: skip


def triplet_ref(a, p_, n, margin=1.0, p=2, epsilon=1e-6, swap=False, reduction="mean"):
    d_pos, d_neg = pnorm_ref(a - p_ + epsilon, p, -1), pnorm_ref(a - n + epsilon, p, -1)
    if swap:
        d_neg = np.minimum(d_neg, pnorm_ref(p_ - n + epsilon, p, -1))
    return _reduce_ref(np.maximum(d_pos - d_neg + margin, 0), reduction)


def multi_margin_ref(x, label, p=1, margin=1.0, weight=None, reduction="mean"):
    picked = np.take_along_axis(x, label[:, None], 1)
    w = 1.0 if weight is None else weight[label][:, None]
    loss = np.mean(np.maximum(w * (margin - picked + x), 0) ** p, axis=1)
    loss = loss - (margin**p / x.shape[1] if weight is None else w * margin**p / x.shape[1])  # [N, N] with weight
    return _reduce_ref(loss.astype(x.dtype), reduction)


_VARIANCE = np.linspace(0.5, 1.5, 12).reshape(3, 4)  # gaussian_nll_loss gives its variance no gradient: a constant


def gaussian_nll_fn(x, y, full=False, reduction="mean"):
    return F.gaussian_nll_loss(x, y, paddle.to_tensor(_VARIANCE, x.dtype.name), full=full, reduction=reduction)


def gaussian_nll_ref(x, y, full=False, reduction="mean"):
    loss = 0.5 * (np.log(_VARIANCE) + (x - y) ** 2 / _VARIANCE) + (0.5 * np.log(2 * np.pi) if full else 0)
    return _reduce_ref(loss.astype(x.dtype), reduction)


def poisson_ref(x, label, log_input=True, full=False, epsilon=1e-8, reduction="mean"):
    label = label.astype(x.dtype)
    loss = np.exp(x) - label * x if log_input else x - label * np.log(x + epsilon)
    if full:
        safe = np.where(label > 1, label, 1)
        loss = loss + np.where(label > 1, safe * np.log(safe) - safe + 0.5 * np.log(2 * np.pi * safe), 0)
    return _reduce_ref(loss.astype(x.dtype), reduction)


def seeded_rrelu(x, seed=6):
    paddle.seed(seed)
    return F.rrelu(x)


def rrelu_ref(x, seed=6):
    slopes = np.random.default_rng(seed).uniform(1 / 8, 1 / 3, size=x.shape).astype(x.dtype)
    return np.where(x >= 0, x, slopes * x)


def seeded_gumbel(x, temperature=1.0, hard=False, seed=8):
    paddle.seed(seed)
    return F.gumbel_softmax(x, temperature, hard)


def gumbel_ref(x, temperature=1.0, hard=False, seed=8):
    u = np.random.default_rng(seed).uniform(0, 1, size=x.shape).astype(x.dtype)
    soft = _softmax((x - np.log(-np.log(np.maximum(u, 1e-20)))) / temperature)
    return (soft == soft.max(-1, keepdims=True)).astype(x.dtype) if hard else soft.astype(x.dtype)


def _signs(rng, *shape):
    return np.where(rng.random(shape) > 0.5, 1, -1)


ENTRIES: list[OpInfo] = [
    *_activation_entries(),
    OpInfo("prelu", F.prelu, prelu_ref, prelu_samples),
    OpInfo("maxout", F.maxout, maxout_ref,
           lambda rng: [Sample((distinct(rng, 2, 6, 2, 2), 2), {}, "NCHW"),
                        Sample((distinct(rng, 2, 2, 2, 6), 3), {"axis": -1}, "NHWC")]),
    OpInfo("glu", F.glu, glu_ref, lambda rng: [Sample((r(rng, 3, 6),)), Sample((r(rng, 4, 2),), {"axis": 0})]),
    # linear, embedding, one_hot, similarity
    OpInfo("linear", F.linear, lambda x, w, b=None: x @ w + (0 if b is None else b),
           lambda rng: [Sample((r(rng, 4, 3), r(rng, 3, 2), r(rng, 2)), {}, "with bias"),
                        Sample((r(rng, 2, 4, 3), r(rng, 3, 5)), {}, "3-d, no bias")], double_grad=True),
    OpInfo("bilinear", F.bilinear, bilinear_ref,
           lambda rng: [Sample((r(rng, 4, 2), r(rng, 4, 3), r(rng, 5, 2, 3), r(rng, 1, 5)))]),
    OpInfo("embedding", F.embedding, embedding_ref, embedding_samples, double_grad=True),
    OpInfo("embedding_rows", ops.embedding_rows, embedding_rows_ref,
           lambda rng: [Sample((np.array([[1, 3, 1], [0, 3, 3]]), 5)), Sample((np.array([2]), 3), label="one id")],
           grad=False),
    OpInfo("one_hot", F.one_hot, lambda x, num_classes: np.eye(num_classes, dtype=np.float32)[x],
           lambda rng: [Sample((np.array([0, 3, 1]), 4)), Sample((np.array([[1, 1], [0, 2]]), 3))], grad=False),
    OpInfo("label_smooth", F.label_smooth,
           lambda label, prior_dist=None, epsilon=0.1: (1 - epsilon) * label + epsilon * (
               1 / label.shape[-1] if prior_dist is None else prior_dist),
           lambda rng: [Sample((np.eye(4)[[0, 2, 1]],), {"epsilon": 0.2}),
                        Sample((np.eye(3)[[2, 0]], _softmax(r(rng, 1, 3))), {}, "prior_dist")]),
    OpInfo("cosine_similarity", F.cosine_similarity, cosine_ref,
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 3, 4))), Sample((r(rng, 3, 4), r(rng, 1, 4)), {"axis": -1})]),
    OpInfo("pairwise_distance", F.pairwise_distance,
           lambda x, y, p=2.0, epsilon=1e-6, keepdim=False: pnorm_ref(x - y + epsilon, p, -1, keepdim),
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 3, 4))),
                        Sample((r(rng, 3, 4), r(rng, 3, 4)), {"p": 3.0, "keepdim": True}),
                        Sample((distinct(rng, 3, 4), distinct(rng, 3, 4) / 3), {"p": float("inf")})]),
    OpInfo("normalize", F.normalize, normalize_ref,
           lambda rng: [Sample((r(rng, 3, 4),)), Sample((r(rng, 3, 4),), {"p": 1, "axis": 0}),
                        Sample((r(rng, 5),), {"axis": -1})]),
    # dropout
    OpInfo("dropout", seeded_dropout, dropout_ref,
           lambda rng: [Sample((r(rng, 4, 5),), {}, "elementwise"),
                        Sample((r(rng, 4, 5),), {"p": 0.3, "axis": 1}, "shared along axis 0"),
                        Sample((r(rng, 4, 5),), {"p": 0.2, "mode": "downscale_in_infer"}, "downscale mode")]),
    OpInfo("dropout2d", seeded_dropout2d, dropout2d_ref, lambda rng: [Sample((r(rng, 3, 4, 2, 2),))]),
    OpInfo("alpha_dropout", seeded_alpha_dropout, alpha_dropout_ref, lambda rng: [Sample((r(rng, 4, 5),), {"p": 0.2})]),
    # normalization
    OpInfo("batch_norm", batch_norm_fn, batch_norm_ref,
           lambda rng: [Sample((r(rng, 4, 3, 2, 2), pos(rng, 3), r(rng, 3)), {}, "NCHW"),
                        Sample((r(rng, 5, 3), pos(rng, 3), r(rng, 3)), {}, "NC"),
                        Sample((r(rng, 2, 2, 2, 3), pos(rng, 3), r(rng, 3)), {"data_format": "NHWC"}, "NHWC")],
           double_grad=True, atol=1e-5),
    OpInfo("batch_norm_eval", batch_norm_eval_fn, batch_norm_eval_ref,
           lambda rng: [Sample((r(rng, 4, 3, 2), r(rng, 3), pos(rng, 3), pos(rng, 3), r(rng, 3)))]),
    OpInfo("layer_norm", F.layer_norm, layer_norm_ref,
           lambda rng: [Sample((r(rng, 2, 3, 4), [4], pos(rng, 4), r(rng, 4)), {}, "last axis"),
                        Sample((r(rng, 2, 3, 4), [3, 4], pos(rng, 12), r(rng, 12)), {}, "two axes"),
                        Sample((r(rng, 3, 5), 5), {"epsilon": 1e-3}, "no affine")], double_grad=True),
    OpInfo("instance_norm", _kw(F.instance_norm, "weight", "bias"), _kw(instance_norm_ref, "weight", "bias"),
           lambda rng: [Sample((r(rng, 2, 3, 2, 3), pos(rng, 3), r(rng, 3)), {}, "affine")]),
    OpInfo("instance_norm_plain", F.instance_norm, instance_norm_ref, lambda rng: [Sample((r(rng, 2, 3, 4),))]),
    OpInfo("group_norm", _kw(F.group_norm, "weight", "bias"), _kw(group_norm_ref, "weight", "bias"),
           lambda rng: [Sample((r(rng, 2, 4, 2, 2), 2, pos(rng, 4), r(rng, 4)), {}, "NCHW"),
                        Sample((r(rng, 2, 2, 2, 6), 3, pos(rng, 6), r(rng, 6)), {"data_format": "NHWC"}, "NHWC")]),
    OpInfo("local_response_norm", F.local_response_norm, lrn_ref,
           lambda rng: [Sample((r(rng, 2, 5, 2, 2), 3)), Sample((r(rng, 2, 6, 3), 4), {"alpha": 0.1, "k": 2.0})]),
    # losses
    OpInfo("cross_entropy", F.cross_entropy, cross_entropy_ref, ce_samples, double_grad=True, no_grad_args=(1,)),
    OpInfo("cross_entropy_weighted", _kw(F.cross_entropy, "weight"), _kw(cross_entropy_ref, "weight"),
           weighted_ce_samples, double_grad=True, no_grad_args=(1,)),
    OpInfo("softmax_with_cross_entropy", F.softmax_with_cross_entropy, swce_ref,
           lambda rng: [Sample((r(rng, 4, 5), rng.integers(0, 5, size=(4, 1))), {}, "hard"),
                        Sample((r(rng, 4, 5), _softmax(r(rng, 4, 5))), {"soft_label": True}, "soft")],
           no_grad_args=(1,)),
    OpInfo("nll_loss", F.nll_loss, nll_ref, nll_samples),
    OpInfo("nll_loss_weighted", _kw(F.nll_loss, "weight"), _kw(nll_ref, "weight"),
           lambda rng: [Sample((np.log(_softmax(r(rng, 4, 5))), np.array([1, 2, 2, 4]), pos(rng, 5)),
                               {"ignore_index": 2})]),
    OpInfo("mse_loss", F.mse_loss, lambda x, y, reduction="mean": _reduce((x - y) ** 2, reduction),
           regression_samples, double_grad=True),
    OpInfo("square_error_cost", F.square_error_cost, lambda x, y: (x - y) ** 2,
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 3, 4)))]),
    OpInfo("l1_loss", F.l1_loss, lambda x, y, reduction="mean": _reduce(np.abs(x - y), reduction),
           regression_samples),
    OpInfo("smooth_l1_loss", F.smooth_l1_loss, smooth_l1_ref,
           lambda rng: [*regression_samples(rng), Sample((r(rng, 3, 4), r(rng, 3, 4)), {"delta": 0.5}, "delta")]),
    OpInfo("binary_cross_entropy", F.binary_cross_entropy, bce_ref, bce_samples, double_grad=True, no_grad_args=(1,)),
    OpInfo("binary_cross_entropy_weighted", _kw(F.binary_cross_entropy, "weight"), _kw(bce_ref, "weight"),
           lambda rng: [Sample((pos(rng, 3, 4) / 2.1, pos(rng, 3, 4) / 2.1, pos(rng, 3, 4)), {"reduction": "sum"})],
           no_grad_args=(1,)),
    OpInfo("binary_cross_entropy_with_logits", F.binary_cross_entropy_with_logits, bce_logits_ref,
           bce_logits_samples, double_grad=True, no_grad_args=(1,)),
    # pos_weight: forward as Paddle; its gradient is Paddle's, not the forward's derivative (see the op): no gradcheck
    OpInfo("bce_with_logits_weighted", _kw(F.binary_cross_entropy_with_logits, "weight"),
           _kw(bce_logits_ref, "weight"),
           lambda rng: [Sample((r(rng, 3, 4) * 3, pos(rng, 3, 4) / 2.1, pos(rng, 3, 4)), {"reduction": "none"})],
           no_grad_args=(1,)),
    OpInfo("bce_with_logits_pos_weight", _kw(F.binary_cross_entropy_with_logits, "pos_weight"),
           _kw(bce_logits_ref, "pos_weight"),
           lambda rng: [Sample((r(rng, 3, 4) * 3, pos(rng, 3, 4) / 2.1, pos(rng, 4) * 2))], grad=False),
    OpInfo("sigmoid_focal_loss", F.sigmoid_focal_loss, focal_ref,
           lambda rng: [Sample((r(rng, 3, 4) * 3, rng.integers(0, 2, size=(3, 4)).astype(float)), {}, "sum"),
                        Sample((r(rng, 3, 4), rng.integers(0, 2, size=(3, 4)).astype(float), np.array([2.0])),
                               {"reduction": "mean", "gamma": 1.5}, "normalized")],
           no_grad_args=(1,)),  # the BCE inside gives the label no gradient (paddle), so only part of one is left
    OpInfo("kl_div", F.kl_div, kl_ref,
           lambda rng: [Sample((np.log(_softmax(r(rng, 3, 4))), _softmax(r(rng, 3, 4))), {}, "mean"),
                        Sample((r(rng, 3, 4), pos(rng, 3, 4)), {"reduction": "batchmean"}, "batchmean")],
           no_grad_args=(1,)),  # the label gets no gradient (paddle's kldiv_loss op)
    # label = 0 is a kink of label * log(label) (no derivative there): forward only
    OpInfo("kl_div_zero_labels", F.kl_div, kl_ref,
           lambda rng: [Sample((r(rng, 3, 4), np.where(pos(rng, 3, 4) > 1, pos(rng, 3, 4), 0.0)),
                               {"reduction": "none"})], grad=False),
    OpInfo("margin_ranking_loss", F.margin_ranking_loss,
           lambda x, y, label, margin=0.0, reduction="mean": _reduce(np.maximum(0, -label * (x - y) + margin),
                                                                     reduction),
           lambda rng: [Sample((distinct(rng, 6), distinct(rng, 6) / 2, np.array([1.0, -1, 1, 1, -1, 1])),
                               {"margin": 0.1})]),
    OpInfo("log_loss", F.log_loss,
           lambda x, y, epsilon=1e-4: -y * np.log(x + epsilon) - (1 - y) * np.log(1 - x + epsilon),
           lambda rng: [Sample((pos(rng, 4, 1) / 2.1, rng.integers(0, 2, size=(4, 1)).astype(float)))]),
    OpInfo("dice_loss", F.dice_loss, dice_ref,
           lambda rng: [Sample((_softmax(r(rng, 2, 3, 4)), rng.integers(0, 4, size=(2, 3, 1))))]),
    OpInfo("ctc_loss", F.ctc_loss, ctc_ref, ctc_samples),
    OpInfo("hsigmoid_loss", F.hsigmoid_loss, hsigmoid_ref,
           lambda rng: [Sample((r(rng, 4, 3), np.array([0, 5, 3, 2]), 6, r(rng, 5, 3), r(rng, 5, 1)), {},
                               "default tree"),
                        Sample((r(rng, 4, 3), np.array([0, 5, 3, 2]), 6, r(rng, 6, 3), r(rng, 6, 1),
                                np.array([[0, 2, -1], [1, 3, 4], [0, -1, -1], [2, 4, 1]]),
                                np.array([[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 0, 1]])), {}, "custom tree")]),
    OpInfo("hinge_embedding_loss", F.hinge_embedding_loss,
           lambda x, y, margin=1.0, reduction="mean": _reduce_ref(
               np.where(y == 1, x, 0) + np.where(y == -1, np.maximum(margin - x, 0), 0), reduction).astype(x.dtype),
           lambda rng: [Sample((distinct(rng, 3, 4) * 2, _signs(rng, 3, 4)), {}),
                        Sample((distinct(rng, 5), _signs(rng, 5)), {"margin": 0.5, "reduction": "none"})]),
    OpInfo("cosine_embedding_loss", F.cosine_embedding_loss, cosine_embedding_ref,
           lambda rng: [Sample((r(rng, 4, 3), r(rng, 4, 3), np.array([1, -1, -1, 1])), {"margin": -0.9}),
                        Sample((r(rng, 3), r(rng, 3), np.array([1])), {"reduction": "none"})]),
    OpInfo("triplet_margin_loss", F.triplet_margin_loss, triplet_ref,
           lambda rng: [Sample((r(rng, 4, 3), r(rng, 4, 3), r(rng, 4, 3)), {"margin": 3.0}),
                        Sample((r(rng, 4, 3), r(rng, 4, 3), r(rng, 4, 3)), {"p": 1, "swap": True, "margin": 5.0,
                                                                           "reduction": "none"})]),
    OpInfo("triplet_margin_with_distance_loss", F.triplet_margin_with_distance_loss,
           lambda a, p_, n, margin=1.0, reduction="mean": triplet_ref(a, p_, n, margin, reduction=reduction),
           lambda rng: [Sample((r(rng, 4, 3), r(rng, 4, 3), r(rng, 4, 3)), {"margin": 3.0})]),
    OpInfo("multi_margin_loss", F.multi_margin_loss, multi_margin_ref,
           lambda rng: [Sample((distinct(rng, 4, 5), rng.integers(0, 5, size=4)), {"margin": 3.0})]),
    OpInfo("multi_margin_loss_weighted", _kw(F.multi_margin_loss, "weight"), _kw(multi_margin_ref, "weight"),
           lambda rng: [Sample((distinct(rng, 4, 5), rng.integers(0, 5, size=4), pos(rng, 5)),
                               {"p": 2, "margin": 3.0, "reduction": "none"})]),
    OpInfo("soft_margin_loss", F.soft_margin_loss,
           lambda x, y, reduction="mean": _reduce_ref(np.log1p(np.exp(-y * x)), reduction).astype(x.dtype),
           lambda rng: [Sample((r(rng, 3, 4), _signs(rng, 3, 4).astype(float)), {})]),
    OpInfo("multi_label_soft_margin_loss", F.multi_label_soft_margin_loss,
           lambda x, y, reduction="mean": _reduce_ref(-(y * np.log(_sigmoid(x)) + (1 - y) * np.log(_sigmoid(-x))
                                                        ).mean(-1), reduction).astype(x.dtype),
           lambda rng: [Sample((r(rng, 3, 4), rng.integers(0, 2, size=(3, 4)).astype(float)), {"reduction": "none"})]),
    OpInfo("gaussian_nll_loss", gaussian_nll_fn, gaussian_nll_ref,
           lambda rng: [Sample((r(rng, 3, 4), r(rng, 3, 4)), {"full": True}), Sample((r(rng, 3, 4), r(rng, 3, 4)),
                                                                                    {"reduction": "none"})]),
    OpInfo("poisson_nll_loss", F.poisson_nll_loss, poisson_ref,
           lambda rng: [Sample((r(rng, 3, 4), rng.integers(0, 5, size=(3, 4))), {}),
                        Sample((pos(rng, 3, 4), rng.integers(0, 5, size=(3, 4))),
                               {"log_input": False, "full": True, "reduction": "sum"})]),
    OpInfo("rrelu", seeded_rrelu, rrelu_ref, unary_samples(_away_from_kinks(0.0))),
    OpInfo("rrelu_eval", lambda x: F.rrelu(x, training=False),
           lambda x: np.where(x >= 0, x, (1 / 8 + 1 / 3) / 2 * x).astype(x.dtype),
           unary_samples(_away_from_kinks(0.0))),
    OpInfo("gumbel_softmax", seeded_gumbel, gumbel_ref,
           lambda rng: [Sample((r(rng, 3, 4),), {"temperature": 0.5})]),
    OpInfo("gumbel_softmax_hard", seeded_gumbel, gumbel_ref,
           lambda rng: [Sample((r(rng, 3, 4),), {"hard": True})], grad=False),
    OpInfo("softmax2d", lambda x: paddle.nn.Softmax2D()(x), lambda x: _softmax(x, -3).astype(x.dtype),
           lambda rng: [Sample((r(rng, 2, 3, 2, 2),)), Sample((r(rng, 3, 2, 2),))]),
    OpInfo("npair_loss", F.npair_loss, npair_ref,
           lambda rng: [Sample((r(rng, 4, 3), r(rng, 4, 3), np.array([1.0, 2.0, 1.0, 3.0])))]),
]  # fmt: skip
