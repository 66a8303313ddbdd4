"""Reshaping, repeating and joining of the public API (paddle.tensor.manipulation): reshape, squeeze, unsqueeze,
flatten, transpose, t, expand, broadcast_to, tile, flip, roll, concat, stack, split, chunk, unbind, unstack, cast,
where, assign, shard_index; diagonal, diagflat, moveaxis, rot90, repeat_interleave, unflatten, vsplit,
atleast_1d/2d/3d, broadcast_tensors, as_strided; and copies and views: clone, tolist, view, view_as. Indexing,
gather and scatter are in tensor/indexing.py.

reshape, squeeze, unsqueeze, flatten, transpose and t return views sharing x's storage (as numpy and Paddle 2.6)."""

from __future__ import annotations

import warnings

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import in_dynamic_mode
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.array import TensorArray, tensor_array_to_tensor  # noqa: F401 (paddle.tensor.manipulation has it)
from minipaddle.tensor.checks import (
    _int,
    _int_arg,
    _int_list,
    check_dtype,
    check_int,
    check_min_rank,
    check_shape,
    check_size,
    check_tensor,
    normalize_axes,
    normalize_axis,
)
from minipaddle.tensor.creation import to_tensor
from minipaddle.tensor.math import binary_operands
from minipaddle.tensor.runtime_shape import runtime_shape

__all__ = [
    "reshape",
    "squeeze",
    "unsqueeze",
    "flatten",
    "transpose",
    "t",
    "expand",
    "expand_as",
    "broadcast_to",
    "tile",
    "flip",
    "reverse",
    "roll",
    "cast",
    "concat",
    "stack",
    "split",
    "chunk",
    "unbind",
    "unstack",
    "where",
    "assign",
    "shard_index",
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
    "clone",
    "tolist",
    "view",
    "view_as",
    "as_strided",
]


def reshape(x, shape, name=None) -> Tensor:
    """Give x a new shape with the same number of elements. 0 keeps x's dimension; one -1 is inferred."""
    check_tensor(x, "reshape")
    at_run_time = runtime_shape(shape, "reshape")
    if at_run_time is not None:  # sizes the Program computes (a batch-agnostic converted model): an op reads them
        template, sizes = at_run_time
        # list() of a shape that is one Tensor would build an unstack op in the Program for the message only
        _check_reshape_target(x, template, list(shape) if isinstance(shape, (list, tuple)) else list(template))
        return ops.reshape_with_shape(x, sizes, template)
    shape = check_shape(shape, "reshape")
    _check_reshape_target(x, shape, list(shape))
    return ops.reshape(x, shape)


def _check_reshape_target(x: Tensor, shape: tuple, given: list) -> None:
    """At most one -1, no size below -1, a 0 only where x has that dimension (None: a size read at run time)."""
    if shape.count(-1) > 1:
        raise ValueError(f"reshape: only one dimension can be -1, got {list(shape)}")
    for i, d in enumerate(shape):
        if d is None:
            continue
        if d < -1:
            raise ValueError(f"reshape: dimensions must be >= -1, got {given}")
        if d == 0 and i >= x.ndim:
            raise ValueError(f"reshape: 0 at position {i} copies x's dimension {i}, but x has shape {x.shape}")


def transpose(x, perm, name=None) -> Tensor:
    """Permute x's dimensions: output dimension i is x's dimension perm[i]."""
    check_tensor(x, "transpose")
    perm = check_shape(perm, "transpose")
    in_range = all(-x.ndim <= p < x.ndim for p in perm)
    if len(perm) != x.ndim or not in_range or sorted(p % x.ndim for p in perm) != list(range(x.ndim)):
        raise ValueError(
            f"transpose: perm must be a permutation of 0..{x.ndim - 1}, got {list(perm)} for shape {x.shape}"
        )
    return ops.transpose(x, tuple(p % x.ndim for p in perm))


def cast(x, dtype) -> Tensor:
    """x converted to `dtype` (gradients flow back, cast to x's dtype)."""
    check_tensor(x, "cast")
    return ops.cast(x, check_dtype(dtype, "cast"))


def _tensor_list(xs, fn: str) -> list:
    if isinstance(xs, Tensor) or not isinstance(xs, (list, tuple)):
        raise TypeError(f"{fn}: x must be a list or tuple of Tensors, got {type(xs).__name__}")
    if not xs:
        raise ValueError(f"{fn}: x is empty; give at least one Tensor")
    for i, t in enumerate(xs):
        check_tensor(t, fn, f"x[{i}]")
    # Promote all to one dtype, as a chain of binary promotions.
    d = xs[0].dtype
    for t in xs[1:]:
        d = dtypes.promote_types(d, t.dtype)
    return [t if t.dtype is d else ops.cast(t, d) for t in xs]


def concat(x, axis=0, name=None) -> Tensor:
    """Join tensors along an existing axis (or the elements of a tensor array, as Paddle's static concat)."""
    if isinstance(x, TensorArray):
        return tensor_array_to_tensor(x, axis, use_stack=False)[0]
    xs = _tensor_list(x, "concat")
    axis = normalize_axis(axis, xs[0].ndim, "concat")
    first = xs[0].shape
    for i, t in enumerate(xs[1:], 1):
        if t.ndim != len(first) or any(a != b for k, (a, b) in enumerate(zip(first, t.shape)) if k != axis):
            raise ValueError(
                f"concat: x[{i}] has shape {t.shape} but x[0] has {first}; all dimensions except axis {axis} must match"
            )
    return ops.concat(xs, axis)


def stack(x, axis=0, name=None) -> Tensor:
    """Join same-shaped tensors along a new axis (or the elements of a tensor array, as Paddle's static stack)."""
    if isinstance(x, TensorArray):
        return tensor_array_to_tensor(x, axis, use_stack=True)[0]
    xs = _tensor_list(x, "stack")
    for i, t in enumerate(xs[1:], 1):
        if t.shape != xs[0].shape:
            raise ValueError(f"stack: x[{i}] has shape {t.shape} but x[0] has {xs[0].shape}; all must match")
    return ops.stack(xs, normalize_axis(axis, xs[0].ndim + 1, "stack"))


def where(condition, x=None, y=None, name=None) -> Tensor:
    """Elements of x where condition is True, else of y (all broadcast together)."""
    check_tensor(condition, "where", "condition")
    if x is None and y is None:
        raise ValueError("where: give both x and y (paddle.nonzero finds the True positions)")
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        raise TypeError("where: at least one of x and y must be a Tensor")
    x, y = binary_operands(x, y, "where")
    if condition.dtype is not dtypes.bool_:
        condition = ops.cast(condition, dtypes.bool_)
    return ops.where(condition, x, y)


def assign(x, output=None) -> Tensor:
    """A copy of x (a Tensor, numpy array, nested list or number); gradients flow through it.

    As paddle 2.6, float64 data that is not a Tensor becomes float32 (with paddle's warning): its assign writes
    such data into the Program as float32 values, and code written for it (`paddle.assign(np.random.rand(3))`
    next to float32 weights) relies on getting float32. A float64 Tensor stays float64."""
    if not isinstance(x, Tensor):
        arr = np.asarray(x)
        if arr.dtype == np.float64:
            warnings.warn(
                "paddle.assign doesn't support float64 input now due to current platform protobuf data limitation, "
                "we convert it to float32",
                UserWarning,
                stacklevel=2,
            )
            arr = arr.astype(np.float32)
        x = to_tensor(arr)
    if output is not None:
        check_tensor(output, "assign", "output")
        return apply_inplace(get_op("assign"), output, (x,))
    return ops.assign(x)


# ---- adding and removing dimensions ----------------------------------------------------------------------------


def _axis_list(axis, fn: str) -> list:
    if isinstance(axis, Tensor):
        axis = axis.tolist()
    if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool):
        return [int(axis)]
    if isinstance(axis, (list, tuple)):
        return [int(a.item()) if isinstance(a, Tensor) else a for a in axis]
    raise TypeError(f"{fn}: axis must be an int or a list/tuple of ints, got {type(axis).__name__}")


def squeeze(x, axis=None, name=None) -> Tensor:
    """Remove dimensions of size 1: all of them (axis None) or those among `axis` (others are left, as Paddle)."""
    check_tensor(x, "squeeze")
    if x.ndim == 0:  # as Paddle: axis 0 or -1 (the one axis a 0-d tensor is checked against) gives it back
        bad = [a for a in ([] if axis is None else _axis_list(axis, "squeeze")) if a not in (-1, 0)]
        if bad:
            raise ValueError(f"squeeze: axis {bad[0]} is out of range for a 0-d tensor (expected -1 or 0)")
        return ops.reshape(x, ())
    axes = range(x.ndim) if axis is None else normalize_axes(_axis_list(axis, "squeeze"), x.ndim, "squeeze") or ()
    drop = {a for a in axes if x.shape[a] == 1}
    return ops.reshape(x, tuple(d for i, d in enumerate(x.shape) if i not in drop))


def unsqueeze(x, axis, name=None) -> Tensor:
    """Insert dimensions of size 1 at `axis` (an int or list, applied one after another; negative counts from
    the end of the result)."""
    check_tensor(x, "unsqueeze")
    shape = list(x.shape)
    for a in _axis_list(axis, "unsqueeze"):
        shape.insert(normalize_axis(a, len(shape) + 1, "unsqueeze"), 1)
    return ops.reshape(x, tuple(shape))


def flatten(x, start_axis=0, stop_axis=-1, name=None) -> Tensor:
    """Merge the dimensions from start_axis to stop_axis (inclusive) into one. A 0-d tensor becomes shape [1]."""
    check_tensor(x, "flatten")
    if x.ndim == 0:
        return ops.reshape(x, (1,))
    start = normalize_axis(start_axis, x.ndim, "flatten")
    stop = normalize_axis(stop_axis, x.ndim, "flatten")
    if start > stop:
        raise ValueError(f"flatten: start_axis ({start_axis}) must not come after stop_axis ({stop_axis})")
    s = x.shape
    merged = s[start : stop + 1]
    size = -1 if -1 in merged else int(np.prod(merged))  # a Program's unknown (None) size stays unknown
    return ops.reshape(x, tuple(s[:start]) + (size,) + tuple(s[stop + 1 :]))


def t(input, name=None) -> Tensor:
    """Transpose a tensor of at most 2 dimensions (0-d and 1-d tensors come back as they are)."""
    check_tensor(input, "t", "input")
    if input.ndim > 2:
        raise ValueError(f"t: input must have at most 2 dimensions, got shape {input.shape}; use paddle.transpose")
    return ops.transpose(input, (1, 0)) if input.ndim == 2 else input


# ---- repeating ---------------------------------------------------------------------------------------------------


def expand(x, shape, name=None) -> Tensor:
    """Broadcast x to `shape` (a copy); -1 keeps x's size on that axis, and only size-1 axes can grow."""
    check_tensor(x, "expand")
    at_run_time = runtime_shape(shape, "expand")
    shape = at_run_time[0] if at_run_time is not None else check_shape(shape, "expand")
    if len(shape) < x.ndim:
        raise ValueError(f"expand: shape {list(shape)} has fewer dimensions than x {x.shape}")
    lead = len(shape) - x.ndim
    target = []
    for i, d in enumerate(shape):
        have = x.shape[i - lead] if i >= lead else None
        if d is None:  # a size the Program computes: the op reads it (and numpy checks it) when it runs
            target.append(None)
            continue
        if d == -1:
            if have is None:
                raise ValueError(f"expand: -1 at position {i} of {list(shape)} has no dimension of x to keep")
            if have == -1:  # x's size there is known only when the Program runs: the op keeps it then
                target.append(-1)
                continue
            d = have
        if d < 0 or (have is not None and have not in (1, -1, d)):
            raise ValueError(f"expand: x of shape {x.shape} cannot be expanded to {list(shape)} (dimension {i})")
        target.append(d)
    if at_run_time is not None:
        return ops.expand_with_shape(x, at_run_time[1], tuple(target))
    return ops.expand(x, tuple(target))


def broadcast_to(x, shape, name=None) -> Tensor:
    """Broadcast x to `shape` (as expand)."""
    check_tensor(x, "broadcast_to")
    return expand(x, shape)


def expand_as(x, y, name=None) -> Tensor:
    """Broadcast x to y's shape."""
    check_tensor(x, "expand_as")
    check_tensor(y, "expand_as", "y")
    return expand(x, y.shape)


def tile(x, repeat_times, name=None) -> Tensor:
    """Repeat x repeat_times[i] times along axis i (x gets leading size-1 axes when repeat_times is longer)."""
    check_tensor(x, "tile")
    at_run_time = runtime_shape(repeat_times, "tile")
    reps = at_run_time[0] if at_run_time is not None else check_shape(repeat_times, "tile")
    if any(r is not None and r <= 0 for r in reps):
        raise ValueError(f"tile: repeat_times must be positive, got {list(reps)}")
    if at_run_time is not None:  # counts the Program computes: the op reads them when it runs
        return ops.tile_with_repeats(x, at_run_time[1], reps)
    return ops.tile(x, reps)


def flip(x, axis, name=None) -> Tensor:
    """Reverse the order of elements along `axis` (an int or a list of ints)."""
    check_tensor(x, "flip")
    return ops.flip(x, normalize_axes(_axis_list(axis, "flip"), x.ndim, "flip") or ())


def reverse(x, axis, name=None) -> Tensor:
    """Reverse the order of elements along `axis` (as flip)."""
    check_tensor(x, "reverse")
    return ops.flip(x, normalize_axes(_axis_list(axis, "reverse"), x.ndim, "reverse") or ())


def roll(x, shifts, axis=None, name=None) -> Tensor:
    """Shift elements by `shifts` along `axis`, wrapping around; with axis None, over the flattened tensor."""
    check_tensor(x, "roll")
    shifts = [check_int(s, "roll", "shifts") for s in _axis_list(shifts, "roll")]  # (int64, as paddle's)
    if axis is None:
        if len(shifts) != 1:
            raise ValueError(f"roll: with axis None, shifts must be one int, got {shifts}")
        return ops.roll(x, tuple(shifts), None)
    axes = [normalize_axis(a, x.ndim, "roll") for a in _axis_list(axis, "roll")]
    if len(axes) != len(shifts):
        raise ValueError(f"roll: shifts {shifts} and axis {axes} must have the same length")
    return ops.roll(x, tuple(shifts), tuple(axes))


# ---- cutting apart -----------------------------------------------------------------------------------------------


def split(x, num_or_sections, axis=0, name=None) -> list:
    """Cut x along `axis` into num_or_sections equal parts, or into parts of the listed sizes (one may be -1). A
    size may be a Tensor the Program computes (static mode, to_static): the parts are cut when it runs."""
    check_tensor(x, "split")
    axis = normalize_axis(axis, x.ndim, "split")
    d = x.shape[axis]
    computed = runtime_shape(num_or_sections, "split") if isinstance(num_or_sections, (list, tuple)) else None
    if computed is not None:  # a section the Program computes: cut when it runs (ops/runtime_split.py)
        sections, sizes = computed
        known = [s for s in sections if s is not None]
        if known.count(-1) > 1 or any(s < -1 for s in known):
            raise ValueError(f"split: sections may hold one -1 and otherwise sizes >= 0, got {list(sections)}")
        return list(ops.runtime_split(x, sizes, axis, sections))
    if isinstance(num_or_sections, (int, np.integer)) and not isinstance(num_or_sections, bool):
        n = int(num_or_sections)
        if n <= 0 or d % n:
            raise ValueError(f"split: axis {axis} has size {d}, which cannot be cut into {n} equal parts")
        sections = [d // n] * n
    elif isinstance(num_or_sections, (list, tuple, Tensor)):
        sections = list(check_shape(num_or_sections, "split"))
        if sections.count(-1) > 1 or any(s < -1 for s in sections):
            raise ValueError(f"split: sections may hold one -1 and otherwise sizes >= 0, got {sections}")
        if -1 in sections:
            sections[sections.index(-1)] = d - (sum(sections) + 1)
        if sum(sections) != d or min(sections) < 0:
            raise ValueError(f"split: sections {list(num_or_sections)} do not add up to axis {axis}'s size {d}")
    else:
        raise TypeError(
            f"split: num_or_sections must be an int or a list of ints, got {type(num_or_sections).__name__}"
        )
    return list(ops.split(x, sections, axis))


def chunk(x, chunks, axis=0, name=None) -> list:
    """Cut x into `chunks` equal parts along `axis`."""
    check_tensor(x, "chunk")
    if not isinstance(chunks, (int, np.integer)) or isinstance(chunks, bool):
        raise TypeError(f"chunk: chunks must be an int, got {type(chunks).__name__}")
    return split(x, chunks, axis)


def unbind(input, axis=0) -> list:
    """The slices of input along `axis`, as a list of tensors with that axis removed."""
    check_tensor(input, "unbind", "input")
    return list(ops.unstack(input, normalize_axis(axis, input.ndim, "unbind")))


def unstack(x, axis=0, num=None) -> list:
    """The slices of x along `axis`, as a list (num, when given, must equal that axis's size)."""
    check_tensor(x, "unstack")
    axis = normalize_axis(axis, x.ndim, "unstack")
    if num is not None and num != x.shape[axis]:
        raise ValueError(f"unstack: num is {num} but axis {axis} has size {x.shape[axis]}")
    return list(ops.unstack(x, axis)) if x.shape[axis] else []


def shard_index(input, index_num, nshards, shard_id, ignore_value=-1) -> Tensor:
    """Labels to positions within shard `shard_id` of `nshards` (each holding ceil(index_num / nshards) labels);
    labels of other shards become ignore_value. input is an int tensor of shape [..., 1]."""
    check_tensor(input, "shard_index", "input")
    if input.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"shard_index: input must be int32 or int64, got {input.dtype.name}")
    if input.ndim < 2 or input.shape[-1] != 1:  # as paddle 2.6
        raise ValueError(f"shard_index: input must be of shape [..., 1] with at least 2 dimensions, got {input.shape}")
    index_num, nshards = check_int(index_num, "shard_index", "index_num"), check_int(nshards, "shard_index", "nshards")
    shard_id, ignore_value = (
        check_int(shard_id, "shard_index", "shard_id"),
        check_int(ignore_value, "shard_index", "ignore_value"),
    )
    if nshards <= 0 or not 0 <= shard_id < nshards:
        raise ValueError(f"shard_index: need nshards > 0 and 0 <= shard_id < nshards, got {nshards} and {shard_id}")
    if index_num <= 0:
        raise ValueError(f"shard_index: index_num must be positive, got {index_num}")
    return ops.shard_index(input, int(index_num), int(nshards), int(shard_id), int(ignore_value))


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
    check_min_rank(x, 1, "moveaxis")  # a 0-D x has no axis to move (normalize_axis lets 0 and -1 name its one place)
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
        check_size((n, r), fn)
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
    fn = f"atleast_{ndim}d"
    out = []
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor):
            try:
                t = to_tensor(t)
            except (TypeError, ValueError) as e:  # said as this function's argument, to_tensor's reason after
                raise type(e)(f"{fn}: inputs[{i}] cannot become a Tensor: {e}") from None
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
    if shape_or_dtype is None:  # (paddle 2.6 crashes here; a None dtype would be the default float here)
        raise TypeError("view: shape_or_dtype must be a shape (list/tuple) or a dtype, got None")
    if isinstance(shape_or_dtype, (list, tuple, Tensor)):
        return reshape(x, shape_or_dtype)
    try:
        d = check_dtype(shape_or_dtype, "view", "shape_or_dtype")
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


def as_strided(x, shape, stride, offset=0, name=None) -> Tensor:
    """A view of x's storage with the given shape and strides: element [i0, i1, ...] of the result is element
    offset/itemsize + i0*stride[0] + i1*stride[1] + ... of x read in row-major order. It shares x's storage
    (writes to either are seen by both); elements may be read more than once, and their gradients add up.

    Args:
        x (Tensor): the tensor to view.
        shape (list[int]): the result's shape.
        stride (list[int]): the step in elements along each dimension (non-negative, one per dimension of shape).
        offset (int): where the view starts, in BYTES (as Paddle's storage offset): a multiple of x's element size.

    Returns:
        Tensor: `shape`, x's dtype.

    Example:
        >>> x = paddle.arange(6, dtype='float32')
        >>> paddle.as_strided(x, [2, 3], [1, 1])    # [[0, 1, 2], [1, 2, 3]]
    """
    fn = "as_strided"
    check_tensor(x, fn)
    shape, stride = _int_list(shape, fn, "shape"), _int_list(stride, fn, "stride")
    offset = _int(offset, fn, "offset")
    if len(shape) != len(stride):
        raise ValueError(f"{fn}: shape and stride must have the same length, got {shape} and {stride}")
    if any(s < 0 for s in shape) or any(s < 0 for s in stride):
        raise ValueError(f"{fn}: shape and stride must be non-negative, got {shape} and {stride}")
    itemsize = x.element_size()
    if offset < 0 or offset % itemsize:
        raise ValueError(f"{fn}: offset is in bytes and must be a non-negative multiple of the element size "
                         f"{itemsize}, got {offset}")  # fmt: skip
    start = offset // itemsize
    if 0 not in shape:
        last = start + sum((n - 1) * s for n, s in zip(shape, stride))
        if last >= x.size:
            raise ValueError(f"{fn}: the view with shape {shape}, stride {stride} and offset {offset} reads element "
                             f"{last}, past the {x.size} elements of x")  # fmt: skip
    return ops.as_strided(x, shape, stride, start)
