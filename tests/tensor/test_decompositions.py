"""paddle.linalg's decompositions, solvers and statistics: where they are reached, output shapes and dtypes, edge
cases and argument errors, as measured on paddle 2.6 (values and gradients are checked in tests/op_table)."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle

T = paddle.to_tensor
LA = paddle.linalg


def test_where_the_functions_live():
    # Paddle 2.6: all in paddle.linalg; eigvalsh also at the top level; some are Tensor methods, some not.
    for name in ("svd", "qr", "eigh", "eigvalsh", "eig", "eigvals", "solve", "triangular_solve", "cholesky_solve",
                 "lstsq", "pinv", "slogdet", "matrix_rank", "lu", "lu_unpack", "cov", "corrcoef"):  # fmt: skip
        assert callable(getattr(LA, name)) and name in LA.__all__
    assert paddle.eigvalsh is LA.eigvalsh
    for name in ("svd", "qr", "eigh", "solve", "lu", "cov"):
        assert not hasattr(paddle, name)
    for name in ("qr", "eigvalsh", "eig", "eigvals", "solve", "cholesky_solve", "lstsq", "pinv", "lu", "lu_unpack",
                 "cov", "corrcoef"):  # fmt: skip
        assert hasattr(paddle.Tensor, name)
    for name in ("svd", "eigh", "triangular_solve", "slogdet", "matrix_rank"):
        assert not hasattr(paddle.Tensor, name)
    x = T([[2.0, 1.0], [1.0, 2.0]])
    np.testing.assert_allclose(x.eigvalsh().numpy(), [1.0, 3.0], rtol=1e-6)
    np.testing.assert_allclose(x.solve(T([3.0, 3.0])).numpy(), [1.0, 1.0], rtol=1e-6)


def test_svd_and_qr_shapes():
    x = T(np.random.default_rng(0).random((2, 3, 5)))
    assert [t.shape for t in LA.svd(x)] == [[2, 3, 3], [2, 3], [2, 3, 5]]
    assert [t.shape for t in LA.svd(x, full_matrices=True)] == [[2, 3, 3], [2, 3], [2, 5, 5]]
    tall = T(np.random.default_rng(1).random((4, 3)).astype("float32"))
    q, r = LA.qr(tall)
    assert (q.shape, r.shape, q.dtype, r.dtype) == ([4, 3], [3, 3], paddle.float32, paddle.float32)
    q, r = LA.qr(tall, mode="complete")
    assert (q.shape, r.shape) == ([4, 4], [4, 3])
    r = LA.qr(tall, mode="r")
    assert isinstance(r, paddle.Tensor) and r.shape == [3, 3]


def test_qr_complete_tall_has_no_gradient():
    x = T(np.random.default_rng(2).random((4, 3)), stop_gradient=False)
    q, r = LA.qr(x, mode="complete")
    with pytest.raises(ValueError, match="complete"):
        (q.sum() + r.sum()).backward()


def test_eigen_dtypes_and_gradient_flags():
    a = np.array([[2.0, 1.0], [0.5, 3.0]], dtype="float32")
    w, v = LA.eig(T(a, stop_gradient=False))
    assert (w.dtype, v.dtype, w.stop_gradient) == (paddle.complex64, paddle.complex64, False)
    vals = LA.eigvals(T(a, stop_gradient=False))
    assert vals.dtype == paddle.complex64 and vals.stop_gradient  # no gradient, as in Paddle
    np.testing.assert_allclose(np.sort(vals.numpy().real), np.sort(np.linalg.eigvals(a).real), rtol=1e-5)
    w, v = LA.eigh(T(a.astype("float64")))
    assert (w.dtype, v.dtype) == (paddle.float64, paddle.float64)


def test_eigh_reads_one_triangle():
    a = np.array([[1.0, 5.0], [2.0, 1.0]])
    np.testing.assert_allclose(LA.eigvalsh(T(a)).numpy(), np.linalg.eigvalsh(np.array([[1.0, 2.0], [2.0, 1.0]])))
    np.testing.assert_allclose(LA.eigvalsh(T(a), "U").numpy(), np.linalg.eigvalsh(np.array([[1.0, 5.0], [5.0, 1.0]])))


def test_solve_vector_and_batch_rules():
    x = T(np.eye(3) * 2 + 0.1)
    assert LA.solve(x, T(np.ones(3))).shape == [3]
    xb = T(np.stack([np.eye(3) * 2, np.eye(3) * 4]))
    assert LA.solve(xb, T(np.ones((2, 3)))).shape == [2, 3]  # a batch of vectors: y is x's shape without its last axis
    assert LA.solve(xb, T(np.ones((3, 1)))).shape == [2, 3, 1]
    assert LA.solve(x, T(np.ones((4, 3, 1)))).shape == [4, 3, 1]
    with pytest.raises(ValueError, match="solve"):
        LA.solve(xb, T(np.ones((4, 3))))  # a matrix with 4 rows
    with pytest.raises(ValueError, match="singular"):
        LA.solve(T(np.ones((3, 3))), T(np.ones((3, 1))))
    with pytest.raises(ValueError, match="same dtype"):
        LA.solve(T(np.eye(2, dtype="float32")), T(np.ones((2, 1))))
    with pytest.raises(TypeError, match="float32 or float64"):
        LA.solve(T(np.eye(2, dtype="int64")), T(np.ones((2, 1), dtype="int64")))
    with pytest.raises(ValueError, match="square"):
        LA.solve(T(np.ones((3, 4))), T(np.ones((3, 1))))


def test_triangular_solve_zero_pivot_gives_inf():
    # Substitution as LAPACK's trtrs: a zero on the diagonal divides by zero, no error (as Paddle).
    x = np.array([[1.0, 2.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 2.0]])
    out = LA.triangular_solve(T(x), T(np.array([[1.0], [3.0], [2.0]]))).numpy()
    assert out[2, 0] == 1.0 and np.isinf(out[1, 0]) and np.isinf(out[0, 0])


def test_cholesky_solve_matches_a_direct_solve():
    low = np.array([[2.0, 0.0], [1.0, 1.0]])
    b = np.array([[6.0], [4.0]])
    np.testing.assert_allclose(LA.cholesky_solve(T(b), T(low)).numpy(), [[1.0], [1.0]])
    np.testing.assert_allclose(LA.cholesky_solve(T(b), T(low.T), upper=True).numpy(), [[1.0], [1.0]])


def test_lstsq_outputs_depend_on_the_driver():
    x, y = T(np.random.default_rng(3).random((5, 3))), T(np.random.default_rng(4).random((5, 2)))
    sol, res, rank, sv = LA.lstsq(x, y)
    assert (sol.shape, res.shape, rank.shape, sv.shape) == ([3, 2], [2], [], [0])
    assert rank.dtype == paddle.int32 and int(rank) == 3
    assert all(t.stop_gradient for t in LA.lstsq(T(x.numpy(), stop_gradient=False), y))  # no gradient in Paddle
    _, _, rank, sv = LA.lstsq(x, y, driver="gels")
    assert (rank.shape, sv.shape) == ([0], [0])
    _, res, _, sv = LA.lstsq(T(x.numpy().T), T(np.ones((3, 1))), driver="gelsd")
    assert (res.shape, sv.shape) == ([0], [3])  # no residuals when m <= n
    with pytest.raises(ValueError, match="driver"):
        LA.lstsq(x, y, driver="foo")
    with pytest.raises(ValueError, match="matrix"):
        LA.lstsq(x, T(np.ones(5)))
    with pytest.raises(ValueError, match="same dtype"):
        LA.lstsq(x, T(np.ones((5, 1), dtype="float32")))


def test_pinv_drops_small_singular_values_and_reads_the_upper_triangle_when_hermitian():
    s = np.diag([1.0, 1e-16, 0.0])
    np.testing.assert_allclose(LA.pinv(T(s)).numpy(), np.diag([1.0, 0.0, 0.0]))
    np.testing.assert_allclose(LA.pinv(T(s), rcond=1e-20).numpy(), np.diag([1.0, 1e16, 0.0]))
    a = np.array([[2.0, 1.0], [7.0, 3.0]])  # Paddle 2.6's hermitian pinv reads the upper triangle
    np.testing.assert_allclose(LA.pinv(T(a), hermitian=True).numpy(), np.linalg.inv([[2.0, 1.0], [1.0, 3.0]]))


def test_slogdet_stacks_sign_and_log():
    out = LA.slogdet(T([[2.0, 0.0], [0.0, -3.0]]))
    np.testing.assert_allclose(out.numpy(), [-1.0, np.log(6.0)])
    np.testing.assert_array_equal(LA.slogdet(T(np.ones((3, 3)))).numpy(), [0.0, -np.inf])
    assert LA.slogdet(T(np.ones((4, 2, 2)))).shape == [2, 4]


def test_matrix_rank_tolerances():
    d = T(np.diag([1.0, 1e-10, 1e-17]))
    assert LA.matrix_rank(d).dtype == paddle.int32 and int(LA.matrix_rank(d)) == 2
    assert int(LA.matrix_rank(T(np.diag([1.0, 1e-17])), tol=0.0)) == 2  # a given tol replaces the default one
    assert int(LA.matrix_rank(T(np.diag([1.0, 1e-10, 0.0])), tol=-1.0)) == 2
    assert int(LA.matrix_rank(T([[1.0, 0.0], [1.0, 1.0]]), hermitian=True)) == 1  # reads the lower triangle
    batch = T(np.stack([np.diag([3.0, 1.0, 0.3]), np.diag([3.0, 1.0, 0.3])]))
    np.testing.assert_array_equal(LA.matrix_rank(batch, tol=T([0.5, 2.0])).numpy(), [2, 1])
    with pytest.raises(ValueError, match="square"):
        LA.matrix_rank(T(np.ones((3, 5))), hermitian=True)


def test_lu_pivots_infos_and_unpack():
    # Values measured on paddle 2.6 (LAPACK getrf): a singular matrix reports its first zero pivot in infos.
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 1.0, 1.0]])
    packed, pivots, infos = LA.lu(T(a), get_infos=True)
    np.testing.assert_allclose(packed.numpy(), [[2.0, 4.0, 6.0], [0.5, -1.0, -2.0], [0.5, 0.0, 0.0]])
    assert pivots.dtype == paddle.int32 and pivots.numpy().tolist() == [2, 3, 3]
    assert infos.shape == [1] and infos.numpy().tolist() == [3]
    assert LA.lu(T(np.zeros((2, 3, 3))), get_infos=True)[2].numpy().tolist() == [1, 1]
    p, low, up = LA.lu_unpack(packed, pivots)
    np.testing.assert_allclose((p @ low @ up).numpy(), a)
    p, low, up = LA.lu_unpack(packed, pivots, unpack_ludata=False)
    assert (low.shape, up.shape, low.dtype, p.shape) == ([0], [0], paddle.float32, [3, 3])
    with pytest.raises(ValueError, match="pivot"):
        LA.lu(T(a), pivot=False)
    with pytest.raises(ValueError, match="int32"):
        LA.lu_unpack(packed, pivots.astype("int64"))


def test_cov_and_corrcoef_shapes_and_quirks():
    x = np.random.default_rng(5).random((3, 5))
    assert LA.cov(T(x[0])).shape == []  # one variable: 0-d
    assert LA.cov(T(x[:1]), rowvar=False).shape == []  # a single row stays one variable (Paddle)
    assert np.isnan(LA.cov(T(x[:, :1])).numpy()).all()  # one observation: divide by zero
    np.testing.assert_allclose(float(LA.corrcoef(T(x[0]))), 1.0)
    x_t = T(x)
    with pytest.raises(ValueError, match="1-D or 2-D"):
        LA.cov(T(np.ones((2, 2, 2))))
    with pytest.raises(TypeError, match="float32 or float64"):
        LA.cov(T(np.ones((2, 3), dtype="int64")))
    with pytest.raises(ValueError, match="negative"):
        LA.cov(x_t, fweights=T([1, -2, 1, 1, 1]))
    with pytest.raises(ValueError, match="integers"):
        LA.cov(x_t, fweights=T([1.5, 2.0, 1.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match="one weight per observation"):
        LA.cov(x_t, aweights=T([1.0, 2.0]))
    with pytest.raises(ValueError, match="sum to zero"):
        LA.cov(x_t, aweights=T(np.zeros(5)))


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: LA.svd(T([1.0, 2.0])), ValueError, "svd: x must be a matrix"),
        (lambda: LA.svd(T([[1, 2]])), TypeError, "svd: x must be a float32"),
        (lambda: LA.svd(T(np.zeros((0, 3)))), ValueError, "svd"),
        (lambda: LA.svd(T(np.eye(2)), full_matrices=1), TypeError, "full_matrices"),
        (lambda: LA.qr(T(np.eye(2)), mode="x"), ValueError, "mode"),
        (lambda: LA.eigh(T(np.ones((2, 3)))), ValueError, "eigh"),
        (lambda: LA.eigh(T(np.eye(2)), "X"), ValueError, "UPLO"),
        (lambda: LA.eig(T([1.0, 2.0])), ValueError, "eig"),
        (lambda: LA.eigvals(T(np.ones((2, 3)))), ValueError, "eigvals"),
        (lambda: LA.triangular_solve(T(np.eye(3)), T(np.ones((2, 1)))), ValueError, "rows"),
        (lambda: LA.cholesky_solve(T(np.ones((2, 1))), T(np.ones((2, 3)))), ValueError, "square"),
        (lambda: LA.slogdet(T(np.ones((3, 4)))), ValueError, "square"),
        (lambda: LA.matrix_rank(T(np.eye(2)), tol="big"), TypeError, "tol"),
        (lambda: LA.pinv(T([1.0, 2.0])), ValueError, "pinv"),
        (lambda: LA.corrcoef(T(np.ones((2, 2, 2)))), ValueError, "corrcoef"),
    ],
)
def test_argument_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
