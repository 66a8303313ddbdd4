"""Linear algebra: norms and distances as paddle 2.6 computes them, paddle.linalg, decompositions and their
errors."""

import numpy as np
import pytest

import minipaddle as paddle

A = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])


@pytest.mark.parametrize(
    "p, axis, expected",
    [
        ("fro", None, np.sqrt((A**2).sum())),
        (1, None, 21.0),
        (2, 1, np.sqrt((A**2).sum(1))),
        ("fro", 1, np.sqrt((A**2).sum(1))),
        (np.inf, [0, 1], 6.0),  # over two axes Paddle takes the vector norm of all their elements
        (2, [0, 1], np.sqrt((A**2).sum())),
        (-np.inf, 0, [1.0, 2.0, 3.0]),
        (0, None, 6.0),
    ],
)
def test_norm_matches_paddle(p, axis, expected):
    np.testing.assert_allclose(paddle.norm(paddle.to_tensor(A), p=p, axis=axis).numpy(), expected, rtol=1e-12)


def test_norm_gradients_at_ties_and_dist():
    x = paddle.to_tensor([1.0, -3.0, 3.0, 2.0], stop_gradient=False)
    (g,) = paddle.grad(paddle.norm(x, p=np.inf), [x])
    np.testing.assert_array_equal(g.numpy(), [0.0, -1.0, 1.0, 0.0])
    a, v = paddle.to_tensor(A), paddle.to_tensor([1.0, -2.0, 3.0])
    assert paddle.dist(a, v, p=0).item() == 3.0 and paddle.dist(a, v, p=1).item() == 19.0
    assert paddle.dist(a, v, p=-np.inf).item() == 0.0


def test_cross_uses_the_first_axis_of_size_3_by_default():
    x, y = np.eye(3), np.ones((3, 2))
    out = paddle.cross(paddle.to_tensor(x[:, :2]), paddle.to_tensor(y))
    np.testing.assert_array_equal(out.numpy(), np.cross(x[:, :2], y, axis=0))
    assert paddle.cross(paddle.to_tensor([1.0, 0, 0]), paddle.to_tensor([0.0, 1, 0])).numpy().tolist() == [0, 0, 1]


def test_cholesky_and_inverse():
    m = paddle.to_tensor([[4.0, 2.0], [2.0, 3.0]])
    upper = paddle.cholesky(m, upper=True).numpy()
    np.testing.assert_allclose(upper, [[2.0, 1.0], [0.0, np.sqrt(2.0)]], rtol=1e-6)
    np.testing.assert_allclose(paddle.inverse(m).numpy() @ m.numpy(), np.eye(2), atol=1e-6)
    assert paddle.inverse(paddle.to_tensor([[[1.0, 2], [3, 4]]])).shape == [1, 2, 2]


def test_paddle_linalg_names():
    m = paddle.to_tensor([[4.0, 2.0], [2.0, 3.0]])
    assert set(paddle.linalg.__all__) >= {"cholesky", "cond", "det", "inv", "matrix_power", "multi_dot", "norm"}
    np.testing.assert_allclose(paddle.linalg.inv(m).numpy(), np.linalg.inv(m.numpy()), rtol=1e-6)
    np.testing.assert_allclose(paddle.linalg.cond(m).item(), 3.8663588, rtol=1e-6)  # paddle 2.6: 3.8664
    np.testing.assert_allclose(m.cond(p="fro").item(), 4.125, rtol=1e-6)
    assert paddle.linalg.det(m).item() == pytest.approx(8.0)
    np.testing.assert_allclose(paddle.linalg.matrix_power(m, 0).numpy(), np.eye(2))
    np.testing.assert_allclose(paddle.linalg.matrix_power(m, -2).numpy(), np.linalg.matrix_power(m.numpy(), -2),
                               rtol=1e-5)  # fmt: skip


def test_histogram_ranges():
    assert paddle.histogram(paddle.to_tensor([1.0, 2, 1]), bins=4).numpy().tolist() == [2, 0, 0, 1]
    assert paddle.histogram(paddle.to_tensor([1, 2, 1, 5]), bins=4, min=0, max=3).numpy().tolist() == [0, 2, 1, 0]
    assert paddle.histogram(paddle.to_tensor([2.0, 2.0]), bins=4).numpy().tolist() == [0, 0, 2, 0]


def test_products():
    assert paddle.dot(paddle.to_tensor(A), paddle.to_tensor(A)).numpy().tolist() == [14.0, 77.0]
    assert paddle.mv(paddle.to_tensor(A), paddle.to_tensor([1.0, -2.0, 3.0])).numpy().tolist() == [14.0, -24.0]
    assert paddle.bmm(paddle.ones([2, 3, 4]), paddle.ones([2, 4, 5])).shape == [2, 3, 5]
    assert paddle.dot(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 2])).dtype == paddle.int64


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: paddle.norm(paddle.ones([2]), p="nuc"), ValueError, "norm: the only string value of p is 'fro'"),
        (lambda: paddle.norm(paddle.ones([2]), p=[1]), TypeError, "norm: p must be a number or 'fro'"),
        (lambda: paddle.norm(paddle.ones([2, 2]), axis=5), ValueError, "norm: axis 5 is out of range"),
        (lambda: paddle.norm(paddle.ones([2, 2, 2]), axis=[0, 1, 2]), ValueError, "norm: axis must be an int or"),
        (lambda: paddle.dist(paddle.ones([2]), paddle.ones([3])), ValueError, "dist: shapes \\[2\\] and \\[3\\]"),
        (lambda: paddle.cross(paddle.ones([2, 2]), paddle.ones([2, 2])), ValueError, "has no dimension of size 3"),
        (lambda: paddle.cross(paddle.ones([3, 2]), paddle.ones([3, 2]), axis=1), ValueError,
         "cross: dimension 1 of x must have size 3"),
        (lambda: paddle.cross(paddle.ones([3]), paddle.ones([3, 1])), ValueError, "cross: x and y must have the same"),
        (lambda: paddle.dot(paddle.ones([3]), paddle.ones([2, 3])), ValueError, "dot: x and y must be 1-D or 2-D"),
        (lambda: paddle.mv(paddle.ones([2, 3]), paddle.ones([2, 3])), ValueError, "mv: x must be 2-D and vec 1-D"),
        (lambda: paddle.mv(paddle.ones([2, 3]), paddle.ones([2])), ValueError, "mv: x has shape \\[2, 3\\]"),
        (lambda: paddle.bmm(paddle.ones([3, 4]), paddle.ones([4, 5])), ValueError, "bmm: x and y must be 3-D"),
        (lambda: paddle.bmm(paddle.ones([2, 3, 4]), paddle.ones([1, 4, 5])), ValueError, "the same batch size"),
        (lambda: paddle.bmm(paddle.ones([2, 3, 4]), paddle.ones([2, 3, 5])), ValueError, "x's columns \\(4\\)"),
        (lambda: paddle.inverse(paddle.to_tensor([[1.0, 2], [2, 4]])), ValueError, "inverse: the matrix is singular"),
        (lambda: paddle.inverse(paddle.ones([2, 3])), ValueError, "inverse: x must be a square matrix"),
        (lambda: paddle.inverse(paddle.to_tensor([[1, 0], [0, 1]])), TypeError, "inverse: the data type of 'x'"),
        (lambda: paddle.cholesky(paddle.to_tensor([[1.0, 2], [2, 1]])), ValueError, "not positive definite"),
        (lambda: paddle.linalg.cond(paddle.ones([3])), ValueError, "cond: x must be a matrix"),
        (lambda: paddle.linalg.cond(paddle.ones([2, 2]), p=3), ValueError, "cond: p must be None"),
        (lambda: paddle.linalg.matrix_power(paddle.ones([2, 2]), 1.5), TypeError, "matrix_power: n must be an int"),
        (lambda: paddle.linalg.multi_dot([paddle.ones([2, 2])]), ValueError, "multi_dot: x must be a list"),
        (lambda: paddle.histogram(paddle.ones([2]), bins=0), ValueError, "histogram: bins must be a positive int"),
        (lambda: paddle.histogram(paddle.ones([2]), min=3, max=1), ValueError, "histogram: max must be larger"),
    ],
)  # fmt: skip
def test_bad_arguments_raise_clear_errors(call, error, words):
    with pytest.raises(error, match=words):
        call()
