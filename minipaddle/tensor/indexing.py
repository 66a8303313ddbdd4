"""Reading and writing parts of a tensor: `x[index]`, `x[index] = value`, slice, strided_slice, crop, gather,
gather_nd, index_select, index_sample, scatter, scatter_nd, scatter_nd_add, unfold (paddle.tensor.manipulation);
reading and writing at positions: take_along_axis, put_along_axis, masked_fill, index_add, index_fill, index_put,
diagonal_scatter, select_scatter, take, and Tensor.fill_diagonal_ / fill_diagonal_tensor(_).

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
from minipaddle.tensor import manipulation
from minipaddle.tensor.checks import (
    INT64_MAX,
    PreconditionNotMetError,
    _as_dtype,
    _int,
    _int_arg,
    _int_scalar,
    check_bool,
    check_broadcast,
    check_min_rank,
    check_not_empty,
    check_number,
    check_shape,
    check_tensor,
    normalize_axis,
)
from minipaddle.tensor.manipulation import _diag_axes
from minipaddle.tensor.runtime_shape import has_no_value
from minipaddle.tensor.runtime_slicing import read_tensor_bounds, split_runtime_slices
from minipaddle.tensor.write_back import write_back

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
    "take_along_axis",
    "put_along_axis",
    "masked_fill",
    "index_add",
    "index_fill",
    "index_put",
    "take",
    "diagonal_scatter",
    "select_scatter",
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
    if x.ndim and has_no_value(index) and index.dtype.is_integer and index.size == 1:
        # x[i] with i a size or loop index a Program computes (converted code): row i, read when it runs
        return ops.index_view(ops.gather(x, ops.reshape(index, (1,))), (0,))
    runtime = split_runtime_slices(index, x.ndim, "Tensor.__getitem__")
    if runtime is not None:  # x[:n] with n a size the Program computes: slice when it runs, then the rest
        axes, spans, bounds, rest, _ = runtime
        sliced = ops.runtime_slice(x, bounds, axes, spans)
        whole = all(isinstance(p, builtins.slice) and p == builtins.slice(None) for p in rest)
        return sliced if whole else getitem(sliced, rest)
    index = read_tensor_bounds(index, x.shape, "Tensor.__getitem__")
    idx, basic = normalize_index(index, x.shape, "Tensor.__getitem__")
    return ops.index_view(x, idx) if basic else ops.getitem(x, idx)


def setitem(x: Tensor, index, value) -> None:
    """x[index] = value (bound as Tensor.__setitem__): value (a number, list, array or Tensor) is cast to x's
    dtype and broadcast to the indexed part. Recorded like an in-place op."""
    runtime = split_runtime_slices(index, x.ndim, "Tensor.__setitem__", slices_too=True)
    if runtime is not None:  # x[:n] = v with n a size the Program computes: the bounds are read when it runs
        axes, spans, bounds, rest, ints = runtime
        value = _value_tensor(value, x, "Tensor.__setitem__")
        if not all(isinstance(p, builtins.slice) or p is Ellipsis for p in rest):
            # None, lists or masks beside the Tensor bound, as paddle 2.6.2 does: the part the run-time slices
            # select, written there by the rest of the index (set_value), then put back (runtime_set_value)
            axes, spans, bounds, rest, _ = split_runtime_slices(index, x.ndim, "Tensor.__setitem__")
            part = ops.runtime_slice(x, bounds, axes, spans)
            setitem(part, rest, value)
            value = part
        else:
            value = _kept_axes(value, x.ndim, ints)
        apply_inplace(get_op("runtime_set_value"), x, (x, value, *bounds), {"axes": tuple(axes), "spans": tuple(spans)})
        return
    index = read_tensor_bounds(index, x.shape, "Tensor.__setitem__", writing=True)
    idx, _ = normalize_index(index, x.shape, "Tensor.__setitem__")
    apply_inplace(get_op("set_value"), x, (x, _value_tensor(value, x, "Tensor.__setitem__")), {"index": idx})


def _kept_axes(value: Tensor, ndim: int, ints: list) -> Tensor:
    """The value of `x[:n, 0] = v` for the write x[:n, 0:1]: a size-1 axis in v where the int axis is kept. v lines
    up with the indexed part's last axes (numpy's broadcasting), so only int axes among those get one."""
    target = [a for a in range(ndim) if a not in ints]  # the axes of x[:n, 0]
    if not ints or value.ndim == 0 or value.ndim > len(target):  # (too many axes: the write's error says so)
        return value
    covered = target[len(target) - value.ndim :]
    where = [i for i, a in enumerate(sorted(covered + [a for a in ints if a > covered[0]])) if a in ints]
    return manipulation.unsqueeze(value, where) if where else value


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
    out = [_int_scalar(e, fn, f"{arg}[{i}]") for i, e in enumerate(v)]
    if any(not -INT64_MAX - 1 <= e <= INT64_MAX for e in out):  # (paddle 2.6 holds them as int64 attributes)
        raise ValueError(f"{fn}: {arg} must hold ints in int64's range, got {out}")
    return out


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
    for a, s, e, st in zip(axes, starts, ends, strides):
        d = x.shape[a]
        if st < 0 and d >= 0 and (s + d if s < 0 else s) < (e + d if e < 0 else e):  # as paddle 2.6 refuses
            raise ValueError(f"{fn}: with the negative stride {st}, start {s} must not come before end {e} "
                             f"(axis {a} of size {d})")  # fmt: skip
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
    if strides is None:  # (paddle 2.6 has no default for them)
        raise TypeError("strided_slice: strides must be a list or tuple of ints, got NoneType")
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
    check_min_rank(check_tensor(x, "gather"), 1, "gather")
    index = _check_index(index, "gather")
    axis = normalize_axis(0 if axis is None else axis, x.ndim, "gather")
    if index.ndim > 1:
        raise ValueError(f"gather: index must be 1-D (or 0-D), got shape {index.shape}")
    _check_range(index, x.shape[axis], "gather", f"axis {axis}")
    return ops.gather(x, index, "axis", axis)


def index_select(x, index, axis=0, name=None) -> Tensor:
    """The slices of x along `axis` at the positions in the 1-D `index` (as gather)."""
    check_min_rank(check_tensor(x, "index_select"), 1, "index_select")
    index = _check_index(index, "index_select")
    axis = normalize_axis(axis, x.ndim, "index_select")
    if index.ndim != 1:
        raise ValueError(f"index_select: index must be 1-D, got shape {index.shape}")
    check_not_empty(index, "index_select", "index")  # (paddle 2.6 refuses to select nothing)
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
        try:
            values = Tensor(np.asarray(values).astype(arr.dtype.np))
        except (TypeError, ValueError):  # a ragged nested list, or items that are not numbers
            raise ValueError(f"{fn}: values must be a Tensor, a number or a rectangular list of numbers, got "
                             f"{values!r}") from None  # fmt: skip
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
    # paddle 2.6 says ValueError for two shapes that do not broadcast, PreconditionNotMet when one is empty: both
    check_broadcast(x, mask, "masked_fill", error=PreconditionNotMetError)
    if mask.dtype is not dtypes.bool_:
        mask = ops.cast(mask, dtypes.bool_)
    return ops.where(mask, _fill_value(value, x, "masked_fill"), x)


def _axis_index(x, index, axis, fn: str):
    check_tensor(x, fn)
    check_min_rank(x, 1, fn)  # a 0-D x has no axis to index along
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
    if index.ndim != 1 or index.size == 0:  # as paddle 2.6
        raise ValueError(f"index_fill: index must be 1-D and not empty, got shape {index.shape}")
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
    if values.shape != want:  # (paddle 2.6: PreconditionNotMet)
        raise PreconditionNotMetError(f"{fn}: values must have the slice's shape {want}, got {values.shape}")
    where = (builtins.slice(None),) * axis + (index % n,)
    return ops.set_value(x, _as_dtype(values, x), where)


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
    check_not_empty(_check_index(index, fn), fn, "index")  # (paddle 2.6 refuses to take nothing)
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


# ---- Tensor-only methods -----------------------------------------------------------------------------------------


def _write_back(x, compute, name):
    return write_back(x, compute, name)


def fill_diagonal_(x, value, offset=0, wrap=False, name=None) -> Tensor:
    """Fill x's diagonal with `value` in place (the filled elements get no gradient); returns x.

    For a matrix, the diagonal moved by `offset` (> 0 above); a tall matrix with wrap=True gets the diagonal again
    below each square block, as numpy.fill_diagonal. For more dimensions, the elements [i, i, ..., i].

    Example:
        >>> paddle.zeros([2, 3]).fill_diagonal_(1.0, offset=1)    # [[0, 1, 0], [0, 0, 1]]
    """
    fn = "fill_diagonal_"
    check_tensor(x, fn)
    value = check_number(value, fn, "value")
    offset, wrap = _int(offset, fn, "offset"), check_bool(wrap, fn, "wrap")
    if x.ndim < 2:
        raise ValueError(f"{fn}: x must have at least 2 dimensions, got shape {x.shape}")
    return _write_back(x, lambda old: ops.fill_diagonal(old, value, offset, wrap), fn)


def fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1, name=None) -> Tensor:
    """x with its diagonal over dims (dim1, dim2), moved by `offset`, replaced by y.

    y has x's shape without dim1 and dim2, followed by the diagonal's length (the shape of
    paddle.diagonal(x, offset, dim1, dim2)), and x's dtype.

    Example:
        >>> paddle.zeros([2, 3]).fill_diagonal_tensor(paddle.to_tensor([1.0, 2.0]))    # [[1, 0, 0], [0, 2, 0]]
    """
    return _fill_diagonal_tensor(x, y, offset, dim1, dim2, "fill_diagonal_tensor")


def _fill_diagonal_tensor(x, y, offset, dim1, dim2, fn: str) -> Tensor:
    check_tensor(x, fn)
    check_tensor(y, fn, "y")
    if x.ndim < 2:
        raise ValueError(f"{fn}: x must have at least 2 dimensions, got shape {x.shape}")
    offset = _int(offset, fn, "offset")
    d1, d2 = normalize_axis(dim1, x.ndim, fn), normalize_axis(dim2, x.ndim, fn)
    if d1 == d2:
        raise ValueError(f"{fn}: dim1 and dim2 must differ, got {dim1} and {dim2}")
    if y.dtype is not x.dtype:
        raise TypeError(f"{fn}: y must have x's dtype {x.dtype.name}, got {y.dtype.name}")
    want = manipulation.diagonal(x, offset, d1, d2).shape
    if y.shape != want:
        raise ValueError(f"{fn}: y must have the diagonal's shape {want}, got {y.shape}")
    return diagonal_scatter(x, y, offset, d1, d2)


def fill_diagonal_tensor_(x, y, offset=0, dim1=0, dim2=1, name=None) -> Tensor:
    """In-place fill_diagonal_tensor: writes y onto x's diagonal; returns x."""
    fn = "fill_diagonal_tensor_"
    return _write_back(x, lambda old: _fill_diagonal_tensor(old, y, offset, dim1, dim2, fn), fn)
