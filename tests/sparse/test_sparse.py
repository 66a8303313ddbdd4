"""paddle.sparse behaviour the golden cases cannot show: products (Paddle 2.6's CPU build has none), gradients
through the values and dense operands, the Tensor side, and the argument errors."""

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.testing import gradcheck

S = paddle.sparse
rng = np.random.default_rng(7)
A = np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]])
B3 = np.array([[[0.0, 1.0], [2.0, 0.0]], [[0.0, 3.0], [0.0, -1.0]]])


def _coo(dense, values):
    """The COO tensor with dense's pattern and `values` (a Tensor that gradients can reach)."""
    pattern = paddle.to_tensor(dense).to_sparse_coo(dense.ndim)
    return S.sparse_coo_tensor(pattern.indices(), values, dense.shape, stop_gradient=values.stop_gradient)


def test_tensor_side():
    x = paddle.to_tensor(A)
    assert not x.is_sparse() and not x.is_sparse_coo() and not x.is_sparse_csr()
    coo, csr = x.to_sparse_coo(2), x.to_sparse_csr()
    assert coo.is_sparse() and coo.is_sparse_coo() and not coo.is_sparse_csr()
    assert csr.is_sparse() and csr.is_sparse_csr() and not csr.is_sparse_coo()
    assert coo.nnz() == csr.nnz() == 3 and coo.sparse_dim() == 2 and coo.dense_dim() == 0
    np.testing.assert_array_equal(csr.to_dense().numpy(), A)
    np.testing.assert_array_equal(csr.to_sparse_coo(2).to_dense().numpy(), A)
    np.testing.assert_array_equal(csr.crows().numpy(), [0, 1, 3])
    assert S.is_same_shape(x, csr) and not S.is_same_shape(x, S.transpose(coo, [1, 0]))


@pytest.mark.parametrize("layout", ["coo", "csr"])
@pytest.mark.parametrize("dense", [A, B3], ids=["2d", "3d"])
def test_matmul_sparse_dense(layout, dense):
    x = paddle.to_tensor(dense)
    x = x.to_sparse_coo(x.ndim) if layout == "coo" else x.to_sparse_csr()
    y = rng.standard_normal(dense.shape[:-2] + (dense.shape[-1], 4))
    out = S.matmul(x, paddle.to_tensor(y))
    assert not out.is_sparse()
    np.testing.assert_allclose(out.numpy(), dense @ y)
    product = S.matmul(
        x, paddle.to_tensor(y).to_sparse_coo(y.ndim) if layout == "coo" else paddle.to_tensor(y).to_sparse_csr()
    )
    assert product.is_sparse_coo() == (layout == "coo")
    np.testing.assert_allclose(product.to_dense().numpy(), dense @ y)


def test_matmul_gradients():
    values = paddle.to_tensor([1.5, 2.0, -3.0], dtype="float64", stop_gradient=False)
    y = paddle.to_tensor(rng.standard_normal((3, 2)), stop_gradient=False)
    assert gradcheck(lambda v, w: S.matmul(_coo(A, v), w), [values, y])
    assert gradcheck(lambda v, w: S.matmul(_coo(A, v).to_sparse_csr(), w), [values, y])
    assert gradcheck(lambda v, w: S.mv(_coo(A, v), w[:, 0]), [values, y])
    assert gradcheck(lambda v, w: S.addmm(paddle.ones([2, 2], "float64"), _coo(A, v), w, 0.5, 2.0), [values, y])


def test_masked_matmul_and_mv_values():
    x, y = rng.standard_normal((2, 4)), rng.standard_normal((4, 3))
    mask = paddle.to_tensor(A).to_sparse_csr()
    out = S.masked_matmul(paddle.to_tensor(x), paddle.to_tensor(y), mask)
    assert out.is_sparse_csr()
    np.testing.assert_allclose(out.to_dense().numpy(), (x @ y) * (A != 0))
    xt, yt = paddle.to_tensor(x, stop_gradient=False), paddle.to_tensor(y, stop_gradient=False)
    assert gradcheck(lambda a, b: S.masked_matmul(a, b, mask).values(), [xt, yt])
    vec = paddle.to_tensor([1.0, 2, 3], dtype="float64")
    np.testing.assert_allclose(S.mv(mask, vec).numpy(), A @ [1.0, 2, 3])


def test_addmm_sparse_operands():
    x = paddle.to_tensor(A).to_sparse_csr()
    y = paddle.to_tensor(A.T).to_sparse_csr()
    inp = paddle.eye(2, dtype="float64").to_sparse_csr()
    out = S.addmm(inp, x, y, beta=3.0, alpha=0.5)
    assert out.is_sparse_csr()
    np.testing.assert_allclose(out.to_dense().numpy(), 3 * np.eye(2) + 0.5 * A @ A.T)


def test_elementwise_and_unary_gradients_reach_values():
    values = paddle.to_tensor([1.5, 2.0, -3.0], dtype="float64", stop_gradient=False)
    other = paddle.to_tensor(np.array([[4.0, 0, 0], [5, 0, -1]])).to_sparse_coo(2)
    assert gradcheck(lambda v: S.multiply(_coo(A, v), other).to_dense(), [values])
    assert gradcheck(lambda v: S.add(_coo(A, v), other).to_dense(), [values])
    assert gradcheck(lambda v: S.sin(_coo(A, v).to_sparse_csr()).values(), [values])
    assert gradcheck(lambda v: S.sum(_coo(A, v), 1).values(), [values])
    assert gradcheck(lambda v: S.nn.functional.softmax(_coo(A, v).to_sparse_csr()).values(), [values])
    assert gradcheck(lambda v: S.transpose(_coo(A, v), [1, 0]).to_sparse_csr().to_dense(), [values])


def test_grad_property_is_sparse():
    x = S.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], [2, 2], stop_gradient=False)
    assert x.grad is None
    (S.square(x).to_dense() * paddle.to_tensor([[1.0, 10], [100, 1000]])).sum().backward()
    assert x.grad.is_sparse_coo()
    np.testing.assert_allclose(x.grad.values().numpy(), [20.0, 400.0])


def test_dense_to_sparse_gradient():
    # not a gradcheck: nudging a zero entry would change the pattern
    x = paddle.to_tensor(A, stop_gradient=False)
    (x.to_sparse_coo(2).values() * paddle.to_tensor([1.0, 2, 3], "float64")).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 1, 0], [2, 0, 3]])
    x.clear_grad()
    (x.to_sparse_csr().values() * 2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), 2 * (A != 0))


def test_softmax_rows():
    x = np.array([[0.0, 1.0, -2.0], [3.0, 0.0, 0.0]])
    out = S.nn.Softmax()(paddle.to_tensor(x).to_sparse_csr()).values().numpy()
    e = np.exp([1.0, -2.0])
    np.testing.assert_allclose(out, list(e / e.sum()) + [1.0])


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: S.sparse_coo_tensor([[0, 5]], [1.0, 2], [3]), ValueError),
        (lambda: S.sparse_coo_tensor([[0.0, 1]], [1.0, 2], [3]), TypeError),
        (lambda: S.sparse_coo_tensor([[0, 1]], [1.0, 2, 3], [3]), ValueError),
        (lambda: S.sparse_coo_tensor([0, 1], [1.0, 2], [3]), ValueError),
        (lambda: S.sparse_csr_tensor([0, 2, 3], [1, 3, 2, 0, 1], [1.0, 2, 3, 4, 5], [3, 4]), ValueError),
        (lambda: S.sparse_csr_tensor([0, 1], [0], [1.0], [4]), ValueError),
        (lambda: paddle.ones([2]).to_sparse_csr(), ValueError),
        (lambda: paddle.ones([2, 2]).to_sparse_coo(0), ValueError),
        (lambda: paddle.ones([2, 2]).to_sparse_coo(3), ValueError),
        (lambda: paddle.ones([2, 2]).to_sparse_coo(2).crows(), TypeError),
        (lambda: paddle.ones([2, 2]).to_sparse_csr().indices(), TypeError),
        (lambda: S.add(paddle.ones([2, 2]).to_sparse_coo(2), paddle.ones([2, 2]).to_sparse_csr()), TypeError),
        (lambda: S.add(paddle.ones([2, 2]).to_sparse_coo(2), paddle.ones([2, 2])), TypeError),
        (lambda: S.add(paddle.ones([2, 3]).to_sparse_coo(2), paddle.ones([3, 2]).to_sparse_coo(2)), ValueError),
        (lambda: S.add(paddle.ones([2, 3]).to_sparse_coo(2), paddle.ones([2, 3]).to_sparse_coo(1)), ValueError),
        (lambda: S.sin(paddle.ones([2, 2])), TypeError),
        (lambda: S.matmul(paddle.ones([2, 2]).to_sparse_coo(2), paddle.ones([3, 2])), ValueError),
        (lambda: S.matmul(paddle.ones([2, 2]), paddle.ones([2, 2])), TypeError),
        (lambda: S.sum(paddle.ones([2, 2]).to_sparse_csr(), 0), ValueError),
        (lambda: S.transpose(paddle.ones([2, 2]).to_sparse_coo(2), [0]), ValueError),
        (lambda: S.reshape(paddle.ones([2, 3]).to_sparse_coo(2), [4, 2]), ValueError),
        (lambda: S.slice(paddle.ones([2, 3]).to_sparse_coo(2), [0], [0, 1], [1]), ValueError),
        (lambda: S.cast(paddle.ones([2, 3]).to_sparse_coo(2), "float32"), TypeError),
        (lambda: S.pow(paddle.ones([2, 3]).to_sparse_coo(2), "2"), TypeError),
        (lambda: S.coalesce(paddle.ones([2, 2]).to_sparse_csr()), TypeError),
    ],
)
def test_errors(call, error):
    with pytest.raises(error):
        call()


def test_pca_lowrank_of_a_sparse_matrix_equals_the_dense_one_with_the_same_draws():
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((6, 4)))
    paddle.seed(3)
    dense = paddle.linalg.pca_lowrank(x, q=3)
    paddle.seed(3)
    sparse = paddle.sparse.pca_lowrank(x.to_sparse_coo(2), q=3)
    for d, s in zip(dense, sparse):
        np.testing.assert_allclose(s.numpy(), d.numpy(), rtol=1e-12, atol=1e-12)
    with pytest.raises(TypeError, match="paddle.sparse.pca_lowrank: x must be a sparse tensor"):
        paddle.sparse.pca_lowrank(x)
