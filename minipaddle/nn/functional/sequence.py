"""Sequence helpers of paddle.nn.functional: sequence_mask (lengths to a 0/1 mask) and gather_tree (the
backtracking of beam search).

Both are ops of their own (ops/sequence_ops.py) with no gradient: their outputs are masks and indices.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.state import in_dynamic_mode
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_dtype, check_tensor

__all__ = [
    "sequence_mask",
    "gather_tree",
]


def _all_in_range(t: Tensor, low: int, high: int) -> bool:
    """Whether every value of the int tensor t is in [low, high); checked only in dynamic mode (a static Variable
    has no values yet)."""
    if not in_dynamic_mode() or t.size == 0:
        return True
    inside = ops.logical_and(ops.greater_equal(t, ops.full_like(t, low)), ops.less_than(t, ops.full_like(t, high)))
    return bool(ops.all(inside).item())


# ---- sequences --------------------------------------------------------------------------------------------------


def sequence_mask(x, maxlen=None, dtype="int64", name=None) -> Tensor:
    """A mask of the valid steps of sequences of lengths x: out[..., j] = 1 where j < x[...], else 0.

    Args:
        x (Tensor): the lengths, int32/int64/float32/float64, any shape.
        maxlen (int|Tensor, optional): the mask's last dimension; None or negative: the largest length in x.
        dtype (str|paddle.dtype): of the mask. Default 'int64'.

    Returns:
        Tensor: shape x.shape + [maxlen].

    Example:
        >>> F.sequence_mask(paddle.to_tensor([1, 3]), maxlen=4).tolist()
        [[1, 0, 0, 0], [1, 1, 1, 0]]
    """
    fn = "sequence_mask"
    check_tensor(x, fn)
    if x.dtype.name not in ("int32", "int64", "float32", "float64"):
        raise TypeError(f"{fn}: x must be int32, int64, float32 or float64, got {x.dtype.name}")
    if isinstance(maxlen, Tensor):
        maxlen = maxlen.item()  # the mask's width is known before the op runs, as in paddle's dynamic mode
    if maxlen is not None:
        if not isinstance(maxlen, (int, np.integer)) or isinstance(maxlen, bool):
            raise TypeError(f"{fn}: maxlen must be an int or None, got {type(maxlen).__name__}")
        if maxlen == 0:
            raise ValueError(f"{fn}: maxlen must be negative (the largest length) or at least 1, got 0")
        maxlen = int(maxlen) if maxlen > 0 else None
    return ops.sequence_mask(x, maxlen, check_dtype(dtype, "sequence_mask").np)


def gather_tree(ids, parents) -> Tensor:
    """Backtrack beam search: the full id sequence of each final beam, following the parent pointers back from
    the last step.

    Args:
        ids (Tensor): [max_time, batch_size, beam_size], int32 or int64: the id chosen at each step.
        parents (Tensor): like ids: the beam each step's beam came from.

    Returns:
        Tensor: like ids.

    Example:
        >>> ids = paddle.to_tensor([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
        >>> parents = paddle.to_tensor([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])
        >>> F.gather_tree(ids, parents).tolist()
        [[[2, 2], [1, 6]], [[3, 3], [6, 1]], [[0, 1], [9, 0]]]
    """
    fn = "gather_tree"
    check_tensor(ids, fn, "ids")
    check_tensor(parents, fn, "parents")
    if ids.ndim != 3:
        raise ValueError(f"{fn}: ids must be 3-D [max_time, batch_size, beam_size], got shape {ids.shape}")
    if parents.shape != ids.shape:
        raise ValueError(f"{fn}: parents must have the shape of ids {ids.shape}, got {parents.shape}")
    for arg, t in (("ids", ids), ("parents", parents)):
        if t.dtype.name not in ("int32", "int64"):
            raise TypeError(f"{fn}: {arg} must be int32 or int64, got {t.dtype.name}")
    if ids.dtype != parents.dtype:
        raise TypeError(f"{fn}: ids and parents must have one dtype, got {ids.dtype.name} and {parents.dtype.name}")
    if not _all_in_range(parents, 0, ids.shape[2]):
        raise ValueError(f"{fn}: every parent must be in [0, beam_size = {ids.shape[2]})")
    return ops.gather_tree(ids, parents)
