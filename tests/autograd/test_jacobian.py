"""paddle.autograd.jacobian / hessian: lazily evaluated derivative matrices, with the shapes and indexing of
paddle 2.6 (values checked against closed forms; the shapes and messages were read off paddle 2.6)."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.autograd import Hessian, Jacobian, hessian, jacobian


def leaf(values):
    return paddle.to_tensor(np.asarray(values, dtype=np.float64), stop_gradient=False)


def test_jacobian_of_a_vector_function():
    x = leaf([1.0, 2.0, 3.0])
    c = paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64")
    J = jacobian(x * x * c, x)
    assert isinstance(J, Jacobian) and J.shape == [3, 3]
    np.testing.assert_allclose(J[:].numpy(), np.diag([2.0, 8.0, 18.0]))
    assert J[1].tolist() == [0.0, 8.0, 0.0]
    assert J[:, 0].tolist() == [2.0, 0.0, 0.0]
    assert J[0, 1].shape == [] and isinstance(J[0, 1], paddle.Tensor)
    assert J[-1, ::2].tolist() == [0.0, 18.0]


def test_rows_are_computed_lazily_and_cached():
    x = leaf([1.0, 2.0, 3.0])
    J = jacobian(paddle.sin(x), x)
    assert not J._cache  # nothing differentiated yet
    J[1]
    assert list(J._cache) == [1]
    J[1:3]
    assert sorted(J._cache) == [1, 2]


def test_scalar_and_zero_d_cases():
    x = leaf([1.0, 2.0, 3.0])
    J = jacobian((x**3).sum(), x)
    assert J.shape == [3] and J[:].tolist() == [3.0, 12.0, 27.0] and J[1].shape == []
    x0 = leaf(2.0)
    J0 = jacobian(x0 * x0, x0)
    assert J0.shape == [] and float(J0._evaluate_all()) == 4.0
    assert float(J0 + 1) == 5.0  # arithmetic acts on the full matrix
    with pytest.raises(IndexError, match="0-D tensor can not be indexed"):
        J0[0]
    J1 = jacobian(x * 2.0, x0)  # y does not depend on x0: zeros
    assert J1.shape == [3] and J1[:].tolist() == [0.0, 0.0, 0.0]


def test_batched_jacobian():
    xb = leaf([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    yb = paddle.concat([xb * xb, xb.sum(-1, keepdim=True)], -1)
    J = jacobian(yb, xb, batch_axis=0)
    assert J.shape == [3, 3, 2]
    assert J[0].tolist() == [[2.0, 0.0], [0.0, 4.0], [1.0, 1.0]]
    assert J[:, 1].shape == [3, 2] and J[:, :, 0].shape == [3, 3]
    J1 = jacobian(yb[:, 0], xb, batch_axis=0)  # 1-D ys drops its dimension
    assert J1.shape == [3, 2] and J1[:].tolist() == [[2.0, 0.0], [6.0, 0.0], [10.0, 0.0]]
    assert J1[1].tolist() == [6.0, 0.0]


def test_tuples_of_ys_and_xs():
    x, x0 = leaf([1.0, 2.0, 3.0]), leaf(2.0)
    y, s = x * x0, (x**2).sum()
    JJ = jacobian((y, s), (x, x0))
    assert isinstance(JJ, tuple) and [[j.shape for j in row] for row in JJ] == [[[3, 3], [3]], [[3], []]]
    assert JJ[0][1][:].tolist() == [1.0, 2.0, 3.0]
    assert [j.shape for j in jacobian((y, s), x)] == [[3, 3], [3]]
    assert [j.shape for j in jacobian(y, (x, x0))] == [[3, 3], [3]]


def test_hessian():
    x = leaf([1.0, 2.0, 3.0])
    H = hessian((x**3).sum(), x)
    assert isinstance(H, Hessian) and H.shape == [3, 3]
    np.testing.assert_allclose(H[:].numpy(), np.diag([6.0, 12.0, 18.0]))
    x0 = leaf(2.0)
    HH = hessian((x**2).sum() * x0, (x, x0))
    assert [[h.shape for h in row] for row in HH] == [[[3, 3], [3]], [[3], []]]
    assert all(isinstance(h, Hessian) for row in HH for h in row)
    assert HH[0][1][:].tolist() == [2.0, 4.0, 6.0]  # d2 / dx dx0 = 2 x
    np.testing.assert_allclose(HH[0][0][:].numpy(), 4.0 * np.eye(3))
    assert float(HH[1][1]._evaluate_all()) == 0.0


def test_batched_hessian():
    xb = leaf([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    H = hessian((xb**3).sum(-1), xb, batch_axis=0)
    assert H.shape == [3, 2, 2]
    assert H[1].tolist() == [[18.0, 0.0], [0.0, 24.0]]


def test_jacobian_of_a_layer_matches_its_weight():
    paddle.seed(0)
    linear = paddle.nn.Linear(3, 2)
    x = paddle.rand([3])
    x.stop_gradient = False
    J = jacobian(linear(x), x)
    np.testing.assert_allclose(J[:].numpy(), linear.weight.numpy().T, rtol=1e-6)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda x: jacobian(paddle.rand([2, 2]), x), ValueError, "ys.ndim should be 0 or 1 when is_batched=False"),
        (lambda x: jacobian(x * 2, x, batch_axis=1), ValueError, "batch_axis should be None or 0"),
        (lambda x: jacobian(x * 2, paddle.rand([2, 2, 2]), batch_axis=0), ValueError, "xs.ndim should be 1 or 2"),
        (lambda x: hessian(x * 2, x), ValueError, "Only support ys.numel\\(\\)\\(3\\)==1"),
        (lambda x: jacobian(x * 2, x)[...], IndexError, "Ellipsis"),
        (lambda x: jacobian(x * 2, x)[1.5], TypeError, "only ints and slices"),
        (lambda x: jacobian(x * 2, x)[0, 0, 0], IndexError, "too many indices"),
        (lambda x: jacobian(x * 2, x)[5], IndexError, "out of range"),
    ],
)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call(leaf([1.0, 2.0, 3.0]))
