"""Manipulation and indexing functions that paddle 2.6 added after 2.0: take_along_axis, put_along_axis,
masked_fill, index_add, index_fill, index_put, diagonal, diagflat, moveaxis, rot90, repeat_interleave, unflatten,
vsplit, atleast_1d/2d/3d, broadcast_tensors, outer, inner, tensordot, einsum, clone, tolist, view, view_as,
unique_consecutive, combinations, tril_indices, triu_indices, vander, take, diagonal_scatter, select_scatter.

Most are compositions of older ops (transpose, reshape, gather, where, matmul, ...), so their gradients come from
those ops; the few that are ops of their own live in ops/manipulation_extra.py.
"""

from __future__ import annotations

import builtins
import itertools
import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import in_dynamic_mode
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_bool, check_broadcast, check_shape, check_tensor, normalize_axis
from minipaddle.tensor.creation import to_tensor
from minipaddle.tensor.indexing import _check_index, _check_range
from minipaddle.tensor.manipulation import reshape, split
from minipaddle.tensor.math import binary_operands

__all__ = [
    "take_along_axis",
    "put_along_axis",
    "masked_fill",
    "index_add",
    "index_fill",
    "index_put",
    "diagonal",
    "diagflat",
    "moveaxis",
    "rot90",
    "repeat_interleave",
    "unflatten",
    "vsplit",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "broadcast_tensors",
    "outer",
    "inner",
    "tensordot",
    "einsum",
    "clone",
    "tolist",
    "view",
    "view_as",
    "unique_consecutive",
    "combinations",
    "tril_indices",
    "triu_indices",
    "vander",
    "take",
    "diagonal_scatter",
    "select_scatter",
]


def _as_dtype(t: Tensor, like: Tensor) -> Tensor:
    return t if t.dtype is like.dtype else ops.cast(t, like.dtype)


def _int_arg(v, fn: str, arg: str) -> int:
    if isinstance(v, Tensor) and v.size == 1:
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{fn}: {arg} must be an int, got {type(v).__name__}")
    return int(v)


# ---- along an axis ---------------------------------------------------------------------------------------------


def _along_args(arr, indices, axis, fn: str):
    check_tensor(arr, fn, "arr")
    indices = _check_index(indices, fn, "indices")
    if arr.ndim != indices.ndim:
        raise ValueError(
            f"{fn}: indices must have as many dimensions as arr, got shapes {indices.shape} and {arr.shape}"
        )
    axis = normalize_axis(axis, arr.ndim, fn)
    _check_range(indices, arr.shape[axis], fn, f"arr's axis {axis}")
    return indices, axis


def _fits(arr: Tensor, indices: Tensor) -> bool:
    """Paddle broadcasts indices to arr's shape (but for the axis) only when no dimension of indices is larger."""
    return all(i <= a for a, i in zip(arr.shape, indices.shape))


def _check_within(arr: Tensor, indices: Tensor, axis: int, fn: str) -> None:
    for i, (a, n) in enumerate(zip(arr.shape, indices.shape)):
        if i != axis and n > a:
            raise ValueError(
                f"{fn}: with broadcast=False, indices (shape {indices.shape}) must be no larger than arr "
                f"(shape {arr.shape}) in every dimension but axis {axis}; dimension {i} is not"
            )


def _broadcast_to(t: Tensor, shape, fn: str, what: str) -> Tensor:
    shape = tuple(shape)
    if tuple(t.shape) == shape:
        return t
    padded = (1,) * (len(shape) - t.ndim) + tuple(t.shape)
    if t.ndim > len(shape) or any(d != 1 and d != s for d, s in zip(padded, shape)):
        raise ValueError(f"{fn}: {what} of shape {t.shape} cannot be broadcast to {list(shape)}")
    return ops.expand(t, shape)


def take_along_axis(arr, indices, axis, broadcast=True) -> Tensor:
    """Take values from arr at the positions in `indices` along `axis`: out[i][j] = arr[i][indices[i][j]] for
    axis=1. indices has arr's number of dimensions; with broadcast=True it is broadcast against arr first (in
    every dimension but axis), else it must be no larger than arr there.

    Args:
        arr (Tensor): the input.
        indices (Tensor): int32 or int64 positions along axis (negative ones count from the end).
        axis (int): the axis to take along.
        broadcast (bool): broadcast indices and arr against each other first.

    Returns:
        Tensor of indices' (broadcast) shape and arr's dtype.

    Example:
        >>> x = paddle.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> paddle.take_along_axis(x, paddle.to_tensor([[0], [2]]), axis=1)    # [[1], [6]]
    """
    indices, axis = _along_args(arr, indices, axis, "take_along_axis")
    if check_bool(broadcast, "take_along_axis", "broadcast"):
        if _fits(arr, indices):
            shape = list(arr.shape)
            shape[axis] = indices.shape[axis]
            indices = _broadcast_to(indices, shape, "take_along_axis", "indices")
        else:  # indices are larger somewhere: arr is broadcast to them instead (but for the axis)
            shape = list(indices.shape)
            shape[axis] = arr.shape[axis]
            arr = _broadcast_to(arr, shape, "take_along_axis", "arr")
    else:
        _check_within(arr, indices, axis, "take_along_axis")
    return ops.take_along_axis(arr, indices, axis)


_REDUCES = {"assign": "assign", "add": "add", "mul": "mul", "multiply": "mul", "mean": "mean", "amin": "amin",
            "amax": "amax"}  # fmt: skip


def put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True, broadcast=True) -> Tensor:
    """Write `values` into a copy of arr at the positions in `indices` along `axis`.

    Where several values go to one position, `reduce` combines them: 'assign' (the last one wins), 'add',
    'mul' (or 'multiply'), 'mean', 'amin', 'amax'; include_self=False leaves arr's old value out of that.

    Args:
        arr (Tensor): the input.
        indices (Tensor): int32 or int64 positions, with arr's number of dimensions.
        values (Tensor|number): broadcast to indices' shape.
        axis (int): the axis to write along.
        reduce (str): how values meeting at one position combine.
        include_self (bool): whether arr's value at a written position takes part.
        broadcast (bool): broadcast indices to arr's shape (but for the axis) first.

    Returns:
        Tensor of arr's shape and dtype.

    Example:
        >>> x = paddle.zeros([2, 3])
        >>> paddle.put_along_axis(x, paddle.to_tensor([[0, 0], [2, 1]]), 1.0, 1, reduce='add')
        >>> # [[2., 0., 0.], [0., 1., 1.]]
    """
    fn = "put_along_axis"
    indices, axis = _along_args(arr, indices, axis, fn)
    if reduce not in _REDUCES:
        raise ValueError(f"{fn}: reduce must be one of {sorted(_REDUCES)}, got {reduce!r}")
    include_self = check_bool(include_self, fn, "include_self")
    if not isinstance(values, Tensor):
        if not isinstance(values, (numbers.Number, np.generic, np.ndarray, list, tuple)):
            raise TypeError(f"{fn}: values must be a Tensor or a number, got {type(values).__name__}")
        values = Tensor(np.asarray(values).astype(arr.dtype.np))
    values = _as_dtype(values, arr)
    if check_bool(broadcast, fn, "broadcast"):
        if _fits(arr, indices):
            shape = list(arr.shape)
            shape[axis] = indices.shape[axis]
            indices = _broadcast_to(indices, shape, fn, "indices")
    else:
        _check_within(arr, indices, axis, fn)
        if values.size != 1 and (
            values.ndim != indices.ndim or any(v < i for v, i in zip(values.shape, indices.shape))
        ):
            raise ValueError(f"{fn}: with broadcast=False, values (shape {values.shape}) must be at least as large "
                             f"as indices (shape {indices.shape}) in every dimension")  # fmt: skip
        if values.size != 1:  # the leading block of values, as Paddle reads it
            values = ops.index_view(values, tuple(builtins.slice(0, n) for n in indices.shape))
    values = _broadcast_to(values, indices.shape, fn, "values")
    return ops.put_along_axis(arr, indices, values, axis, _REDUCES[reduce], include_self)


# ---- filling and adding at positions ---------------------------------------------------------------------------


def _fill_value(value, x: Tensor, fn: str) -> Tensor:
    """A number or a one-element Tensor as a Tensor of x's dtype (gradients flow to a Tensor value)."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"{fn}: value must hold one element, got shape {value.shape}")
        return _as_dtype(value, x)
    if not isinstance(value, (numbers.Number, np.generic)):
        raise TypeError(f"{fn}: value must be a number or a Tensor, got {type(value).__name__}")
    return Tensor(np.asarray(value).astype(x.dtype.np))


def masked_fill(x, mask, value, name=None) -> Tensor:
    """x with `value` where `mask` is True (mask broadcasts with x; a non-bool mask is read as mask != 0).

    Example:
        >>> x = paddle.to_tensor([1.0, 2.0, 3.0])
        >>> paddle.masked_fill(x, x > 1, 0.0)    # [1., 0., 0.]
    """
    check_tensor(x, "masked_fill")
    check_tensor(mask, "masked_fill", "mask")
    check_broadcast(x, mask, "masked_fill")
    if mask.dtype is not dtypes.bool_:
        mask = ops.cast(mask, dtypes.bool_)
    return ops.where(mask, _fill_value(value, x, "masked_fill"), x)


def _axis_index(x, index, axis, fn: str):
    check_tensor(x, fn)
    index = _check_index(index, fn)
    axis = normalize_axis(axis, x.ndim, fn)
    _check_range(index, x.shape[axis], fn, f"axis {axis}")
    return index, axis


def index_add(x, index, axis, value, name=None) -> Tensor:
    """x plus `value` added at the positions `index` along `axis` (repeated positions add up).

    value has x's shape but for `axis`, where its size is len(index).

    Example:
        >>> x = paddle.ones([3, 2])
        >>> paddle.index_add(x, paddle.to_tensor([0, 2]), 0, paddle.full([2, 2], 5.0))  # rows 0 and 2 become 6
    """
    index, axis = _axis_index(x, index, axis, "index_add")
    check_tensor(value, "index_add", "value")
    if index.ndim != 1:
        raise ValueError(f"index_add: index must be 1-D, got shape {index.shape}")
    want = list(x.shape)
    want[axis] = index.shape[0]
    if value.shape != want:
        raise ValueError(f"index_add: value must have shape {want} (x's shape with len(index) at axis {axis}), "
                         f"got {value.shape}")  # fmt: skip
    if value.dtype is not x.dtype:
        raise TypeError(f"index_add: value must have x's dtype {x.dtype.name}, got {value.dtype.name}")
    return ops.add(x, ops.scatter_add_to_zeros(value, index, "axis", axis, x.shape))


def index_fill(x, index, axis, value, name=None) -> Tensor:
    """x with every slice at the positions `index` along `axis` filled with `value`.

    Example:
        >>> x = paddle.zeros([2, 3])
        >>> paddle.index_fill(x, paddle.to_tensor([0, 2]), 1, 7.0)    # [[7., 0., 7.], [7., 0., 7.]]
    """
    index, axis = _axis_index(x, index, axis, "index_fill")
    flat = ops.reshape(index, (-1,))
    hits = ops.scatter_add_to_zeros(ops.full_like(flat, 1, None), flat, "axis", 0, (x.shape[axis],))
    mask = ops.greater_than(hits, ops.full_like(hits, 0, None))  # the chosen positions along the axis
    mask = ops.reshape(mask, tuple(x.shape[axis] if i == axis else 1 for i in range(x.ndim)))
    return ops.where(mask, _fill_value(value, x, "index_fill"), x)


def index_put(x, indices, value, accumulate=False, name=None) -> Tensor:
    """x with x[indices] = value, or x[indices] += value with accumulate=True (repeated positions add up).

    Args:
        x (Tensor): the input.
        indices (tuple|list of Tensor): one int or bool Tensor per indexed dimension, as in x[i0, i1, ...].
        value (Tensor): broadcast to the indexed part; x's dtype.
        accumulate (bool): add instead of overwriting.

    Example:
        >>> x = paddle.zeros([3, 3])
        >>> paddle.index_put(x, (paddle.to_tensor([0, 2]), paddle.to_tensor([1, 1])), paddle.to_tensor(5.0))
    """
    fn = "index_put"
    check_tensor(x, fn)
    if not isinstance(indices, (list, tuple)) or not indices:
        raise TypeError(f"{fn}: indices must be a non-empty tuple or list of Tensors, got {type(indices).__name__}")
    width = 0
    for k, i in enumerate(indices):
        check_tensor(i, fn, f"indices[{k}]")
        if not (i.dtype.is_integer or i.dtype is dtypes.bool_):
            raise TypeError(f"{fn}: indices[{k}] must be an int or bool Tensor, got {i.dtype.name}")
        width += i.ndim if i.dtype is dtypes.bool_ else 1
    if width > x.ndim:
        raise IndexError(f"{fn}: indices cover {width} dimensions but x has only {x.ndim} (shape {x.shape})")
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}: value must be a Tensor, got {type(value).__name__}")
    if value.dtype is not x.dtype:
        raise TypeError(f"{fn}: value must have x's dtype {x.dtype.name}, got {value.dtype.name}")
    accumulate = check_bool(accumulate, fn, "accumulate")
    if in_dynamic_mode():  # check that value fits the indexed part (numpy would raise its own error)
        part = ops.index_get(ops.full_like(x, 0, None), list(indices))
        try:
            np.broadcast_shapes(tuple(value.shape), tuple(part.shape))
        except ValueError:
            raise ValueError(f"{fn}: value of shape {value.shape} does not broadcast to the indexed part of shape "
                             f"{part.shape}") from None  # fmt: skip
        if value.ndim > part.ndim:
            raise ValueError(f"{fn}: value of shape {value.shape} has more dimensions than the indexed part "
                             f"{part.shape}")  # fmt: skip
    return ops.index_put(x, value, list(indices), accumulate)


# ---- diagonals -------------------------------------------------------------------------------------------------


def _diag_axes(x: Tensor, axis1, axis2, fn: str) -> tuple[int, int]:
    if x.ndim < 2:
        raise ValueError(f"{fn}: x must have at least 2 dimensions, got shape {x.shape}")
    a1, a2 = normalize_axis(axis1, x.ndim, fn), normalize_axis(axis2, x.ndim, fn)
    if a1 == a2:
        raise ValueError(f"{fn}: axis1 and axis2 must name different dimensions, both are {a1}")
    return a1, a2


def diagonal(x, offset=0, axis1=0, axis2=1, name=None) -> Tensor:
    """The diagonal at `offset` of the matrices in the (axis1, axis2) plane, as a new last axis.

    Example:
        >>> x = paddle.arange(6.0).reshape([2, 3])
        >>> paddle.diagonal(x)              # [0., 4.]
        >>> paddle.diagonal(x, offset=1)    # [1., 5.]
    """
    check_tensor(x, "diagonal")
    a1, a2 = _diag_axes(x, axis1, axis2, "diagonal")
    return ops.extract_diagonal(x, _int_arg(offset, "diagonal", "offset"), a1, a2)


def diagflat(x, offset=0, name=None) -> Tensor:
    """A square matrix with x flattened onto its `offset` diagonal (0 elsewhere).

    Example:
        >>> paddle.diagflat(paddle.to_tensor([1.0, 2.0]))    # [[1., 0.], [0., 2.]]
    """
    check_tensor(x, "diagflat")
    return ops.diag_embed(ops.reshape(x, (-1,)), _int_arg(offset, "diagflat", "offset"), 0, 1)


def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1, name=None) -> Tensor:
    """x with its diagonal (as paddle.diagonal(x, offset, axis1, axis2) reads it) replaced by y.

    Example:
        >>> paddle.diagonal_scatter(paddle.zeros([2, 2]), paddle.to_tensor([1.0, 2.0]))    # [[1., 0.], [0., 2.]]
    """
    fn = "diagonal_scatter"
    check_tensor(x, fn)
    check_tensor(y, fn, "y")
    a1, a2 = _diag_axes(x, axis1, axis2, fn)
    offset = _int_arg(offset, fn, "offset")
    rows, cols = x.shape[a1], x.shape[a2]
    length = max(0, min(rows - max(-offset, 0), cols - max(offset, 0)))
    want = [d for i, d in enumerate(x.shape) if i not in (a1, a2)] + [length]
    if y.shape != want:
        raise ValueError(f"{fn}: y must have the diagonal's shape {want}, got {y.shape}")
    y = _as_dtype(y, x)
    placed = ops.diag_embed(y, offset, a1, a2, rows, cols)
    on_diagonal = ops.diag_embed(ops.full_like(y, True, np.dtype(bool)), offset, a1, a2, rows, cols)
    return ops.where(on_diagonal, placed, x)


def select_scatter(x, values, axis, index, name=None) -> Tensor:
    """x with the slice at position `index` along `axis` replaced by `values` (x's shape without axis).

    Example:
        >>> paddle.select_scatter(paddle.zeros([2, 3]), paddle.ones([2]), axis=1, index=0)   # [[1,0,0],[1,0,0]]
    """
    fn = "select_scatter"
    check_tensor(x, fn)
    check_tensor(values, fn, "values")
    axis = normalize_axis(axis, x.ndim, fn)
    index = _int_arg(index, fn, "index")
    n = x.shape[axis]
    if not -n <= index < n:
        raise IndexError(f"{fn}: index {index} is out of range for axis {axis} of size {n}")
    want = [d for i, d in enumerate(x.shape) if i != axis]
    if values.shape != want:
        raise ValueError(f"{fn}: values must have the slice's shape {want}, got {values.shape}")
    where = (builtins.slice(None),) * axis + (index % n,)
    return ops.set_value(x, _as_dtype(values, x), where)


# ---- moving, rotating, repeating, reshaping ----------------------------------------------------------------------


def _axes_list(v, fn: str, arg: str) -> list:
    if isinstance(v, Tensor):
        v = v.tolist()
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return [int(v)]
    if isinstance(v, (list, tuple)):
        return [_int_arg(a, fn, arg) for a in v]
    raise TypeError(f"{fn}: {arg} must be an int or a list/tuple of ints, got {type(v).__name__}")


def moveaxis(x, source, destination, name=None) -> Tensor:
    """Move x's axes at `source` to the positions `destination`; the other axes keep their order.

    Example:
        >>> paddle.moveaxis(paddle.ones([2, 3, 4]), 0, -1).shape    # [3, 4, 2]
    """
    check_tensor(x, "moveaxis")
    src, dst = _axes_list(source, "moveaxis", "source"), _axes_list(destination, "moveaxis", "destination")
    if len(src) != len(dst):
        raise ValueError(f"moveaxis: source {src} and destination {dst} must have the same length")
    src = [normalize_axis(a, x.ndim, "moveaxis") for a in src]
    dst = [normalize_axis(a, x.ndim, "moveaxis") for a in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"moveaxis: source {src} and destination {dst} must each name distinct axes")
    rest = [a for a in range(x.ndim) if a not in src]
    perm = [None] * x.ndim
    for s, d in zip(src, dst):
        perm[d] = s
    fill = iter(rest)
    perm = [p if p is not None else next(fill) for p in perm]
    return ops.transpose(x, tuple(perm))


def rot90(x, k=1, axes=[0, 1], name=None) -> Tensor:  # noqa: B006 (Paddle's default)
    """Rotate x by 90 degrees k times in the plane of `axes`, from the first axis towards the second.

    Example:
        >>> paddle.rot90(paddle.to_tensor([[1, 2], [3, 4]]))    # [[2, 4], [1, 3]]
    """
    check_tensor(x, "rot90")
    axes = _axes_list(axes, "rot90", "axes")
    if len(axes) != 2:
        raise ValueError(f"rot90: axes must name exactly 2 dimensions, got {axes}")
    if x.ndim < 2:
        raise ValueError(f"rot90: x must have at least 2 dimensions, got shape {x.shape}")
    a0, a1 = (normalize_axis(a, x.ndim, "rot90") for a in axes)
    if a0 == a1:
        raise ValueError(f"rot90: the two axes must be different, got {axes}")
    k = _int_arg(k, "rot90", "k") % 4
    if k == 0:
        return ops.assign(x)
    if k == 2:
        return ops.flip(x, (a0, a1))
    perm = list(range(x.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return ops.transpose(ops.flip(x, (a1,)), tuple(perm))
    return ops.flip(ops.transpose(x, tuple(perm)), (a1,))


def repeat_interleave(x, repeats, axis=None, name=None) -> Tensor:
    """Repeat each element (or each slice along `axis`) of x `repeats` times, keeping them next to each other.

    Args:
        x (Tensor): the input; with axis None it is flattened first.
        repeats (int|Tensor): one count for all, or a 1-D int Tensor with one count per slice.
        axis (int, optional): the axis to repeat along.

    Example:
        >>> paddle.repeat_interleave(paddle.to_tensor([1, 2]), 2)    # [1, 1, 2, 2]
    """
    fn = "repeat_interleave"
    check_tensor(x, fn)
    if axis is None:
        x, axis = ops.reshape(x, (-1,)), 0
    else:
        axis = normalize_axis(axis, x.ndim, fn)
    n = x.shape[axis] if x.ndim else 1
    if x.ndim == 0:
        x = ops.reshape(x, (1,))
    if isinstance(repeats, Tensor):
        if not repeats.dtype.is_integer:
            raise TypeError(f"{fn}: repeats must be an int or an int Tensor, got a {repeats.dtype.name} Tensor")
        if repeats.ndim > 1 or repeats.size != n:
            raise ValueError(f"{fn}: repeats must hold one count per slice along axis {axis} ({n}), "
                             f"got shape {repeats.shape}")  # fmt: skip
        if in_dynamic_mode() and repeats.size and repeats.numpy().min() < 0:
            raise ValueError(f"{fn}: repeats must not be negative, got {repeats.numpy().tolist()}")
        index = ops.repeat_index(repeats)
    else:
        r = _int_arg(repeats, fn, "repeats")
        if r <= 0:
            raise ValueError(f"{fn}: repeats must be larger than zero, got {r}")
        index = Tensor(np.repeat(np.arange(n), r))
    return ops.gather(x, index, "axis", axis)


def unflatten(x, axis, shape, name=None) -> Tensor:
    """Split dimension `axis` of x into several with the sizes in `shape` (one may be -1).

    Example:
        >>> paddle.unflatten(paddle.ones([4, 6]), 1, [2, 3]).shape    # [4, 2, 3]
    """
    check_tensor(x, "unflatten")
    axis = normalize_axis(axis, x.ndim, "unflatten")
    shape = list(check_shape(shape, "unflatten"))
    d = x.shape[axis]
    if not shape or shape.count(-1) > 1 or any(s < -1 for s in shape):
        raise ValueError(f"unflatten: shape must be non-empty with at most one -1 and sizes >= 0, got {shape}")
    known = int(np.prod([s for s in shape if s != -1]))
    if -1 in shape:
        if known == 0 or d % known:
            raise ValueError(f"unflatten: dimension {axis} of size {d} cannot be split into {shape}")
        shape[shape.index(-1)] = d // known
    elif known != d:
        raise ValueError(f"unflatten: shape {shape} holds {known} elements but dimension {axis} has size {d}")
    return ops.reshape(x, tuple(x.shape[:axis]) + tuple(shape) + tuple(x.shape[axis + 1 :]))


def vsplit(x, num_or_sections, name=None) -> list:
    """Split x along its first axis (vertically): into num_or_sections equal parts, or parts of the listed sizes.

    Example:
        >>> [t.shape for t in paddle.vsplit(paddle.ones([4, 2]), 2)]    # [[2, 2], [2, 2]]
    """
    check_tensor(x, "vsplit")
    if x.ndim < 2:
        raise ValueError(f"vsplit: x must have at least 2 dimensions, got shape {x.shape}")
    return split(x, num_or_sections, 0)


def _atleast(inputs, ndim: int):
    out = []
    for t in inputs:
        t = t if isinstance(t, Tensor) else to_tensor(t)
        if t.ndim < ndim:
            shape = list(t.shape)
            if ndim == 3 and t.ndim == 2:
                shape = shape + [1]
            elif ndim == 3 and t.ndim == 1:
                shape = [1] + shape + [1]
            else:
                shape = [1] * (ndim - t.ndim) + shape
            t = ops.reshape(t, tuple(shape))
        out.append(t)
    return out[0] if len(out) == 1 else out


def atleast_1d(*inputs, name=None):
    """Each input with at least 1 dimension (a 0-d tensor becomes shape [1]); one input gives a Tensor, several
    a list. Non-Tensor inputs are converted with paddle.to_tensor.

    Example:
        >>> paddle.atleast_1d(paddle.to_tensor(3.0)).shape    # [1]
    """
    return _atleast(inputs, 1)


def atleast_2d(*inputs, name=None):
    """Each input with at least 2 dimensions: [] -> [1, 1], [n] -> [1, n].

    Example:
        >>> paddle.atleast_2d(paddle.to_tensor([1, 2])).shape    # [1, 2]
    """
    return _atleast(inputs, 2)


def atleast_3d(*inputs, name=None):
    """Each input with at least 3 dimensions: [] -> [1, 1, 1], [n] -> [1, n, 1], [m, n] -> [m, n, 1].

    Example:
        >>> paddle.atleast_3d(paddle.ones([2, 3])).shape    # [2, 3, 1]
    """
    return _atleast(inputs, 3)


def _check_one_dtype(tensors, fn: str, arg: str, what: str) -> None:
    """Every item of the sequence `tensors` (the argument `arg`) a Tensor, all of the first one's dtype."""
    for k, t in enumerate(tensors):
        check_tensor(t, fn, f"{arg}[{k}]")
        if t.dtype is not tensors[0].dtype:
            raise TypeError(f"{fn}: all {what} must have one dtype; {arg}[0] is {tensors[0].dtype.name}, "
                            f"{arg}[{k}] is {t.dtype.name}")  # fmt: skip


def broadcast_tensors(input, name=None) -> list:  # noqa: A002 (Paddle's name)
    """The tensors of `input` broadcast to one common shape (all must have one dtype).

    Example:
        >>> a, b = paddle.broadcast_tensors([paddle.ones([2, 1]), paddle.ones([3])])    # both [2, 3]
    """
    fn = "broadcast_tensors"
    if not isinstance(input, (list, tuple)):
        raise TypeError(f"{fn}: input must be a list or tuple of Tensors, got {type(input).__name__}")
    if len(input) < 2:
        raise ValueError(f"{fn}: give at least 2 tensors, got {len(input)}")
    _check_one_dtype(input, fn, "input", "tensors")
    try:
        shape = np.broadcast_shapes(*(tuple(t.shape) for t in input))
    except ValueError:
        raise ValueError(f"{fn}: shapes {[t.shape for t in input]} cannot be broadcast together") from None
    return [t if tuple(t.shape) == shape else ops.expand(t, shape) for t in input]


# ---- products --------------------------------------------------------------------------------------------------


def outer(x, y, name=None) -> Tensor:
    """The outer product: x and y are flattened, out[i, j] = x[i] * y[j].

    Example:
        >>> paddle.outer(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0, 10.0]))  # [[1., 10.], [2., 20.]]
    """
    check_tensor(x, "outer")
    check_tensor(y, "outer", "y")
    x, y = binary_operands(x, y, "outer")
    return ops.multiply(ops.reshape(x, (-1, 1)), ops.reshape(y, (1, -1)))


def inner(x, y, name=None) -> Tensor:
    """The inner product over the last axes: out has shape x.shape[:-1] + y.shape[:-1] (a 0-d operand scales).

    Example:
        >>> paddle.inner(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0]))    # 11.
    """
    check_tensor(x, "inner")
    check_tensor(y, "inner", "y")
    x, y = binary_operands(x, y, "inner")
    if x.ndim == 0 or y.ndim == 0:
        return ops.multiply(x, y)
    k = x.shape[-1]
    if y.shape[-1] != k:
        raise ValueError(f"inner: the last dimensions must match, got shapes {x.shape} and {y.shape}")
    out = ops.matmul(ops.reshape(x, (-1, k)), ops.reshape(y, (-1, k)), False, True)
    return ops.reshape(out, tuple(x.shape[:-1]) + tuple(y.shape[:-1]))


def _tensordot_axes(axes, x: Tensor, y: Tensor) -> tuple[list, list]:
    fn = "tensordot"
    if isinstance(axes, Tensor):
        axes = axes.tolist()
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        n = int(axes)
        if not 0 <= n <= min(x.ndim, y.ndim):
            raise ValueError(f"tensordot: axes={n} must be between 0 and the smaller rank ({min(x.ndim, y.ndim)})")
        return list(range(x.ndim - n, x.ndim)), list(range(n))
    if not isinstance(axes, (list, tuple)):
        raise TypeError(f"{fn}: axes must be an int, a list of ints or a pair of lists, got {type(axes).__name__}")
    if all(isinstance(a, (int, np.integer)) for a in axes):
        ax, ay = list(axes), list(axes)  # one list: the same axes of x and y
    else:
        if len(axes) == 1:
            axes = [axes[0], axes[0]]
        if len(axes) != 2:
            raise ValueError(f"{fn}: axes must be a pair of lists, got {axes}")
        ax, ay = list(axes[0]), list(axes[1])
        if len(ax) < len(ay):  # the shorter list is completed from the longer one
            ax += ay[len(ax) :]
        ay += ax[len(ay) :]
    ax = [normalize_axis(_int_arg(a, fn, "axes"), x.ndim, fn) for a in ax]
    ay = [normalize_axis(_int_arg(a, fn, "axes"), y.ndim, fn) for a in ay]
    if len(set(ax)) != len(ax) or len(set(ay)) != len(ay):
        raise ValueError(f"{fn}: axes name a dimension twice: {ax} of x, {ay} of y")
    return ax, ay


def tensordot(x, y, axes=2, name=None) -> Tensor:
    """Sum the products of x and y over the paired axes: axes=n pairs x's last n with y's first n; a pair of
    lists pairs them one by one. The result has x's free axes, then y's.

    Example:
        >>> paddle.tensordot(paddle.ones([2, 3]), paddle.ones([3, 4]), axes=1).shape    # [2, 4]
    """
    check_tensor(x, "tensordot")
    check_tensor(y, "tensordot", "y")
    x, y = binary_operands(x, y, "tensordot")
    ax, ay = _tensordot_axes(axes, x, y)
    for a, b in zip(ax, ay):
        if x.shape[a] != y.shape[b]:
            if x.shape[a] == 1:  # a size-1 axis broadcasts: sum the other operand over its axis first
                y = ops.sum(y, (b,), True)
            elif y.shape[b] == 1:
                x = ops.sum(x, (a,), True)
            else:
                raise ValueError(f"tensordot: x's dimension {a} (size {x.shape[a]}) and y's dimension {b} "
                                 f"(size {y.shape[b]}) must have the same size")  # fmt: skip
    free_x = [i for i in range(x.ndim) if i not in ax]
    free_y = [i for i in range(y.ndim) if i not in ay]
    k = int(np.prod([x.shape[a] for a in ax]))
    xt = ops.reshape(ops.transpose(x, tuple(free_x + ax)), (-1, k))
    yt = ops.reshape(ops.transpose(y, tuple(ay + free_y)), (k, -1))
    out = ops.matmul(xt, yt)
    return ops.reshape(out, tuple(x.shape[i] for i in free_x) + tuple(y.shape[i] for i in free_y))


# ---- einsum ----------------------------------------------------------------------------------------------------


def _parse_einsum(equation: str, operands: list):
    """Each operand's labels (one per dimension; the dimensions of '...' get labels '.0', '.1', ... counted from
    the right) and the output's labels."""
    fn = "einsum"
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"{fn}: the equation {equation!r} has {len(terms)} input terms but {len(operands)} "
                         "operands were given")  # fmt: skip
    inputs, n_ellipsis = [], 0
    for k, (term, t) in enumerate(zip(terms, operands)):
        head, dots, tail = term.partition("...")
        for c in head + tail:
            if not c.isascii() or not c.isalpha():
                raise ValueError(f"{fn}: labels must be letters a-z, A-Z, got {c!r} in {equation!r}")
        if "." in tail or (not dots and "." in head):
            raise ValueError(f"{fn}: a term may hold one '...' and no other dots, got {term!r}")
        free = t.ndim - len(head) - len(tail)
        if free < 0 or (not dots and free):
            raise ValueError(f"{fn}: term {term!r} has {len(head) + len(tail)} labels but operand {k} has "
                             f"{t.ndim} dimensions (shape {t.shape})")  # fmt: skip
        n_ellipsis = max(n_ellipsis, free)
        inputs.append(list(head) + [f".{free - 1 - i}" for i in range(free)] + list(tail))
    dots = [f".{i}" for i in reversed(range(n_ellipsis))]
    if arrow:
        head, has_dots, tail = rhs.partition("...")
        if "." in head + tail:
            raise ValueError(f"{fn}: the output may hold one '...' and no other dots, got {rhs!r}")
        if n_ellipsis and not has_dots:
            raise ValueError(f"{fn}: the inputs have '...' dimensions, so the output needs '...' too: {equation!r}")
        output = list(head) + (dots if has_dots else []) + list(tail)
        seen = [label for term in inputs for label in term]
        for c in output:
            if not c.startswith(".") and c not in seen:
                raise ValueError(f"{fn}: output label {c!r} appears in no input term of {equation!r}")
        if len(set(output)) != len(output):
            raise ValueError(f"{fn}: the output repeats a label: {rhs!r}")
    else:  # implicit: '...' first, then the labels used once, lowercase before uppercase (as paddle 2.6)
        letters = [c for term in terms for c in term.replace("...", "")]
        once = sorted((c for c in set(letters) if letters.count(c) == 1), key=lambda c: (c.isupper(), c))
        output = dots + once
    return inputs, output


def _label_sizes(inputs, operands) -> dict:
    """The size of every label; letters must agree, '...' dimensions broadcast (size 1 stretches)."""
    sizes = {}
    for labels, t in zip(inputs, operands):
        for label, d in zip(labels, t.shape):
            have = sizes.get(label)
            if have is None or have == 1 and label.startswith("."):
                sizes[label] = d
            elif have != d and not (label.startswith(".") and d == 1):
                raise ValueError(f"einsum: label {label if not label.startswith('.') else '...'!r} has sizes "
                                 f"{have} and {d} in different places")  # fmt: skip
    return sizes


def _take_diagonals(t: Tensor, labels: list) -> tuple[Tensor, list]:
    """A label repeated within one term ('ii') reads a diagonal: keep one axis per label."""
    labels = list(labels)
    while len(set(labels)) != len(labels):
        label = next(c for c in labels if labels.count(c) > 1)
        i = labels.index(label)
        j = labels.index(label, i + 1)
        t = ops.extract_diagonal(t, 0, i, j)  # the diagonal becomes the last axis
        labels = [c for k, c in enumerate(labels) if k not in (i, j)] + [label]
    return t, labels


def _sum_labels(t: Tensor, labels: list, drop) -> tuple[Tensor, list]:
    axes = tuple(i for i, c in enumerate(labels) if c in drop)
    if not axes:
        return t, labels
    return ops.sum(t, axes), [c for c in labels if c not in drop]


def _stretch(t: Tensor, labels: list, sizes: dict) -> Tensor:
    """Broadcast size-1 '...' dimensions to the common size."""
    want = tuple(sizes[c] for c in labels)
    return t if tuple(t.shape) == want else ops.expand(t, want)


def _contract(a: Tensor, la: list, b: Tensor, lb: list, keep: set, sizes: dict) -> tuple[Tensor, list]:
    """Multiply two operands and sum the labels they share that are not kept, as one batched matmul."""
    a, la = _sum_labels(a, la, [c for c in la if c not in lb and c not in keep])
    b, lb = _sum_labels(b, lb, [c for c in lb if c not in la and c not in keep])
    a, b = _stretch(a, la, sizes), _stretch(b, lb, sizes)
    batch = [c for c in la if c in lb and c in keep]
    summed = [c for c in la if c in lb and c not in keep]
    only_a = [c for c in la if c not in lb]
    only_b = [c for c in lb if c not in la]

    def size(group):
        return int(np.prod([sizes[c] for c in group]))

    at = ops.transpose(a, tuple(la.index(c) for c in batch + only_a + summed))
    bt = ops.transpose(b, tuple(lb.index(c) for c in batch + summed + only_b))
    at = ops.reshape(at, (size(batch), size(only_a), size(summed)))
    bt = ops.reshape(bt, (size(batch), size(summed), size(only_b)))
    out = ops.matmul(at, bt)
    labels = batch + only_a + only_b
    return ops.reshape(out, tuple(sizes[c] for c in labels)), labels


def einsum(equation, *operands) -> Tensor:
    """Einstein summation: products of the operands summed over the labels missing from the output.

    The equation names each operand's dimensions with letters ('ij,jk->ik' is a matrix product). A label
    repeated within one term reads a diagonal ('ii->i'); '...' stands for the leading dimensions, which
    broadcast. Without '->' the output holds '...' and then every label used once, in alphabetical order
    (lowercase before uppercase). Built from transpose, reshape, diagonal, sum and matmul, so it is
    differentiable in every operand.

    Example:
        >>> a, b = paddle.ones([2, 3]), paddle.ones([3, 4])
        >>> paddle.einsum('ij,jk->ik', a, b).shape    # [2, 4]
        >>> paddle.einsum('ii', paddle.eye(3))        # 3. (the trace)
    """
    fn = "einsum"
    if not isinstance(equation, str):
        raise TypeError(f"{fn}: equation must be a str, got {type(equation).__name__}")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError(f"{fn}: give at least one operand")
    _check_one_dtype(operands, fn, "operands", "operands")
    inputs, output = _parse_einsum(equation, list(operands))
    sizes = _label_sizes(inputs, operands)
    terms = [_take_diagonals(t, labels) for t, labels in zip(operands, inputs)]
    # A label that appears in one operand only and not in the output is summed there and then.
    for k, (t, labels) in enumerate(terms):
        elsewhere = {c for j, (_, other) in enumerate(terms) if j != k for c in other}
        terms[k] = _sum_labels(t, labels, [c for c in labels if c not in elsewhere and c not in output])
    result, labels = terms[0]
    for k in range(1, len(terms)):
        later = {c for _, other in terms[k + 1 :] for c in other}
        result, labels = _contract(result, labels, *terms[k], set(output) | later, sizes)
    result = _stretch(result, labels, sizes)
    if labels != output:
        result = ops.transpose(result, tuple(labels.index(c) for c in output))
    return ops.assign(result) if result is operands[0] else result


# ---- copies, views and conversions -----------------------------------------------------------------------------


def clone(x, name=None) -> Tensor:
    """A copy of x that stays in the graph: gradients flow back through it.

    Example:
        >>> y = paddle.clone(x)
    """
    check_tensor(x, "clone")
    return ops.assign(x)


def tolist(x) -> list:
    """x's values as a nested Python list (a 0-d tensor gives a number).

    Example:
        >>> paddle.tolist(paddle.to_tensor([[1, 2], [3, 4]]))    # [[1, 2], [3, 4]]
    """
    check_tensor(x, "tolist")
    return x.tolist()


def view(x, shape_or_dtype, name=None) -> Tensor:
    """x seen with another shape (as reshape, sharing x's storage) or its bytes read as another dtype (the last
    dimension shrinks or grows by the ratio of the item sizes).

    Example:
        >>> x = paddle.ones([2, 6])
        >>> paddle.view(x, [3, 4]).shape       # [3, 4]
        >>> paddle.view(x, 'uint8').shape      # [2, 24]
    """
    check_tensor(x, "view")
    if isinstance(shape_or_dtype, (list, tuple, Tensor)):
        return reshape(x, shape_or_dtype)
    try:
        d = dtypes.to_dtype(shape_or_dtype)
    except (TypeError, ValueError, KeyError):
        raise TypeError(
            f"view: shape_or_dtype must be a shape (list/tuple) or a dtype, got {shape_or_dtype!r}"
        ) from None
    if d.itemsize != x.dtype.itemsize:
        last = x.shape[-1] if x.ndim else 1
        if x.ndim == 0 or (last * x.dtype.itemsize) % d.itemsize:
            raise ValueError(f"view: the last dimension of x (shape {x.shape}, {x.dtype.name}) must hold a whole "
                             f"number of {d.name} items to be viewed as {d.name}")  # fmt: skip
    return ops.view_dtype(x, d.np)


def view_as(x, other, name=None) -> Tensor:
    """x seen with other's shape (sharing x's storage).

    Example:
        >>> paddle.view_as(paddle.ones([2, 6]), paddle.ones([3, 4])).shape    # [3, 4]
    """
    check_tensor(x, "view_as")
    check_tensor(other, "view_as", "other")
    return view(x, list(other.shape))


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


def combinations(x, r=2, with_replacement=False, name=None) -> Tensor:
    """All r-element combinations of the 1-D x, one per row (in lexicographic order of positions).

    Example:
        >>> paddle.combinations(paddle.to_tensor([1, 2, 3]))    # [[1, 2], [1, 3], [2, 3]]
    """
    fn = "combinations"
    check_tensor(x, fn)
    if x.ndim != 1:
        raise TypeError(f"{fn}: x must be a 1-D Tensor, got shape {x.shape}")
    r = _int_arg(r, fn, "r")
    if r < 0:
        raise ValueError(f"{fn}: r must not be negative, got {r}")
    if r == 0:
        return ops.gather(x, Tensor(np.zeros(0, np.int64)), "axis", 0)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    index = np.array(list(pick(range(x.shape[0]), r)), np.int64).reshape(-1, r)
    return ops.gather(x, Tensor(index), "axis", 0)


def _tri_indices(row, col, offset, dtype, lower: bool, fn: str) -> Tensor:
    row = _int_arg(row, fn, "row")
    col = row if col is None else _int_arg(col, fn, "col")
    offset = _int_arg(offset, fn, "offset")
    d = dtypes.to_dtype(dtype)
    if d not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{fn}: dtype must be int32 or int64, got {d.name}")
    return ops.tri_indices(row, col, offset, lower, d.np)


def tril_indices(row, col, offset=0, dtype="int64") -> Tensor:
    """The coordinates of the lower triangle of a row x col matrix (diagonal moved by `offset`), as [2, n]:
    row indices, then column indices.

    Example:
        >>> paddle.tril_indices(2, 2)    # [[0, 1, 1], [0, 0, 1]]
    """
    return _tri_indices(row, col, offset, dtype, True, "tril_indices")


def triu_indices(row, col=None, offset=0, dtype="int64") -> Tensor:
    """The coordinates of the upper triangle of a row x col matrix (col defaults to row), as [2, n].

    Example:
        >>> paddle.triu_indices(2)    # [[0, 0, 1], [0, 1, 1]]
    """
    return _tri_indices(row, col, offset, dtype, False, "triu_indices")


def vander(x, n=None, increasing=False, name=None) -> Tensor:
    """The Vandermonde matrix of the 1-D x: column j is x ** (n - 1 - j), or x ** j with increasing=True.

    Example:
        >>> paddle.vander(paddle.to_tensor([1.0, 2.0, 3.0]))    # [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
    """
    fn = "vander"
    check_tensor(x, fn)
    if x.ndim != 1:
        raise ValueError(f"{fn}: x must be a 1-D Tensor, got shape {x.shape}")
    n = x.shape[0] if n is None else _int_arg(n, fn, "n")
    if n < 0:
        raise ValueError(f"{fn}: n must not be negative, got {n}")
    column = ops.reshape(x, (-1, 1))
    if n == 0:
        return ops.expand(column, (x.shape[0], 0))
    powers = [ops.full_like(column, 1, None)]  # x ** 0, x ** 1, ... by repeated multiplication (exact gradients)
    for _ in range(n - 1):
        powers.append(ops.multiply(powers[-1], column))
    out = ops.concat(powers, 1)
    return out if check_bool(increasing, fn, "increasing") else ops.flip(out, (1,))


def take(x, index, mode="raise", name=None) -> Tensor:
    """The elements of the flattened x at `index`; the result has index's shape.

    mode: 'raise' (an index must be in [-numel, numel)), 'wrap' (indices wrap around), 'clip' (clamped into
    [0, numel - 1]).

    Example:
        >>> x = paddle.arange(6).reshape([2, 3])
        >>> paddle.take(x, paddle.to_tensor([0, -1]))    # [0, 5]
    """
    fn = "take"
    check_tensor(x, fn)
    index = _check_index(index, fn)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"{fn}: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    flat = ops.reshape(x, (-1,))
    n = flat.shape[0]
    if n == 0 and index.size:
        raise IndexError(f"{fn}: x has no elements to take from")
    if mode == "clip":
        index = ops.clip(index, 0, n - 1)
    else:
        if mode == "raise":
            _check_range(index, n, fn, "the flattened x")
        index = ops.remainder(index, ops.full_like(index, n, None))
    return ops.gather(flat, index, "axis", 0)
