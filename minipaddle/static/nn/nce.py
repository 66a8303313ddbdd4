"""paddle.static.nn.nce: noise-contrastive estimation, with its weights named as Paddle's (`nce_0.w_0`, `nce_0.b_0`)
and its negative classes drawn by the op nce_sample (ops/nce_ops.py) with Paddle's three samplers.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.state import unique_name
from minipaddle.core.tensor import Tensor
from minipaddle.nn.initializer import Assign
from minipaddle.nn.param_attr import make_parameter
from minipaddle.ops.nce_ops import SAMPLERS
from minipaddle.tensor.checks import check_tensor

__all__ = ["nce"]


# ---- nce --------------------------------------------------------------------------------------------------------


def _alias_table(custom_dist, n: int):
    """Paddle's alias table for the custom sampler (Vose's method, in Paddle's order): each column keeps its own
    class with probability alias_probs[i] and gives the rest to alias[i] (-1: none)."""
    alias_probs, alias = [0.0] * n, [0] * n
    bigs, littles = [], []
    for i in range(n):
        p = custom_dist[i] * n
        if p > 1.0:
            bigs.append((i, p))
        elif p < 1.0:
            littles.append((i, p))
        else:
            alias_probs[i], alias[i] = p, -1
    while bigs and littles:
        (big, big_p), (little, little_p) = bigs.pop(0), littles.pop(0)
        alias_probs[little], alias[little] = little_p, big
        left = big_p + little_p - 1
        if left > 1.0:
            bigs.append((big, left))
        elif left < 1.0:
            littles.append((big, left))
        else:
            alias_probs[big], alias[big] = left, -1
    for leftover in (bigs, littles):
        if leftover:
            alias_probs[leftover[0][0]], alias[leftover[0][0]] = 1.0, -1
    return np.asarray(alias, np.int32), np.asarray(alias_probs, np.float32)


def nce(input, label, num_total_classes, sample_weight=None, param_attr=None, bias_attr=None,  # noqa: A002
        num_neg_samples=None, name=None, sampler="uniform", custom_dist=None, seed=0, is_sparse=False):  # fmt: skip
    """Noise-contrastive estimation loss: each row of `input` is scored against its true classes and
    `num_neg_samples` classes drawn from `sampler`, each score a sigmoid of x . w[c] + b[c] weighed against the
    sample's probability under the sampler:

        cost[i] = sum_j -log(o / (o + k P(c))) (true classes) + sum_j -log(k P(c) / (o + k P(c))) (drawn),

    divided by num_neg_samples + 1 (k = num_neg_samples), times sample_weight[i] if given.

    Args:
        input: [N, D] float32/float64. label: [N, T] int64, the true classes.
        num_total_classes: the number of classes; the weight is [num_total_classes, D] (`nce_0.w_0`), the bias
            [num_total_classes, 1] (`nce_0.b_0`, none for bias_attr=False).
        sample_weight: optional [N, 1] (or [N]) weights of the rows.
        num_neg_samples: how many classes to draw per row (default 10).
        sampler: 'uniform', 'log_uniform' (P(c) = log((c + 2) / (c + 1)) / log(num_total_classes)), or
            'custom_dist' with `custom_dist` the num_total_classes probabilities (kept in three non-trainable
            parameters, as Paddle).
        seed: 0 draws from minipaddle's random state (paddle.seed); another value draws the same samples each run.
        is_sparse: accepted and ignored (the weight's gradient is dense).

    Returns:
        [N, 1] cost of input's dtype.

    Example:
        >>> x = paddle.static.data("x", [-1, 8], "float32")
        >>> label = paddle.static.data("label", [-1, 1], "int64")
        >>> cost = paddle.static.nn.nce(x, label, num_total_classes=100, num_neg_samples=5)
    """
    fn = "nce"
    check_tensor(input, fn, "input")
    check_tensor(label, fn, "label")
    if input.dtype.name not in ("float32", "float64"):
        raise TypeError(f"{fn}: input must be float32 or float64, got {input.dtype.name}")
    if label.dtype.name != "int64":
        raise TypeError(f"{fn}: label must be int64, got {label.dtype.name}")
    if input.ndim != 2 or label.ndim != 2:
        raise ValueError(f"{fn}: input must be [N, D] and label [N, num_true], got shapes {input.shape} and "
                         f"{label.shape}")  # fmt: skip
    if input.shape[1] < 0 or label.shape[1] < 0:
        raise ValueError(f"{fn}: input's width and label's number of true classes must be known, got "
                         f"{input.shape} and {label.shape}")  # fmt: skip
    if not isinstance(num_total_classes, int) or isinstance(num_total_classes, bool) or num_total_classes < 2:
        raise ValueError(f"{fn}: num_total_classes must be an int >= 2, got {num_total_classes!r}")
    k = 10 if num_neg_samples is None else int(num_neg_samples)
    if k < 1:
        raise ValueError(f"{fn}: num_neg_samples must be positive, got {num_neg_samples!r}")
    if sampler not in SAMPLERS:
        raise ValueError(f"{fn}: sampler must be one of {', '.join(SAMPLERS)}, got {sampler!r}")
    if sample_weight is not None:
        check_tensor(sample_weight, fn, "sample_weight")
    prefix = name or unique_name(fn)
    w = make_parameter(prefix, [num_total_classes, input.shape[1]], param_attr, input.dtype, fn=fn)
    b = make_parameter(prefix, [num_total_classes, 1], bias_attr, input.dtype, is_bias=True, fn=fn)
    tables = (None, None, None)
    if sampler == "custom_dist":
        dist = np.asarray(custom_dist if custom_dist is not None else [], np.float64).reshape(-1)
        if dist.size != num_total_classes or np.any(dist < 0):
            raise ValueError(f"{fn}: custom_dist must hold num_total_classes ({num_total_classes}) non-negative "
                             f"probabilities, got {custom_dist!r}")  # fmt: skip
        alias, alias_probs = _alias_table(dist, num_total_classes)
        tables = tuple(_constant_parameter(prefix, a) for a in (dist.astype(np.float32), alias, alias_probs))
    samples, scaled = ops.nce_sample(label, *tables, num_total_classes, k, sampler, int(seed))
    width = label.shape[1] + k
    flat = ops.reshape(samples, [-1])
    rows = ops.reshape(ops.gather(w, flat), [-1, width, input.shape[1]])
    logits = ops.sum(ops.multiply(ops.reshape(input, [-1, 1, input.shape[1]]), rows), axis=(2,))
    if b is not None:
        logits = ops.add(logits, ops.reshape(ops.gather(b, flat), [-1, width]))
    o = ops.sigmoid(logits)
    noise = ops.cast(scaled, input.dtype)
    is_true = Tensor(np.arange(width) < label.shape[1])
    cost = ops.subtract(ops.log(ops.add(o, noise)), ops.log(ops.where(is_true, o, noise)))
    if sample_weight is not None:
        cost = ops.multiply(cost, ops.reshape(ops.cast(sample_weight, input.dtype), [-1, 1]))
    cost = ops.sum(cost, axis=(1,), keepdim=True)
    return ops.divide(cost, Tensor(np.asarray(k + 1, input.dtype.np)))


def _constant_parameter(prefix: str, values: np.ndarray):
    p = make_parameter(prefix, list(values.shape), None, values.dtype.name, default_initializer=Assign(values),
                       fn="nce")  # fmt: skip
    p.stop_gradient = True
    return p
