"""Making sparse tensors: paddle.sparse.sparse_coo_tensor and sparse_csr_tensor, and the dense Tensor's
to_sparse_coo / to_sparse_csr methods."""

from __future__ import annotations

from minipaddle.core.tensor import Tensor
from minipaddle.sparse.tensor import SparseCooTensor, SparseCsrTensor, dense_to_coo, dense_to_csr
from minipaddle.tensor.checks import check_tensor
from minipaddle.tensor.creation import to_tensor
from minipaddle.tensor.manipulation import cast
from minipaddle.tensor.math import max as tensor_max

__all__ = ["sparse_coo_tensor", "sparse_csr_tensor"]

_INDEX_DTYPES = ("int8", "int16", "int32", "int64")


def _as_tensor(data, dtype=None) -> Tensor:
    """A Tensor of `data` (a Tensor is kept, cast to `dtype` if one is given)."""
    if isinstance(data, Tensor):
        return data if dtype is None else cast(data, dtype)
    return to_tensor(data, dtype=dtype)


def _check_index(t: Tensor, fn: str, arg: str) -> None:
    if str(t.dtype).replace("paddle.", "") not in _INDEX_DTYPES:
        raise TypeError(f"{fn}: the dtype of {arg} must be 'int8', 'int16', 'int32' or 'int64', but received {t.dtype}")


def sparse_coo_tensor(indices, values, shape=None, dtype=None, place=None, stop_gradient=True):
    """Construct a sparse tensor in COO layout from coordinates and values.

    Args:
        indices (list|tuple|ndarray|Tensor): int coordinates of shape [sparse_dim, nnz].
        values (list|tuple|ndarray|Tensor): the entries, shape [nnz, *dense_dims].
        shape (list|tuple, optional): the dense shape; by default the smallest one holding every coordinate.
        dtype (str|paddle.dtype, optional): the dtype of the values; by default inferred from `values`.
        place: ignored (minipaddle runs on the CPU).
        stop_gradient (bool, optional): whether to stop gradient to the values. Default True.

    Returns:
        SparseCooTensor. The entries are kept as given (not coalesced).

    Examples:
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1.0, 2.0, 3.0], [3, 3])
        >>> x.to_dense().numpy().tolist()
        [[0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [3.0, 0.0, 0.0]]
    """
    fn = "sparse_coo_tensor"
    indices = _as_tensor(indices)
    values = _as_tensor(values, dtype)
    _check_index(indices, fn, "indices")
    if indices.ndim != 2:
        raise ValueError(f"{fn}: 'indices' must be 2-D [sparse_dim, nnz], but received shape {indices.shape}")
    sparse_dim, nnz = indices.shape
    if values.ndim < 1 or values.shape[0] != nnz:
        raise ValueError(
            f"{fn}: the indices and values must have the same number of non-zeros, "
            f"but received {nnz} and {values.shape[0] if values.ndim else 'a 0-d values'}"
        )
    smallest = (tensor_max(indices, axis=1) + 1).tolist() if nnz else [0] * sparse_dim
    smallest = smallest + values.shape[1:]
    if shape is None:
        shape = smallest
    shape = [int(d) for d in shape]
    if len(shape) != len(smallest) or any(s < m for s, m in zip(shape, smallest)):
        raise ValueError(f"{fn}: the minimum shape required is {smallest}, but received shape {shape}")
    values = values.detach() if not values.stop_gradient and stop_gradient else values
    values.stop_gradient = stop_gradient
    return SparseCooTensor(indices, values, shape)


def sparse_csr_tensor(crows, cols, values, shape, dtype=None, place=None, stop_gradient=True):
    """Construct a 2-D (or batched 3-D) sparse tensor in CSR layout.

    Args:
        crows (list|tuple|ndarray|Tensor): row starts, B * (M + 1) ints (batch after batch for 3-D).
        cols (list|tuple|ndarray|Tensor): the column of each entry, nnz ints.
        values (list|tuple|ndarray|Tensor): the entries, nnz of them.
        shape (list|tuple): [M, N] or [B, M, N].
        dtype (str|paddle.dtype, optional): the dtype of the values; by default inferred from `values`.
        place: ignored (minipaddle runs on the CPU).
        stop_gradient (bool, optional): whether to stop gradient to the values. Default True.

    Returns:
        SparseCsrTensor.

    Examples:
        >>> x = paddle.sparse.sparse_csr_tensor([0, 2, 3, 5], [1, 3, 2, 0, 1], [1.0, 2, 3, 4, 5], [3, 4])
        >>> x.nnz()
        5
    """
    fn = "sparse_csr_tensor"
    crows, cols, values = _as_tensor(crows), _as_tensor(cols), _as_tensor(values, dtype)
    _check_index(crows, fn, "crows")
    _check_index(cols, fn, "cols")
    shape = [int(d) for d in shape]
    if len(shape) not in (2, 3):
        raise ValueError(f"{fn}: a SparseCsrTensor is 2-D or 3-D, but received shape {shape}")
    for name, t in (("crows", crows), ("cols", cols), ("values", values)):
        if t.ndim != 1:
            raise ValueError(f"{fn}: '{name}' must be 1-D, but received shape {t.shape}")
    batches, rows = (1, shape[0]) if len(shape) == 2 else shape[:2]
    if crows.shape[0] != batches * (rows + 1):
        raise ValueError(
            f"{fn}: the length of crows must be batches * (rows + 1) = {batches * (rows + 1)} for shape {shape}, "
            f"but received {crows.shape[0]}"
        )
    if cols.shape[0] != values.shape[0]:
        raise ValueError(
            f"{fn}: cols and values must have the same length, but received {cols.shape[0]} and {values.shape[0]}"
        )
    values = values.detach() if not values.stop_gradient and stop_gradient else values
    values.stop_gradient = stop_gradient
    return SparseCsrTensor(crows, cols, values, shape)


def to_sparse_coo(x, sparse_dim):
    """The non-zeros of the dense tensor `x` in COO layout, its first `sparse_dim` dimensions sparse
    (`Tensor.to_sparse_coo`)."""
    check_tensor(x, "Tensor.to_sparse_coo")
    if isinstance(sparse_dim, bool) or not isinstance(sparse_dim, int) or not 0 < sparse_dim <= x.ndim:
        raise ValueError(
            f"Tensor.to_sparse_coo: sparse_dim must be an int in [1, {x.ndim}] for a {x.ndim}-D tensor, "
            f"but received {sparse_dim!r}"
        )
    return dense_to_coo(x, sparse_dim)


def to_sparse_csr(x):
    """The non-zeros of the 2-D or 3-D dense tensor `x` in CSR layout (`Tensor.to_sparse_csr`)."""
    check_tensor(x, "Tensor.to_sparse_csr")
    return dense_to_csr(x)


# Bound onto the dense Tensor by minipaddle/tensor_methods.py.
METHODS = {"to_sparse_coo": to_sparse_coo, "to_sparse_csr": to_sparse_csr}
