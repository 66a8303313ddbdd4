"""paddle.linalg.pca_lowrank: principal components by Halko et al.'s randomized SVD (arXiv 0909.4061), as
paddle 2.6 computes them: a random [n, q] Gaussian start, niter rounds of subspace iteration with a QR after each
product, then an exact SVD of the small projected matrix. A composition of ops (randn, matmul, qr, svd), so the
draws come from minipaddle's RNG (paddle.seed) and the gradient from the ops' own rules."""

from __future__ import annotations

import numbers

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_float_tensor
from minipaddle.tensor.random import randn

__all__ = ["pca_lowrank"]


def _approximate_basis(a: Tensor, q: int, niter: int) -> Tensor:
    """An orthonormal [..., m, q] basis whose span approximates a's column space (Halko et al., algorithm 4.4)."""
    start = randn([a.shape[-1], q], dtype=a.dtype)
    basis = ops.qr(ops.matmul(a, start))[0]
    for _ in range(niter):  # power iteration sharpens the basis toward the top singular vectors
        basis = ops.qr(ops.matmul(a, basis, transpose_x=True))[0]
        basis = ops.qr(ops.matmul(a, basis))[0]
    return basis


def _matrix_transpose(a: Tensor) -> Tensor:
    perm = list(range(a.ndim))
    return ops.transpose(a, perm[:-2] + perm[:-3:-1])


def _svd_lowrank(a: Tensor, q: int, niter: int) -> tuple:
    m, n = a.shape[-2:]
    if m < n or n > q:  # project the rows: a ~ (a @ Q) Q^T with Q from a^T's range (paddle's branch condition)
        basis = _approximate_basis(_matrix_transpose(a), q, niter)
        u, s, vh = ops.svd(ops.matmul(a, basis), False)
        return u, s, ops.matmul(basis, vh, transpose_y=True)
    basis = _approximate_basis(a, q, niter)  # project the columns: a ~ Q (Q^T a)
    u, s, vh = ops.svd(ops.matmul(basis, a, transpose_x=True), False)
    return ops.matmul(basis, u), s, _matrix_transpose(vh)


def pca_lowrank(x, q=None, center=True, niter=2, name=None) -> tuple:
    """Approximate the principal components of x (rows are samples) by a randomized low-rank SVD.

    Returns (U, S, V) with x - mean(x, rows) ~ U @ diag(S) @ V^T (or x itself when center is False). The result
    is random: it depends on the generator's state (paddle.seed), and the approximation is close when x has rank
    near q or its singular values decay fast.

    Args:
        x (Tensor): [..., m, n] float32 or float64.
        q (int, optional): the number of components, 0 <= q <= min(m, n). Default min(6, m, n).
        center (bool, optional): subtract each column's mean over the rows first. Default True.
        niter (int, optional): the number of subspace iterations, >= 0. Default 2.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        (U [..., m, q], S [..., q], V [..., n, q]).

    Examples:
        .. code-block:: python

            >>> import minipaddle as paddle
            >>> x = paddle.randn((5, 5), dtype="float64")
            >>> U, S, V = paddle.linalg.pca_lowrank(x)
            >>> U.shape, S.shape, V.shape  # [5, 5], [5], [5, 5]
    """
    fn = "pca_lowrank"
    if not isinstance(x, Tensor):
        raise ValueError(f"{fn}: input must be a Tensor, got {type(x).__name__}")  # paddle: ValueError here
    check_float_tensor(x, fn, "x")
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"{fn}: x must be float32 or float64, got {x.dtype.name}")
    if x.ndim < 2:
        raise ValueError(f"{fn}: x must be a matrix or a batch of matrices [..., m, n], got shape {list(x.shape)}")
    m, n = x.shape[-2:]
    for arg, v in (("q", q), ("niter", niter)):
        if v is not None and (not isinstance(v, numbers.Integral) or isinstance(v, bool)):
            raise TypeError(f"{fn}: {arg} must be an int, got {type(v).__name__}")
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(f"{fn}: q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if niter is None or niter < 0:
        raise ValueError(f"{fn}: niter(={niter}) must be non-negative integer")
    if center:
        x = ops.subtract(x, ops.mean(x, (x.ndim - 2,), keepdim=True))
    return _svd_lowrank(x, int(q), int(niter))
