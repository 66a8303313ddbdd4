"""Sparse tensors: a COO or CSR layout holding ordinary dense minipaddle Tensors.

A `SparseCooTensor` of shape [d0, ..., dn] with `sparse_dim` S keeps
- `indices`: an int Tensor [S, nnz], column j naming where entry j sits in the first S dimensions;
- `values`: a Tensor [nnz, d_S, ..., dn], the entries (each one a dense block when S < n + 1).
A `SparseCsrTensor` (2-D [M, N] or batched 3-D [B, M, N]) keeps `crows` (B * (M + 1) row starts, batch after
batch), `cols` [nnz] and `values` [nnz].

Every computation is an ordinary minipaddle op on those dense parts, so gradients reach `values` (and any dense
operand) through the usual autograd, and nothing here reads a Tensor's data. Conversions between layouts and to
dense live here too, because every sparse function leans on them.
"""

from __future__ import annotations

from minipaddle.core.dtype import bool_
from minipaddle.core.tensor import CPU, Tensor
from minipaddle.tensor.creation import arange, full, to_tensor
from minipaddle.tensor.creation import zeros as tensor_zeros
from minipaddle.tensor.indexing import gather_nd, index_add, scatter_nd_add
from minipaddle.tensor.manipulation import cast, concat, repeat_interleave, stack, transpose
from minipaddle.tensor.math import any as tensor_any
from minipaddle.tensor.math import cumsum, floor_divide, remainder
from minipaddle.tensor.math import sum as tensor_sum
from minipaddle.tensor.reduce_extra import bincount
from minipaddle.tensor.search import nonzero
from minipaddle.tensor.search import unique as tensor_unique
from minipaddle.tensor.to_string import format_data

__all__ = ["SparseCooTensor", "SparseCsrTensor"]


class _SparseBase:
    """What both layouts share: the dense `values`, the shape, and the Tensor-like attributes Paddle gives them."""

    def __init__(self, values: Tensor, shape) -> None:
        self._values = values
        self._shape = [int(d) for d in shape]

    # ---- what the tensor is ----

    @property
    def shape(self) -> list[int]:
        return list(self._shape)

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def ndim(self) -> int:
        return len(self._shape)

    def dim(self) -> int:
        return len(self._shape)

    @property
    def place(self):
        return CPU

    @property
    def stop_gradient(self) -> bool:
        return self._values.stop_gradient

    @stop_gradient.setter
    def stop_gradient(self, value: bool) -> None:
        self._values.stop_gradient = value

    def is_sparse(self) -> bool:
        return True

    def is_dense(self) -> bool:
        return False

    def values(self) -> Tensor:
        """The stored entries, a dense Tensor whose first dimension runs over the non-zeros."""
        return self._values

    def nnz(self) -> int:
        """How many entries are stored (explicit zeros count too)."""
        return int(self._values.shape[0])

    def to_dense(self) -> Tensor:
        """The dense Tensor this sparse tensor stands for; differentiable with respect to `values`."""
        return coo_to_dense(self._as_coo())

    def __str__(self) -> str:
        return self.__repr__()

    def _header(self) -> str:
        return f"Tensor(shape={self.shape}, dtype={self.dtype}, place=Place(cpu), stop_gradient={self.stop_gradient}, "


class SparseCooTensor(_SparseBase):
    """A tensor stored as coordinates (`indices`) and `values`: Paddle's SparseCooTensor."""

    def __init__(self, indices: Tensor, values: Tensor, shape) -> None:
        super().__init__(values, shape)
        self._indices = indices

    def is_sparse_coo(self) -> bool:
        return True

    def is_sparse_csr(self) -> bool:
        return False

    def indices(self) -> Tensor:
        """The coordinates, an int Tensor [sparse_dim, nnz]."""
        return self._indices

    def sparse_dim(self) -> int:
        return int(self._indices.shape[0])

    def dense_dim(self) -> int:
        return self.ndim - self.sparse_dim()

    def crows(self):
        raise TypeError("Tensor.crows: this method is only effective for a SparseCsrTensor, got a SparseCooTensor")

    def cols(self):
        raise TypeError("Tensor.cols: this method is only effective for a SparseCsrTensor, got a SparseCooTensor")

    @property
    def grad(self):
        """The gradient of `values`, in this tensor's pattern, or None."""
        g = self._values.grad
        return None if g is None else SparseCooTensor(self._indices, g, self._shape)

    def coalesce(self) -> SparseCooTensor:
        return coalesce(self)

    def to_sparse_coo(self, sparse_dim):
        raise TypeError("Tensor.to_sparse_coo: the tensor is already a SparseCooTensor")

    def to_sparse_csr(self) -> SparseCsrTensor:
        """The same tensor in CSR layout (2-D or 3-D, all dimensions sparse)."""
        return coo_to_csr(self)

    def _as_coo(self) -> SparseCooTensor:
        return self

    def __repr__(self) -> str:
        indent = " " * len("Tensor(")
        indices = "indices=" + format_data(self._indices.numpy(), len(indent) + len("indices="))
        values = "values=" + format_data(self._values.numpy(), len(indent) + len("values="))
        return f"{self._header()}\n{indent}{indices}, \n{indent}{values})"


class SparseCsrTensor(_SparseBase):
    """A 2-D (or batched 3-D) tensor stored as compressed rows: Paddle's SparseCsrTensor."""

    def __init__(self, crows: Tensor, cols: Tensor, values: Tensor, shape) -> None:
        super().__init__(values, shape)
        self._crows = crows
        self._cols = cols

    def is_sparse_coo(self) -> bool:
        return False

    def is_sparse_csr(self) -> bool:
        return True

    def crows(self) -> Tensor:
        """Where each row's entries start in `cols`/`values` (B * (M + 1) numbers, batch after batch)."""
        return self._crows

    def cols(self) -> Tensor:
        """The column of each stored entry."""
        return self._cols

    def indices(self):
        raise TypeError("Tensor.indices: this method is only effective for a SparseCooTensor, got a SparseCsrTensor")

    @property
    def grad(self):
        """The gradient of `values`, in this tensor's pattern, or None."""
        g = self._values.grad
        return None if g is None else SparseCsrTensor(self._crows, self._cols, g, self._shape)

    def to_sparse_coo(self, sparse_dim) -> SparseCooTensor:
        """The same tensor in COO layout (every dimension sparse)."""
        if sparse_dim != self.ndim:
            raise ValueError(
                f"Tensor.to_sparse_coo: a SparseCsrTensor converts with sparse_dim equal to its rank {self.ndim}, "
                f"but received sparse_dim={sparse_dim}"
            )
        return csr_to_coo(self)

    def to_sparse_csr(self):
        raise TypeError("Tensor.to_sparse_csr: the tensor is already a SparseCsrTensor")

    def _as_coo(self) -> SparseCooTensor:
        return csr_to_coo(self)

    def __repr__(self) -> str:
        indent = " " * len("Tensor(")
        parts = [
            name + "=" + format_data(t.numpy(), len(indent) + len(name) + 1)
            for name, t in (("crows", self._crows), ("cols", self._cols), ("values", self._values))
        ]
        return self._header() + "".join(f"\n{indent}{p}, " for p in parts[:2]) + f"\n{indent}{parts[2]})"


# ---- index arithmetic (on int Tensors, through ops) -------------------------------------------------------------


def _strides(shape) -> list[int]:
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return strides[::-1]


def linearize(indices: Tensor, shape) -> Tensor:
    """Row-major position of every column of `indices` [S, nnz] within `shape` (S dimensions)."""
    strides = to_tensor(_strides(shape), dtype=indices.dtype).unsqueeze(1)
    return tensor_sum(indices * strides, axis=0)


def unravel(flat: Tensor, shape) -> Tensor:
    """The inverse of `linearize`: [S, nnz] coordinates of the row-major positions `flat`."""
    rows = [remainder(floor_divide(flat, full([], s, flat.dtype)), full([], d, flat.dtype))
            for s, d in zip(_strides(shape), shape)]  # fmt: skip
    return stack(rows) if rows else tensor_zeros([0, flat.shape[0]], flat.dtype)


def _sum_into(values: Tensor, target: Tensor, count: int) -> Tensor:
    """values[i] added into row target[i] of a [count, ...] zero tensor (bool values are or-ed)."""
    if values.dtype == bool_:
        return cast(_sum_into(cast(values, "int32"), target, count), "bool")
    zeros = tensor_zeros([count] + values.shape[1:], values.dtype)
    return index_add(zeros, target, 0, values)


def coalesce(x: SparseCooTensor) -> SparseCooTensor:
    """Sort the coordinates row-major and add the values of repeated ones (Paddle's coalesce)."""
    if x.nnz() == 0:
        return x
    sparse_shape = x.shape[: x.sparse_dim()]
    flat = linearize(x.indices(), sparse_shape)
    unique, inverse = tensor_unique(flat, return_inverse=True)
    values = _sum_into(x.values(), inverse, unique.shape[0])
    return SparseCooTensor(cast(unravel(unique, sparse_shape), x.indices().dtype), values, x.shape)


# ---- layout conversions -------------------------------------------------------------------------------------------


def dense_to_coo(x: Tensor, sparse_dim: int) -> SparseCooTensor:
    """The non-zero entries of a dense tensor (blocks of its last ndim - sparse_dim dimensions, kept when any
    element of the block is non-zero); differentiable with respect to `x`."""
    mask = x != 0 if x.dtype != bool_ else x
    if sparse_dim < x.ndim:
        mask = tensor_any(mask, axis=list(range(sparse_dim, x.ndim)))
    where = nonzero(mask)
    return SparseCooTensor(transpose(where, [1, 0]), gather_nd(x, where), x.shape)


def coo_to_dense(x: SparseCooTensor) -> Tensor:
    values = x.values()
    if values.dtype == bool_:
        as_int = SparseCooTensor(x.indices(), cast(values, "int32"), x.shape)
        return cast(coo_to_dense(as_int), "bool")
    zeros = tensor_zeros(x.shape, values.dtype)
    if x.nnz() == 0:
        return zeros + values.sum() * 0  # keeps the gradient path to the (empty) values
    where = transpose(x.indices(), [1, 0])
    return scatter_nd_add(zeros, where, values)


def _batch_rows(shape) -> tuple[int, int]:
    """(batches, rows) of a 2-D or 3-D CSR shape."""
    return (1, shape[0]) if len(shape) == 2 else (shape[0], shape[1])


def coo_to_csr(x: SparseCooTensor) -> SparseCsrTensor:
    if x.ndim not in (2, 3) or x.sparse_dim() != x.ndim:
        raise ValueError(
            f"Tensor.to_sparse_csr: a SparseCsrTensor is 2-D or 3-D with every dimension sparse, "
            f"but the tensor has shape {x.shape} and sparse_dim {x.sparse_dim()}"
        )
    x = coalesce(x)
    batches, rows = _batch_rows(x.shape)
    indices = cast(x.indices(), "int64")
    row_key = linearize(indices[:-1], [batches, rows][-(x.ndim - 1) :])
    counts = bincount(row_key, minlength=batches * rows).reshape([batches, rows])
    starts = concat([tensor_zeros([batches, 1], "int64"), cumsum(counts, axis=1)], axis=1)
    return SparseCsrTensor(starts.flatten(), indices[-1], x.values(), x.shape)


def csr_to_coo(x: SparseCsrTensor) -> SparseCooTensor:
    batches, rows = _batch_rows(x.shape)
    starts = cast(x.crows(), "int64").reshape([batches, rows + 1])
    counts = (starts[:, 1:] - starts[:, :-1]).flatten()
    row_key = repeat_interleave(arange(batches * rows, dtype="int64"), counts)
    coords = unravel(row_key, [batches, rows][-(x.ndim - 1) :])
    cols = cast(x.cols(), "int64").unsqueeze(0)
    return SparseCooTensor(concat([coords, cols], axis=0), x.values(), x.shape)


def dense_to_csr(x: Tensor) -> SparseCsrTensor:
    if x.ndim not in (2, 3):
        raise ValueError(f"Tensor.to_sparse_csr: a SparseCsrTensor is 2-D or 3-D, but the tensor has shape {x.shape}")
    return coo_to_csr(dense_to_coo(x, x.ndim))


def same_layout(coo: SparseCooTensor, like) -> _SparseBase:
    """`coo` in the layout of `like` (CSR when `like` is CSR)."""
    return coo_to_csr(coo) if isinstance(like, SparseCsrTensor) else coo
