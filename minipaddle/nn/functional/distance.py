"""Similarities and distances between vectors: cosine_similarity and pairwise_distance, and p_norm, the vector
norm they (and normalize) are built on."""

from __future__ import annotations

import math

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_flag, check_float, check_tensor, normalize_axis
from minipaddle.tensor.math import binary_operands

__all__ = ["cosine_similarity", "pairwise_distance"]


def p_norm(x: Tensor, p: float, axis: int, keepdim: bool) -> Tensor:
    """The p-norm of x along `axis`: (sum |x|^p)^(1/p); inf: max |x|; -inf: min |x|; 0: the count of non-zeros."""
    p = check_float(p, "p_norm", "p")
    if p == math.inf:
        return ops.max(ops.abs(x), (axis,), keepdim)
    if p == -math.inf:
        return ops.min(ops.abs(x), (axis,), keepdim)
    if p == 0:
        return ops.sum(ops.cast(ops.not_equal(x, 0.0), x.dtype), (axis,), keepdim)
    if p == 2:
        return ops.sqrt(ops.sum(ops.multiply(x, x), (axis,), keepdim))
    if p == 1:
        return ops.sum(ops.abs(x), (axis,), keepdim)
    # Scaled by the largest |x| first, so that |x|^p neither overflows nor underflows for a large |p| or large
    # values (p = 1e20 gives max |x|, its limit, not inf / inf = NaN): m (sum (|x| / m)^p)^(1/p) is the same norm.
    a = ops.abs(x)
    m = ops.max(a, (axis,), True)
    m = ops.where(ops.greater_than(m, ops.full_like(m, 0.0, None)), m, ops.full_like(m, 1.0, None))  # all zeros
    scaled = ops.pow(ops.sum(ops.pow(ops.divide(a, m), float(p)), (axis,), keepdim), 1.0 / p)
    return ops.multiply(m if keepdim else ops.sum(m, (axis,), False), scaled)  # (the sum drops m's size-1 axis)


def cosine_similarity(x1, x2, axis=1, eps=1e-8) -> Tensor:
    """x1 . x2 / max(|x1| |x2|, eps) along `axis` (x1 and x2 broadcast).

    Example:
        >>> F.cosine_similarity(paddle.to_tensor([[1.0, 0.0]]), paddle.to_tensor([[1.0, 1.0]]))   # [0.70710677]
    """
    eps = check_float(eps, "cosine_similarity", "eps")
    if not math.isfinite(eps):  # (paddle 2.6 clips by eps * eps and refuses an infinite bound)
        raise ValueError(f"cosine_similarity: eps must be a finite number, got {eps!r}")
    check_tensor(x1, "cosine_similarity", "x1")
    check_tensor(x2, "cosine_similarity", "x2")
    x1, x2 = binary_operands(x1, x2, "cosine_similarity")
    axis = normalize_axis(axis, max(x1.ndim, x2.ndim), "cosine_similarity")
    w12 = ops.sum(ops.multiply(x1, x2), (axis,))
    w1 = ops.sum(ops.multiply(x1, x1), (axis,))
    w2 = ops.sum(ops.multiply(x2, x2), (axis,))
    n12 = ops.sqrt(ops.maximum(ops.multiply(w1, w2), eps * eps))
    return ops.divide(w12, n12)


def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None) -> Tensor:
    """The p-norm of x - y + epsilon along the last axis: one distance per row."""
    p = check_float(p, "pairwise_distance", "p")
    epsilon = check_float(epsilon, "pairwise_distance", "epsilon")
    check_tensor(x, "pairwise_distance")
    check_tensor(y, "pairwise_distance", "y")
    diff = ops.subtract(*binary_operands(x, y, "pairwise_distance"))
    if epsilon != 0.0:
        diff = ops.scale(diff, 1.0, float(epsilon))
    return p_norm(diff, float(p), diff.ndim - 1, check_flag(keepdim, "pairwise_distance", "keepdim"))
