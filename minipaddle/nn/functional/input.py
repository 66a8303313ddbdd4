"""Turning ids and labels into vectors: embedding, one_hot and label_smooth (paddle.nn.functional)."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import (
    PreconditionNotMetError,
    check_flag,
    check_float,
    check_int,
    check_min_rank,
    check_size,
    check_tensor,
)

__all__ = ["embedding", "one_hot", "label_smooth"]


def embedding(x, weight, padding_idx=None, sparse=False, name=None) -> Tensor:
    """Look up rows of `weight` ([num_embeddings, dim]) for the int ids in x: the result has shape x.shape + [dim].

    Args:
        padding_idx: an id whose rows come out as zeros and whose table row gets no gradient (negative values
            count from the end).
        sparse: Paddle's sparse (SelectedRows) gradient of the table: noted on the op, so a saved training
            Program is Paddle's (is_sparse, a SELECTED_ROWS gradient); the gradient is a dense tensor here, of the
            same values.

    Example:
        >>> table = paddle.to_tensor([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
        >>> F.embedding(paddle.to_tensor([2, 0]), table)   # [[2., 2.], [0., 0.]]
    """
    check_tensor(x, "embedding")
    check_tensor(weight, "embedding", "weight")
    check_flag(sparse, "embedding", "sparse")
    if not x.dtype.is_integer:
        raise TypeError(f"embedding: x must hold integer ids (int32 or int64), got {x.dtype.name}")
    if weight.ndim != 2:
        raise ValueError(f"embedding: weight must be 2-D [num_embeddings, dim], got shape {weight.shape}")
    rows = weight.shape[0]
    if padding_idx is not None:
        padding_idx = check_int(padding_idx, "embedding", "padding_idx")
        if not -rows <= padding_idx < rows:
            raise ValueError(f"embedding: padding_idx must be within [-{rows}, {rows}), got {padding_idx}")
        padding_idx = int(padding_idx) % rows
    return ops.embedding(x, weight, padding_idx, bool(sparse))


def one_hot(x, num_classes, name=None) -> Tensor:
    """float32 vectors of length num_classes with a 1 at each label: shape x.shape + [num_classes].

    Example:
        >>> F.one_hot(paddle.to_tensor([1, 0]), 3)   # [[0., 1., 0.], [1., 0., 0.]]
    """
    check_tensor(x, "one_hot")
    if not x.dtype.is_integer:
        raise TypeError(f"one_hot: x must hold integer labels, got {x.dtype.name}")
    if not isinstance(num_classes, int) or isinstance(num_classes, bool):
        raise ValueError(f"one_hot: num_classes must be a positive int, got {num_classes!r}")
    # paddle 2.6 fails to allocate a negative or huge result (PreconditionNotMet) and says ValueError for 0: both
    if num_classes < 1:
        raise PreconditionNotMetError(f"one_hot: num_classes must be a positive int, got {num_classes!r}")
    known = tuple(s for s in x.shape if s >= 0)  # (a static Variable's -1 sizes are known only at run time)
    check_size(known + (num_classes,), "one_hot", error=PreconditionNotMetError)
    return ops.one_hot(x, num_classes)


def label_smooth(label, prior_dist=None, epsilon=0.1, name=None) -> Tensor:
    """(1 - epsilon) * label + epsilon * prior_dist, with a uniform prior (1 / num_classes) by default.

    Args:
        label: one-hot (or soft) labels, float, classes on the last axis.
        prior_dist: a [1, num_classes] distribution to smooth towards.
    """
    epsilon = check_float(epsilon, "label_smooth", "epsilon")
    check_min_rank(check_tensor(label, "label_smooth", "label"), 1, "label_smooth", "label")
    if label.shape[-1] == 0:
        raise ValueError(f"label_smooth: label must have at least one class on its last axis, got shape {label.shape}")
    if not label.dtype.is_floating:
        raise TypeError(f"label_smooth: label must be a float tensor, got {label.dtype.name}")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"label_smooth: epsilon must be in [0, 1], got {epsilon}")
    kept = ops.scale(label, 1.0 - epsilon)
    if prior_dist is None:
        return ops.scale(kept, 1.0, epsilon / label.shape[-1])
    check_tensor(prior_dist, "label_smooth", "prior_dist")
    return ops.add(kept, ops.scale(ops.cast(prior_dist, label.dtype), epsilon))
