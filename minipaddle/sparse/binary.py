"""paddle.sparse functions of two or more tensors: element-wise add/subtract/multiply/divide of sparse tensors of
one layout, the matrix products (matmul, masked_matmul, mv, addmm) and is_same_shape.

Products with a dense operand are gathers and scatter-adds (index_select, index_add): entry (m, k) of the sparse
matrix scales row k of the dense one and adds it into output row m, so gradients reach the sparse values and the
dense operand through ordinary ops. Paddle 2.6's CPU build has no kernel for the products (they run on GPU only);
the rules here follow its documentation.
"""

from __future__ import annotations

from minipaddle.core.tensor import Tensor
from minipaddle.sparse import tensor as st
from minipaddle.sparse.tensor import SparseCooTensor, SparseCsrTensor
from minipaddle.sparse.unary import check_sparse, with_values
from minipaddle.tensor.creation import ones, zeros, zeros_like
from minipaddle.tensor.indexing import gather_nd, index_add, index_select
from minipaddle.tensor.manipulation import cast, concat, transpose
from minipaddle.tensor.math import add as tensor_add
from minipaddle.tensor.math import divide as tensor_divide
from minipaddle.tensor.math import multiply as tensor_multiply
from minipaddle.tensor.math import scale
from minipaddle.tensor.math import subtract as tensor_subtract
from minipaddle.tensor.math import sum as tensor_sum
from minipaddle.tensor.search import nonzero
from minipaddle.tensor.search import unique as tensor_unique

__all__ = ["add", "addmm", "divide", "is_same_shape", "masked_matmul", "matmul", "multiply", "mv", "subtract"]

_SPARSE = (SparseCooTensor, SparseCsrTensor)


# ---- element-wise -----------------------------------------------------------------------------------------------


def _check_pair(x, y, fn: str) -> None:
    check_sparse(x, fn)
    if type(y) is not type(x):
        raise TypeError(
            f"paddle.sparse.{fn}: x and y must be sparse tensors of the same layout, "
            f"got {type(x).__name__} and {type(y).__name__}"
        )
    if x.shape != y.shape:
        raise ValueError(f"paddle.sparse.{fn}: x and y must have the same shape, got {x.shape} and {y.shape}")
    if isinstance(x, SparseCooTensor) and x.sparse_dim() != y.sparse_dim():
        raise ValueError(
            f"paddle.sparse.{fn}: x and y must have the same sparse_dim, got {x.sparse_dim()} and {y.sparse_dim()}"
        )


def _on_union(x, y, combine):
    """combine(x values, y values) over the union of both patterns (a missing entry counts as zero); the result
    has x's layout and dtype and is coalesced."""
    xc, yc = x._as_coo(), y._as_coo()
    index_dtype = xc.indices().dtype
    sparse_shape = x.shape[: xc.sparse_dim()]
    both = concat([cast(xc.indices(), "int64"), cast(yc.indices(), "int64")], axis=1)
    unique, inverse = tensor_unique(st.linearize(both, sparse_shape), return_inverse=True)
    count, nx = unique.shape[0], xc.nnz()
    xv = st._sum_into(xc.values(), inverse[:nx], count)
    yv = st._sum_into(cast(yc.values(), x.dtype), inverse[nx:], count)
    indices = cast(st.unravel(unique, sparse_shape), index_dtype)
    return st.same_layout(SparseCooTensor(indices, combine(xv, yv), x.shape), x)


def add(x, y, name=None):
    """x + y for two sparse tensors of one layout and shape; the result holds the union of their patterns, in x's
    dtype.

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_coo(2)
        >>> paddle.sparse.add(x, x).to_dense().numpy().tolist()
        [[0.0, 2.0], [4.0, 0.0]]
    """
    _check_pair(x, y, "add")
    return _on_union(x, y, tensor_add)


def subtract(x, y, name=None):
    """x - y for two sparse tensors of one layout and shape (union of patterns, x's dtype).

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_csr()
        >>> paddle.sparse.subtract(x, x).nnz()
        2
    """
    _check_pair(x, y, "subtract")
    return _on_union(x, y, tensor_subtract)


def multiply(x, y, name=None):
    """x * y for two sparse tensors of one layout and shape (union of patterns, x's dtype), or a sparse tensor
    times a Python number (the pattern of x).

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_coo(2)
        >>> paddle.sparse.multiply(x, 3.0).values().numpy().tolist()
        [3.0, 6.0]
    """
    if _is_number(y):
        check_sparse(x, "multiply")
        return with_values(x, x.values() * y)
    _check_pair(x, y, "multiply")
    return _on_union(x, y, tensor_multiply)


def divide(x, y, name=None):
    """x / y for two sparse tensors of one layout and shape, or a sparse tensor over a Python number.

    Dividing two sparse tensors visits every position (0 / 0 is nan, as in Paddle 2.6), so the result stores all
    of them; dividing by a number keeps x's pattern.

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_coo(2)
        >>> paddle.sparse.divide(x, 2.0).values().numpy().tolist()
        [0.5, 1.0]
    """
    if _is_number(y):
        check_sparse(x, "divide")
        return with_values(x, x.values() / y)
    _check_pair(x, y, "divide")
    xc = x._as_coo()
    quotient = tensor_divide(x.to_dense(), cast(y.to_dense(), x.dtype))
    every = nonzero(ones(x.shape[: xc.sparse_dim()], "bool"))
    indices = cast(transpose(every, [1, 0]), xc.indices().dtype)
    return st.same_layout(SparseCooTensor(indices, gather_nd(quotient, every), x.shape), x)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_same_shape(x, y):
    """Whether x and y (dense or sparse, in any layout) have the same shape.

    Examples:
        >>> x = paddle.ones([2, 3])
        >>> paddle.sparse.is_same_shape(x, x.to_sparse_csr())
        True
    """
    for arg, v in (("x", x), ("y", y)):
        if not isinstance(v, (Tensor, *_SPARSE)):
            raise TypeError(f"paddle.sparse.is_same_shape: {arg} must be a Tensor or sparse tensor, got {type(v)}")
    return x.shape == y.shape


# ---- products ---------------------------------------------------------------------------------------------------


def _check_matrices(x, y, fn: str) -> None:
    if x.ndim not in (2, 3) or y.ndim != x.ndim:
        raise ValueError(
            f"paddle.sparse.{fn}: x and y must both be 2-D or both 3-D, got shapes {x.shape} and {y.shape}"
        )
    if x.shape[-1] != y.shape[-2] or x.shape[:-2] != y.shape[:-2]:
        raise ValueError(f"paddle.sparse.{fn}: cannot multiply shapes {x.shape} and {y.shape}")
    if x.dtype != y.dtype:
        raise TypeError(f"paddle.sparse.{fn}: x and y must have the same dtype, got {x.dtype} and {y.dtype}")


def _batch_row_col(coo: SparseCooTensor):
    """(batch, row, col) int64 coordinates of a 2-D or 3-D COO matrix (batch is 0 for 2-D)."""
    indices = cast(coo.indices(), "int64")
    if coo.ndim == 2:
        return zeros_like(indices[0]), indices[0], indices[1]
    return indices[0], indices[1], indices[2]


def _sparse_dense_matmul(x, y: Tensor) -> Tensor:
    coo = x._as_coo()
    if coo.sparse_dim() != coo.ndim:
        raise ValueError("paddle.sparse.matmul: a COO x must have every dimension sparse")
    batch, row, col = _batch_row_col(coo)
    rows, inner, cols = x.shape[-2], x.shape[-1], y.shape[-1]
    batches = x.shape[0] if x.ndim == 3 else 1
    y_rows = index_select(y.reshape([batches * inner, cols]), batch * inner + col, axis=0)
    scaled = y_rows * coo.values().unsqueeze(-1)
    out = index_add(zeros([batches * rows, cols], y.dtype), batch * rows + row, 0, scaled)
    return out.reshape(x.shape[:-1] + [cols])


def matmul(x, y, name=None):
    """Matrix product of a sparse x (COO or CSR, 2-D or batched 3-D) with y.

    sparse @ dense gives a dense Tensor; sparse @ sparse (one layout) gives a sparse tensor of that layout
    holding the non-zeros of the product. Gradients reach x's values and a dense y.

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_csr()
        >>> paddle.sparse.matmul(x, paddle.ones([2, 3])).numpy().tolist()
        [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]
    """
    check_sparse(x, "matmul")
    if isinstance(y, Tensor):
        _check_matrices(x, y, "matmul")
        return _sparse_dense_matmul(x, y)
    if type(y) is not type(x):
        raise TypeError(
            f"paddle.sparse.matmul: y must be a dense Tensor or a sparse tensor of x's layout, "
            f"got {type(x).__name__} and {type(y).__name__}"
        )
    _check_matrices(x, y, "matmul")
    product = _sparse_dense_matmul(x, y.to_dense())
    return st.same_layout(st.dense_to_coo(product, product.ndim), x)


def mv(x, vec, name=None):
    """Product of a 2-D sparse matrix x (COO or CSR) [M, N] with a dense vector [N]: a dense [M] Tensor.

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_coo(2)
        >>> paddle.sparse.mv(x, paddle.to_tensor([3.0, 4.0])).numpy().tolist()
        [4.0, 6.0]
    """
    check_sparse(x, "mv")
    if not isinstance(vec, Tensor) or vec.ndim != 1 or x.ndim != 2:
        raise ValueError(
            f"paddle.sparse.mv: x must be a 2-D sparse matrix and vec a 1-D dense Tensor, "
            f"got x of shape {x.shape} and vec {getattr(vec, 'shape', type(vec).__name__)}"
        )
    column = vec.unsqueeze(-1)
    _check_matrices(x, column, "mv")
    return _sparse_dense_matmul(x, column).squeeze(-1)


def masked_matmul(x, y, mask, name=None):
    """The entries of the dense product x @ y at the stored positions of the sparse `mask`, in mask's layout.

    Args:
        x (Tensor): dense [M, K] or [B, M, K].
        y (Tensor): dense [K, N] or [B, K, N].
        mask (SparseCsrTensor|SparseCooTensor): the pattern, shape [M, N] or [B, M, N].

    Examples:
        >>> mask = paddle.to_tensor([[0.0, 1.0], [1.0, 0.0]]).to_sparse_csr()
        >>> paddle.sparse.masked_matmul(paddle.ones([2, 3]), paddle.ones([3, 2]), mask).values().numpy().tolist()
        [3.0, 3.0]
    """
    check_sparse(mask, "masked_matmul", "mask")
    for arg, v in (("x", x), ("y", y)):
        if not isinstance(v, Tensor):
            raise TypeError(f"paddle.sparse.masked_matmul: {arg} must be a dense Tensor, got {type(v).__name__}")
    _check_matrices(x, y, "masked_matmul")
    if mask.shape != x.shape[:-1] + [y.shape[-1]]:
        raise ValueError(
            f"paddle.sparse.masked_matmul: mask must have the product's shape {x.shape[:-1] + [y.shape[-1]]}, "
            f"got {mask.shape}"
        )
    coo = mask._as_coo()
    batch, row, col = _batch_row_col(coo)
    rows, inner, cols = x.shape[-2], x.shape[-1], y.shape[-1]
    batches = x.shape[0] if x.ndim == 3 else 1
    x_rows = index_select(x.reshape([batches * rows, inner]), batch * rows + row, axis=0)
    y_cols = index_select(
        transpose(y, list(range(y.ndim - 2)) + [y.ndim - 1, y.ndim - 2]).reshape([batches * cols, inner]),
        batch * cols + col,
        axis=0,
    )
    return with_values(mask, tensor_sum(x_rows * y_cols, axis=-1))


def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):  # noqa: A002 (Paddle's name)
    """beta * input + alpha * (x @ y) with a sparse x.

    Two combinations, as in Paddle: a dense input with a dense y gives a dense Tensor; a sparse input with a
    sparse y (all of x's layout) gives a sparse tensor.

    Examples:
        >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_coo(2)
        >>> paddle.sparse.addmm(paddle.ones([2, 2]), x, paddle.ones([2, 2]), 0.5, 2.0).numpy().tolist()
        [[2.5, 2.5], [4.5, 4.5]]
    """
    check_sparse(x, "addmm")
    if isinstance(input, Tensor) and isinstance(y, Tensor):
        product = matmul(x, y)
        _check_input_shape(input, product)
        return tensor_add(scale(input, beta), scale(product, alpha))
    if type(input) is type(x) and type(y) is type(x):
        product = matmul(x, y)
        _check_input_shape(input, product)
        return add(multiply(input, float(beta)), multiply(product, float(alpha)))
    raise TypeError(
        "paddle.sparse.addmm: expected (dense input, sparse x, dense y) or (sparse input, sparse x, sparse y) "
        f"of one layout, got ({type(input).__name__}, {type(x).__name__}, {type(y).__name__})"
    )


def _check_input_shape(input, product) -> None:  # noqa: A002
    if input.shape != product.shape:
        raise ValueError(f"paddle.sparse.addmm: input must have the shape of x @ y {product.shape}, got {input.shape}")
