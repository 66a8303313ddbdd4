"""Reshaping, repeating and joining of the public API (paddle.tensor.manipulation): reshape, squeeze, unsqueeze,
flatten, transpose, t, expand, broadcast_to, tile, flip, roll, concat, stack, split, chunk, unbind, unstack, cast,
where, assign, shard_index. Indexing, gather and scatter are in tensor/indexing.py.

reshape, squeeze, unsqueeze, flatten, transpose and t return views sharing x's storage (as numpy and Paddle 2.6)."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_shape, check_tensor, normalize_axes, normalize_axis
from minipaddle.tensor.math import binary_operands

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
]


def reshape(x, shape, name=None) -> Tensor:
    """Give x a new shape with the same number of elements. 0 keeps x's dimension; one -1 is inferred."""
    check_tensor(x, "reshape")
    shape = check_shape(shape, "reshape")
    if shape.count(-1) > 1:
        raise ValueError(f"reshape: only one dimension can be -1, got {list(shape)}")
    for i, d in enumerate(shape):
        if d < -1:
            raise ValueError(f"reshape: dimensions must be >= -1, got {list(shape)}")
        if d == 0 and i >= x.ndim:
            raise ValueError(f"reshape: 0 at position {i} copies x's dimension {i}, but x has shape {x.shape}")
    return ops.reshape(x, shape)


def transpose(x, perm, name=None) -> Tensor:
    """Permute x's dimensions: output dimension i is x's dimension perm[i]."""
    check_tensor(x, "transpose")
    perm = check_shape(perm, "transpose")
    if len(perm) != x.ndim or sorted(p % max(x.ndim, 1) for p in perm) != list(range(x.ndim)):
        raise ValueError(
            f"transpose: perm must be a permutation of 0..{x.ndim - 1}, got {list(perm)} for shape {x.shape}"
        )
    return ops.transpose(x, tuple(p % x.ndim for p in perm))


def cast(x, dtype) -> Tensor:
    """x converted to `dtype` (gradients flow back, cast to x's dtype)."""
    check_tensor(x, "cast")
    return ops.cast(x, dtypes.to_dtype(dtype))


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
    """Join tensors along an existing axis."""
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
    """Join same-shaped tensors along a new axis."""
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
    """A copy of x (a Tensor, numpy array or nested list); gradients flow through it."""
    if not isinstance(x, Tensor):
        from minipaddle.tensor.creation import to_tensor

        x = to_tensor(np.asarray(x))
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
    return ops.reshape(x, tuple(s[:start]) + (int(np.prod(s[start : stop + 1])),) + tuple(s[stop + 1 :]))


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
    shape = check_shape(shape, "expand")
    if len(shape) < x.ndim:
        raise ValueError(f"expand: shape {list(shape)} has fewer dimensions than x {x.shape}")
    lead = len(shape) - x.ndim
    target = []
    for i, d in enumerate(shape):
        have = x.shape[i - lead] if i >= lead else None
        if d == -1:
            if have is None:
                raise ValueError(f"expand: -1 at position {i} of {list(shape)} has no dimension of x to keep")
            d = have
        if d < 0 or (have is not None and have != 1 and have != d):
            raise ValueError(f"expand: x of shape {x.shape} cannot be expanded to {list(shape)} (dimension {i})")
        target.append(d)
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
    reps = check_shape(repeat_times, "tile")
    if any(r <= 0 for r in reps):
        raise ValueError(f"tile: repeat_times must be positive, got {list(reps)}")
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
    shifts = _axis_list(shifts, "roll")
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
    """Cut x along `axis` into num_or_sections equal parts, or into parts of the listed sizes (one may be -1)."""
    check_tensor(x, "split")
    axis = normalize_axis(axis, x.ndim, "split")
    d = x.shape[axis]
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
    if nshards <= 0 or not 0 <= shard_id < nshards:
        raise ValueError(f"shard_index: need nshards > 0 and 0 <= shard_id < nshards, got {nshards} and {shard_id}")
    if index_num <= 0:
        raise ValueError(f"shard_index: index_num must be positive, got {index_num}")
    return ops.shard_index(input, int(index_num), int(nshards), int(shard_id), int(ignore_value))
