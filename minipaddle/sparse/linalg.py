"""paddle.sparse.pca_lowrank: principal components of a sparse matrix.

Paddle 2.6 runs it only on the GPU (its sparse matmul has no CPU kernel). minipaddle runs the same randomized
algorithm as paddle.linalg.pca_lowrank on the matrix's dense form: the same result for the same random draws, and
gradients reach the stored values through to_dense.
"""

from __future__ import annotations

from minipaddle.sparse.unary import check_sparse
from minipaddle.tensor.pca import pca_lowrank as _dense_pca_lowrank

__all__ = ["pca_lowrank"]


def pca_lowrank(x, q=None, center=True, niter=2, name=None) -> tuple:
    """Approximate the principal components of a sparse [N, M] matrix (rows are samples).

    Args:
        x (SparseCooTensor|SparseCsrTensor): [N, M], float32 or float64.
        q (int, optional): the number of components, at most min(N, M). Default min(6, N, M).
        center (bool, optional): subtract each column's mean over the rows first. Default True.
        niter (int, optional): the number of subspace iterations. Default 2.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        (U [N, q], S [q], V [M, q]), dense Tensors with x - mean(x, rows) ~ U @ diag(S) @ V^T.

    Examples:
        .. code-block:: python

            >>> x = paddle.randn((5, 5), dtype="float64").to_sparse_coo(2)
            >>> U, S, V = paddle.sparse.pca_lowrank(x)
    """
    check_sparse(x, "pca_lowrank")
    if len(x.shape) != 2:
        raise ValueError(f"paddle.sparse.pca_lowrank: x must be a 2-D [N, M] matrix, got shape {list(x.shape)}")
    return _dense_pca_lowrank(x.to_dense(), q, center, niter)
