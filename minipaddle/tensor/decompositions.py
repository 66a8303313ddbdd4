"""Matrix decompositions and linear solvers of paddle.linalg: svd, qr, eigh, eigvalsh, eig, eigvals, lu,
lu_unpack, solve, triangular_solve, cholesky_solve, lstsq, pinv, slogdet, matrix_rank (cov and corrcoef are in
covariance.py).

As in Paddle 2.6, all are reached through paddle.linalg (minipaddle/linalg.py); `__all__` lists those that are
Tensor methods too (`x.qr()`), and eigvalsh alone is also paddle.eigvalsh. The ops are in ops/decompositions.py;
pinv is a composition of ops, so its gradient comes from the ops it is made of.
"""

from __future__ import annotations

import numbers

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import broadcast_shapes
from minipaddle.tensor.checks import check_bool, check_min_rank, check_tensor
from minipaddle.tensor.linalg import _check_square

__all__ = [
    "qr",
    "eigvalsh",
    "eig",
    "eigvals",
    "solve",
    "cholesky_solve",
    "lstsq",
    "pinv",
    "lu",
    "lu_unpack",
]

_REAL = ("float32", "float64")


def _check_matrix(x, fn: str, arg: str = "x", square: bool = False) -> Tensor:
    """x must be a float32/float64 matrix or batch of matrices [..., m, n] (square: m == n)."""
    check_tensor(x, fn, arg)
    if x.dtype.name not in _REAL:
        raise TypeError(f"{fn}: {arg} must be a float32 or float64 tensor, got {x.dtype.name}")
    if x.ndim < 2:
        raise ValueError(f"{fn}: {arg} must be a matrix or a batch of matrices [..., m, n], got shape {x.shape}")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{fn}: {arg} must be a square matrix or a batch of them [..., n, n], got shape {x.shape}")
    return x


def _check_same_dtype(x: Tensor, y: Tensor, fn: str) -> None:
    if x.dtype != y.dtype:
        raise ValueError(f"{fn}: x and y must have the same dtype, got {x.dtype.name} and {y.dtype.name}")


def _check_uplo(uplo, fn: str) -> str:
    if uplo not in ("L", "U"):
        raise ValueError(f"{fn}: UPLO must be 'L' or 'U', got {uplo!r}")
    return uplo


def _batch(x: Tensor, y: Tensor, fn: str) -> tuple:
    """The broadcast batch shape of two batches of matrices (ValueError naming `fn` when they do not broadcast)."""
    return broadcast_shapes(tuple(x.shape[:-2]), tuple(y.shape[:-2]), fn)


def _t(x: Tensor) -> Tensor:
    perm = tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2)
    return ops.transpose(x, perm)


# ---- decompositions -------------------------------------------------------------------------------------------


def svd(x, full_matrices=False, name=None) -> tuple:
    """The singular value decomposition x = U @ diag(S) @ VH, singular values largest first.

    Args:
        x (Tensor): a float32/float64 matrix [..., m, n] (batches work too).
        full_matrices (bool): U [..., m, m] and VH [..., n, n] when True; [..., m, k] and [..., k, n]
            (k = min(m, n)) when False (the default).

    Returns:
        (U, S, VH). The gradient is defined for distinct singular values.

    Example:
        >>> u, s, vh = paddle.linalg.svd(paddle.to_tensor([[3., 0.], [0., 4.]]))
        >>> s    # [4., 3.]
    """
    _check_matrix(x, "svd")
    if 0 in x.shape[-2:]:
        raise ValueError(f"svd: x must have at least one row and one column, got shape {x.shape}")
    return tuple(ops.svd(x, check_bool(full_matrices, "svd", "full_matrices")))


def qr(x, mode="reduced", name=None):
    """The QR decomposition x = Q @ R, Q with orthonormal columns and R upper triangular.

    Args:
        x (Tensor): a float32/float64 matrix [..., m, n].
        mode (str): 'reduced' (default: Q [..., m, k], R [..., k, n], k = min(m, n)), 'complete'
            (Q [..., m, m], R [..., m, n]) or 'r' (R alone).

    Returns:
        (Q, R), or R when mode is 'r'.

    Example:
        >>> q, r = paddle.linalg.qr(paddle.to_tensor([[1., 2.], [3., 4.], [5., 6.]]))
        >>> r.shape    # [2, 2]
    """
    _check_matrix(x, "qr")
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    q, r = ops.qr(x, mode)
    return r if mode == "r" else (q, r)


def eigh(x, UPLO="L", name=None) -> tuple:  # noqa: N803 (Paddle's name)
    """Eigenvalues (ascending) and eigenvectors of a symmetric (Hermitian) matrix.

    Only one triangle of x is read: the lower one for UPLO 'L' (default), the upper one for 'U'.

    Returns:
        (eigenvalues [..., n], real; eigenvectors [..., n, n], as columns, x's dtype).

    Example:
        >>> w, v = paddle.linalg.eigh(paddle.to_tensor([[2., 1.], [1., 2.]]))
        >>> w    # [1., 3.]
    """
    _check_square(x, "eigh")
    return tuple(ops.eigh(x, _check_uplo(UPLO, "eigh")))


def eigvalsh(x, UPLO="L", name=None) -> Tensor:  # noqa: N803 (Paddle's name)
    """The eigenvalues (ascending, real) of a symmetric (Hermitian) matrix, from one triangle as in eigh.

    Example:
        >>> paddle.linalg.eigvalsh(paddle.to_tensor([[2., 1.], [1., 2.]]))    # [1., 3.]
    """
    _check_square(x, "eigvalsh")
    return ops.eigh(x, _check_uplo(UPLO, "eigvalsh"))[0]


def eig(x, name=None) -> tuple:
    """Eigenvalues and eigenvectors of a general square matrix, both complex (complex64 for float32 input,
    complex128 for float64); the eigenvectors are unit columns.

    Example:
        >>> w, v = paddle.linalg.eig(paddle.to_tensor([[2., 0.], [0., 3.]]))
        >>> w    # [2.+0.j, 3.+0.j]
    """
    _check_square(x, "eig")
    return tuple(ops.eig(x))


def eigvals(x, name=None) -> Tensor:
    """The eigenvalues of a general square matrix, complex (no gradient, as in Paddle).

    Example:
        >>> paddle.linalg.eigvals(paddle.to_tensor([[0., 1.], [-1., 0.]]))    # [1j, -1j]
    """
    _check_square(x, "eigvals")
    return ops.eigvals(x)


def lu(x, pivot=True, get_infos=False, name=None) -> tuple:
    """The LU factorization with partial pivoting, packed as LAPACK's getrf: x = P @ L @ U (see lu_unpack).

    Args:
        x (Tensor): a float32/float64 matrix [..., m, n].
        pivot (bool): must be True (LU without pivoting is not available on the CPU, as in Paddle).
        get_infos (bool): also return infos: 0 per matrix, or the 1-based column of the first zero pivot.

    Returns:
        (LU [..., m, n], pivots [..., min(m, n)] int32, 1-based) and, with get_infos, infos (int32, [1] for one
        matrix, the batch shape for a batch).

    Example:
        >>> lu, p = paddle.linalg.lu(paddle.to_tensor([[1., 2.], [3., 4.]]))
        >>> p    # [2, 2]
    """
    _check_matrix(x, "lu")
    if not check_bool(pivot, "lu", "pivot"):
        raise ValueError("lu: lu without pivoting is not implemented on the CPU, but got pivot=False")
    packed, pivots, infos = ops.lu(x)
    return (packed, pivots, infos) if check_bool(get_infos, "lu", "get_infos") else (packed, pivots)


def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None) -> tuple:
    """Unpack lu's result into P [..., m, m], L [..., m, k] and U [..., k, n] with x = P @ L @ U.

    Args:
        x (Tensor): the packed LU from paddle.linalg.lu. y (Tensor): its pivots (int32).
        unpack_ludata (bool): compute L and U (else they are empty). unpack_pivots (bool): compute P.

    Example:
        >>> a = paddle.to_tensor([[1., 2.], [3., 4.]])
        >>> p, l, u = paddle.linalg.lu_unpack(*paddle.linalg.lu(a))
    """
    check_tensor(x, "lu_unpack", "x")
    check_tensor(y, "lu_unpack", "y")
    if x.ndim < 2:
        raise ValueError(f"lu_unpack: x must have shape [..., m, n], got shape {x.shape}")
    if y.ndim < 1:
        raise ValueError(f"lu_unpack: the pivots y must have shape [..., k], got shape {y.shape}")
    _check_matrix(x, "lu_unpack")
    if y.dtype.name != "int32":
        raise ValueError(f"lu_unpack: the pivots y must be int32, got {y.dtype.name}")
    k = min(x.shape[-2:])
    if tuple(y.shape) != tuple(x.shape[:-2]) + (k,):
        raise ValueError(f"lu_unpack: x of shape {x.shape} needs pivots of shape {list(x.shape[:-2]) + [k]}, "
                         f"got {y.shape}")  # fmt: skip
    return tuple(ops.lu_unpack(x, y, check_bool(unpack_ludata, "lu_unpack", "unpack_ludata"),
                               check_bool(unpack_pivots, "lu_unpack", "unpack_pivots")))  # fmt: skip


# ---- solvers -----------------------------------------------------------------------------------------------------


def solve(x, y, name=None) -> Tensor:
    """The solution of x @ out = y for a square, invertible x [..., n, n].

    y is a matrix [..., n, k], or a vector: 1-D [n], or [..., n] when that is exactly x's shape without its
    last axis. Batch axes broadcast. ValueError when x is singular.

    Example:
        >>> paddle.linalg.solve(paddle.to_tensor([[2., 0.], [0., 4.]]), paddle.to_tensor([2., 8.]))    # [1., 2.]
    """
    _check_matrix(x, "solve", square=True)
    check_tensor(y, "solve", "y")
    if y.dtype.name not in _REAL:
        raise TypeError(f"solve: y must be a float32 or float64 tensor, got {y.dtype.name}")
    _check_same_dtype(x, y, "solve")
    check_min_rank(y, 1, "solve", "y")  # a 0-D y is neither a vector nor a matrix of right-hand sides
    vector = y.ndim == 1 or (y.ndim == x.ndim - 1 and tuple(y.shape) == tuple(x.shape[:-1]))
    rhs = ops.reshape(y, tuple(y.shape) + (1,)) if vector else y
    if rhs.shape[-2] != x.shape[-1]:
        raise ValueError(
            f"solve: x has shape {x.shape} and y has shape {y.shape}; y's rows ({rhs.shape[-2]}) must equal "
            f"x's size ({x.shape[-1]})"
        )
    _batch(x, rhs, "solve")
    out = ops.solve(x, rhs)
    return ops.reshape(out, tuple(out.shape[:-1])) if vector else out


def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None) -> Tensor:
    """The solution of x @ out = y (x^T @ out = y with transpose=True) for a triangular x [..., n, n].

    Only x's upper (upper=True, the default) or lower triangle is read; with unitriangular=True its diagonal is
    taken as ones. y is [..., n, k]; batch axes broadcast. A zero on the diagonal gives inf/nan.

    Example:
        >>> x = paddle.to_tensor([[1., 1.], [0., 2.]])
        >>> paddle.linalg.triangular_solve(x, paddle.to_tensor([[3.], [4.]]))    # [[1.], [2.]]
    """
    _check_matrix(x, "triangular_solve", square=True)
    _check_matrix(y, "triangular_solve", "y")
    _check_same_dtype(x, y, "triangular_solve")
    if y.shape[-2] != x.shape[-1]:
        raise ValueError(f"triangular_solve: x has shape {x.shape} and y has shape {y.shape}; y's rows "
                         f"({y.shape[-2]}) must equal x's size ({x.shape[-1]})")  # fmt: skip
    _batch(x, y, "triangular_solve")
    return ops.triangular_solve(
        x,
        y,
        check_bool(upper, "triangular_solve", "upper"),
        check_bool(transpose, "triangular_solve", "transpose"),
        check_bool(unitriangular, "triangular_solve", "unitriangular"),
    )


def cholesky_solve(x, y, upper=False, name=None) -> Tensor:
    """The solution of A @ out = x, where A = y @ y^T is given by its lower Cholesky factor y (upper=True:
    A = y^T @ y with y upper triangular). x is [..., n, k], y [..., n, n]; batch axes broadcast.

    Example:
        >>> low = paddle.to_tensor([[2., 0.], [1., 1.]])    # A = [[4., 2.], [2., 2.]]
        >>> paddle.linalg.cholesky_solve(paddle.to_tensor([[6.], [4.]]), low)    # [[1.], [1.]]
    """
    _check_matrix(x, "cholesky_solve")
    _check_matrix(y, "cholesky_solve", "y", square=True)
    _check_same_dtype(x, y, "cholesky_solve")
    if x.shape[-2] != y.shape[-1]:
        raise ValueError(f"cholesky_solve: x has shape {x.shape} and y has shape {y.shape}; x's rows "
                         f"({x.shape[-2]}) must equal y's size ({y.shape[-1]})")  # fmt: skip
    _batch(x, y, "cholesky_solve")
    return ops.cholesky_solve(x, y, check_bool(upper, "cholesky_solve", "upper"))


_DRIVERS = (None, "gels", "gelsy", "gelsd", "gelss")


def lstsq(x, y, rcond=None, driver=None, name=None) -> tuple:
    """The least-squares solution of x @ out = y (the minimum-norm one when x is rank deficient).

    Args:
        x (Tensor): [..., m, n], float32/float64. y (Tensor): [..., m, k], the same dtype and batch.
        rcond (float): singular values below rcond times the largest count as zero; None: max(m, n) times
            1e-7 (float32) or 1e-15 (float64).
        driver (str): 'gels', 'gelsy' (None: the default), 'gelsd' or 'gelss'. It decides which results come back
            empty, as in Paddle: rank is empty for 'gels', singular_values for all but 'gelsd' and 'gelss'.

    Returns:
        (solution [..., n, k], residuals [..., k] (the squared error per column; empty unless m > n),
        rank [...] int32, singular_values [..., min(m, n)]). No gradient, as in Paddle.

    Example:
        >>> x = paddle.to_tensor([[1., 0.], [0., 1.], [1., 1.]])
        >>> sol, res, rank, sv = paddle.linalg.lstsq(x, paddle.to_tensor([[1.], [1.], [3.]]))
    """
    _check_same_dtype(check_tensor(x, "lstsq", "x"), check_tensor(y, "lstsq", "y"), "lstsq")
    _check_matrix(x, "lstsq")
    _check_matrix(y, "lstsq", "y")
    if driver not in _DRIVERS:
        raise ValueError(f"lstsq: driver must be one of 'gels', 'gelsy', 'gelsd', 'gelss' or None, got {driver!r}")
    if x.shape[-2] != y.shape[-2]:
        raise ValueError(f"lstsq: x of shape {x.shape} and y of shape {y.shape} must have the same number of rows")
    if tuple(x.shape[:-2]) != tuple(y.shape[:-2]):
        raise ValueError(f"lstsq: x of shape {x.shape} and y of shape {y.shape} must have the same batch shape")
    if rcond is None:
        rcond = (1e-7 if x.dtype.name == "float32" else 1e-15) * max(x.shape[-2:])
    elif isinstance(rcond, bool) or not isinstance(rcond, numbers.Real):
        raise TypeError(f"lstsq: rcond must be a float or None, got {type(rcond).__name__}")
    return tuple(ops.lstsq(x, y, float(rcond), driver or "gelsy"))


def pinv(x, rcond=1e-15, hermitian=False, name=None) -> Tensor:
    """The Moore-Penrose pseudo-inverse, through the SVD (hermitian=True: through eigh, reading x's upper
    triangle, as Paddle 2.6 does). Singular values at or below rcond times the largest count as zero.

    Example:
        >>> paddle.linalg.pinv(paddle.to_tensor([[1., 0.], [0., 0.]]))    # [[1., 0.], [0., 0.]]
    """
    if isinstance(rcond, bool) or not isinstance(rcond, numbers.Real):
        raise TypeError(f"pinv: rcond must be a float, got {type(rcond).__name__}")
    if check_bool(hermitian, "pinv", "hermitian"):
        _check_square(x, "pinv")
        s, u = ops.eigh(x, "U")
        v, magnitude = u, ops.abs(s)
    else:
        _check_matrix(x, "pinv")
        u, s, vh = ops.svd(x, False)
        v, magnitude = _t(vh), s
    cutoff = ops.scale(ops.max(magnitude, (magnitude.ndim - 1,), True), float(rcond))
    inverted = ops.where(ops.greater_than(magnitude, cutoff), ops.reciprocal(s), ops.full_like(s, 0.0))
    inverted = ops.reshape(inverted, tuple(s.shape[:-1]) + (1, s.shape[-1]))
    if x.dtype.is_complex:
        inverted = ops.cast(inverted, x.dtype.np)
    return ops.matmul(ops.multiply(v, inverted), ops.conj(u), False, True)


# ---- determinants and rank ---------------------------------------------------------------------------------------


def slogdet(x, name=None) -> Tensor:
    """The sign and the natural log of |det(x)|, stacked in one tensor of shape [2, *batch]; a singular matrix
    gives (0, -inf).

    Example:
        >>> paddle.linalg.slogdet(paddle.to_tensor([[2., 0.], [0., -3.]]))    # [-1., 1.7918]
    """
    return ops.slogdet(_check_matrix(x, "slogdet", square=True))


def matrix_rank(x, tol=None, hermitian=False, name=None) -> Tensor:
    """The rank of a matrix (or of each in a batch): how many singular values (hermitian=True: absolute
    eigenvalues, from x's lower triangle) are greater than tol.

    Args:
        x (Tensor): float32/float64 [..., m, n] (square when hermitian).
        tol (float|Tensor): the threshold, a number or a tensor broadcast over the batch; None: the largest
            singular value times max(m, n) times the dtype's machine epsilon.
        hermitian (bool): x is symmetric.

    Returns:
        int32 Tensor of the batch shape (0-d for one matrix). No gradient.

    Example:
        >>> paddle.linalg.matrix_rank(paddle.to_tensor([[1., 2.], [2., 4.]]))    # 1
    """
    _check_matrix(x, "matrix_rank", square=check_bool(hermitian, "matrix_rank", "hermitian"))
    if isinstance(tol, Tensor):
        if tuple(tol.shape) != ():
            broadcast_shapes(tuple(x.shape[:-2]), tuple(tol.shape), "matrix_rank")
        return ops.matrix_rank(x, ops.cast(tol, x.dtype.np), None, hermitian)
    if tol is not None and (isinstance(tol, bool) or not isinstance(tol, numbers.Real)):
        raise TypeError(f"matrix_rank: tol must be a float, a Tensor or None, got {type(tol).__name__}")
    return ops.matrix_rank(x, None, None if tol is None else float(tol), hermitian)
