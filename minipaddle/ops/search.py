"""Finding and selecting elements: argmax/argmin, argsort, top-k and mode positions, gathering along an axis,
nonzero, masked selection and unique; counting and searching in sorted sequences: bincount, searchsorted.

The ops that find positions have no gradient. Values are read at those positions by `gather_along_axis`, whose
gradient adds back into zeros (`scatter_add_along_axis`), so sort, topk and mode are differentiable in their
values without ops of their own.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = [
    "argmax",
    "argmin",
    "argsort",
    "topk_indices",
    "mode_indices",
    "gather_along_axis",
    "scatter_add_along_axis",
    "nonzero",
    "masked_select",
    "unique",
    "bincount",
    "searchsorted",
]


class _IndexOp(OpDef):
    """An op whose outputs are positions: no gradient, nothing saved."""

    differentiable = False
    saves_inputs = False


class _ArgExtremum(_IndexOp):
    """Position of the largest (smallest) element along `axis` (None: of the flattened tensor); first on ties."""

    numpy_fn = None

    def kernel(self, x, axis=None, keepdim=False, dtype=np.int64):
        if axis is None:
            out = self.numpy_fn(x.reshape(-1))
            return np.asarray(out, dtype=dtype).reshape((1,) * x.ndim if keepdim else ())
        return self.numpy_fn(x, axis=axis, keepdims=keepdim).astype(dtype)

    def infer_meta(self, x: Meta, axis=None, keepdim=False, dtype=np.int64) -> Meta:
        if axis is None:
            shape = (1,) * len(x.shape) if keepdim else ()
        else:
            shape = tuple(1 if i == axis else d for i, d in enumerate(x.shape) if keepdim or i != axis)
        return Meta(shape, dtypes.from_numpy(np.dtype(dtype)))


@register
class ArgMax(_ArgExtremum):
    name = "argmax"
    numpy_fn = staticmethod(np.argmax)


@register
class ArgMin(_ArgExtremum):
    name = "argmin"
    numpy_fn = staticmethod(np.argmin)


def _stable_argsort(x: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """Stable in both directions: equal elements keep their order (descending too, as Paddle)."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    # Sort the reversed array ascending, reverse that, and map positions back: ties stay in original order.
    n = x.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


@register
class ArgSort(_IndexOp):
    name = "argsort"

    def kernel(self, x, axis=-1, descending=False):
        return _stable_argsort(x, axis, descending).astype(np.int64)

    def infer_meta(self, x: Meta, axis=-1, descending=False) -> Meta:
        return Meta(x.shape, dtypes.int64)


@register
class TopkIndices(_IndexOp):
    """Positions of the k largest (or smallest) elements along `axis`, best first; earlier positions win ties."""

    name = "topk_indices"

    def kernel(self, x, k, axis=-1, largest=True):
        order = _stable_argsort(x, axis, descending=largest)
        return np.take(order, np.arange(k), axis=axis).astype(np.int64)

    def infer_meta(self, x: Meta, k, axis=-1, largest=True) -> Meta:
        return Meta(tuple(k if i == axis % len(x.shape) else d for i, d in enumerate(x.shape)), dtypes.int64)


@register
class ModeIndices(_IndexOp):
    """Position of the most frequent value along `axis`, kept as a dimension of size 1.

    Ties in frequency go to the smallest value, and the position is that value's last occurrence (as Paddle).
    Vectorized: sort each line, then measure each run of equal values from its start and end positions.
    """

    name = "mode_indices"

    def kernel(self, x, axis=-1):
        lines = np.moveaxis(x, axis, -1)
        flat = lines.reshape(-1, lines.shape[-1])
        order = np.argsort(flat, axis=-1, kind="stable")  # equal values keep their original order
        s = np.take_along_axis(flat, order, axis=-1)
        n = s.shape[-1]
        pos = np.broadcast_to(np.arange(n), s.shape)
        starts = np.ones(s.shape, dtype=bool)
        starts[:, 1:] = s[:, 1:] != s[:, :-1]
        ends = np.ones(s.shape, dtype=bool)
        ends[:, :-1] = s[:, 1:] != s[:, :-1]
        run_start = np.maximum.accumulate(np.where(starts, pos, 0), axis=-1)
        run_end = np.flip(np.minimum.accumulate(np.flip(np.where(ends, pos, n), -1), axis=-1), -1)
        best = np.argmax(run_end - run_start, axis=-1)  # the first (smallest value) of the longest runs
        last = run_end[np.arange(len(s)), best]  # the run's last sorted slot holds its last original position
        idx = order[np.arange(len(s)), last].reshape(lines.shape[:-1] + (1,))
        return np.moveaxis(idx, -1, axis).astype(np.int64)

    def infer_meta(self, x: Meta, axis=-1) -> Meta:
        return Meta(tuple(1 if i == axis % len(x.shape) else d for i, d in enumerate(x.shape)), dtypes.int64)


@register
class GatherAlongAxis(OpDef):
    """out[..., i, ...] = x[..., indices[..., i, ...], ...] along `axis` (numpy's take_along_axis)."""

    name = "gather_along_axis"

    def kernel(self, x, indices, axis):
        return np.take_along_axis(x, indices, axis=axis)

    def grad(self, node, g):
        x, indices = node.inputs
        return scatter_add_along_axis(g, indices, node.attrs["axis"], tuple(x.shape)), None

    def infer_meta(self, x: Meta, indices: Meta, axis) -> Meta:
        return Meta(indices.shape, x.dtype)


def _along_axis_index(indices: np.ndarray, axis: int) -> tuple:
    """A full index for np.add.at: `indices` on `axis`, the element's own position on every other axis."""
    grid = list(np.ogrid[tuple(slice(0, d) for d in indices.shape)])
    grid[axis] = indices
    return tuple(grid)


@register
class ScatterAddAlongAxis(OpDef):
    """The gradient of gather_along_axis: zeros of `shape`, with g added where it was gathered from."""

    name = "scatter_add_along_axis"

    def kernel(self, g, indices, axis, shape):
        out = np.zeros(shape, dtype=g.dtype)
        np.add.at(out, _along_axis_index(indices, axis), g)  # add.at: a position gathered twice gets both
        return out

    def grad(self, node, gg):
        return gather_along_axis(gg, node.inputs[1], node.attrs["axis"]), None

    def infer_meta(self, g: Meta, indices: Meta, axis, shape) -> Meta:
        return Meta(tuple(shape), g.dtype)


@register
class Nonzero(_IndexOp):
    """The positions of the nonzero elements, one row [i0, i1, ...] per element: shape [count, ndim]."""

    name = "nonzero"

    def kernel(self, x):
        return np.argwhere(x).astype(np.int64)

    def infer_meta(self, x: Meta) -> Meta:
        return Meta((-1, len(x.shape)), dtypes.int64)  # the count depends on the values


@register
class MaskedSelect(OpDef):
    """The elements of x where mask is True, as a 1-D tensor (x and mask have the same shape)."""

    name = "masked_select"
    saves_inputs = False

    def kernel(self, x, mask):
        return x[mask]

    def grad(self, node, g):
        x, mask = node.inputs
        return apply(MaskedSelectGrad, (g, mask), {"shape": tuple(x.shape)}), None

    def infer_meta(self, x: Meta, mask: Meta) -> Meta:
        return Meta((-1,), x.dtype)


@register
class MaskedSelectGrad(OpDef):
    """Zeros of `shape` with g written where mask is True."""

    name = "masked_select_grad"
    saves_inputs = False

    def kernel(self, g, mask, shape):
        out = np.zeros(shape, dtype=g.dtype)
        out[mask] = g
        return out

    def grad(self, node, gg):
        return masked_select(gg, node.inputs[1]), None

    def infer_meta(self, g: Meta, mask: Meta, shape) -> Meta:
        return Meta(tuple(shape), g.dtype)


@register
class Unique(_IndexOp):
    """Sorted unique values, plus the first position of each, the inverse map and the counts (four outputs)."""

    name = "unique"

    def kernel(self, x, axis=None, dtype=np.int64):
        if axis is None:
            x = x.reshape(-1)
        values, index, inverse, counts = np.unique(
            x, return_index=True, return_inverse=True, return_counts=True, axis=axis
        )
        return values, index.astype(dtype), inverse.reshape(-1).astype(dtype), counts.astype(dtype)

    def infer_meta(self, x: Meta, axis=None, dtype=np.int64) -> tuple:
        d = dtypes.from_numpy(np.dtype(dtype))
        values = (-1,) if axis is None else tuple(-1 if i == axis else s for i, s in enumerate(x.shape))
        n_in = -1 if axis is None else x.shape[axis]
        return Meta(values, x.dtype), Meta((-1,), d), Meta((n_in,), d), Meta((-1,), d)


def argmax(x: Tensor, axis=None, keepdim: bool = False, dtype=np.int64) -> Tensor:
    return apply(ArgMax, (x,), {"axis": axis, "keepdim": keepdim, "dtype": dtype})


def argmin(x: Tensor, axis=None, keepdim: bool = False, dtype=np.int64) -> Tensor:
    return apply(ArgMin, (x,), {"axis": axis, "keepdim": keepdim, "dtype": dtype})


def argsort(x: Tensor, axis: int = -1, descending: bool = False) -> Tensor:
    return apply(ArgSort, (x,), {"axis": axis, "descending": descending})


def topk_indices(x: Tensor, k: int, axis: int = -1, largest: bool = True) -> Tensor:
    return apply(TopkIndices, (x,), {"k": k, "axis": axis, "largest": largest})


def mode_indices(x: Tensor, axis: int = -1) -> Tensor:
    return apply(ModeIndices, (x,), {"axis": axis})


def gather_along_axis(x: Tensor, indices: Tensor, axis: int) -> Tensor:
    return apply(GatherAlongAxis, (x, indices), {"axis": axis})


def scatter_add_along_axis(g: Tensor, indices: Tensor, axis: int, shape) -> Tensor:
    return apply(ScatterAddAlongAxis, (g, indices), {"axis": axis, "shape": tuple(shape)})


def nonzero(x: Tensor) -> Tensor:
    return apply(Nonzero, (x,))


def masked_select(x: Tensor, mask: Tensor) -> Tensor:
    return apply(MaskedSelect, (x, mask))


def unique(x: Tensor, axis=None, dtype=np.int64) -> tuple:
    return apply(Unique, (x,), {"axis": axis, "dtype": dtype})


@register
class Bincount(OpDef):
    """How often each value 0, 1, ..., max(x) occurs in the 1-D non-negative int tensor x (at least `minlength`
    bins), or the sum of `weights` falling in each bin. As Paddle, an empty x gives an empty result."""

    name = "bincount"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, weights, minlength=0):  # (weights: None when not given)
        if x.size and x.min() < 0:
            raise ValueError(f"bincount: the elements of x must be non-negative, got {x.min()}")
        if weights is None:
            out_dtype = np.int64
        else:
            out_dtype = weights.dtype if weights.dtype.kind == "f" else np.float64  # int weights: float64
        if x.size == 0:
            return np.zeros(0, out_dtype)
        return np.bincount(x, weights=weights, minlength=minlength).astype(out_dtype)

    def infer_meta(self, x: Meta, weights, minlength=0) -> Meta:
        if weights is None:
            return Meta((-1,), dtypes.int64)
        return Meta((-1,), weights.dtype if weights.dtype.is_floating else dtypes.float64)


def bincount(x: Tensor, weights=None, minlength: int = 0) -> Tensor:
    return apply(Bincount, (x, weights), {"minlength": minlength})


@register
class Searchsorted(OpDef):
    """For each value, the position in `sorted_sequence` where it would be inserted to keep the order: the first
    such position (right=False) or the last. A 1-D sequence serves every value; an N-D sequence has one sorted
    row per row of values (their leading dimensions are equal). NaN counts as larger than every number, as in
    numpy and Paddle."""

    name = "searchsorted"
    differentiable = False
    saves_inputs = False

    def kernel(self, sorted_sequence, values, right=False, dtype=np.int64):
        side = "right" if right else "left"
        if sorted_sequence.ndim == 1:
            return np.searchsorted(sorted_sequence, values, side=side).astype(dtype)
        # One row each: count the row's elements that sort before the value (NaN-aware, all rows at once).
        seq, v = sorted_sequence[..., None, :], values[..., :, None]
        before = seq <= v if right else seq < v
        if values.dtype.kind == "f":
            before |= np.isnan(v) & (right | ~np.isnan(seq))
        return before.sum(axis=-1).astype(dtype)

    def infer_meta(self, sorted_sequence: Meta, values: Meta, right=False, dtype=np.int64) -> Meta:
        return Meta(values.shape, dtypes.from_numpy(np.dtype(dtype)))


def searchsorted(sorted_sequence: Tensor, values: Tensor, right: bool = False, dtype=np.int64) -> Tensor:
    return apply(Searchsorted, (sorted_sequence, values), {"right": right, "dtype": dtype})
