"""Matrix decompositions and linear solvers (batched over leading axes): svd, qr, eigh, eig, eigvals, solve,
triangular_solve, cholesky_solve, slogdet, matrix_rank, lstsq, lu, lu_unpack.

The grad rules are the classic matrix-calculus results, as in PyTorch's FunctionsManual and TensorFlow's linalg_grad:
each is written with minipaddle ops, so it serves dynamic backward, double backward and static mode alike.
Shape checks happen in the public functions (minipaddle/tensor/decompositions.py); the kernels trust their inputs.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import broadcast_shapes
from minipaddle.ops.matrix_functions import _h

__all__ = [
    "svd",
    "qr",
    "eigh",
    "eig",
    "eigvals",
    "solve",
    "triangular_solve",
    "cholesky_solve",
    "slogdet",
    "matrix_rank",
    "lstsq",
    "lu",
    "lu_unpack",
]  # the raw op functions; ops/__init__.py gathers them


# ---- helpers for the grad rules ------------------------------------------------------------------------------------


def _row(v: Tensor) -> Tensor:
    """A batch of vectors [..., k] as rows [..., 1, k]: multiplying by it scales a matrix's columns."""
    return ops.reshape(v, tuple(v.shape[:-1]) + (1, v.shape[-1]))


def _col(v: Tensor) -> Tensor:
    """A batch of vectors [..., k] as columns [..., k, 1]: multiplying by it scales a matrix's rows."""
    return ops.reshape(v, tuple(v.shape) + (1,))


def _cols(x: Tensor, start: int, stop: int) -> Tensor:
    return ops.index_view(x, (Ellipsis, slice(None), slice(start, stop)))


def _rows(x: Tensor, start: int, stop: int) -> Tensor:
    return ops.index_view(x, (Ellipsis, slice(start, stop), slice(None)))


def _eye_like(k: int, x: Tensor) -> Tensor:
    return ops.eye(k, k, x.dtype.np)


def _gaps(values: Tensor) -> Tensor:
    """E[i, j] = values[j] - values[i], with ones on the diagonal (where the grad rules divide a zero by it)."""
    return ops.add(ops.subtract(_row(values), _col(values)), _eye_like(values.shape[-1], values))


def _pad_to(x: Tensor, rows: int, cols: int) -> Tensor:
    """x [..., r, c] with zero rows and columns appended up to [..., rows, cols]."""
    lead = ((0, 0),) * (x.ndim - 2)
    return ops.pad(x, lead + ((0, rows - x.shape[-2]), (0, cols - x.shape[-1])))


def _solve_right_upper_h(x: Tensor, r: Tensor) -> Tensor:
    """x R^-H for an upper-triangular R: the transpose of R^-1 x^H."""
    return _h(triangular_solve(r, _h(x), True, False, False))


def _broadcast_pair(a: np.ndarray, b: np.ndarray) -> tuple:
    """Two batches of matrices with their leading (batch) axes broadcast against each other."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:])


# ---- svd -----------------------------------------------------------------------------------------------------------


@register
class Svd(OpDef):
    """x = U diag(S) V^H, singular values largest first (numpy's LAPACK gesdd)."""

    name = "svd"
    amp = "fp32"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x, full_matrices=False):
        u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
        return u, s.astype(x.real.dtype), vh

    def grad(self, node, gu, gs, gvh):
        # Townsend (2016), as in PyTorch's svd_backward, for distinct nonzero singular values:
        #   gA = U [(skew(U^H gU) S + S skew(V^H gV)) / E + diag(gS)] V^H
        #        + (I - U U^H) gU S^-1 V^H + U S^-1 gV^H (I - V V^H),   E[i, j] = s_j^2 - s_i^2.
        # The extra columns of full_matrices=True are not unique; their gradients are dropped (as in Paddle).
        u, s, vh = node.output(0), node.output(1), node.output(2)
        k = s.shape[-1]
        m, n = u.shape[-2], vh.shape[-1]
        if node.attrs["full_matrices"]:
            u, gu = _cols(u, 0, k), _cols(gu, 0, k)
            vh, gvh = _rows(vh, 0, k), _rows(gvh, 0, k)
        uhgu = ops.matmul(_h(u), gu)
        vhgv = ops.matmul(vh, _h(gvh))
        inner = ops.add(
            ops.multiply(ops.subtract(uhgu, _h(uhgu)), _row(s)),
            ops.multiply(_col(s), ops.subtract(vhgv, _h(vhgv))),
        )
        inner = ops.add(ops.divide(inner, _gaps(ops.multiply(s, s))), ops.diag_embed(gs))
        if m > k:  # tall: gU's part outside U's column space
            gu_sinv = ops.divide(gu, _row(s))
            ga = ops.add(ops.matmul(u, inner), ops.subtract(gu_sinv, ops.matmul(u, ops.matmul(_h(u), gu_sinv))))
            return (ops.matmul(ga, vh),)
        if n > k:  # wide: gV's part outside V's column space
            sinv_gvh = ops.divide(gvh, _col(s))
            ga = ops.add(ops.matmul(inner, vh), ops.subtract(sinv_gvh, ops.matmul(ops.matmul(sinv_gvh, _h(vh)), vh)))
            return (ops.matmul(u, ga),)
        return (ops.matmul(ops.matmul(u, inner), vh),)


def svd(x: Tensor, full_matrices: bool = False) -> tuple:
    return apply(Svd, (x,), {"full_matrices": full_matrices})


# ---- qr ------------------------------------------------------------------------------------------------------------


@register
class Qr(OpDef):
    """x = Q R with orthonormal Q and upper-triangular R. mode 'reduced' and 'r' give Q [.., m, k], R [.., k, n]
    (k = min(m, n); 'r' keeps Q for the gradient), 'complete' gives Q [.., m, m], R [.., m, n]."""

    name = "qr"
    amp = "fp32"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x, mode="reduced"):
        return tuple(np.linalg.qr(x, mode="complete" if mode == "complete" else "reduced"))

    def grad(self, node, gq, gr):
        q, r = node.output(0), node.output(1)
        m, n = q.shape[-2], r.shape[-1]
        if m >= n:
            if node.attrs["mode"] == "complete" and m > n:
                raise ValueError(
                    f"qr: the derivative of qr is not implemented when mode='complete' and m ({m}) > n ({n})"
                )
            return (_qr_grad_tall(q, r, gq, gr),)
        # Wide: x = [X | Y] with X square, so Q R_X = X and R = [R_X | Q^H Y]; Y's part is plain, X's is the
        # square case with gQ picking up Y's share (TensorFlow's QrGrad).
        r_x, r_y = _cols(r, 0, m), _cols(r, m, n)
        gr_x, gr_y = _cols(gr, 0, m), _cols(gr, m, n)
        y = ops.matmul(q, r_y)
        gx = _qr_grad_tall(q, r_x, ops.add(gq, ops.matmul(y, _h(gr_y))), gr_x)
        return (ops.concat([gx, ops.matmul(q, gr_y)], -1),)


def _qr_grad_tall(q: Tensor, r: Tensor, gq: Tensor, gr: Tensor) -> Tensor:
    """gA for the reduced QR of a tall (m >= n) matrix, as TensorFlow's QrGrad:
    M = tril(skew(Q^H gQ) + skew(R gR^H)), gA = Q (gR + M R^-H) + (gQ - Q Q^H gQ) R^-H."""
    qdq = ops.matmul(_h(q), gq)
    rdr = ops.matmul(r, _h(gr))
    low = ops.tril(ops.add(ops.subtract(qdq, _h(qdq)), ops.subtract(rdr, _h(rdr))))
    grad_a = ops.matmul(q, ops.add(gr, _solve_right_upper_h(low, r)))
    grad_b = _solve_right_upper_h(ops.subtract(gq, ops.matmul(q, qdq)), r)
    return ops.add(grad_a, grad_b)


def qr(x: Tensor, mode: str = "reduced") -> tuple:
    return apply(Qr, (x,), {"mode": mode})


# ---- eigenvalues -----------------------------------------------------------------------------------------------


@register
class Eigh(OpDef):
    """Eigenvalues (ascending, real) and eigenvectors of a Hermitian matrix, read from its lower triangle
    (UPLO 'L') or, for any other UPLO, its upper one (as Paddle's kernel does)."""

    name = "eigh"
    amp = "fp32"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x, UPLO="L"):  # noqa: N803 (Paddle's name)
        w, v = np.linalg.eigh(x, UPLO="L" if UPLO == "L" else "U")
        return w.astype(x.real.dtype), v

    def grad(self, node, gw, gv):
        # Paddle's eigh_grad: gA = V (skew(V^H gV) / 2E with diag(gw) on the diagonal) V^H, E[i, j] = w_j - w_i.
        w, v = node.output(0), node.output(1)
        vhgv = ops.matmul(_h(v), gv)
        off = ops.divide(ops.scale(ops.subtract(vhgv, _h(vhgv)), 0.5), ops.cast(_gaps(w), v.dtype.np))
        inner = ops.add(
            ops.subtract(off, ops.diag_embed(ops.extract_diagonal(off, 0, -2, -1))),
            ops.diag_embed(ops.cast(gw, v.dtype.np)),
        )
        return (ops.matmul(ops.matmul(v, inner), _h(v)),)


def eigh(x: Tensor, UPLO: str = "L") -> tuple:  # noqa: N803
    return apply(Eigh, (x,), {"UPLO": UPLO})


def _complex_dtype(dtype: np.dtype) -> np.dtype:
    return np.result_type(dtype, np.complex64)


@register
class Eig(OpDef):
    """Eigenvalues and eigenvectors (unit columns) of a general square matrix, always complex."""

    name = "eig"
    amp = "fp32"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        w, v = np.linalg.eig(x)
        c = _complex_dtype(x.dtype)
        return w.astype(c), v.astype(c)

    def grad(self, node, gw, gv):
        # PyTorch's linalg_eig_backward (Paddle's eig_grad is the same formula):
        #   gA = V^-H (diag(gw) + (V^H gV - V^H V diag(Re(V^H gV))) / conj(E)) V^H,  E[i, j] = w_j - w_i.
        # A real input takes the real part.
        w, v = node.output(0), node.output(1)
        vh = _h(v)
        vhgv = ops.matmul(vh, gv)
        diag_re = ops.cast(ops.real(ops.extract_diagonal(vhgv, 0, -2, -1)), v.dtype.np)
        inner = ops.subtract(vhgv, ops.matmul(ops.matmul(vh, v), ops.diag_embed(diag_re)))
        inner = ops.divide(inner, ops.conj(_gaps(w)))
        inner = ops.add(ops.subtract(inner, ops.diag_embed(ops.extract_diagonal(inner, 0, -2, -1))), ops.diag_embed(gw))
        ga = ops.matmul(solve(vh, inner), vh)
        return (ga if node.inputs[0].dtype.is_complex else ops.real(ga),)


def eig(x: Tensor) -> tuple:
    return apply(Eig, (x,))


@register
class Eigvals(OpDef):
    """The eigenvalues of a general square matrix, complex (no gradient, as in Paddle)."""

    name = "eigvals"
    amp = "fp32"
    differentiable = False

    def kernel(self, x):
        return np.linalg.eigvals(x).astype(_complex_dtype(x.dtype))


def eigvals(x: Tensor) -> Tensor:
    return apply(Eigvals, (x,))


# ---- linear systems ----------------------------------------------------------------------------------------------


@register
class Solve(OpDef):
    """The solution of x @ out = y for square x [..., n, n] and y [..., n, k] (batch axes broadcast)."""

    name = "solve"
    amp = "fp32"
    saves_outputs = True

    def kernel(self, x, y):
        try:
            return np.linalg.solve(*_broadcast_pair(x, y))
        except np.linalg.LinAlgError:
            raise ValueError("solve: the matrix x is singular (not invertible)") from None

    def grad(self, node, g):
        # out = A^-1 y: gy = A^-H g, gA = -gy out^H.
        x, y = node.inputs
        gy = solve(_h(x), g)
        gx = ops.neg(ops.matmul(gy, _h(node.output(0)))) if node.needs_grad(0) else None
        return (None if gx is None else ops.unbroadcast(gx, x.shape)), ops.unbroadcast(gy, y.shape)

    def infer_meta(self, x: Meta, y: Meta) -> Meta:
        batch = broadcast_shapes(tuple(x.shape[:-2]), tuple(y.shape[:-2]), "solve")
        return Meta(tuple(batch) + tuple(y.shape[-2:]), x.dtype)


def solve(x: Tensor, y: Tensor) -> Tensor:
    return apply(Solve, (x, y))


def _substitute(a: np.ndarray, b: np.ndarray, upper: bool) -> np.ndarray:
    """Solve a @ out = b for triangular a by substitution, row after row (vectorized over batch and columns).
    Only a's triangle is read; a zero on its diagonal gives inf/nan, as LAPACK's trtrs does."""
    a, b = _broadcast_pair(a, b)
    out = np.zeros(b.shape, dtype=np.result_type(a, b))
    n = a.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n - 1, -1, -1) if upper else range(n):
            done = slice(i + 1, n) if upper else slice(0, i)
            known = np.einsum("...j,...jk->...k", a[..., i, done], out[..., done, :])
            out[..., i, :] = (b[..., i, :] - known) / a[..., i, i, None]
    return out


def _triangle(a: np.ndarray, upper: bool, unit: bool = False) -> np.ndarray:
    t = np.triu(a) if upper else np.tril(a)
    if unit:
        n = a.shape[-1]
        t = t - t * np.eye(n, dtype=a.dtype) + np.eye(n, dtype=a.dtype)
    return t


@register
class TriangularSolve(OpDef):
    """The solution of op(x) @ out = y for triangular x (op: transpose or not; unitriangular: ones on the diagonal,
    which is then not read)."""

    name = "triangular_solve"
    amp = "fp32"
    saves_outputs = True

    def kernel(self, x, y, upper=True, transpose=False, unitriangular=False):
        a = _triangle(x, upper, unitriangular)
        if transpose:
            a, upper = np.swapaxes(a, -1, -2), not upper
        return _substitute(a, y, upper)

    def grad(self, node, g):
        # op(A) out = y: gy = op(A)^-H g; g_op(A) = -gy out^H, transposed back when op is a transpose, and only
        # the triangle that was read gets a gradient.
        x, y = node.inputs
        upper, transpose, unit = node.attrs["upper"], node.attrs["transpose"], node.attrs["unitriangular"]
        gy = triangular_solve(x, g, upper, not transpose, unit)
        gx = None
        if node.needs_grad(0):
            out = node.output(0)
            gx = ops.neg(ops.matmul(out, _h(gy)) if transpose else ops.matmul(gy, _h(out)))
            offset = 1 if unit else 0
            gx = ops.unbroadcast(ops.triu(gx, offset) if upper else ops.tril(gx, -offset), x.shape)
        return gx, ops.unbroadcast(gy, y.shape)


def triangular_solve(x: Tensor, y: Tensor, upper: bool = True, transpose: bool = False, unitriangular: bool = False):
    return apply(TriangularSolve, (x, y), {"upper": upper, "transpose": transpose, "unitriangular": unitriangular})


@register
class CholeskySolve(OpDef):
    """The solution of A @ out = x where A = y y^H (lower y) or y^H y (upper y) is given by its Cholesky factor."""

    name = "cholesky_solve"
    amp = "fp32"
    saves_outputs = True

    def kernel(self, x, y, upper=False):
        low = _triangle(y, upper)
        if upper:
            low = np.conj(np.swapaxes(low, -1, -2))
        half = _substitute(low, x, upper=False)
        return _substitute(np.conj(np.swapaxes(low, -1, -2)), half, upper=True)

    def grad(self, node, g):
        # out = A^-1 b: gb = A^-1 g and gA = -gb out^H; through A = L L^H that is gL = -(G + G^H) L
        # (upper: gU = -U (G + G^H)), on the factor's triangle only.
        x, y = node.inputs
        upper = node.attrs["upper"]
        gx = cholesky_solve(g, y, upper)
        gy = None
        if node.needs_grad(1):
            common = ops.matmul(gx, _h(node.output(0)))
            common = ops.add(common, _h(common))
            factor = ops.triu(y) if upper else ops.tril(y)  # (the other triangle of y is never read)
            gy = ops.neg(ops.triu(ops.matmul(factor, common)) if upper else ops.tril(ops.matmul(common, factor)))
            gy = ops.unbroadcast(gy, y.shape)
        return ops.unbroadcast(gx, x.shape), gy


def cholesky_solve(x: Tensor, y: Tensor, upper: bool = False) -> Tensor:
    return apply(CholeskySolve, (x, y), {"upper": upper})


# ---- determinants and rank ---------------------------------------------------------------------------------------


@register
class Slogdet(OpDef):
    """The sign and log|det| of each matrix, stacked: shape [2, *batch]."""

    name = "slogdet"
    amp = "fp32"

    def kernel(self, x):
        sign, logabs = np.linalg.slogdet(x)
        return np.stack([sign, logabs]).astype(x.dtype)

    def grad(self, node, g):
        # The sign is piecewise constant; d log|det A| / dA = A^-H.
        x = node.inputs[0]
        g_log = ops.reshape(ops.index_view(g, (1,)), tuple(x.shape[:-2]) + (1, 1))
        return (ops.multiply(g_log, _h(ops.inverse(x))),)

    def infer_meta(self, x: Meta) -> Meta:
        return Meta((2,) + tuple(x.shape[:-2]), x.dtype)


def slogdet(x: Tensor) -> Tensor:
    return apply(Slogdet, (x,))


@register
class MatrixRank(OpDef):
    """How many singular values (hermitian: |eigenvalues|, from the lower triangle) exceed the tolerance: `tol`
    (a number, or the optional tensor input broadcast over the batch), or by default
    eps * max(m, n) * the largest singular value. int32, no gradient."""

    name = "matrix_rank"
    amp = "fp32"
    differentiable = False

    def kernel(self, x, tol_tensor, tol=None, hermitian=False):
        if hermitian:
            s = np.abs(np.linalg.eigvalsh(x, UPLO="L"))
        else:
            s = np.linalg.svd(x, compute_uv=False)
        if tol_tensor is not None:
            threshold = np.maximum(tol_tensor.astype(s.dtype), 0)
        elif tol is not None:
            threshold = np.asarray(max(tol, 0.0), dtype=s.dtype)
        else:
            threshold = np.finfo(s.dtype).eps * max(x.shape[-2:]) * s.max(axis=-1, initial=0.0)
        return (s > threshold[..., None]).sum(axis=-1).astype(np.int32)


def matrix_rank(x: Tensor, tol_tensor: Tensor | None = None, tol: float | None = None, hermitian: bool = False):
    return apply(MatrixRank, (x, tol_tensor), {"tol": tol, "hermitian": hermitian})


@register
class Lstsq(OpDef):
    """The minimum-norm least-squares solution of x @ out = y through the SVD, with the residuals (the squared
    error of each column, when m > n), the effective rank and the singular values. The driver only decides
    which of rank and singular values are returned (the others come back empty), as in Paddle. No gradient."""

    name = "lstsq"
    amp = "fp32"
    differentiable = False

    def kernel(self, x, y, rcond=0.0, driver="gelsy"):
        u, s, vh = np.linalg.svd(x, full_matrices=False)
        keep = s > rcond * s.max(axis=-1, initial=0.0, keepdims=True)
        with np.errstate(divide="ignore"):
            s_inv = np.where(keep, 1.0 / s, 0.0).astype(s.dtype)
        solution = np.conj(np.swapaxes(vh, -1, -2)) @ (s_inv[..., None] * (np.conj(np.swapaxes(u, -1, -2)) @ y))
        m, n = x.shape[-2:]
        if m > n:
            residuals = (np.abs(x @ solution - y) ** 2).sum(axis=-2)
        else:
            residuals = np.zeros((0,), x.dtype)
        rank = keep.sum(axis=-1).astype(np.int32) if driver != "gels" else np.zeros((0,), np.int32)
        values = s if driver in ("gelsd", "gelss") else np.zeros((0,), x.dtype)
        return solution.astype(x.dtype), residuals.astype(x.dtype), rank, values


def lstsq(x: Tensor, y: Tensor, rcond: float, driver: str) -> tuple:
    return apply(Lstsq, (x, y), {"rcond": rcond, "driver": driver})


# ---- lu --------------------------------------------------------------------------------------------------------


def _lu_factor(x: np.ndarray) -> tuple:
    """LU with partial pivoting, as LAPACK's getrf: the packed factors (L's unit diagonal not stored), the 1-based
    pivot rows, and info (0, or the 1-based column of the first zero pivot). One step per column, each step
    vectorized over the batch."""
    m, n = x.shape[-2:]
    k = min(m, n)
    a = x.reshape(-1, m, n).copy()
    batch = np.arange(a.shape[0])
    pivots = np.zeros((a.shape[0], k), np.int32)
    info = np.zeros(a.shape[0], np.int32)
    for j in range(k):
        p = j + np.argmax(np.abs(a[:, j:, j]), axis=1)
        pivots[:, j] = p + 1
        a[batch, j], a[batch, p] = a[batch, p], a[batch, j].copy()
        pivot = a[:, j, j]
        zero = pivot == 0
        info = np.where((info == 0) & zero, j + 1, info)
        with np.errstate(divide="ignore", invalid="ignore"):
            a[:, j + 1 :, j] = np.where(zero[:, None], a[:, j + 1 :, j], a[:, j + 1 :, j] / pivot[:, None])
        a[:, j + 1 :, j + 1 :] -= a[:, j + 1 :, j : j + 1] * a[:, j : j + 1, j + 1 :]
    batch_shape = x.shape[:-2]
    return a.reshape(x.shape), pivots.reshape(batch_shape + (k,)), info.reshape(batch_shape or (1,))


def _unpack_factors(lu_data: np.ndarray) -> tuple:
    m, n = lu_data.shape[-2:]
    k = min(m, n)
    low = np.tril(lu_data[..., :, :k], -1) + np.eye(m, k, dtype=lu_data.dtype)
    return low, np.triu(lu_data[..., :k, :])


def _permutation(pivots: np.ndarray, m: int, dtype) -> np.ndarray:
    """The permutation matrix P with x = P L U, from the 1-based row swaps of getrf (applied in order)."""
    k = pivots.shape[-1]
    swaps = pivots.reshape(-1, k).astype(np.int64) - 1
    batch = np.arange(swaps.shape[0])
    perm = np.tile(np.arange(m), (swaps.shape[0], 1))
    for i in range(k):
        j = swaps[:, i]
        perm[batch, i], perm[batch, j] = perm[batch, j], perm[batch, i].copy()
    p = np.zeros((swaps.shape[0], m, m), dtype=dtype)
    p[batch[:, None], perm, np.arange(m)[None, :]] = 1  # row i of L U is row perm[i] of x
    return p.reshape(pivots.shape[:-1] + (m, m))


@register
class Lu(OpDef):
    """The packed LU factorization with partial pivoting: outputs LU, pivots (int32, 1-based), infos (int32)."""

    name = "lu"
    amp = "fp32"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        return _lu_factor(x)

    def grad(self, node, g, g_pivots=None, g_infos=None):
        # PyTorch's linalg_lu_backward, with gL = tril(g, -1) and gU = triu(g) read off the packed gradient.
        lu_data, pivots = node.output(0), node.output(1)
        m, n = lu_data.shape[-2:]
        k = min(m, n)
        p, low, up = lu_unpack(lu_data, pivots, True, True)
        if m == n:
            # gA = P L^-H [tril(L^H gL, -1) + triu(gU U^H)] U^-H
            inner = ops.add(
                ops.tril(ops.matmul(_h(low), ops.tril(g, -1)), -1), ops.triu(ops.matmul(ops.triu(g), _h(up)))
            )
            ga = _solve_left_unit_lower_h(low, _solve_right_upper_h(inner, up))
        elif m < n:
            # wide: A = P L [U1 | U2]
            g_low, g_up = ops.tril(_cols(g, 0, k), -1), ops.triu(g)
            up1 = _cols(up, 0, k)
            inner = ops.subtract(ops.matmul(_h(low), g_low), ops.matmul(g_up, _h(up)))
            inner = _solve_right_upper_h(ops.tril(inner, -1), up1)
            inner = ops.concat([ops.add(inner, _cols(g_up, 0, k)), _cols(g_up, k, n)], -1)
            ga = _solve_left_unit_lower_h(low, inner)
        else:
            # tall: A = P [L1; L2] U
            g_low, g_up = ops.tril(g, -1), ops.triu(_rows(g, 0, k))
            low1 = _rows(low, 0, k)
            inner = ops.subtract(ops.matmul(g_up, _h(up)), ops.matmul(_h(low), g_low))
            inner = _solve_left_unit_lower_h(low1, ops.triu(inner))
            inner = ops.concat([ops.add(inner, _rows(g_low, 0, k)), _rows(g_low, k, m)], -2)
            ga = _solve_right_upper_h(inner, up)
        return (ops.matmul(p, ga),)


def _solve_left_unit_lower_h(low: Tensor, x: Tensor) -> Tensor:
    """L^-H x for a unit lower-triangular L (L^H is unit upper-triangular)."""
    return triangular_solve(low, x, False, True, True)


def lu(x: Tensor) -> tuple:
    return apply(Lu, (x,))


@register
class LuUnpack(OpDef):
    """P, L, U from the packed LU and its pivots (x = P L U). An output not asked for is an empty float32 tensor,
    as in Paddle."""

    name = "lu_unpack"
    amp = "fp32"
    saves_inputs = False

    def kernel(self, x, pivots, unpack_ludata=True, unpack_pivots=True):
        empty = np.zeros((0,), np.float32)
        low, up = _unpack_factors(x) if unpack_ludata else (empty, empty)
        p = _permutation(pivots, x.shape[-2], x.dtype) if unpack_pivots else empty
        return p, low, up

    def grad(self, node, g_p, g_low, g_up):
        # The packed x holds L below its diagonal and U on and above it.
        if not node.attrs["unpack_ludata"]:
            return None, None
        m, n = node.inputs[0].shape[-2:]
        k = min(m, n)
        g_low = _pad_to(ops.tril(g_low, -1), m, n) if n > k else ops.tril(g_low, -1)
        g_up = _pad_to(ops.triu(g_up), m, n) if m > k else ops.triu(g_up)
        return ops.add(g_low, g_up), None


def lu_unpack(x: Tensor, pivots: Tensor, unpack_ludata: bool = True, unpack_pivots: bool = True) -> tuple:
    return apply(LuUnpack, (x, pivots), {"unpack_ludata": unpack_ludata, "unpack_pivots": unpack_pivots})
