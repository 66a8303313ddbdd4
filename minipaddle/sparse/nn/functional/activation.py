"""paddle.sparse.nn.functional.activation: activations of sparse tensors, computed on the stored values only."""

from __future__ import annotations

from minipaddle.geometric.message_passing import send_u_recv
from minipaddle.nn import functional as F
from minipaddle.sparse import tensor as st
from minipaddle.sparse.tensor import SparseCooTensor
from minipaddle.sparse.unary import check_sparse, with_values
from minipaddle.tensor.creation import arange, zeros
from minipaddle.tensor.indexing import index_add, index_select
from minipaddle.tensor.manipulation import cast
from minipaddle.tensor.math import exp
from minipaddle.tensor.math import max as tensor_max
from minipaddle.tensor.search import unique

__all__ = ["leaky_relu", "relu", "relu6", "softmax"]


def relu(x, name=None):
    """max(0, x) on the stored values of a sparse tensor (COO or CSR).

    Examples:
        >>> x = paddle.to_tensor([[0.0, -1.0], [2.0, 0.0]]).to_sparse_coo(2)
        >>> paddle.sparse.nn.functional.relu(x).values().numpy().tolist()
        [0.0, 2.0]
    """
    check_sparse(x, "nn.functional.relu")
    return with_values(x, F.relu(x.values()))


def relu6(x, name=None):
    """min(max(0, x), 6) on the stored values of a sparse tensor (COO or CSR)."""
    check_sparse(x, "nn.functional.relu6")
    return with_values(x, F.relu6(x.values()))


def leaky_relu(x, negative_slope=0.01, name=None):
    """x where x >= 0, negative_slope * x elsewhere, on the stored values of a sparse tensor (COO or CSR)."""
    check_sparse(x, "nn.functional.leaky_relu")
    return with_values(x, F.leaky_relu(x.values(), negative_slope))


def softmax(x, axis=-1, name=None):
    """Softmax along the last axis over the stored entries of each row (missing entries are left out, not
    taken as zeros), for a sparse tensor with every dimension sparse; the pattern and layout are kept.

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0, -2.0], [3.0, 0.0, 0.0]]).to_sparse_csr()
        >>> paddle.sparse.nn.functional.softmax(x).values().numpy().round(4).tolist()
        [0.9526, 0.0474, 1.0]
    """
    check_sparse(x, "nn.functional.softmax")
    if axis not in (-1, x.ndim - 1):
        raise ValueError(f"paddle.sparse.nn.functional.softmax: only axis=-1 is supported, but received axis={axis}")
    coo = x._as_coo()
    if coo.sparse_dim() != x.ndim:
        raise ValueError("paddle.sparse.nn.functional.softmax: every dimension of x must be sparse")
    values = coo.values()
    if coo.nnz() == 0:
        return x
    rows = st.linearize(cast(coo.indices()[:-1], "int64"), x.shape[:-1])
    _, row = unique(rows, return_inverse=True)
    count = int(tensor_max(row)) + 1
    # Shifting each row by its maximum changes nothing mathematically and keeps exp from overflowing.
    shift = send_u_recv(values.detach().unsqueeze(-1), arange(coo.nnz()), row, reduce_op="max", out_size=count).squeeze(
        -1
    )
    e = exp(values - index_select(shift, row))
    total = index_add(zeros([count], values.dtype), row, 0, e)
    out = SparseCooTensor(coo.indices(), e / index_select(total, row), x.shape)
    return st.same_layout(out, x) if x.is_sparse_csr() else out
