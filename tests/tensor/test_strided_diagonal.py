"""Behaviour of paddle 2.6's remaining Tensor-API names (values checked against paddle 2.6.2): polar, as_strided
views, the in-place fill_diagonal_ / fill_diagonal_tensor_ / copy_ / detach_ / to, the storage attributes, the
top-level in-place functions, and argument errors. Forward values and gradients: tests/op_table/strided_diagonal.py."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.testing import gradcheck


def test_polar_values_dtype_and_gradient():
    out = paddle.polar(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.5, 1.0]))
    assert out.dtype == paddle.complex64
    np.testing.assert_allclose(out.numpy(), [np.exp(0.5j), 2 * np.exp(1j)], rtol=1e-6)
    assert paddle.polar(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0])).shape == [2]  # broadcast
    mixed = paddle.polar(paddle.to_tensor([1.0], dtype="float32"), paddle.to_tensor([1.0], dtype="float64"))
    assert mixed.dtype == paddle.complex128

    def f(a, t):
        z = paddle.polar(a, t)
        return paddle.real(z) * 2.0 + paddle.imag(z) * 3.0

    rng = np.random.default_rng(0)
    a = paddle.to_tensor(rng.uniform(0.5, 2, 4), stop_gradient=False)
    t = paddle.to_tensor(rng.uniform(-3, 3, 4), stop_gradient=False)
    assert gradcheck(f, (a, t))
    with pytest.raises(TypeError, match="polar"):
        paddle.polar(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 2]))


def test_as_strided_shares_storage_with_x():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    y = paddle.as_strided(x, [2, 2], [1, 4], 4)  # offset in bytes, as Paddle: element 1
    np.testing.assert_array_equal(y.numpy(), [[1, 5], [2, 6]])
    x.add_(paddle.ones([3, 4]))
    np.testing.assert_array_equal(y.numpy(), [[2, 6], [3, 7]])
    assert x.as_strided([3], [1]).shape == [3]  # a method too
    assert paddle.as_strided(paddle.to_tensor(5.0), [], []).item() == 5.0


def test_as_strided_gradient_counts_every_read():
    x = paddle.arange(6, dtype="float64")
    x.stop_gradient = False
    paddle.as_strided(x, [3, 3], [1, 1]).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1, 2, 3, 2, 1, 0])


@pytest.mark.parametrize(
    "shape, stride, offset, error",
    [([20], [1], 0, ValueError), ([2], [1, 1], 0, ValueError), ([2], [-1], 0, ValueError),
     ([2], [1], 2, ValueError), ([2], [1], 44, ValueError), ("2", [1], 0, TypeError), ([2], [1], 1.0, TypeError)],
)  # fmt: skip
def test_as_strided_errors(shape, stride, offset, error):
    with pytest.raises(error, match="as_strided"):
        paddle.as_strided(paddle.arange(12, dtype="float32"), shape, stride, offset)


def test_renorm_inplace_and_errors():
    x = paddle.to_tensor([[3.0, 4.0], [0.3, 0.4]])
    assert x.renorm_(2.0, 0, 1.0) is x
    np.testing.assert_allclose(x.numpy(), [[0.6, 0.8], [0.3, 0.4]], rtol=1e-6)
    y = paddle.to_tensor([[3.0, 4.0]])
    assert paddle.renorm_(y, 2.0, 0, 1.0) is y
    with pytest.raises(ValueError, match="renorm"):
        paddle.renorm(paddle.ones([2, 3]), 2.0, 2, 1.0)
    with pytest.raises(ValueError, match="renorm"):
        paddle.renorm(paddle.to_tensor(3.0), 2.0, 0, 1.0)
    with pytest.raises(TypeError, match="renorm"):
        paddle.renorm(paddle.to_tensor([1, 2]), 2.0, 0, 1.0)


def test_cdist_edge_cases_and_errors():
    assert paddle.cdist(paddle.ones([2, 0, 3]), paddle.ones([2, 4, 3])).shape == [0, 4]  # Paddle drops the batch
    np.testing.assert_array_equal(paddle.cdist(paddle.ones([2, 0]), paddle.ones([3, 0])).numpy(), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="cdist"):
        paddle.cdist(paddle.ones([2, 3]), paddle.ones([2, 4]))
    with pytest.raises(ValueError, match="cdist"):
        paddle.cdist(paddle.ones([2, 3]), paddle.ones([2, 3]), p=-1.0)
    with pytest.raises(ValueError, match="compute_mode"):
        paddle.cdist(paddle.ones([2, 3]), paddle.ones([2, 3]), compute_mode="fast")
    with pytest.raises(TypeError, match="cdist"):
        paddle.cdist(paddle.ones([2, 3]), paddle.ones([2, 3], dtype="float64"))


def test_fill_diagonal_inplace_forms():
    x = paddle.zeros([3, 3], dtype="int64")
    assert x.fill_diagonal_(2.7) is x
    np.testing.assert_array_equal(x.numpy(), np.eye(3) * 2)  # cast to x's dtype, as Paddle
    w = paddle.ones([3, 3])
    w.stop_gradient = False
    y = w * 2.0
    y.fill_diagonal_(5.0)
    (y * paddle.arange(9, dtype="float32").reshape([3, 3])).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [[0, 2, 4], [6, 0, 10], [12, 14, 0]])  # as Paddle
    z = paddle.zeros([2, 3])
    assert z.fill_diagonal_tensor_(paddle.to_tensor([1.0, 2.0])) is z
    np.testing.assert_array_equal(z.numpy(), [[1, 0, 0], [0, 2, 0]])
    with pytest.raises(ValueError, match="fill_diagonal_"):
        paddle.zeros([3]).fill_diagonal_(1.0)
    with pytest.raises(ValueError, match="fill_diagonal_tensor"):
        paddle.zeros([3, 4]).fill_diagonal_tensor(paddle.ones([2]))
    with pytest.raises(TypeError, match="fill_diagonal_tensor"):
        paddle.zeros([3, 4]).fill_diagonal_tensor(paddle.ones([3], dtype="float64"))
    assert not hasattr(paddle, "fill_diagonal_tensor")  # a method only, as in Paddle


def test_copy_and_detach_():
    a = paddle.zeros([2, 3])
    row = a[0]
    assert a.copy_(paddle.ones([2, 3]), False) is None  # Paddle returns None
    np.testing.assert_array_equal(row.numpy(), [1, 1, 1])  # written into the storage: views see it
    a.copy_(paddle.ones([3]), True)
    assert a.shape == [3]  # another shape: a takes src's
    with pytest.raises(TypeError, match="copy_"):
        a.copy_(paddle.ones([3], dtype="float64"), True)
    leaf = paddle.zeros([2])
    leaf.stop_gradient = False
    leaf.copy_(paddle.ones([2]), True)  # not recorded, so allowed on a leaf (as Paddle)
    assert leaf.is_leaf and not leaf.stop_gradient
    b = paddle.ones([2])
    b.stop_gradient = False
    d = b * 3
    assert d.detach_() is d
    assert d.stop_gradient and d.is_leaf


def test_to_converts_in_place():
    x = paddle.to_tensor([1, 2, 3])
    assert x.to("float32") is x and x.dtype == paddle.float32
    assert x.to("cpu", "float64") is x and x.dtype == paddle.float64
    assert x.to(paddle.to_tensor([1], dtype="int32")).dtype == paddle.int32
    assert x.to(device=paddle.CPUPlace(), blocking=False).dtype == paddle.int32
    assert x.to(dtype=paddle.float16, blocking=True).dtype == paddle.float16
    with pytest.raises(ValueError, match="CPU"):
        x.to("gpu")
    with pytest.raises(TypeError, match="unexpected keyword"):
        x.to(place="cpu")
    with pytest.raises(TypeError, match="arguments"):
        x.to()


def test_storage_attributes_as_paddle_reports_them():
    x = paddle.arange(6, dtype="int64").reshape([2, 3])
    assert x.strides == [3, 1] and x.get_strides() == [3, 1] and x.offset == 0
    assert x.t().strides == [1, 3]
    assert x[1].offset == 24 and x[1].strides == [1]
    assert paddle.to_tensor(3.0).strides == []
    assert x.layout == "NCHW"
    assert x.is_dense() and not (x.is_dist() or x.is_sparse() or x.is_sparse_coo() or x.is_sparse_csr())
    assert not x.is_selected_rows()
    assert isinstance(x.data_ptr(), int) and x[1].data_ptr() == x.data_ptr() + 24
    assert x.is_same_shape(paddle.zeros([2, 3])) and not x.is_same_shape(paddle.zeros([3, 2]))
    with pytest.raises(ValueError, match="is_same_shape"):
        x.is_same_shape([2, 3])


def test_linalg_methods():
    m = paddle.to_tensor([[1.0, 1.0], [0.0, 1.0]])
    np.testing.assert_array_equal(m.matrix_power(3).numpy(), [[1, 3], [0, 1]])
    np.testing.assert_array_equal(paddle.Tensor.multi_dot([m, m, m]).numpy(), [[1, 3], [0, 1]])
    q = paddle.linalg.householder_product(paddle.to_tensor([[1.0, 0.0], [0.5, 1.0], [0.25, 0.5]]),
                                          paddle.to_tensor([1.5, 0.5]))  # fmt: skip
    assert q.shape == [3, 2]
    with pytest.raises(ValueError, match="householder_product"):
        paddle.linalg.householder_product(paddle.ones([2, 3]), paddle.ones([2]))
    with pytest.raises(TypeError, match="householder_product"):
        paddle.linalg.householder_product(paddle.ones([3, 2]), paddle.ones([2], dtype="float64"))


@pytest.mark.parametrize(
    "name, args, expected",
    [("sin_", (), np.sin([0.5, 1.0])), ("lgamma_", (), [np.log(np.sqrt(np.pi)), 0.0]),
     ("cumsum_", (0,), [0.5, 1.5]), ("square_", (), [0.25, 1.0]), ("trunc_", (), [0.0, 1.0])],
)  # fmt: skip
def test_top_level_inplace_functions(name, args, expected):
    x = paddle.to_tensor([0.5, 1.0])
    assert getattr(paddle, name)(x, *args) is x
    np.testing.assert_allclose(x.numpy(), expected, rtol=1e-6)


def test_every_top_level_inplace_function_of_paddle26_exists():
    for name in ("tril_", "triu_", "masked_fill_", "index_add_", "cumprod_", "logical_not_", "renorm_", "gcd_",
                 "nan_to_num_", "bitwise_xor_", "floor_mod_", "addmm_", "polygamma_"):  # fmt: skip
        assert callable(getattr(paddle, name)), name
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    paddle.tril_(x)
    np.testing.assert_array_equal(x.numpy(), [[1, 0], [3, 4]])
