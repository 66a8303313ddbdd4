"""Views share storage and the version counter with their base; in-place changes of either keep gradients right
(or raise a clear RuntimeError); the `_` methods; set_value and Tensor attributes."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle


def leaf(values):
    return paddle.to_tensor(np.asarray(values, dtype="float64"), stop_gradient=False)


def test_reshape_transpose_and_basic_indexing_are_views_sharing_the_version():
    x = paddle.to_tensor(np.arange(6.0).reshape(2, 3))
    for view in (x.reshape([6]), x.transpose([1, 0]), x[1], x[:, ::2], x.squeeze(), x.unsqueeze(0), x.flatten()):
        assert np.shares_memory(view.numpy(), x.numpy())
        before = view.inplace_version
        x.add_(paddle.to_tensor(1.0, dtype="float64"))
        assert view.inplace_version == before + 1 == x.inplace_version
    copy = x[[0, 1]]  # an advanced index gives a copy
    assert not np.shares_memory(copy.numpy(), x.numpy())


def test_changing_a_view_in_place_changes_the_base_and_its_gradient():
    a = leaf([[1.0, 2.0], [3.0, 4.0]])
    x = a * 1
    x[0].multiply_(paddle.to_tensor(3.0, dtype="float64"))  # x's first row is tripled through a view
    np.testing.assert_allclose(x.numpy(), [[3, 6], [3, 4]])
    (x * x).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [[18, 36], [6, 8]])  # d(sum x^2)/da = 2 x * dx/da


def test_changing_the_base_in_place_renews_the_history_of_its_views():
    a = leaf([[1.0, 2.0], [3.0, 4.0]])
    x = a * 1
    row, col = x[1], x[:, 0]
    x.multiply_(paddle.to_tensor(3.0, dtype="float64"))
    (row * row).sum().backward(retain_graph=True)  # row = 3 a[1]: d(sum row^2)/da[1] = 18 a[1]
    np.testing.assert_allclose(a.grad.numpy(), [[0, 0], [54, 72]])
    a.clear_grad()
    col.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [[3, 0], [3, 0]])


def test_a_view_of_a_view_changed_in_place_updates_every_base():
    a = leaf(np.arange(6.0))
    x = a * 1
    block = x.reshape([2, 3])
    block[:, 1].exp_()
    x.sum().backward()
    expected = np.ones(6)
    expected[[1, 4]] = np.exp([1.0, 4.0])
    np.testing.assert_allclose(a.grad.numpy(), expected)


def test_ops_that_used_a_value_before_an_in_place_change_keep_the_old_history():
    a = leaf([1.0, 2.0])
    x = a * 1
    before = x + 1  # add saves nothing; its gradient must not see the later multiply_
    x.multiply_(paddle.to_tensor(3.0, dtype="float64"))
    (before.sum() + x.sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), [4.0, 4.0])


def test_a_saved_view_changed_through_its_base_is_refused_at_backward():
    a = leaf([[1.0, 2.0], [3.0, 4.0]])
    x = a * 1
    row = x[0]
    loss = (row * row).sum()  # multiply saves row
    x[0, 0] = 10.0
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        loss.backward()


def test_views_of_a_leaf_that_requires_grad_cannot_be_changed_in_place():
    w = leaf([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(RuntimeError, match="a view of a leaf Tensor that requires grad"):
        w[0].add_(paddle.to_tensor(1.0, dtype="float64"))
    np.testing.assert_allclose(w.numpy(), [[1, 2], [3, 4]])  # refused before anything was written
    with pytest.raises(RuntimeError, match="leaf Tensor"):
        w[0] = 5.0
    with paddle.no_grad():
        w[0] = 5.0
        w.T[1].zero_()
    np.testing.assert_allclose(w.numpy(), [[5, 0], [3, 0]])
    assert w.is_leaf


def test_setitem_sends_gradient_to_the_value_not_to_the_overwritten_part():
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    v = leaf([7.0, 8.0])
    y = x * 2
    y[:, 1] = v * v
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[2, 0, 2], [2, 0, 2]])
    np.testing.assert_allclose(v.grad.numpy(), [14.0, 16.0])


def test_setitem_accepts_numbers_lists_arrays_and_casts_to_the_tensor_dtype():
    x = paddle.zeros([2, 3], dtype="int64")
    x[0] = 2.7
    x[1, [0, 2]] = [5, 6]
    x[x == 0] = np.int32(9)
    np.testing.assert_array_equal(x.numpy(), [[2, 2, 2], [5, 9, 6]])
    assert x.dtype == paddle.int64
    with pytest.raises(TypeError, match="__setitem__"):
        x[0] = "a"
    with pytest.raises(ValueError, match="set_value"):
        x[0] = [1, 2]


def test_in_place_methods_return_self_keep_dtype_and_shape():
    x = paddle.to_tensor([1.0, 4.0, 9.0])
    assert x.sqrt_() is x
    np.testing.assert_allclose(x.numpy(), [1, 2, 3])
    x.add_(1).scale_(2.0).clip_(5.0, 7.0)
    np.testing.assert_allclose(x.numpy(), [5, 6, 7])
    with pytest.raises(TypeError, match="exp_: the result is float32 but the tensor is int64"):
        paddle.to_tensor([1, 2]).exp_()
    with pytest.raises(ValueError, match="add_: the result has shape \\[2, 3\\]"):
        paddle.to_tensor([1.0, 2.0, 3.0]).add_(paddle.ones([2, 3]))
    b = paddle.to_tensor([1.0, 2.0])
    assert b.equal_(paddle.to_tensor([1.0, 3.0])) is b and b.dtype == paddle.bool  # comparisons become bool
    c = paddle.to_tensor([1.5, 2.5])
    assert c.cast_("int32") is c and c.dtype == paddle.int32


def test_shape_changing_in_place_methods_and_their_gradients():
    a = leaf([[1.0, 2.0], [3.0, 4.0]])
    x = a * 1
    assert x.reshape_([4]) is x and x.shape == [4]
    x.unsqueeze_(0)
    assert x.shape == [1, 4] and x.inplace_version == 2
    x.squeeze_()
    x.exp_()
    x.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), np.exp([[1, 2], [3, 4]]))
    y = a * 1
    assert paddle.t_(y) is y and y.shape == [2, 2]
    np.testing.assert_allclose(y.numpy(), [[1, 3], [2, 4]])
    with pytest.raises(RuntimeError, match="reshape_: a leaf Tensor that requires grad"):
        a.reshape_([4])


def test_zero_and_fill_cut_the_history_of_what_they_overwrite():
    a = leaf([1.0, 2.0])
    x = a * 3
    x.zero_()
    assert x.stop_gradient
    (x + a).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [1.0, 1.0])
    x.fill_(7)
    np.testing.assert_allclose(x.numpy(), [7.0, 7.0])


def test_paddle_level_in_place_functions():
    x = paddle.to_tensor([[0.5, -0.5]])
    assert paddle.tanh_(x) is x
    np.testing.assert_allclose(x.numpy(), np.tanh([[0.5, -0.5]]), rtol=1e-6)
    paddle.unsqueeze_(x, 0)
    paddle.squeeze_(x, [0, 1])
    assert x.shape == [2]
    paddle.scatter_(x, paddle.to_tensor([1]), paddle.to_tensor([9.0]))
    assert x.numpy()[1] == 9.0
    c = paddle.to_tensor([True, False])
    paddle.where_(c, x, paddle.to_tensor([0.0, 0.0]))
    assert x.numpy()[1] == 0.0


def test_set_value_value_data_and_attributes():
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    view = x[0]
    x.set_value(np.zeros((2, 3)))
    np.testing.assert_allclose(view.numpy(), [0, 0, 0])  # views see the new values
    with pytest.raises(ValueError, match="set_value: the value has shape \\[3\\]"):
        x.set_value([1.0, 2.0, 3.0])
    x.data = paddle.ones([2, 3])
    assert x.value() is x and x.data is x and x.numpy().sum() == 6
    assert x.T.shape == [3, 2] and not x.T.is_contiguous() and x.T.contiguous().is_contiguous()
    assert paddle.ones([2, 3, 4]).T.shape == [4, 3, 2]
    assert x.numel().item() == 6 and x.numel().dtype == paddle.int64
    assert x.element_size() == 4 and paddle.to_tensor([1]).element_size() == 8
    assert x.cpu() is x and x.ndimension() == 2 and x.dim() == 2
    assert paddle.rank(x).item() == 2 and paddle.shape(x).tolist() == [2, 3]
    with pytest.raises(RuntimeError, match="CPU"):
        x.cuda()
    with pytest.raises(RuntimeError, match="pinned memory"):
        x.pin_memory()
