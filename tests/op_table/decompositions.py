"""Op-table section: matrix decompositions, solvers and statistics of paddle.linalg (svd, qr, eigh, eigvalsh, eig,
eigvals, solve, triangular_solve, cholesky_solve, lstsq, pinv, slogdet, matrix_rank, lu, lu_unpack, cov, corrcoef).

A decomposition's factors are unique only up to signs (phases) of paired columns and rows, so the entries check
combinations that do not depend on that choice: U diag(c) V^H, the squares of U's and V's entries, |v|^2 of
eigenvectors. Every factor still takes part, so every part of each grad rule is checked.
"""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, r
from tests.op_table.linalg import well_conditioned


def _swap(a):
    return np.swapaxes(a, -1, -2)


def _weights(k: int) -> np.ndarray:
    """Distinct constants (1, 2, ..., k): U diag(c) V^H is sign-invariant but still depends on U and V."""
    return np.arange(1.0, k + 1.0)


def _flat_np(*parts):
    return np.concatenate([np.asarray(p).reshape(-1) for p in parts])


def _flat(*parts):
    return paddle.concat([p.flatten() for p in parts])


def _const(values, like):
    return paddle.to_tensor(values, dtype=like.dtype)


def distinct_spectrum(rng, *shape):
    """Matrices whose singular values (and eigenvalues when square) are well apart: Q1 diag(3, 2, 1, ...) Q2 + noise."""
    m, n = shape[-2:]
    k = min(m, n)
    q1 = np.linalg.qr(rng.standard_normal(shape[:-2] + (m, m)))[0][..., :, :k]
    q2 = np.linalg.qr(rng.standard_normal(shape[:-2] + (n, n)))[0][..., :k, :]
    return (q1 * np.linspace(3.0, 1.0, k)) @ q2 + 0.01 * r(rng, *shape)


# ---- svd, qr ---------------------------------------------------------------------------------------------------


def svd_parts(x, full_matrices=False):
    u, s, vh = paddle.linalg.svd(x, full_matrices=full_matrices)
    k = s.shape[-1]
    uk = u[..., :, :k]
    vk = vh[..., :k, :]
    mixed = paddle.matmul(uk * _const(_weights(k), x), vk)
    return _flat(s, mixed, uk * uk, vk * vk)  # (full_matrices' extra columns are not unique)


def svd_parts_ref(x, full_matrices=False):
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    k = s.shape[-1]
    uk, vk = u[..., :, :k], vh[..., :k, :]
    return _flat_np(s, (uk * _weights(k)) @ vk, uk * uk, vk * vk).astype(x.dtype)


def svd_samples(rng):
    return [
        Sample((distinct_spectrum(rng, 4, 3),), {}, "tall"),
        Sample((distinct_spectrum(rng, 3, 5),), {}, "wide"),
        Sample((distinct_spectrum(rng, 3, 3),), {}, "square"),
        Sample((distinct_spectrum(rng, 2, 4, 3),), {}, "batched"),
        Sample((distinct_spectrum(rng, 3, 4),), {"full_matrices": True}, "full_matrices"),
    ]


def qr_parts(x, mode="reduced"):
    if mode == "r":
        rr = paddle.linalg.qr(x, mode="r")
        return rr * rr
    q, rr = paddle.linalg.qr(x, mode=mode)
    k = q.shape[-1]
    return _flat(paddle.matmul(q * _const(_weights(k), x), rr), q * q, rr * rr)


def qr_parts_ref(x, mode="reduced"):
    if mode == "r":
        rr = np.linalg.qr(x, mode="r")
        return rr * rr
    q, rr = np.linalg.qr(x, mode=mode)
    return _flat_np((q * _weights(q.shape[-1])) @ rr, q * q, rr * rr).astype(x.dtype)


def qr_samples(rng):
    return [
        Sample((distinct_spectrum(rng, 4, 3),), {}, "tall"),
        Sample((distinct_spectrum(rng, 3, 3),), {}, "square"),
        Sample((distinct_spectrum(rng, 3, 5),), {}, "wide"),
        Sample((distinct_spectrum(rng, 2, 4, 3),), {}, "batched"),
        Sample((distinct_spectrum(rng, 4, 3),), {"mode": "r"}, "mode r"),
        Sample((distinct_spectrum(rng, 3, 4),), {"mode": "complete"}, "complete, wide"),
    ]


# ---- eigenvalues -------------------------------------------------------------------------------------------------


def _sym(x):
    return x + x.transpose(list(range(x.ndim - 2)) + [x.ndim - 1, x.ndim - 2])


def eigh_parts(x, UPLO="L"):  # noqa: N803
    """eigh of the symmetric x + x^T (so gradcheck may move every entry of x)."""
    w, v = paddle.linalg.eigh(_sym(x), UPLO)
    n = w.shape[-1]
    return _flat(w, paddle.matmul(v * _const(_weights(n), x), v, transpose_y=True), v * v)


def eigh_parts_ref(x, UPLO="L"):  # noqa: N803
    w, v = np.linalg.eigh(x + _swap(x), UPLO)
    return _flat_np(w, (v * _weights(w.shape[-1])) @ _swap(v), v * v).astype(x.dtype)


def eigh_samples(rng):
    return [
        Sample((distinct_spectrum(rng, 3, 3),), {}, "L"),
        Sample((distinct_spectrum(rng, 4, 4),), {"UPLO": "U"}, "U"),
        Sample((distinct_spectrum(rng, 2, 3, 3),), {}, "batched"),
    ]


def eig_parts(x):
    """Eigenvalues and the squared magnitudes of the (unit) eigenvectors: both independent of each
    eigenvector's phase."""
    w, v = paddle.linalg.eig(x)
    return _flat(paddle.real(w), paddle.imag(w), paddle.real(v * paddle.conj(v)))


def eig_parts_ref(x):
    w, v = np.linalg.eig(x)
    return _flat_np(w.real, w.imag, np.abs(v) ** 2).astype(x.dtype)


def eig_samples(rng):
    rotation = np.array([[0.0, -2.0, 0.1], [2.0, 0.0, 0.2], [0.0, 0.3, 1.0]])  # a complex pair and a real one
    return [
        Sample((distinct_spectrum(rng, 3, 3) + np.diag([2.0, 0.0, -2.0]),), {}, "real eigenvalues"),
        Sample((rotation + 0.1 * r(rng, 3, 3),), {}, "complex pair"),
        Sample((distinct_spectrum(rng, 2, 3, 3) + np.diag([2.0, 0.0, -2.0]),), {}, "batched"),
    ]


def eigvals_ref(x):
    return np.linalg.eigvals(x).astype(np.result_type(x.dtype, np.complex64))


# ---- solvers -----------------------------------------------------------------------------------------------------


def solve_ref(x, y):
    if y.ndim == 1 or (y.ndim == x.ndim - 1 and y.shape == x.shape[:-1]):
        return np.linalg.solve(x, y[..., None])[..., 0]
    return np.linalg.solve(x, y)


def solve_samples(rng):
    return [
        Sample((well_conditioned(rng, 3, 3), r(rng, 3, 2)), {}, "matrix"),
        Sample((well_conditioned(rng, 3, 3), r(rng, 3)), {}, "vector"),
        Sample((well_conditioned(rng, 2, 3, 3), r(rng, 3, 2)), {}, "broadcast y"),
        Sample((well_conditioned(rng, 3, 3), r(rng, 2, 3, 1)), {}, "broadcast x"),
        Sample((well_conditioned(rng, 2, 3, 3), r(rng, 2, 3)), {}, "batch of vectors"),
    ]


def triangular_ref(x, y, upper=True, transpose=False, unitriangular=False):
    a = np.triu(x) if upper else np.tril(x)
    if unitriangular:
        a = a - a * np.eye(x.shape[-1]) + np.eye(x.shape[-1])
    a = _swap(a) if transpose else a
    a, y = np.broadcast_arrays(a, y[..., :1, :1])[0], y
    return np.linalg.solve(a, np.broadcast_to(y, a.shape[:-2] + y.shape[-2:])).astype(x.dtype)


def triangular_samples(rng):
    return [
        Sample((well_conditioned(rng, 3, 3), r(rng, 3, 2)), {}, "upper"),
        Sample((well_conditioned(rng, 3, 3), r(rng, 3, 2)), {"upper": False}, "lower"),
        Sample((well_conditioned(rng, 3, 3), r(rng, 3, 2)), {"transpose": True}, "transpose"),
        Sample((well_conditioned(rng, 3, 3), r(rng, 3, 1)), {"upper": False, "unitriangular": True}, "unit"),
        Sample((well_conditioned(rng, 2, 3, 3), r(rng, 3, 2)), {"transpose": True, "unitriangular": True},
               "broadcast, transpose, unit"),
        Sample((well_conditioned(rng, 3, 3), r(rng, 2, 3, 2)), {"upper": False}, "broadcast x"),
    ]  # fmt: skip


def cholesky_solve_ref(x, y, upper=False):
    low = _swap(np.triu(y)) if upper else np.tril(y)
    a = low @ _swap(low)
    a = np.broadcast_to(a, np.broadcast_shapes(a.shape[:-2], x.shape[:-2]) + a.shape[-2:])
    return np.linalg.solve(a, np.broadcast_to(x, a.shape[:-2] + x.shape[-2:])).astype(x.dtype)


def cholesky_solve_samples(rng):
    return [
        Sample((r(rng, 3, 2), well_conditioned(rng, 3, 3)), {}, "lower"),
        Sample((r(rng, 3, 2), well_conditioned(rng, 3, 3)), {"upper": True}, "upper"),
        Sample((r(rng, 2, 3, 1), well_conditioned(rng, 3, 3)), {}, "broadcast y"),
        Sample((r(rng, 3, 2), well_conditioned(rng, 2, 3, 3)), {"upper": True}, "broadcast x"),
    ]


def lstsq_part(i):
    def fn(x, y, **kw):
        return paddle.linalg.lstsq(x, y, **kw)[i]

    return fn


def lstsq_ref(i):
    def ref(x, y, rcond=None, driver=None):
        m, n = x.shape[-2:]
        rcond = (1e-7 if x.dtype == np.float32 else 1e-15) * max(m, n) if rcond is None else rcond
        s = np.linalg.svd(x, compute_uv=False)
        keep = s > rcond * s.max(-1, keepdims=True)
        solution = np.linalg.pinv(x, rcond=rcond) @ y
        residuals = ((x @ solution - y) ** 2).sum(-2) if m > n else np.zeros(0)
        rank = keep.sum(-1).astype(np.int32) if driver != "gels" else np.zeros(0, np.int32)
        values = s if driver in ("gelsd", "gelss") else np.zeros(0)
        out = (solution, residuals, rank, values)[i]
        return out if out.dtype.kind == "i" else out.astype(x.dtype)

    return ref


def lstsq_samples(rng):
    deficient = r(rng, 5, 3)
    deficient[:, 2] = deficient[:, 1]
    return [
        Sample((r(rng, 5, 3), r(rng, 5, 2)), {}, "tall"),
        Sample((r(rng, 3, 5), r(rng, 3, 2)), {"driver": "gelsd"}, "wide, gelsd"),
        Sample((deficient, r(rng, 5, 2)), {"driver": "gelss"}, "rank deficient, gelss"),
        Sample((r(rng, 2, 5, 3), r(rng, 2, 5, 1)), {"driver": "gels"}, "batched, gels"),
        Sample((deficient, r(rng, 5, 2)), {"rcond": 0.5, "driver": "gelsd"}, "rcond"),
    ]


# ---- pinv, slogdet, matrix_rank ------------------------------------------------------------------------------------


def pinv_fn(x, rcond=1e-15, hermitian=False):
    return paddle.linalg.pinv(_sym(x) if hermitian else x, rcond=rcond, hermitian=hermitian)


def pinv_ref(x, rcond=1e-15, hermitian=False):
    return np.linalg.pinv(x + _swap(x) if hermitian else x, rcond=rcond).astype(x.dtype)


def pinv_samples(rng):
    return [
        Sample((distinct_spectrum(rng, 4, 3),), {}, "tall"),
        Sample((distinct_spectrum(rng, 3, 4),), {}, "wide"),
        Sample((distinct_spectrum(rng, 2, 3, 3),), {}, "batched"),
        Sample((distinct_spectrum(rng, 3, 3),), {"hermitian": True}, "hermitian"),
    ]


def slogdet_ref(x):
    sign, logabs = np.linalg.slogdet(x)
    return np.stack([sign, logabs]).astype(x.dtype)


def matrix_rank_samples(rng):
    low_rank = r(rng, 2, 4, 2) @ r(rng, 2, 2, 4)
    spread = np.diag([3.0, 1.0, 0.3, 1e-3])
    return [
        Sample((low_rank,), {}, "default tol, batched"),
        Sample((spread,), {"tol": 0.5}, "tol"),
        Sample((spread + spread.T,), {"hermitian": True}, "hermitian"),
        Sample((np.stack([spread, spread]), np.array([0.1, 2.0])), {}, "tensor tol per matrix"),
        Sample((r(rng, 3, 5),), {}, "wide"),
    ]


def matrix_rank_fn(x, tol=None, hermitian=False):
    return paddle.linalg.matrix_rank(x, tol=tol, hermitian=hermitian)


def matrix_rank_ref(x, tol=None, hermitian=False):
    s = np.abs(np.linalg.eigvalsh(x)) if hermitian else np.linalg.svd(x, compute_uv=False)
    if tol is None:
        tol = np.finfo(x.dtype).eps * max(x.shape[-2:]) * s.max(-1)
    return (s > np.asarray(tol)[..., None]).sum(-1).astype(np.int32)


# ---- lu ------------------------------------------------------------------------------------------------------


def np_lu(x):
    """LU with partial pivoting, one matrix at a time (the slow, obvious way): packed LU, 1-based pivots."""
    m, n = x.shape[-2:]
    flat = x.reshape(-1, m, n)
    packed, pivots = np.empty_like(flat), np.empty((flat.shape[0], min(m, n)), np.int32)
    for b, a in enumerate(flat):
        a = a.copy()
        for j in range(min(m, n)):
            p = j + int(np.argmax(np.abs(a[j:, j])))
            pivots[b, j] = p + 1
            a[[j, p]] = a[[p, j]]
            a[j + 1 :, j] /= a[j, j]
            a[j + 1 :, j + 1 :] -= np.outer(a[j + 1 :, j], a[j, j + 1 :])
        packed[b] = a
    return packed.reshape(x.shape), pivots.reshape(x.shape[:-2] + (min(m, n),))


def lu_samples(rng):
    return [
        Sample((r(rng, 3, 3),), {}, "square"),
        Sample((r(rng, 4, 3),), {}, "tall"),
        Sample((r(rng, 3, 5),), {}, "wide"),
        Sample((r(rng, 2, 3, 3),), {}, "batched"),
    ]


def lu_unpack_parts(x):
    p, low, up = paddle.linalg.lu_unpack(*paddle.linalg.lu(x))
    return _flat(p, low, up)


def lu_unpack_parts_ref(x):
    packed, pivots = np_lu(x)
    m, n = x.shape[-2:]
    k = min(m, n)
    low = np.tril(packed[..., :, :k], -1) + np.eye(m, k)
    up = np.triu(packed[..., :k, :])
    p = _perm_ref(pivots, m)
    return _flat_np(p, low, up).astype(x.dtype)


def _perm_ref(pivots, m):
    flat = pivots.reshape(-1, pivots.shape[-1])
    out = np.empty((flat.shape[0], m, m))
    for b, piv in enumerate(flat):
        rows = np.eye(m)
        for i, p in enumerate(piv):
            rows[[i, p - 1]] = rows[[p - 1, i]]
        out[b] = rows.T  # x = P L U with P the transposed row permutation
    return out.reshape(pivots.shape[:-1] + (m, m))


# ---- cov, corrcoef -----------------------------------------------------------------------------------------------


def cov_ref(x, rowvar=True, ddof=True, fweights=None, aweights=None):
    out = np.cov(x, rowvar=rowvar or x.shape[0] == 1, ddof=int(ddof), fweights=fweights, aweights=aweights)
    return np.asarray(out, dtype=x.dtype)


def cov_samples(rng):
    return [
        Sample((r(rng, 3, 5),), {}, "rows"),
        Sample((r(rng, 5, 3),), {"rowvar": False}, "columns"),
        Sample((r(rng, 3, 5),), {"ddof": False}, "biased"),
        Sample((r(rng, 6),), {}, "1-d"),
        Sample((r(rng, 3, 5),), {"fweights": np.array([1, 2, 1, 3, 1])}, "fweights"),
        Sample((r(rng, 3, 5),), {"aweights": rng.uniform(0.5, 2.0, 5)}, "aweights"),
        Sample((r(rng, 2, 4),), {"fweights": np.array([2, 1, 1, 3]), "aweights": rng.uniform(0.5, 2.0, 4),
                                 "ddof": False}, "both weights"),
    ]  # fmt: skip


def cov_fn(x, fweights=None, aweights=None, **kw):
    weights = {}
    if fweights is not None:
        weights["fweights"] = paddle.to_tensor(fweights)
    if aweights is not None:
        weights["aweights"] = paddle.to_tensor(aweights, dtype=x.dtype)
    return paddle.linalg.cov(x, **kw, **weights)


def corrcoef_ref(x, rowvar=True):
    return np.asarray(np.clip(np.corrcoef(x, rowvar=rowvar), -1, 1), dtype=x.dtype)


ENTRIES: list[OpInfo] = [
    OpInfo("svd", svd_parts, svd_parts_ref, svd_samples, atol=1e-5, rtol=1e-4),
    OpInfo("qr", qr_parts, qr_parts_ref, qr_samples, atol=1e-5, rtol=1e-4),
    OpInfo("eigh", eigh_parts, eigh_parts_ref, eigh_samples, atol=1e-5, rtol=1e-4),
    OpInfo("eigvalsh", lambda x, **kw: paddle.linalg.eigvalsh(_sym(x), **kw),
           lambda x, UPLO="L": np.linalg.eigvalsh(x + _swap(x), UPLO).astype(x.dtype),  # noqa: N803
           lambda rng: [Sample((distinct_spectrum(rng, 3, 3),)),
                        Sample((distinct_spectrum(rng, 3, 3),), {"UPLO": "U"})]),
    OpInfo("eig", eig_parts, eig_parts_ref, eig_samples, atol=1e-5, rtol=1e-4),
    OpInfo("eigvals", paddle.linalg.eigvals, eigvals_ref,
           lambda rng: [Sample((r(rng, 3, 3),)), Sample((r(rng, 2, 4, 4),))], grad=False),
    OpInfo("solve", paddle.linalg.solve, solve_ref, solve_samples, double_grad=True, atol=1e-5, rtol=1e-4),
    OpInfo("triangular_solve", paddle.linalg.triangular_solve, triangular_ref, triangular_samples,
           double_grad=True, atol=1e-5, rtol=1e-4),
    OpInfo("cholesky_solve", paddle.linalg.cholesky_solve, cholesky_solve_ref, cholesky_solve_samples,
           atol=1e-5, rtol=1e-4),
    OpInfo("lstsq_solution", lstsq_part(0), lstsq_ref(0), lstsq_samples, grad=False, atol=1e-5, rtol=1e-4),
    OpInfo("lstsq_residuals", lstsq_part(1), lstsq_ref(1), lstsq_samples, grad=False, atol=1e-5, rtol=1e-4),
    OpInfo("lstsq_rank", lstsq_part(2), lstsq_ref(2), lstsq_samples, grad=False),
    OpInfo("lstsq_singular_values", lstsq_part(3), lstsq_ref(3), lstsq_samples, grad=False, atol=1e-5, rtol=1e-4),
    OpInfo("pinv", pinv_fn, pinv_ref, pinv_samples, atol=1e-5, rtol=1e-4),
    OpInfo("slogdet", paddle.linalg.slogdet, slogdet_ref,
           lambda rng: [Sample((well_conditioned(rng, 3, 3),)), Sample((r(rng, 2, 3, 3),))], double_grad=True),
    OpInfo("matrix_rank", matrix_rank_fn, matrix_rank_ref, matrix_rank_samples, grad=False),
    OpInfo("lu", lambda x: paddle.linalg.lu(x)[0], lambda x: np_lu(x)[0], lu_samples, atol=1e-5, rtol=1e-4),
    OpInfo("lu_pivots", lambda x: paddle.linalg.lu(x)[1], lambda x: np_lu(x)[1], lu_samples, grad=False),
    OpInfo("lu_unpack", lu_unpack_parts, lu_unpack_parts_ref, lu_samples, atol=1e-5, rtol=1e-4),
    OpInfo("cov", cov_fn, cov_ref, cov_samples),
    OpInfo("corrcoef", paddle.linalg.corrcoef, corrcoef_ref,
           lambda rng: [Sample((r(rng, 3, 5),)), Sample((r(rng, 5, 3),), {"rowvar": False}),
                        Sample((r(rng, 4),), {}, "1-d")]),
]  # fmt: skip
