"""Ops that move data around without arithmetic: reshape, transpose, expand, concat/split, stack/unstack,
cast, where, full_like, assign, flip, roll, tile, shard_index; and the index builders and reinterpreting ops
repeat_index, unique_consecutive, view_dtype, tri_indices.

reshape and transpose are views (the output shares the input's storage, as numpy and Paddle 2.6 give them);
the ops with several outputs (split, unstack) return copies, so each output has its own storage and version.
Indexing, gather and scatter live in ops/indexing.py."""

from __future__ import annotations

import math

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops import half_casts

__all__ = [
    "reshape",
    "transpose",
    "expand",
    "concat",
    "split",
    "stack",
    "unstack",
    "cast",
    "where",
    "full_like",
    "assign",
    "flip",
    "roll",
    "tile",
    "shard_index",
    "repeat_index",
    "unique_consecutive",
    "view_dtype",
    "tri_indices",
]


def input_shape(node, i: int) -> tuple:
    """The shape input i had when the op ran, for grad rules: a tensor may be reshaped in place afterwards
    (reshape_, unsqueeze_, ...). Static mode's nodes hold Variables, whose shape never changes."""
    exact = getattr(node, "input_shape", None)
    return exact(i) if exact is not None else tuple(node.inputs[i].shape)


def resolve_shape(shape, source_shape, numel=None) -> tuple:
    """Paddle's reshape target: 0 copies the source dimension, one -1 is inferred (when numel is known).

    An empty source whose target is written out in full (minipaddle's unsqueeze of a [0] tensor asks for (1, 0))
    keeps its 0s as sizes where copying is impossible: a 0 past the source's rank, or copies that would give
    elements the source does not have. Where copying works, it is what Paddle does and what happens."""
    if numel == 0 and -1 not in shape and 0 in shape:
        copies = [i for i, d in enumerate(shape) if d == 0]
        if any(i >= len(source_shape) for i in copies) or math.prod(
            source_shape[i] if d == 0 else d for i, d in enumerate(shape)
        ):
            return tuple(shape)
    out = [source_shape[i] if d == 0 else d for i, d in enumerate(shape)]
    if numel is not None and -1 in out:
        known = math.prod(d for d in out if d != -1)
        out[out.index(-1)] = numel // known if known else 0
    return tuple(out)


@register
class Reshape(OpDef):
    name = "reshape"
    view = True
    saves_inputs = False

    def kernel(self, x, shape):
        target = resolve_shape(shape, x.shape, x.size)
        if math.prod(target) != x.size:
            raise ValueError(f"cannot reshape a tensor of shape {list(x.shape)} ({x.size} elements) to {list(shape)}")
        return x.reshape(target)

    def grad(self, node, g):
        return (reshape(g, input_shape(node, 0)),)

    def infer_meta(self, x: Meta, shape) -> Meta:
        known = -1 not in x.shape
        return Meta(resolve_shape(shape, x.shape, math.prod(x.shape) if known else None), x.dtype)


def reshape(x: Tensor, shape) -> Tensor:
    return apply(Reshape, (x,), {"shape": tuple(shape)})


@register
class Transpose(OpDef):
    name = "transpose"
    view = True
    saves_inputs = False

    def kernel(self, x, perm):
        return x.transpose(perm)

    def grad(self, node, g):
        inverse = tuple(int(i) for i in np.argsort(node.attrs["perm"]))
        return (transpose(g, inverse),)

    def infer_meta(self, x: Meta, perm) -> Meta:
        return Meta(tuple(x.shape[p] for p in perm), x.dtype)


def transpose(x: Tensor, perm) -> Tensor:
    return apply(Transpose, (x,), {"perm": tuple(perm)})


def expand_array(x: np.ndarray, shape: tuple) -> np.ndarray:
    """x broadcast to `shape`, where -1 keeps x's size in that dimension: a copy, as Paddle's expand (the result
    is writable). Also the kernel of static mode's expand_with_shape (ops/runtime_shape.py)."""
    lead = len(shape) - x.ndim
    if -1 in shape:
        shape = tuple(x.shape[i - lead] if d == -1 and i >= lead else d for i, d in enumerate(shape))
    out = np.empty(shape, dtype=x.dtype)
    out[...] = x  # numpy broadcasts x into it (and says which dimension cannot grow)
    return out


def aligned_repeats(x_shape: tuple, reps: tuple) -> tuple:
    """x's shape and tile's repeat counts, padded with leading 1s to one length (numpy's tile rule)."""
    n = max(len(x_shape), len(reps))
    return (1,) * (n - len(x_shape)) + tuple(x_shape), (1,) * (n - len(reps)) + tuple(reps)


@register
class Expand(OpDef):
    """Broadcast x to `shape` (Paddle's expand / broadcast_to). The gradient sums over the stretched axes."""

    name = "expand"
    saves_inputs = False

    def kernel(self, x, shape):
        return expand_array(x, shape)

    def grad(self, node, g):
        return (ops.unbroadcast(g, input_shape(node, 0)),)


def expand(x: Tensor, shape) -> Tensor:
    return apply(Expand, (x,), {"shape": tuple(shape)})


@register
class Concat(OpDef):
    """Join any number of tensors along `axis`. Its gradient splits the output gradient back."""

    name = "concat"
    saves_inputs = False

    def kernel(self, *xs, axis):
        return np.concatenate(xs, axis=axis)

    def grad(self, node, g):
        sizes = tuple(input_shape(node, i)[node.attrs["axis"]] for i in range(len(node.inputs)))
        if sizes.count(-1) > 1:  # (a Program's inputs of sizes known only when it runs: cut as they come then)
            return ops.split_like(g, node.inputs, node.attrs["axis"])
        return split(g, sizes, node.attrs["axis"])


def concat(xs, axis: int) -> Tensor:
    return apply(Concat, tuple(xs), {"axis": axis})


@register
class Split(OpDef):
    """Cut x along `axis` into pieces of the given sizes. Several outputs; the gradient concatenates them."""

    name = "split"
    saves_inputs = False

    def kernel(self, x, sections, axis):
        return cut(x, sections, axis)

    def grad(self, node, *gs):
        return (concat(gs, node.attrs["axis"]),)


def cut(x: np.ndarray, sizes, axis: int) -> tuple:
    """x's parts along `axis` of the given sizes, each its own array (split's kernel, and ops/runtime_split.py's)."""
    return tuple(part.copy() for part in np.split(x, np.cumsum(sizes)[:-1], axis=axis))


def split(x: Tensor, sections, axis: int) -> tuple:
    return apply(Split, (x,), {"sections": tuple(sections), "axis": axis})


@register
class Stack(OpDef):
    name = "stack"
    saves_inputs = False

    def kernel(self, *xs, axis):
        return np.stack(xs, axis=axis)

    def grad(self, node, g):
        return unstack(g, node.attrs["axis"])


def stack(xs, axis: int) -> Tensor:
    return apply(Stack, tuple(xs), {"axis": axis})


@register
class Unstack(OpDef):
    name = "unstack"
    saves_inputs = False

    def kernel(self, x, axis):
        return tuple(part.copy() for part in np.moveaxis(x, axis, 0))

    def grad(self, node, *gs):
        return (stack(gs, node.attrs["axis"]),)


def unstack(x: Tensor, axis: int) -> tuple:
    return apply(Unstack, (x,), {"axis": axis})


@register
class Cast(OpDef):
    name = "cast"
    saves_inputs = False
    amp = "keep"

    def kernel(self, x, dtype):
        with np.errstate(over="ignore", invalid="ignore"):  # a float32 beyond float16's range becomes Inf (IEEE)
            return half_casts.astype(x, dtype) if x.dtype != dtype else x.copy()

    def grad(self, node, g):
        return (cast(g, node.inputs[0].dtype),)

    def infer_meta(self, x: Meta, dtype) -> Meta:
        return Meta(x.shape, dtypes.from_numpy(np.dtype(dtype)))


def cast(x: Tensor, dtype) -> Tensor:
    """Cast to `dtype` (a numpy dtype, DType or name)."""
    return apply(Cast, (x,), {"dtype": dtypes.to_dtype(dtype).np})


@register
class Where(OpDef):
    """out = x where cond else y (all three broadcast together)."""

    name = "where"

    def kernel(self, cond, x, y):
        return np.where(cond, x, y)

    def grad(self, node, g):
        cond = node.inputs[0]
        zeros = full_like(g, 0)
        return (
            None,
            ops.unbroadcast(where(cond, g, zeros), input_shape(node, 1)),
            ops.unbroadcast(where(cond, zeros, g), input_shape(node, 2)),
        )


def where(cond: Tensor, x: Tensor, y: Tensor) -> Tensor:
    return apply(Where, (cond, x, y))


@register
class FullLike(OpDef):
    """A tensor of x's shape and dtype filled with `value` (x's values are not read, and no gradient flows)."""

    name = "full_like"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, value, dtype=None):
        out = np.empty(x.shape, dtype=x.dtype if dtype is None else dtype)
        out.fill(value)  # np.full does the same through a slower Python wrapper
        return out

    def kernel_into(self, out, x, value, dtype=None):  # (clear_grad zeroes every gradient this way)
        out.fill(value)

    def infer_meta(self, x: Meta, value, dtype=None) -> Meta:
        return Meta(x.shape, x.dtype if dtype is None else dtypes.from_numpy(np.dtype(dtype)))


def full_like(x: Tensor, value, dtype=None) -> Tensor:
    return apply(FullLike, (x,), {"value": value, "dtype": dtype})


@register
class Assign(OpDef):
    """A copy of x that gradients flow through (Tensor.clone, paddle.assign)."""

    name = "assign"
    saves_inputs = False

    def kernel(self, x):
        return x.copy()

    def grad(self, node, g):
        return (g,)

    def infer_meta(self, x: Meta) -> Meta:
        return x


def assign(x: Tensor) -> Tensor:
    return apply(Assign, (x,))


@register
class Flip(OpDef):
    name = "flip"
    saves_inputs = False

    def kernel(self, x, axis):
        return np.flip(x, axis).copy()

    def grad(self, node, g):
        return (flip(g, node.attrs["axis"]),)

    def infer_meta(self, x: Meta, axis) -> Meta:
        return x


def flip(x: Tensor, axis: tuple) -> Tensor:
    return apply(Flip, (x,), {"axis": tuple(axis)})


@register
class Roll(OpDef):
    """Shift elements along axes, wrapping around (axis None: over the flattened tensor)."""

    name = "roll"
    saves_inputs = False

    def kernel(self, x, shifts, axis):
        return np.roll(x, shifts, axis)

    def grad(self, node, g):
        shifts = node.attrs["shifts"]
        return (roll(g, tuple(-s for s in shifts), node.attrs["axis"]),)

    def infer_meta(self, x: Meta, shifts, axis) -> Meta:
        return x


def roll(x: Tensor, shifts: tuple, axis) -> Tensor:
    return apply(Roll, (x,), {"shifts": tuple(shifts), "axis": axis})


@register
class Tile(OpDef):
    """Repeat x `repeat_times[i]` times along each axis (numpy's tile). The gradient sums the copies."""

    name = "tile"
    saves_inputs = False

    def kernel(self, x, repeat_times):
        return np.tile(x, repeat_times)

    def grad(self, node, g):
        x_shape = input_shape(node, 0)
        dims, reps = aligned_repeats(x_shape, node.attrs["repeat_times"])
        # g's axis i holds reps[i] copies of x's axis i, one after the other: split it into (copy, element).
        interleaved = ops.reshape(g, tuple(d for pair in zip(reps, dims) for d in pair))
        summed = ops.sum(interleaved, tuple(range(0, 2 * len(dims), 2)))
        return (ops.reshape(summed, x_shape),)


def tile(x: Tensor, repeat_times: tuple) -> Tensor:
    return apply(Tile, (x,), {"repeat_times": tuple(repeat_times)})


@register
class ShardIndex(OpDef):
    """Labels to positions within one shard: `input - shard_id * shard_size` where the label belongs to shard
    `shard_id`, else `ignore_value` (shard_size = ceil(index_num / nshards))."""

    name = "shard_index"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, index_num, nshards, shard_id, ignore_value):
        size = (index_num + nshards - 1) // nshards
        return np.where(x // size == shard_id, x % size, ignore_value).astype(x.dtype)

    def infer_meta(self, x: Meta, **attrs) -> Meta:
        return x


def shard_index(x: Tensor, index_num: int, nshards: int, shard_id: int, ignore_value: int) -> Tensor:
    attrs = {"index_num": index_num, "nshards": nshards, "shard_id": shard_id, "ignore_value": ignore_value}
    return apply(ShardIndex, (x,), attrs)


# ---- index builders and reinterpreting ops ---------------------------------------------------------------------


@register
class RepeatIndex(OpDef):
    """0, 0, 1, 2, 2, 2, ...: position i repeated repeats[i] times (the gather index of repeat_interleave)."""

    name = "repeat_index"
    differentiable = False

    def kernel(self, repeats):
        return np.repeat(np.arange(repeats.size), repeats.reshape(-1))

    def infer_meta(self, repeats: Meta) -> Meta:
        return Meta((-1,), dtypes.int64)  # the length depends on the values


def repeat_index(repeats: Tensor) -> Tensor:
    return apply(RepeatIndex, (repeats,))


@register
class UniqueConsecutive(OpDef):
    """Collapse runs of equal elements (or of equal slices along `axis`): the kept values, each element's run
    number (inverse) and each run's length (counts)."""

    name = "unique_consecutive"
    differentiable = False

    def kernel(self, x, axis, dtype):
        if axis is None:
            x, axis = x.reshape(-1), 0
        rows = np.moveaxis(x, axis, 0).reshape(x.shape[axis], -1)
        starts = np.ones(len(rows), bool)
        starts[1:] = np.any(rows[1:] != rows[:-1], axis=1)
        first = np.nonzero(starts)[0]
        inverse = (np.cumsum(starts) - 1).astype(dtype)
        counts = np.diff(np.append(first, len(rows))).astype(dtype)
        return np.take(x, first, axis=axis), inverse, counts

    def infer_meta(self, x: Meta, axis, dtype) -> tuple:
        d = dtypes.from_numpy(np.dtype(dtype))
        if axis is None:
            n = -1 if -1 in x.shape else int(np.prod(x.shape))
            return Meta((-1,), x.dtype), Meta((n,), d), Meta((-1,), d)
        shape = list(x.shape)
        shape[axis] = -1
        return Meta(tuple(shape), x.dtype), Meta((x.shape[axis],), d), Meta((-1,), d)


def unique_consecutive(x: Tensor, axis, dtype) -> tuple:
    return apply(UniqueConsecutive, (x,), {"axis": axis, "dtype": np.dtype(dtype)})


@register
class ViewDtype(OpDef):
    """x's bytes read as another dtype (numpy's ndarray.view): the last axis shrinks or grows by the size ratio."""

    name = "view_dtype"
    view = True
    differentiable = False
    saves_inputs = False

    def kernel(self, x, dtype):
        return np.ascontiguousarray(x).view(dtype)


def view_dtype(x: Tensor, dtype) -> Tensor:
    return apply(ViewDtype, (x,), {"dtype": np.dtype(dtype)})


@register
class TriIndices(OpDef):
    """The [2, n] coordinates (rows, then columns) of the lower (or upper) triangle of a row x col matrix, the
    diagonal moved by `offset`."""

    name = "tri_indices"
    differentiable = False
    saves_inputs = False

    def kernel(self, row, col, offset, lower, dtype):
        pick = np.tril_indices if lower else np.triu_indices
        return np.stack(pick(max(row, 0), offset, max(col, 0))).astype(dtype)


def tri_indices(row: int, col: int, offset: int, lower: bool, dtype) -> Tensor:
    return apply(TriIndices, (), {"row": row, "col": col, "offset": offset, "lower": lower, "dtype": np.dtype(dtype)})
