"""Searching, sorting and selecting of the public API (paddle.tensor.search): argmax, argmin, argsort, sort,
topk, mode, nonzero, masked_select, unique, unique_consecutive, kthvalue; counting and searching in sorted
sequences: bincount, searchsorted, bucketize.

Positions come from ops without gradients; values are read at those positions with `gather_along_axis`, so
sort, topk and mode pass gradients back to the elements they picked.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import broadcast_shapes
from minipaddle.tensor.checks import (
    PreconditionNotMetError,
    _int_scalar,
    check_bool,
    check_dtype,
    check_tensor,
    normalize_axis,
)

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
    "kthvalue",
    "bincount",
    "bucketize",
    "searchsorted",
]


def _index_dtype(dtype, fn: str) -> np.dtype:
    d = check_dtype(dtype, fn)
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
    axis = normalize_axis(axis, x.ndim, "sort")  # a 0-D tensor takes axis 0 or -1, as paddle 2.6
    if x.ndim == 0:
        return ops.assign(x)
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
    # (paddle 2.6 refuses shapes that do not broadcast with PreconditionNotMet)
    shape = list(broadcast_shapes(tuple(x.shape), tuple(mask.shape), "masked_select", PreconditionNotMetError))
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
    wants = [check_bool(v, "unique", a) for a, v in (("return_index", return_index),
                                                      ("return_inverse", return_inverse),
                                                      ("return_counts", return_counts))]  # fmt: skip
    values, index, inverse, counts = ops.unique(x, axis, d)
    extras = [t for t, want in zip((index, inverse, counts), wants) if want]
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
    d = check_dtype(dtype, "unique_consecutive")
    if d not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{fn}: dtype must be int32 or int64, got {d.name}")
    if axis is not None:
        axis = normalize_axis(axis, x.ndim, fn)
    out, inverse, counts = ops.unique_consecutive(x, axis, d.np)
    extra = [t for t, wanted in ((inverse, return_inverse), (counts, return_counts)) if wanted]
    return (out, *extra) if extra else out


def kthvalue(x, k, axis=None, keepdim=False, name=None) -> tuple:
    """The k-th smallest element along `axis` (default: the last) and its position. NaN counts as the largest.

    Returns:
        (values, indices): values has x's dtype and sends its gradient to the element at indices (int64). Among
        equal values the position follows a stable sort (paddle's kernel may pick another of the tied ones).

    Example:
        >>> paddle.kthvalue(paddle.to_tensor([3., 1., 2.]), 2)    # (2., 2)
    """
    check_tensor(x, "kthvalue")
    k = _int_scalar(k, "kthvalue", "k")
    keepdim = check_bool(keepdim, "kthvalue", "keepdim")
    if x.ndim == 0:
        if k != 1:
            raise ValueError(f"kthvalue: k must be 1 for a 0-d tensor, got {k}")
        return ops.assign(x), ops.full_like(x, 0, np.int64)
    axis = normalize_axis(-1 if axis is None else axis, x.ndim, "kthvalue")
    n = x.shape[axis]
    if not 1 <= k <= n:
        raise ValueError(f"kthvalue: k must be between 1 and x.shape[{axis}] = {n}, got {k}")
    indices = ops.split(ops.argsort(x, axis, False), (k - 1, 1, n - k), axis)[1]
    values = ops.gather_along_axis(x, indices, axis)
    if keepdim:
        return values, indices
    shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
    return ops.reshape(values, shape), ops.reshape(indices, shape)


# ---- counting and searching --------------------------------------------------------------------------------------


def bincount(x, weights=None, minlength=0, name=None) -> Tensor:
    """How often each of 0, 1, ..., max(x) occurs in the 1-D non-negative integer tensor x (at least
    `minlength` bins); with `weights`, the sum of the weights in each bin instead.

    Returns:
        int64 counts, or the weights' float dtype (float64 for integer weights). An empty x gives an empty
        tensor, as paddle 2.6.

    Example:
        >>> paddle.bincount(paddle.to_tensor([1, 1, 3]))    # [0, 2, 0, 1]
    """
    check_tensor(x, "bincount")
    if not x.dtype.is_integer:
        raise TypeError(f"bincount: x must hold integers, got {x.dtype.name}")
    if x.ndim != 1:
        raise ValueError(f"bincount: x must be 1-D, got shape {x.shape}")
    minlength = _int_scalar(minlength, "bincount", "minlength")
    if minlength < 0:
        raise ValueError(f"bincount: minlength must be >= 0, got {minlength}")
    if weights is not None:
        check_tensor(weights, "bincount", "weights")
        if weights.shape != x.shape:
            raise ValueError(f"bincount: weights must have x's shape {x.shape}, got {weights.shape}")
    return ops.bincount(x, weights, minlength)


def _check_sortable(t, fn: str, arg: str) -> Tensor:
    check_tensor(t, fn, arg)
    if not (t.dtype.is_integer or t.dtype.is_floating) or t.dtype is dtypes.bfloat16:
        raise TypeError(f"{fn}: {arg} must be an int or float tensor, got {t.dtype.name}")
    return t


def searchsorted(sorted_sequence, values, out_int32=False, right=False, name=None) -> Tensor:
    """Where each of `values` would go in `sorted_sequence` to keep it sorted: the first such position
    (right=False) or the last. An N-D sorted_sequence has one sorted row per row of values.

    Returns:
        int64 (int32 with out_int32=True) tensor of values' shape.

    Example:
        >>> paddle.searchsorted(paddle.to_tensor([1, 3, 5]), paddle.to_tensor([3, 6]))    # [1, 3]
    """
    _check_sortable(sorted_sequence, "searchsorted", "sorted_sequence")
    _check_sortable(values, "searchsorted", "values")
    out_int32 = check_bool(out_int32, "searchsorted", "out_int32")
    right = check_bool(right, "searchsorted", "right")
    seq_shape, value_shape = sorted_sequence.shape, values.shape
    if len(seq_shape) == 0:
        raise ValueError("searchsorted: sorted_sequence must have at least 1 dimension, got a 0-d tensor")
    if len(seq_shape) > 1 and (len(value_shape) != len(seq_shape) or seq_shape[:-1] != value_shape[:-1]):
        raise ValueError(
            f"searchsorted: an N-D sorted_sequence (shape {seq_shape}) needs values with the same leading "
            f"dimensions {seq_shape[:-1]}, got values of shape {value_shape}"
        )
    return ops.searchsorted(sorted_sequence, values, right, np.int32 if out_int32 else np.int64)


def bucketize(x, sorted_sequence, out_int32=False, right=False, name=None) -> Tensor:
    """The bucket of each element of x between the boundaries in the 1-D `sorted_sequence`
    (paddle.searchsorted with the arguments swapped).

    Example:
        >>> paddle.bucketize(paddle.to_tensor([0, 4, 10]), paddle.to_tensor([1, 3, 5, 7]))    # [0, 2, 4]
    """
    _check_sortable(sorted_sequence, "bucketize", "sorted_sequence")
    if sorted_sequence.ndim != 1:
        raise ValueError(f"bucketize: sorted_sequence must be 1-D, got shape {sorted_sequence.shape}")
    _check_sortable(x, "bucketize", "x")
    return searchsorted(sorted_sequence, x, out_int32, right)
