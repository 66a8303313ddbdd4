"""Searching, sorting and selecting of the public API (paddle.tensor.search): argmax, argmin, argsort, sort,
topk, mode, nonzero, masked_select, unique.

Positions come from ops without gradients; values are read at those positions with `gather_along_axis`, so
sort, topk and mode pass gradients back to the elements they picked.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import broadcast_shapes
from minipaddle.tensor.checks import check_bool, check_tensor, normalize_axis

__all__ = [
    "argmax",
    "argmin",
    "argsort",
    "sort",
    "topk",
    "mode",
    "nonzero",
    "masked_select",
    "unique",
    "unique_consecutive",
]


def _index_dtype(dtype, fn: str) -> np.dtype:
    d = dtypes.to_dtype(dtype)
    if d not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"{fn}: dtype must be int32 or int64, got {d.name}")
    return d.np


def _has_elements(x: Tensor, fn: str) -> None:
    if x.size == 0:
        raise ValueError(f"{fn}: x is empty (shape {x.shape}); there is nothing to search")


def _arg_extremum(op_fn, fn: str, which: str):
    def public(x, axis=None, keepdim=False, dtype="int64", name=None) -> Tensor:
        check_tensor(x, fn)
        _has_elements(x, fn)
        axis = None if axis is None else normalize_axis(axis, x.ndim, fn)
        return op_fn(x, axis, check_bool(keepdim, fn, "keepdim"), _index_dtype(dtype, fn))

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = f"""The position of the {which} element along `axis` (None: in the flattened x); the first on ties.

    Args:
        x (Tensor): the input. axis (int|None): the axis to search. keepdim (bool): keep `axis` as size 1.
        dtype: int64 (default) or int32, the dtype of the positions.

    Returns:
        Tensor of positions, without gradient.

    Example:
        >>> paddle.{fn}(paddle.to_tensor([[1, 5, 3], [4, 2, 6]]), axis=1)
    """
    return public


argmax = _arg_extremum(ops.argmax, "argmax", "largest")
argmin = _arg_extremum(ops.argmin, "argmin", "smallest")


def argsort(x, axis=-1, descending=False, name=None) -> Tensor:
    """The positions that sort x along `axis` (ascending, or descending); equal elements keep their order.

    Example:
        >>> paddle.argsort(paddle.to_tensor([3, 1, 2]))    # [1, 2, 0]
    """
    check_tensor(x, "argsort")
    axis = normalize_axis(axis, x.ndim, "argsort") if x.ndim else 0
    if x.ndim == 0:
        return ops.argsort(ops.reshape(x, (1,)), 0, check_bool(descending, "argsort", "descending"))
    return ops.argsort(x, axis, check_bool(descending, "argsort", "descending"))


def sort(x, axis=-1, descending=False, name=None) -> Tensor:
    """x sorted along `axis` (ascending, or descending). Gradients flow back to where each element came from.

    Example:
        >>> paddle.sort(paddle.to_tensor([3., 1., 2.]), descending=True)    # [3., 2., 1.]
    """
    check_tensor(x, "sort")
    if x.ndim == 0:
        return ops.assign(x)
    axis = normalize_axis(axis, x.ndim, "sort")
    return ops.gather_along_axis(x, ops.argsort(x, axis, check_bool(descending, "sort", "descending")), axis)


def topk(x, k, axis=None, largest=True, sorted=True, name=None) -> tuple:  # noqa: A002 (Paddle's name)
    """The k largest (or smallest) elements along `axis` (default: the last) and their positions.

    Args:
        x (Tensor): the input. k (int|Tensor): how many. axis (int|None): the axis, default -1.
        largest (bool): the largest (True) or the smallest. sorted (bool): results are always sorted here.

    Returns:
        (values, indices): values has x's dtype and gradient; indices are int64.

    Example:
        >>> values, indices = paddle.topk(paddle.to_tensor([1, 3, 3, 2]), k=2)    # [3, 3], [1, 2]
    """
    check_tensor(x, "topk")
    if isinstance(k, Tensor):
        k = k.item()
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
        raise TypeError(f"topk: k must be an int, got {type(k).__name__}")
    check_bool(sorted, "topk", "sorted")
    if x.ndim == 0:
        x = ops.reshape(x, (1,))
    axis = normalize_axis(-1 if axis is None else axis, x.ndim, "topk")
    n = x.shape[axis]
    if not 1 <= k <= (k if n < 0 else n):  # n is -1 when static mode does not know it yet
        raise ValueError(f"topk: k must be between 1 and x.shape[{axis}] = {n}, got {k}")
    indices = ops.topk_indices(x, int(k), axis, check_bool(largest, "topk", "largest"))
    return ops.gather_along_axis(x, indices, axis), indices


def mode(x, axis=-1, keepdim=False, name=None) -> tuple:
    """The most frequent value along `axis` and its position (the smallest value wins ties in frequency, at
    its last occurrence).

    Returns:
        (values, indices); the gradient of values goes to the element at indices.

    Example:
        >>> paddle.mode(paddle.to_tensor([1., 3., 3., 2., 2.]))    # (2., 4)
    """
    check_tensor(x, "mode")
    _has_elements(x, "mode")
    if x.ndim == 0:
        return ops.assign(x), ops.full_like(x, 0, np.int64)
    axis = normalize_axis(axis, x.ndim, "mode")
    indices = ops.mode_indices(x, axis)
    values = ops.gather_along_axis(x, indices, axis)
    if check_bool(keepdim, "mode", "keepdim"):
        return values, indices
    shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
    return ops.reshape(values, shape), ops.reshape(indices, shape)


def nonzero(x, as_tuple=False):
    """The positions of x's nonzero elements: an int64 tensor [count, x.ndim], or with as_tuple=True a tuple
    of x.ndim tensors of shape [count, 1], one per dimension.

    Example:
        >>> paddle.nonzero(paddle.to_tensor([[1, 0], [0, 3]]))    # [[0, 0], [1, 1]]
    """
    check_tensor(x, "nonzero")
    if x.ndim == 0:
        raise ValueError("nonzero: x needs at least 1 dimension, got a 0-d tensor")
    found = ops.nonzero(x)
    if not check_bool(as_tuple, "nonzero", "as_tuple"):
        return found
    return tuple(ops.split(found, (1,) * x.ndim, 1)) if x.ndim > 1 else (found,)


def masked_select(x, mask, name=None) -> Tensor:
    """The elements of x where the bool `mask` is True, as a 1-D tensor (x and mask broadcast together).

    Example:
        >>> paddle.masked_select(paddle.to_tensor([1., 2., 3.]), paddle.to_tensor([True, False, True]))   # [1., 3.]
    """
    check_tensor(x, "masked_select", "x")
    check_tensor(mask, "masked_select", "mask")
    if mask.dtype is not dtypes.bool_:
        raise TypeError(f"masked_select: mask must be a bool tensor, got {mask.dtype.name}")
    shape = list(broadcast_shapes(tuple(x.shape), tuple(mask.shape), "masked_select"))
    if list(x.shape) != shape:
        x = ops.expand(x, shape)
    if list(mask.shape) != shape:
        mask = ops.expand(mask, shape)
    return ops.masked_select(x, mask)


def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None, dtype="int64", name=None):
    """The sorted unique elements of x (flattened, or unique slices along `axis`), without gradient.

    Args:
        return_index: also return the position of each unique element's first occurrence.
        return_inverse: also return, for every element of x, the position of its value in the result.
        return_counts: also return how often each unique element occurs.
        axis (int|None): None flattens x first. dtype: int64 or int32, for the extra outputs.

    Returns:
        The unique tensor, or a tuple of it followed by the requested extras in the order above.

    Example:
        >>> paddle.unique(paddle.to_tensor([3, 1, 3, 2]), return_counts=True)    # ([1, 2, 3], [1, 1, 2])
    """
    check_tensor(x, "unique")
    d = _index_dtype(dtype, "unique")
    if axis is not None:
        axis = normalize_axis(axis, x.ndim, "unique")
    values, index, inverse, counts = ops.unique(x, axis, d)
    extras = [t for t, want in ((index, return_index), (inverse, return_inverse), (counts, return_counts)) if want]
    return (values, *extras) if extras else values


def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype="int64", name=None):
    """Collapse each run of equal consecutive elements (or slices along `axis`) into one.

    Returns:
        out, and when asked, inverse (each element's run number) and counts (each run's length) in `dtype`.

    Example:
        >>> paddle.unique_consecutive(paddle.to_tensor([1, 1, 2, 1]))    # [1, 2, 1]
    """
    fn = "unique_consecutive"
    check_tensor(x, fn)
    d = dtypes.to_dtype(dtype)
    if d not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{fn}: dtype must be int32 or int64, got {d.name}")
    if axis is not None:
        axis = normalize_axis(axis, x.ndim, fn)
    out, inverse, counts = ops.unique_consecutive(x, axis, d.np)
    extra = [t for t, wanted in ((inverse, return_inverse), (counts, return_counts)) if wanted]
    return (out, *extra) if extra else out
