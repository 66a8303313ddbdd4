"""Behaviour and errors of paddle 2.6's manipulation/indexing functions (now in tensor/indexing.py, manipulation.py,
linalg.py, einsum.py).

Values marked "paddle 2.6" were measured on paddlepaddle 2.6.2; the op table checks the rest against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle


def T(a, **kw):
    return paddle.to_tensor(a, **kw)


X = np.arange(12.0).reshape(3, 4)


# ---- put_along_axis: reductions and their gradients (paddle 2.6) ----------------------------------------------

PUT_CASES = {
    # reduce, include_self: (out, grad of arr, grad of values) for arr = 1..12 and the weights 1..12
    ("assign", True): ([[2, 2, 3, 4], [5, 8, 2, 8], [9, 10, 20, 12]],
                       [[0, 2, 3, 4], [5, 0, 0, 8], [9, 10, 0, 12]], [[0, 1], [6, 7], [0, 11]]),
    ("add", True): ([[12, 2, 3, 4], [5, 14, 9, 8], [9, 10, 38, 12]],
                    [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], [[1, 1], [6, 7], [11, 11]]),
    ("add", False): ([[11, 2, 3, 4], [5, 8, 2, 8], [9, 10, 27, 12]],
                     [[0, 2, 3, 4], [5, 0, 0, 8], [9, 10, 0, 12]], [[1, 1], [6, 7], [11, 11]]),
    ("mul", True): ([[18, 2, 3, 4], [5, 48, 14, 8], [9, 10, 1540, 12]],
                    [[18, 2, 3, 4], [5, 48, 14, 8], [9, 10, 1540, 12]], [[2, 9], [36, 49], [2420, 847]]),
    ("mul", False): ([[18, 2, 3, 4], [5, 8, 2, 8], [9, 10, 140, 12]],
                     [[0, 2, 3, 4], [5, 0, 0, 8], [9, 10, 0, 12]], [[2, 9], [6, 7], [220, 77]]),
    ("mean", True): ([[4, 2, 3, 4], [5, 7, 4.5, 8], [9, 10, 38 / 3, 12]],
                     [[1 / 3, 2, 3, 4], [5, 3, 3.5, 8], [9, 10, 11 / 3, 12]],
                     [[1 / 3, 1 / 3], [3, 3.5], [11 / 3, 11 / 3]]),
    ("mean", False): ([[5.5, 2, 3, 4], [5, 8, 2, 8], [9, 10, 13.5, 12]],
                      [[0, 2, 3, 4], [5, 0, 0, 8], [9, 10, 0, 12]], [[0.5, 0.5], [6, 7], [5.5, 5.5]]),
    ("amin", True): ([[1, 2, 3, 4], [5, 6, 2, 8], [9, 10, 7, 12]],
                     [[1, 2, 3, 4], [5, 6, 0, 8], [9, 10, 0, 12]], [[0, 0], [0, 7], [11, 0]]),
    ("amax", False): ([[9, 2, 3, 4], [5, 8, 2, 8], [9, 10, 20, 12]],
                      [[0, 2, 3, 4], [5, 0, 0, 8], [9, 10, 0, 12]], [[1, 0], [6, 7], [0, 11]]),
}  # fmt: skip


@pytest.mark.parametrize("reduce,include_self", list(PUT_CASES))
def test_put_along_axis_reductions_and_gradients_match_paddle(reduce, include_self):
    out_want, gx_want, gv_want = PUT_CASES[(reduce, include_self)]
    x = T(np.arange(1, 13.0).reshape(3, 4), stop_gradient=False)
    v = T(np.array([[9.0, 2], [8, 2], [7, 20]]), stop_gradient=False)
    y = paddle.put_along_axis(x, T([[0, 0], [1, 2], [2, 2]]), v, 1, reduce, include_self=include_self)
    (y * T(np.arange(1, 13.0).reshape(3, 4))).sum().backward()
    np.testing.assert_allclose(y.numpy(), out_want)
    np.testing.assert_allclose(x.grad.numpy(), gx_want)
    np.testing.assert_allclose(v.grad.numpy(), gv_want)


def test_put_along_axis_integer_mean_truncates_and_multiply_alias():
    xi = T(np.arange(12).reshape(3, 4))
    idx, v = T([[0, 0], [1, 1], [2, 2]]), T([[9, 2], [8, 2], [7, 2]])
    out = paddle.put_along_axis(xi, idx, v, 1, "mean")
    assert out.dtype == paddle.int64
    assert out.numpy().tolist() == [[3, 1, 2, 3], [4, 5, 6, 7], [8, 9, 6, 11]]  # paddle 2.6
    a = paddle.put_along_axis(xi, idx, v, 1, "multiply").numpy()
    np.testing.assert_array_equal(a, paddle.put_along_axis(xi, idx, v, 1, "mul").numpy())


def test_put_along_axis_scalar_value_and_no_broadcast():
    x = T(X.astype("float32"))
    out = paddle.put_along_axis(x, T([[0], [1], [2]]), 9.0, 1)
    assert out.numpy()[[0, 1, 2], [0, 1, 2]].tolist() == [9, 9, 9]
    out = paddle.put_along_axis(x, T([[0, 1]]), T([[9.0, 2.0]]), 0, broadcast=False)
    assert out.numpy()[0, 0] == 9 and out.numpy()[1, 1] == 2 and out.numpy()[0, 1] == 1  # paddle 2.6


def test_take_along_axis_broadcast_rules():
    x = T(X)
    assert paddle.take_along_axis(x, T([[0], [1], [2]]), 1).numpy().ravel().tolist() == [0, 5, 10]
    assert paddle.take_along_axis(x, T([[0, 1]]), 0, broadcast=False).numpy().tolist() == [[0, 5]]
    # indices larger than arr: arr is broadcast to them instead
    out = paddle.take_along_axis(T(np.array([[1.0, 2.0]])), T(np.zeros((3, 1), np.int64)), 1)
    assert out.shape == [3, 1]
    with pytest.raises(ValueError, match="take_along_axis: indices of shape"):
        paddle.take_along_axis(x, T([[0, 1]]), 0)  # [1, 2] cannot be broadcast to [1, 4] (paddle 2.6 too)


def test_take_along_axis_errors():
    x = T(X)
    with pytest.raises(ValueError, match="take_along_axis: indices must have as many dimensions"):
        paddle.take_along_axis(x, T([0, 1]), 1)
    with pytest.raises(TypeError, match="take_along_axis: indices must be an int32 or int64 Tensor"):
        paddle.take_along_axis(x, T([[0.0]]), 1)
    with pytest.raises(IndexError, match="take_along_axis: index holds 5"):
        paddle.take_along_axis(x, T([[5], [1], [2]]), 1)
    with pytest.raises(ValueError, match="put_along_axis: reduce must be one of"):
        paddle.put_along_axis(x, T([[0], [1], [2]]), 1.0, 1, "foo")


# ---- index functions ---------------------------------------------------------------------------------------------


def test_index_functions_values_match_paddle():
    x = T(X.astype("float32"))
    out = paddle.index_add(x, T([0, 2, 0]), 0, T(np.ones((3, 4), "float32")))
    assert out.numpy()[0].tolist() == [2, 3, 4, 5]
    out = paddle.index_fill(T(np.arange(12).reshape(3, 4)), T([0, 2]), 1, 7.5)
    assert out.dtype == paddle.int64 and out.numpy()[:, 0].tolist() == [7, 7, 7]  # the value is cast to x's dtype
    out = paddle.index_put(x, (T([0, 0]), T([1, 1])), T([5.0, 6.0]), True)
    assert out.numpy()[0, 1] == 12.0
    out = paddle.index_put(x, (x > 5,), T(1.0))
    assert out.numpy().tolist()[2] == [1, 1, 1, 1]
    out = paddle.masked_fill(T(np.arange(12).reshape(3, 4)), T(np.arange(12).reshape(3, 4)) > 5, 2.7)
    assert out.numpy().ravel().tolist()[5:8] == [5, 2, 2]


def test_index_functions_errors():
    x = T(X.astype("float32"))
    with pytest.raises(ValueError, match=r"index_add: value must have shape \[3, 2\]"):
        paddle.index_add(x, T([0, 2]), 1, T(np.ones((3, 1), "float32")))
    with pytest.raises(TypeError, match="index_add: value must have x's dtype float32"):
        paddle.index_add(x, T([0, 2]), 1, T(np.ones((3, 2))))
    with pytest.raises(ValueError, match="index_add: index must be 1-D"):
        paddle.index_add(x, T([[0, 2]]), 1, T(np.ones((3, 2), "float32")))
    with pytest.raises(TypeError, match="index_put: value must be a Tensor"):
        paddle.index_put(x, (T([0, 2]), T([1, 1])), 5.0)
    with pytest.raises(TypeError, match="index_put: value must have x's dtype"):
        paddle.index_put(x, (T([0, 2]), T([1, 1])), T([5, 6]))
    with pytest.raises(TypeError, match=r"index_put: indices\[0\] must be an int or bool Tensor"):
        paddle.index_put(x, (T([0.0, 2.0]),), T([5.0, 6.0]))
    with pytest.raises(IndexError, match="index_put: indices cover 3 dimensions"):
        paddle.index_put(x, (T([0]), T([1]), T([1])), T([5.0]))
    with pytest.raises(ValueError, match="index_put: value of shape"):
        paddle.index_put(x, (T([0, 2]), T([1, 1])), T([5.0, 6.0, 7.0]))
    with pytest.raises(ValueError, match="masked_fill: shapes"):
        paddle.masked_fill(x, T([True, False, True]), 2.0)
    with pytest.raises(IndexError, match="index_fill: index holds 5"):
        paddle.index_fill(x, T([0, 5]), 1, 7.0)


def test_in_place_forms_bind_and_write_into_x():
    x = T(X.astype("float32"))
    assert x.masked_fill_(x > 9, 0.0) is x and x.numpy()[2, 3] == 0
    x.index_fill_(T([0]), 0, -1.0)
    assert x.numpy()[0].tolist() == [-1, -1, -1, -1]
    x.index_add_(T([1]), 1, T(np.ones((3, 1), "float32")))
    assert x.numpy()[:, 1].tolist() == [0, 6, 10]
    x.index_put_((T([2]), T([0])), T([42.0]))
    assert x.numpy()[2, 0] == 42
    x.put_along_axis_(T([[3]]), 7.0, 1)
    assert x.numpy()[:, 3].tolist() == [7, 7, 7]


def test_methods_are_bound_as_in_paddle():
    x = T(X)
    for name in ("take_along_axis", "diagonal", "moveaxis", "tensordot", "unflatten", "view", "take", "clone"):
        assert hasattr(paddle.Tensor, name)
    for name in ("einsum", "tril_indices", "triu_indices"):  # functions only in paddle 2.6
        assert not hasattr(paddle.Tensor, name)
    assert x.diagonal(1).numpy().tolist() == [1, 6, 11]
    assert x.moveaxis(0, 1).shape == [4, 3]


# ---- shape functions ---------------------------------------------------------------------------------------------


def test_shape_function_values_match_paddle():
    x = T(X.astype("float32"))
    assert paddle.rot90(x).numpy()[0].tolist() == [3, 7, 11]
    assert paddle.rot90(x, -1).numpy()[0].tolist() == [8, 4, 0]
    out = paddle.repeat_interleave(x, T([1, 0, 2]), 0)
    assert out.numpy()[:, 0].tolist() == [0, 8, 8]
    assert paddle.repeat_interleave(T(5.0), 3).numpy().tolist() == [5, 5, 5]
    assert [t.shape for t in paddle.vsplit(x, [1, -1])] == [[1, 4], [2, 4]]
    assert paddle.atleast_3d(T([1.0, 2.0])).shape == [1, 2, 1]
    assert [t.shape for t in paddle.atleast_2d(T(3.0), x)] == [[1, 1], [3, 4]]
    assert paddle.atleast_2d([1, 2]).dtype == paddle.int64  # non-Tensors are converted
    assert paddle.diagflat(T([1.0, 2.0, 3.0]), 1).shape == [4, 4]
    assert paddle.unflatten(x, -1, T([2, 2])).shape == [3, 2, 2]


def test_shape_function_errors():
    x = T(X.astype("float32"))
    with pytest.raises(ValueError, match="moveaxis: source"):
        paddle.moveaxis(x, [0, 0], [1, 0])
    with pytest.raises(ValueError, match="moveaxis: source"):
        paddle.moveaxis(x, [0], [1, 0])
    with pytest.raises(ValueError, match="rot90: x must have at least 2 dimensions"):
        paddle.rot90(T([1.0, 2.0]))
    with pytest.raises(ValueError, match="rot90: the two axes must be different"):
        paddle.rot90(x, 1, [0, 0])
    with pytest.raises(ValueError, match="repeat_interleave: repeats must be larger than zero"):
        paddle.repeat_interleave(x, 0)
    with pytest.raises(ValueError, match="repeat_interleave: repeats must hold one count per slice"):
        paddle.repeat_interleave(x, T([1, 0, 2]), 1)
    with pytest.raises(ValueError, match="unflatten: shape"):
        paddle.unflatten(x, 1, [3, 2])
    with pytest.raises(ValueError, match="vsplit: x must have at least 2 dimensions"):
        paddle.vsplit(T([1.0, 2.0, 3.0]), 3)
    with pytest.raises(ValueError, match="broadcast_tensors: give at least 2 tensors"):
        paddle.broadcast_tensors([x])
    with pytest.raises(ValueError, match="broadcast_tensors: shapes"):
        paddle.broadcast_tensors([T([1.0, 2.0, 3.0]), T([1.0, 2.0])])
    with pytest.raises(ValueError, match="diagonal: x must have at least 2 dimensions"):
        paddle.diagonal(T([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"diagonal_scatter: y must have the diagonal's shape \[3\]"):
        paddle.diagonal_scatter(x, T([9.0, 9.0]))
    with pytest.raises(IndexError, match="select_scatter: index 4 is out of range"):
        paddle.select_scatter(x, T([9.0, 9.0, 9.0]), 1, 4)
    with pytest.raises(ValueError, match=r"select_scatter: values must have the slice's shape \[3\]"):
        paddle.select_scatter(x, T([9.0, 9.0]), 1, 2)


def test_scatter_functions_cast_values_to_x_dtype():
    x = T(X.astype("float32"))
    out = paddle.diagonal_scatter(x, T([9, 9, 9]))
    assert out.dtype == paddle.float32 and paddle.diagonal(out).numpy().tolist() == [9, 9, 9]
    out = paddle.select_scatter(x, T([9, 9, 9]), 1, 2)
    assert out.numpy()[:, 2].tolist() == [9, 9, 9]


# ---- products and einsum -----------------------------------------------------------------------------------------


def test_einsum_implicit_output_orders_lowercase_before_uppercase():
    x = T(X.astype("float32"))
    assert paddle.einsum("Ba", x).shape == [4, 3]  # paddle 2.6: the output is 'aB'
    assert paddle.einsum("aB", x).shape == [3, 4]
    assert float(paddle.einsum("Ab,bA", x, x.T)) == 506.0


def test_einsum_gradient_of_a_trace_and_a_matmul():
    a = T(np.arange(9.0).reshape(3, 3), stop_gradient=False)
    paddle.einsum("ii", a).backward()
    np.testing.assert_array_equal(a.grad.numpy(), np.eye(3))
    x = T(np.ones((2, 3)), stop_gradient=False)
    y = T(np.arange(12.0).reshape(3, 4), stop_gradient=False)
    paddle.einsum("ij,jk->ik", x, y).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.tile(y.numpy().sum(1), (2, 1)))


def test_einsum_errors():
    x = T(X.astype("float32"))
    with pytest.raises(ValueError, match="einsum: the equation 'ij,jk' has 2 input terms but 1 operands"):
        paddle.einsum("ij,jk", x)
    with pytest.raises(ValueError, match="einsum: label 'j' has sizes 4 and 3"):
        paddle.einsum("ij,jk", x, x)
    with pytest.raises(ValueError, match="einsum: output label 'k' appears in no input term"):
        paddle.einsum("ij->k", x)
    with pytest.raises(ValueError, match="einsum: the inputs have '...' dimensions"):
        paddle.einsum("...i->i", x)
    with pytest.raises(ValueError, match="einsum: term 'ijk' has 3 labels but operand 0 has 2"):
        paddle.einsum("ijk", x)
    with pytest.raises(ValueError, match="einsum: the output repeats a label"):
        paddle.einsum("ij->ii", x)
    with pytest.raises(TypeError, match="einsum: all operands must have one dtype"):
        paddle.einsum("ij,jk", x, T(np.ones((4, 2))))


def test_tensordot_and_inner_errors_and_broadcast():
    x = T(X.astype("float32"))
    with pytest.raises(ValueError, match="tensordot: x's dimension 1 .size 4. and y's dimension 0 .size 3."):
        paddle.tensordot(x, x, [[1], [0]])
    with pytest.raises(ValueError, match="tensordot: axes name a dimension twice"):
        paddle.tensordot(x, x, [1, 1])
    # a size-1 contracted dimension broadcasts (paddle 2.6)
    out = paddle.tensordot(x, T(np.ones((1, 5), "float32")), [[1], [0]])
    assert out.numpy()[:, 0].tolist() == [6, 22, 38]
    with pytest.raises(ValueError, match="inner: the last dimensions must match"):
        paddle.inner(x, T([1.0, 2.0, 3.0]))
    assert paddle.outer(T(2.0), T([1.0, 2.0])).shape == [1, 2]


# ---- views, copies and builders ------------------------------------------------------------------------------------


def test_view_shares_storage_and_reinterprets_bytes():
    x = T(X.astype("float32"))
    v = paddle.view(x, [4, 3])
    x[0, 0] = 100.0
    assert v.numpy()[0, 0] == 100.0
    bits = paddle.view(T(np.array([[1.0]], "float32")), "int32")
    assert bits.numpy().tolist() == [[1065353216]]  # paddle 2.6
    assert paddle.view(x, "uint8").shape == [3, 16]
    assert paddle.view_as(x, T(np.ones((2, 6)))).shape == [2, 6]
    with pytest.raises(ValueError, match="view: the last dimension of x"):
        paddle.view(T(np.ones((2, 3), "float32")), "float64")


def test_clone_and_tolist():
    x = T([1.0, 2.0], stop_gradient=False)
    y = paddle.clone(x)
    (y * 3).sum().backward()
    assert x.grad.numpy().tolist() == [3.0, 3.0]
    assert paddle.tolist(T([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    assert paddle.tolist(T(3)) == 3


def test_unique_consecutive_matches_paddle():
    out, inverse, counts = paddle.unique_consecutive(T([1, 1, 2, 2, 3, 1, 1, 2]), True, True)
    assert out.numpy().tolist() == [1, 2, 3, 1, 2]
    assert inverse.numpy().tolist() == [0, 0, 1, 1, 2, 3, 3, 4]
    assert counts.numpy().tolist() == [2, 2, 1, 2, 1]
    out, inverse, counts = paddle.unique_consecutive(T([[2, 1, 1], [2, 1, 1], [3, 1, 1]]), True, True, axis=1)
    assert out.numpy().tolist() == [[2, 1], [2, 1], [3, 1]] and counts.numpy().tolist() == [1, 2]
    out, inverse, counts = paddle.unique_consecutive(T(3.0), True, True, dtype="int32")
    assert out.shape == [1] and inverse.dtype == paddle.int32 and counts.numpy().tolist() == [1]
    assert paddle.unique_consecutive(T([1, 1, 2]), return_counts=True)[1].numpy().tolist() == [2, 1]
    with pytest.raises(TypeError, match="unique_consecutive: dtype must be int32 or int64"):
        paddle.unique_consecutive(T([1, 1]), dtype="float32")


def test_builders_match_paddle():
    v = T([1.0, 2.0, 3.0])
    assert paddle.combinations(v, 4).shape == [0, 4]
    assert paddle.combinations(v, 0).shape == [0]
    assert paddle.combinations(T([1, 2]), 1).numpy().tolist() == [[1], [2]]
    assert paddle.tril_indices(4, 3, 1, "int32").dtype == paddle.int32
    assert paddle.tril_indices(3, None).numpy().tolist() == [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]
    assert paddle.tril_indices(-1, 3).shape == [2, 0]
    assert paddle.triu_indices(4, 3, -1).numpy().tolist() == [[0, 0, 0, 1, 1, 1, 2, 2, 3], [0, 1, 2, 0, 1, 2, 1, 2, 2]]
    assert paddle.vander(T([1, 2, 3])).numpy().tolist() == [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
    assert paddle.vander(v, 0).shape == [3, 0]
    x = T(X.astype("float32"))
    assert paddle.take(x, T([0, 14, -15]), "wrap").numpy().tolist() == [0, 2, 9]
    assert paddle.take(x, T([0, 14, -15]), "clip").numpy().tolist() == [0, 11, 0]


def test_builder_errors():
    with pytest.raises(TypeError, match="combinations: x must be a 1-D Tensor"):
        paddle.combinations(T(X))
    with pytest.raises(TypeError, match="tril_indices: dtype must be int32 or int64"):
        paddle.tril_indices(3, 3, 0, "float32")
    with pytest.raises(ValueError, match="vander: x must be a 1-D Tensor"):
        paddle.vander(T(2.0))
    with pytest.raises(IndexError, match="take: index holds 12"):
        paddle.take(T(X), T([0, 12]))
    with pytest.raises(ValueError, match="take: mode must be"):
        paddle.take(T(X), T([0]), "foo")
    with pytest.raises(TypeError, match="take: index must be an int32 or int64 Tensor"):
        paddle.take(T(X), T([0.0]))


def test_vander_gradient_at_zero_is_finite():
    x = T([0.0, 2.0], stop_gradient=False)
    paddle.vander(x, 3).sum().backward()
    assert x.grad.numpy().tolist() == [1.0, 5.0]  # d/dx (x^2 + x + 1) = 2x + 1
