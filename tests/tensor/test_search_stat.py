"""Searching, sorting and statistics: tie rules, gradients and output forms measured on paddle 2.6."""

import numpy as np
import pytest

import minipaddle as paddle


def grad_of(fn, values):
    x = paddle.to_tensor(values, stop_gradient=False)
    out = fn(x)
    return paddle.grad(out.sum(), [x])[0].numpy()


def test_topk_and_sort_keep_earlier_positions_first_on_ties():
    values, indices = paddle.topk(paddle.to_tensor([1, 3, 3, 2]), 2)
    assert values.numpy().tolist() == [3, 3] and indices.numpy().tolist() == [1, 2]
    assert paddle.argsort(paddle.to_tensor([3, 1, 3, 2]), descending=True).numpy().tolist() == [0, 2, 3, 1]
    assert paddle.argsort(paddle.to_tensor([3, 1, 3, 2])).numpy().tolist() == [1, 3, 0, 2]
    small, where = paddle.topk(paddle.to_tensor([[1.0, 3, 3, 2]]), k=2, axis=1, largest=False)
    assert small.numpy().tolist() == [[1.0, 2.0]] and where.numpy().tolist() == [[0, 3]]


def test_sort_and_topk_send_gradients_to_the_picked_elements():
    np.testing.assert_array_equal(grad_of(lambda x: paddle.topk(x, 2)[0], [1.0, 3.0, 3.0, 2.0]), [0, 1, 1, 0])
    np.testing.assert_array_equal(grad_of(lambda x: paddle.sort(x) * paddle.to_tensor([1.0, 2.0, 3.0]),
                                          [5.0, 4.0, 6.0]), [2.0, 1.0, 3.0])  # fmt: skip


def test_mode_picks_the_smallest_most_frequent_value_at_its_last_position():
    values, indices = paddle.mode(paddle.to_tensor([1.0, 3, 3, 2, 2]))
    assert values.item() == 2.0 and indices.item() == 4 and values.shape == []
    v, i = paddle.mode(paddle.to_tensor([[1, 3, 3, 2, 2]]), axis=1, keepdim=True)
    assert v.shape == [1, 1] and v.dtype == paddle.int64 and i.numpy().tolist() == [[4]]
    np.testing.assert_array_equal(grad_of(lambda x: paddle.mode(x)[0], [1.0, 3.0, 3.0, 2.0]), [0, 0, 1, 0])


def test_median_shares_the_gradient_between_the_two_middle_values():
    assert paddle.median(paddle.to_tensor([1, 3, 2, 4])).item() == 2.5
    assert paddle.median(paddle.to_tensor([1, 3, 2, 4])).dtype == paddle.float32
    np.testing.assert_array_equal(grad_of(paddle.median, [1.0, 4.0, 3.0, 2.0]), [0, 0, 0.5, 0.5])
    out = paddle.median(paddle.to_tensor([[1.0, 3, 2, 4], [5, 6, 7, 8]], dtype="float64"), axis=1, keepdim=True)
    assert out.dtype == paddle.float64 and out.numpy().tolist() == [[2.5], [6.5]]


def test_var_and_std_follow_paddle():
    assert paddle.var(paddle.to_tensor([1.0])).item() == 0.0  # unbiased with one element divides by 1
    np.testing.assert_allclose(paddle.var(paddle.to_tensor([1.0, 2.0, 4.0]), unbiased=False).item(), 14 / 9)
    np.testing.assert_allclose(grad_of(paddle.std, [1.0, 3.0, 3.0]), [-0.57735027, 0.28867513, 0.28867513], 1e-6)
    with pytest.raises(TypeError, match="std: the data type of 'x'"):  # paddle 2.6: float only
        paddle.std(paddle.to_tensor([1, 2, 4]))


def test_unique_returns_the_requested_extras_in_paddles_order():
    out = paddle.unique(paddle.to_tensor([3, 1, 3, 2]), return_index=True, return_inverse=True, return_counts=True)
    assert [t.numpy().tolist() for t in out] == [[1, 2, 3], [1, 3, 0], [2, 0, 2, 1], [1, 1, 2]]
    values, index = paddle.unique(paddle.to_tensor([3, 1, 3, 2]), return_index=True, dtype="int32")
    assert index.dtype == paddle.int32 and values.dtype == paddle.int64
    rows, inverse = paddle.unique(paddle.to_tensor([[3, 1], [3, 1], [0, 2]]), axis=0, return_inverse=True)
    assert rows.numpy().tolist() == [[0, 2], [3, 1]] and inverse.numpy().tolist() == [1, 1, 0]
    assert paddle.unique(paddle.to_tensor([1.0, 1.0])).stop_gradient


def test_nonzero_and_masked_select():
    x = paddle.to_tensor([[1, 0], [0, 3]])
    assert paddle.nonzero(x).numpy().tolist() == [[0, 0], [1, 1]]
    rows, cols = paddle.nonzero(x, as_tuple=True)
    assert rows.shape == [2, 1] and cols.numpy().tolist() == [[0], [1]]
    (only,) = paddle.nonzero(paddle.to_tensor([1.0, 0.0, 3.0]), as_tuple=True)
    assert only.numpy().tolist() == [[0], [2]]
    picked = paddle.masked_select(paddle.ones([2, 3]), paddle.to_tensor([True, False, True]))
    assert picked.shape == [4]
    np.testing.assert_array_equal(
        grad_of(lambda t: paddle.masked_select(t, paddle.to_tensor([True, False, True])), [[1.0, 2, 3], [4, 5, 6]]),
        [[1, 0, 1], [1, 0, 1]],
    )


def test_argmax_forms():
    x = paddle.to_tensor([[1, 5, 5], [7, 2, 0]])
    assert paddle.argmax(x).item() == 3 and paddle.argmax(x).shape == []
    assert paddle.argmax(x, axis=1).numpy().tolist() == [1, 0]
    assert paddle.argmin(x, axis=0, keepdim=True, dtype="int32").numpy().tolist() == [[0, 1, 1]]
    assert paddle.argmin(x, axis=0, keepdim=True, dtype="int32").dtype == paddle.int32
    assert paddle.argmax(x).stop_gradient


def test_numel():
    assert paddle.numel(paddle.ones([2, 3])).item() == 6 and paddle.numel(paddle.ones([2, 3])).dtype == paddle.int64


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: paddle.argmax(paddle.ones([2]), dtype="float32"), ValueError, "argmax: dtype must be int32 or int64"),
        (lambda: paddle.argmax(paddle.ones([2]), axis=1), ValueError, "argmax: axis 1 is out of range"),
        (lambda: paddle.argmin(paddle.ones([0])), ValueError, "argmin: x is empty"),
        (lambda: paddle.argmax([1, 2]), TypeError, "argmax: x must be a Tensor, got list"),
        (lambda: paddle.topk(paddle.ones([4]), 5), ValueError, "topk: k must be between 1 and x.shape\\[0\\] = 4"),
        (lambda: paddle.topk(paddle.ones([4]), 1.5), TypeError, "topk: k must be an int"),
        (lambda: paddle.sort(paddle.ones([2, 2]), axis=2), ValueError, "sort: axis 2 is out of range"),
        (lambda: paddle.argsort(paddle.ones([2]), descending=1), TypeError, "argsort: descending must be a bool"),
        (lambda: paddle.mode(paddle.ones([0])), ValueError, "mode: x is empty"),
        (lambda: paddle.nonzero(paddle.to_tensor(3.0)), ValueError, "nonzero: x needs at least 1 dimension"),
        (lambda: paddle.masked_select(paddle.ones([2]), paddle.to_tensor([1, 0])), TypeError,
         "masked_select: mask must be a bool tensor"),
        (lambda: paddle.masked_select(paddle.ones([2]), paddle.to_tensor([True, False, True])), ValueError,
         "masked_select: shapes \\[2\\] and \\[3\\] cannot be broadcast"),
        (lambda: paddle.unique(paddle.ones([2]), dtype="float32"), ValueError, "unique: dtype must be int32"),
        (lambda: paddle.unique(paddle.ones([2]), axis=3), ValueError, "unique: axis 3 is out of range"),
        (lambda: paddle.var(paddle.ones([0])), ValueError, "var: there are no elements"),
        (lambda: paddle.var(paddle.ones([2]), unbiased="yes"), TypeError, "var: unbiased must be a bool"),
        (lambda: paddle.std("x"), TypeError, "std: x must be a Tensor"),
        (lambda: paddle.median(paddle.ones([0])), ValueError, "median: x is empty"),
        (lambda: paddle.median(paddle.ones([2]), axis=-2), ValueError, "median: axis -2 is out of range"),
        (lambda: paddle.numel(np.ones(2)), TypeError, "numel: x must be a Tensor"),
    ],
)  # fmt: skip
def test_bad_arguments_raise_clear_errors(call, error, words):
    with pytest.raises(error, match=words):
        call()
