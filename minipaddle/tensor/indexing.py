"""Reading and writing parts of a tensor: `x[index]`, `x[index] = value`, slice, strided_slice, crop, gather,
gather_nd, index_select, index_sample, scatter, scatter_nd, scatter_nd_add, unfold (paddle.tensor.manipulation).

`x[index]` takes what numpy takes: ints, slices (negative steps too), None, Ellipsis, boolean masks, integer
lists, arrays and Tensors, in any mix. A basic index (ints, slices, None, Ellipsis) gives a view that shares x's
storage, as numpy and Paddle 2.6 do; any other index gives a copy. Both are differentiable.
`x[index] = value` is recorded like an in-place op: the gradient flows to `value`, not to the overwritten part.
"""

from __future__ import annotations

import builtins  # builtins.slice: `slice` is also the name of paddle.slice, defined below
import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import in_dynamic_mode
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_bool, check_shape, check_tensor, normalize_axis

__all__ = [
    "slice",
    "strided_slice",
    "crop",
    "gather",
    "gather_nd",
    "index_select",
    "index_sample",
    "scatter",
    "scatter_",
    "scatter_nd",
    "scatter_nd_add",
    "unfold",
]


# ---- x[index] ------------------------------------------------------------------------------------------------


def normalize_index(index, shape: list, fn: str) -> tuple[tuple, bool]:
    """The index as a tuple numpy understands, and whether it is basic (so x[index] is a view).

    Tensors become ints (0-d integer tensors) or numpy arrays; boolean masks become the integer positions of their
    True elements (the same selection, which np.add.at can also scatter gradients into)."""
    items = [_index_item(item, fn) for item in (index if isinstance(index, tuple) else (index,))]
    _check_masks(items, shape, fn)
    out = []
    basic = True
    for item in items:
        if isinstance(item, np.ndarray):
            basic = False
            if item.dtype == np.bool_ and item.ndim > 0:
                out.extend(np.nonzero(item))
                continue
        out.append(item)
    return tuple(out), basic


def _check_masks(items: list, shape: list, fn: str) -> None:
    """Each boolean mask must have the shape of the dimensions it covers."""
    width = [0 if i is None or i is Ellipsis else i.ndim if isinstance(i, np.ndarray) and i.dtype == np.bool_ else 1
             for i in items]  # fmt: skip
    dim = 0
    for item, w in zip(items, width):
        if item is Ellipsis:
            dim += max(len(shape) - sum(width), 0)
        elif w and isinstance(item, np.ndarray) and item.dtype == np.bool_:
            covered = list(shape[dim : dim + w])
            if list(item.shape) != covered:
                raise IndexError(
                    f"{fn}: a boolean mask of shape {list(item.shape)} cannot index dimensions {dim}..{dim + w - 1} "
                    f"of shape {covered} (tensor shape {list(shape)}); the shapes must be equal"
                )
        dim += w


def _index_item(item, fn: str):
    if item is None or item is Ellipsis:
        return item
    if isinstance(item, bool | np.bool_):
        return np.asarray(item)
    if isinstance(item, int | np.integer):
        return int(item)
    if isinstance(item, builtins.slice):
        return builtins.slice(*(_slice_bound(b, fn) for b in (item.start, item.stop, item.step)))
    if isinstance(item, Tensor):
        if item.dtype.is_integer and item.ndim == 0:
            return int(item.item())
        item = item.numpy()
    elif isinstance(item, list | tuple):
        item = np.asarray(item) if len(item) else np.zeros(0, np.int64)
    if isinstance(item, np.ndarray) and (item.dtype.kind in "iu" or item.dtype == np.bool_):
        return item
    what = f"array of {item.dtype}" if isinstance(item, np.ndarray) else type(item).__name__
    raise TypeError(
        f"{fn}: an index must be an int, slice, None, Ellipsis, a boolean mask or integer list/array/Tensor "
        f"(or a tuple of these), got {what}"
    )


def _slice_bound(b, fn: str):
    if b is None:
        return None
    if isinstance(b, Tensor):
        b = b.item()
    if not isinstance(b, int | np.integer) or isinstance(b, bool):
        raise TypeError(f"{fn}: slice start, stop and step must be ints or None, got {type(b).__name__}")
    return int(b)


def getitem(x: Tensor, index) -> Tensor:
    """x[index] (bound as Tensor.__getitem__)."""
    idx, basic = normalize_index(index, x.shape, "Tensor.__getitem__")
    return ops.index_view(x, idx) if basic else ops.getitem(x, idx)


def setitem(x: Tensor, index, value) -> None:
    """x[index] = value (bound as Tensor.__setitem__): value (a number, list, array or Tensor) is cast to x's
    dtype and broadcast to the indexed part. Recorded like an in-place op."""
    idx, _ = normalize_index(index, x.shape, "Tensor.__setitem__")
    apply_inplace(get_op("set_value"), x, (x, _value_tensor(value, x, "Tensor.__setitem__")), {"index": idx})


def _value_tensor(value, like: Tensor, fn: str) -> Tensor:
    if isinstance(value, Tensor):
        return value if value.dtype is like.dtype else ops.cast(value, like.dtype)
    if isinstance(value, numbers.Number | np.ndarray | np.generic | list | tuple):
        try:
            arr = np.asarray(value)
        except ValueError:
            raise ValueError(f"{fn}: the value is a ragged nested list") from None
        if arr.dtype.kind not in "biufc":
            raise TypeError(f"{fn}: the value must be numeric, got {arr.dtype}")
        return Tensor(arr.astype(like.dtype.np))
    raise TypeError(f"{fn}: the value must be a number, list, numpy array or Tensor, got {type(value).__name__}")


# ---- slice, strided_slice, crop --------------------------------------------------------------------------------


def _int_list(v, fn: str, arg: str) -> list[int]:
    if isinstance(v, Tensor):
        v = v.tolist()
    if isinstance(v, int | np.integer):
        v = [v]
    if not isinstance(v, list | tuple):
        raise TypeError(f"{fn}: {arg} must be a list or tuple of ints, got {type(v).__name__}")
    return [int(e.item()) if isinstance(e, Tensor) else int(e) for e in v]


def _strided(fn: str, x, axes, starts, ends, strides) -> Tensor:
    check_tensor(x, fn, "x" if fn != "slice" else "input")
    axes = [normalize_axis(a, x.ndim, fn) for a in _int_list(axes, fn, "axes")]
    starts, ends = _int_list(starts, fn, "starts"), _int_list(ends, fn, "ends")
    strides = [1] * len(axes) if strides is None else _int_list(strides, fn, "strides")
    if not len(axes) == len(starts) == len(ends) == len(strides):
        raise ValueError(
            f"{fn}: axes, starts, ends (and strides) must have the same length, got {len(axes)}, {len(starts)}, "
            f"{len(ends)}, {len(strides)}"
        )
    if 0 in strides:
        raise ValueError(f"{fn}: strides must not be 0, got {strides}")
    index = [builtins.slice(None)] * x.ndim
    for a, s, e, st in zip(axes, starts, ends, strides):
        index[a] = builtins.slice(s, e, st)  # Python slicing clamps out-of-range bounds, as Paddle does
    return ops.index_view(x, tuple(index))


def slice(input, axes, starts, ends) -> Tensor:  # noqa: A001 (Paddle's name)
    """input[starts[i]:ends[i]] along each of `axes` (out-of-range bounds are clamped; dimensions are kept).

    Example:
        >>> x = paddle.arange(12).reshape([3, 4])
        >>> paddle.slice(x, axes=[1], starts=[1], ends=[3])    # x[:, 1:3]
    """
    return _strided("slice", input, axes, starts, ends, None)


def strided_slice(x, axes, starts, ends, strides, name=None) -> Tensor:
    """x[starts[i]:ends[i]:strides[i]] along each of `axes` (negative strides walk backwards)."""
    return _strided("strided_slice", x, axes, starts, ends, strides)


def crop(x, shape=None, offsets=None, name=None) -> Tensor:
    """The block of x of `shape` starting at `offsets` (default 0); -1 in shape keeps the rest of that axis."""
    check_tensor(x, "crop")
    shape = list(x.shape) if shape is None else list(check_shape(shape, "crop"))
    offsets = [0] * x.ndim if offsets is None else _int_list(offsets, "crop", "offsets")
    if len(shape) != x.ndim or len(offsets) != x.ndim:
        raise ValueError(
            f"crop: shape and offsets need one entry per dimension of x ({x.ndim}), got {shape} and {offsets}"
        )
    index = []
    for axis, (d, off, size) in enumerate(zip(x.shape, offsets, shape)):
        size = d - off if size == -1 else size
        if off < 0 or size < 0 or off + size > d:
            raise ValueError(f"crop: axis {axis} has size {d}, so offset {off} with size {size} does not fit")
        index.append(builtins.slice(off, off + size))
    return ops.index_view(x, tuple(index))


# ---- gather ---------------------------------------------------------------------------------------------------


def _check_index(index, fn: str, arg: str = "index") -> Tensor:
    if not isinstance(index, Tensor):
        raise TypeError(f"{fn}: {arg} must be an int32 or int64 Tensor, got {type(index).__name__}")
    if index.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{fn}: {arg} must be an int32 or int64 Tensor, got {index.dtype.name}")
    return index


def _check_range(index: Tensor, size: int, fn: str, what: str) -> None:
    if not in_dynamic_mode():  # a static Variable has no values until the Program runs
        return
    values = index.numpy()
    if values.size and (values.min() < -size or values.max() >= size):
        bad = values.max() if values.max() >= size else values.min()
        raise IndexError(f"{fn}: index holds {int(bad)} but {what} has size {size}; expected -{size} <= index < {size}")


def gather(x, index, axis=None, name=None) -> Tensor:
    """The slices of x along `axis` (default 0) at the positions in the 1-D `index`.

    Example:
        >>> x = paddle.to_tensor([[1, 2], [3, 4], [5, 6]])
        >>> paddle.gather(x, paddle.to_tensor([2, 0]))   # [[5, 6], [1, 2]]
    """
    check_tensor(x, "gather")
    index = _check_index(index, "gather")
    axis = normalize_axis(0 if axis is None else axis, x.ndim, "gather")
    if index.ndim > 1:
        raise ValueError(f"gather: index must be 1-D (or 0-D), got shape {index.shape}")
    _check_range(index, x.shape[axis], "gather", f"axis {axis}")
    return ops.gather(x, index, "axis", axis)


def index_select(x, index, axis=0, name=None) -> Tensor:
    """The slices of x along `axis` at the positions in the 1-D `index` (as gather)."""
    check_tensor(x, "index_select")
    index = _check_index(index, "index_select")
    axis = normalize_axis(axis, x.ndim, "index_select")
    if index.ndim != 1:
        raise ValueError(f"index_select: index must be 1-D, got shape {index.shape}")
    _check_range(index, x.shape[axis], "index_select", f"axis {axis}")
    return ops.gather(x, index, "axis", axis)


def gather_nd(x, index, name=None) -> Tensor:
    """x at the coordinates in the last dimension of `index`: out[i] = x[index[i][0], ..., index[i][k-1]].

    The output has shape index.shape[:-1] + x.shape[k:]."""
    check_tensor(x, "gather_nd")
    index = _check_index(index, "gather_nd")
    k = index.shape[-1] if index.ndim else 0
    if index.ndim == 0 or k > x.ndim:
        raise ValueError(
            f"gather_nd: the last dimension of index ({k}) must be at most x's rank ({x.ndim}); "
            f"index has shape {index.shape}"
        )
    for i in range(k):
        _check_range(ops.index_view(index, (Ellipsis, i)), x.shape[i], "gather_nd", f"axis {i}")
    return ops.gather(x, index, "nd")


def index_sample(x, index) -> Tensor:
    """For each row i, x[i, index[i, j]]: x is [N, D], index is [N, K], the output is [N, K]."""
    check_tensor(x, "index_sample")
    index = _check_index(index, "index_sample")
    if x.ndim != 2 or index.ndim != 2 or index.shape[0] != x.shape[0]:
        raise ValueError(
            f"index_sample: x must be [N, D] and index [N, K] with the same N, got {x.shape} and {index.shape}"
        )
    _check_range(index, x.shape[1], "index_sample", "x's axis 1")
    return ops.gather(x, index, "row")


def unfold(x, axis, size, step, name=None) -> Tensor:
    """Windows of `size` elements along `axis`, `step` apart: that axis becomes the window count and a new last
    axis of length `size` holds each window (Tensor.unfold)."""
    check_tensor(x, "unfold")
    axis = normalize_axis(axis, x.ndim, "unfold")
    for v, what in ((size, "size"), (step, "step")):
        if not isinstance(v, int | np.integer) or v <= 0:
            raise ValueError(f"unfold: {what} must be a positive int, got {v!r}")
    d = x.shape[axis] if x.ndim else 1
    if size > d:
        raise ValueError(f"unfold: size {size} is larger than axis {axis} (size {d})")
    starts = np.arange(0, d - size + 1, step)
    windows = Tensor(starts[:, None] + np.arange(size)[None, :])  # [count, size] positions
    picked = ops.gather(x, windows, "axis", axis)  # x's axis becomes [count, size]
    perm = list(range(picked.ndim))
    perm.append(perm.pop(axis + 1))  # the window axis goes last
    return ops.transpose(picked, tuple(perm))


# ---- scatter --------------------------------------------------------------------------------------------------


def _scatter_args(x, index, updates, fn: str):
    check_tensor(x, fn)
    index = _check_index(index, fn)
    check_tensor(updates, fn, "updates")
    if index.ndim != 1:
        raise ValueError(f"{fn}: index must be 1-D, got shape {index.shape}")
    want = [index.shape[0]] + x.shape[1:]
    if updates.shape != want:
        raise ValueError(
            f"{fn}: updates must have shape {want} (len(index) rows of x's row shape), got {updates.shape}"
        )
    _check_range(index, x.shape[0], fn, "x's axis 0")
    if updates.dtype is not x.dtype:
        updates = ops.cast(updates, x.dtype)
    return index, updates


def scatter(x, index, updates, overwrite=True, name=None) -> Tensor:
    """A copy of x whose rows at `index` are replaced by the rows of `updates`.

    With overwrite=False, the rows at index are set to the sum of all updates aimed at them (x's old row is
    dropped). Repeated indices with overwrite=True keep one of the updates.

    Example:
        >>> x = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
        >>> paddle.scatter(x, paddle.to_tensor([2, 1, 0, 1]), paddle.ones([4, 2]), overwrite=False)
    """
    index, updates = _scatter_args(x, index, updates, "scatter")
    return ops.scatter(x, index, updates, check_bool(overwrite, "scatter", "overwrite"))


def scatter_(x, index, updates, overwrite=True, name=None) -> Tensor:
    """In-place scatter: writes into x and returns it."""
    from minipaddle.tensor.inplace import write_back

    index, updates = _scatter_args(x, index, updates, "scatter_")
    return write_back(x, lambda old: ops.scatter(old, index, updates, check_bool(overwrite, "scatter_", "overwrite")),
                      "scatter_")  # fmt: skip


def _nd_args(index, updates, shape, fn: str):
    index = _check_index(index, fn)
    check_tensor(updates, fn, "updates")
    k = index.shape[-1] if index.ndim else 0
    want = index.shape[:-1] + list(shape[k:])
    if index.ndim == 0 or k > len(shape) or updates.shape != want:
        raise ValueError(
            f"{fn}: with index of shape {index.shape} into shape {list(shape)}, updates must have shape {want}, "
            f"got {updates.shape}"
        )
    for i in range(k):
        _check_range(ops.index_view(index, (Ellipsis, i)), shape[i], fn, f"axis {i}")
    return index


def scatter_nd_add(x, index, updates, name=None) -> Tensor:
    """x with the updates added at the coordinates in the last dimension of index (repeats add up)."""
    check_tensor(x, "scatter_nd_add")
    index = _nd_args(index, updates, x.shape, "scatter_nd_add")
    return ops.scatter_nd_add(x, index, updates if updates.dtype is x.dtype else ops.cast(updates, x.dtype))


def scatter_nd(index, updates, shape, name=None) -> Tensor:
    """Zeros of `shape` with the updates added at the coordinates in index (scatter_nd_add into zeros)."""
    shape = check_shape(shape, "scatter_nd")
    index = _nd_args(index, updates, shape, "scatter_nd")
    return ops.scatter_add_to_zeros(updates, index, "nd", 0, shape)
