"""paddle.incubate's loss marker and fused masked softmaxes, as compositions of minipaddle ops.

Paddle's softmax_mask_fuse runs on CPU in 2.6; softmax_mask_fuse_upper_triangle has only a GPU kernel there
(its CPU call raises), so its values here follow the documented math, softmax(LowerTriangular(x)).
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.tensor.checks import check_tensor

__all__ = ["identity_loss", "softmax_mask_fuse", "softmax_mask_fuse_upper_triangle"]

_REDUCTIONS = {"sum": 0, "mean": 1, "none": 2}
_FLOATS = ("float32", "float64")


def identity_loss(x, reduction="none"):
    """Mark x as the loss (Paddle uses it on IPUs, where backpropagation starts from it); on CPU it is a reduction.

    Args:
        x (Tensor): float32 or float64.
        reduction (str|int, optional): 'sum' (0), 'mean' (1) or 'none' (2, default); strings in any case.

    Returns:
        Tensor: sum(x) or mean(x) as a 0-d Tensor, or x's values unchanged for 'none'.

    Example:
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> paddle.incubate.identity_loss(x, reduction="mean")
        Tensor(shape=[], dtype=float32, ..., 2.5)
    """
    fn = "identity_loss"
    if isinstance(reduction, str):
        code = _REDUCTIONS.get(reduction.lower())
        if code is None:
            raise ValueError(f"{fn}: unsupported reduction type {reduction!r}; expected 'sum', 'mean' or 'none'")
        reduction = code
    if not isinstance(reduction, (int, np.integer)) or isinstance(reduction, bool):
        raise TypeError(f"{fn}: reduction must be a str or an int, got {type(reduction).__name__}")
    if reduction not in (0, 1, 2):
        raise ValueError(f"{fn}: reduction as an int must be 0 (sum), 1 (mean) or 2 (none), got {reduction}")
    check_tensor(x, fn, "x")
    if x.dtype.name not in _FLOATS:
        raise TypeError(f"{fn}: x must be float32 or float64, got {x.dtype.name}")
    if reduction == 2:
        return ops.assign(x)
    if x.size == 0:
        raise ValueError(f"{fn}: the tensor to reduce must not be empty, got shape {list(x.shape)}")
    return ops.sum(x) if reduction == 0 else ops.mean(x)


def _check_4d(x, fn: str, arg: str) -> None:
    check_tensor(x, fn, arg)
    if x.dtype.name not in _FLOATS:
        raise TypeError(f"{fn}: {arg} must be float32 or float64, got {x.dtype.name}")
    if len(x.shape) != 4:
        raise ValueError(f"{fn}: {arg} must be 4-D, got shape {list(x.shape)}")


def softmax_mask_fuse(x, mask, name=None):
    """softmax(x + mask) over the last axis, the mask broadcast over x's second axis (the attention heads).

    Args:
        x (Tensor): 4-D, [batch, heads, rows, cols], float32 or float64.
        mask (Tensor): 4-D, [batch, 1, rows, cols], x's dtype. It gets no gradient (as Paddle's fused op).
        name (str, optional): unused, kept for Paddle compatibility.

    Returns:
        Tensor: x's shape and dtype.

    Example:
        >>> x = paddle.rand([2, 8, 8, 32])
        >>> mask = paddle.randint(0, 2, [2, 1, 8, 32]).astype("float32")
        >>> paddle.incubate.softmax_mask_fuse(x, mask).shape
        [2, 8, 8, 32]
    """
    fn = "softmax_mask_fuse"
    _check_4d(x, fn, "x")
    _check_4d(mask, fn, "mask")
    if mask.dtype != x.dtype:
        raise TypeError(f"{fn}: mask must have x's dtype ({x.dtype.name}), got {mask.dtype.name}")
    if mask.shape[1] != 1:
        raise ValueError(f"{fn}: mask's second dimension must be 1, got mask shape {list(mask.shape)}")
    for axis in (0, 2, 3):
        if mask.shape[axis] != x.shape[axis]:
            raise ValueError(f"{fn}: mask's dimension {axis} must equal x's, got x shape {list(x.shape)} and "
                             f"mask shape {list(mask.shape)}")  # fmt: skip
    return ops.softmax(ops.add(x, mask.detach()), -1)


def softmax_mask_fuse_upper_triangle(x):
    """softmax over the last axis with the upper triangle masked out: out[..., i, j] = 0 for j > i (GPT's causal
    attention). Paddle 2.6 has only a GPU kernel; this computes the documented softmax(LowerTriangular(x)).

    Args:
        x (Tensor): 4-D, [batch, heads, n, n] (the last two dimensions equal), float32 or float64.

    Returns:
        Tensor: x's shape and dtype; row i is a softmax over its first i + 1 entries.

    Example:
        >>> x = paddle.rand([1, 1, 32, 32])
        >>> out = paddle.incubate.softmax_mask_fuse_upper_triangle(x)
        >>> float(out[0, 0, 0, 0])
        1.0
    """
    fn = "softmax_mask_fuse_upper_triangle"
    _check_4d(x, fn, "x")
    if x.shape[2] != x.shape[3]:
        raise ValueError(f"{fn}: x's last two dimensions must be equal, got shape {list(x.shape)}")
    lower = ops.tril(ops.full_like(x, True, np.bool_))  # True on and below the diagonal
    masked = ops.where(lower, x, ops.full_like(x, -np.inf, x.dtype.np))
    return ops.softmax(masked, -1)
