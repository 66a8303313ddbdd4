"""Logic and creation functions: the forms, dtypes and errors of paddle 2.6."""

import numpy as np
import pytest

import minipaddle as paddle


def test_logical_ops_read_any_dtype_as_truth_and_write_into_out():
    f = paddle.to_tensor([1.5, 0.0])
    assert paddle.logical_not(f).numpy().tolist() == [False, True]
    assert paddle.logical_and(paddle.to_tensor([1, 0]), paddle.to_tensor([2, 2])).dtype == paddle.bool
    out = paddle.zeros([2], dtype="bool")
    result = paddle.logical_or(f, paddle.to_tensor([0.0, 0.0]), out=out)
    assert result is out and out.numpy().tolist() == [True, False]


def test_predicates_and_closeness():
    x = paddle.to_tensor([np.nan, 1.0, -np.inf])
    assert paddle.isnan(x).numpy().tolist() == [True, False, False]
    assert paddle.isfinite(paddle.to_tensor([1, 2])).numpy().tolist() == [True, True]
    f = paddle.to_tensor([1.5, 0.0])
    assert paddle.allclose(f, f).item() and not paddle.allclose(f, f + 1e-7).item()
    assert paddle.allclose(paddle.to_tensor([np.nan]), paddle.to_tensor([np.nan]), equal_nan=True).item()
    assert paddle.allclose(f, f, rtol=paddle.to_tensor(0.1)).shape == []
    assert paddle.equal_all(f, paddle.to_tensor([1.5, 0.0, 1.0])).item() is False
    assert paddle.is_empty(paddle.zeros([0, 2])).item() and not paddle.is_empty(f).item()
    assert paddle.is_tensor(f) and not paddle.is_tensor([1.0]) and f.is_tensor()


def test_arange_and_linspace_dtypes():
    assert paddle.arange(5).dtype == paddle.int64 and paddle.arange(5.0).dtype == paddle.float32
    assert paddle.arange(1, 2, 0.5).numpy().tolist() == [1.0, 1.5]
    assert paddle.arange(paddle.to_tensor(3)).numpy().tolist() == [0, 1, 2]
    assert paddle.arange(0.1, 0.35, 0.05).shape == [5]
    assert paddle.linspace(0, 10, 5, dtype="int64").numpy().tolist() == [0, 2, 5, 7, 10]
    paddle.set_default_dtype("float64")
    try:
        assert paddle.arange(1.0).dtype == paddle.float64 and paddle.eye(1).dtype == paddle.float64
        assert paddle.linspace(0, 1, 2).dtype == paddle.float64 and paddle.empty([1]).dtype == paddle.float64
    finally:
        paddle.set_default_dtype("float32")


def test_diag_forms():
    assert paddle.diag(paddle.to_tensor([1, 2]), offset=1).numpy().tolist() == [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    padded = paddle.diag(paddle.to_tensor([1.0, 2.0]), offset=-1, padding_value=9)
    assert padded.numpy().tolist() == [[9, 9, 9], [1, 9, 9], [9, 2, 9]]
    assert paddle.diag(paddle.to_tensor([[1, 2, 3], [4, 5, 6]]), offset=1).numpy().tolist() == [2, 6]
    assert paddle.diag(paddle.to_tensor(3.0)).numpy().tolist() == [[3.0]]
    emb = paddle.diag_embed(paddle.to_tensor([[1.0, 2], [3, 4]]), offset=-1, dim1=0, dim2=2)
    assert emb.shape == [3, 2, 3] and emb.numpy()[1, 0, 0] == 1.0 and emb.numpy()[2, 1, 1] == 4.0


def test_meshgrid_and_empty():
    xs, ys = paddle.meshgrid(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 2, 3]))
    assert xs.shape == [2, 3] and xs.numpy()[:, 0].tolist() == [1, 2] and ys.numpy()[0].tolist() == [1, 2, 3]
    grids = paddle.meshgrid([paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0])])
    assert [g.shape for g in grids] == [[2, 1], [2, 1]]
    assert paddle.empty([2, 3]).shape == [2, 3] and paddle.empty_like(paddle.ones([2], "int32")).dtype == paddle.int32
    assert paddle.ones([3, 3]).triu(1).numpy().sum() == 3.0


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: paddle.logical_and(paddle.ones([2]), True), TypeError, "logical_and: y must be a Tensor"),
        (lambda: paddle.logical_or(paddle.ones([2]), paddle.ones([3])), ValueError, "logical_or: shapes \\[2\\]"),
        (lambda: paddle.bitwise_or(paddle.ones([2]), paddle.ones([2])), TypeError, "bitwise_or: x must be an int"),
        (lambda: paddle.bitwise_not(paddle.ones([2])), TypeError, "bitwise_not: x must be an integer"),
        (lambda: paddle.logical_not(paddle.ones([2]), out=paddle.zeros([3], "bool")), ValueError,
         "logical_not: out has shape \\[3\\]"),
        (lambda: paddle.allclose(paddle.ones([2]), paddle.ones([3])), RuntimeError, r"allclose: .* same shape, got"),
        (lambda: paddle.allclose(paddle.ones([2]), paddle.ones([2]), equal_nan=1), TypeError, "equal_nan must be"),
        (lambda: paddle.equal_all(paddle.ones([2]), 1.0), TypeError, "equal_all: y must be a Tensor"),
        (lambda: paddle.is_empty(1), TypeError, "is_empty: x must be a Tensor"),
        (lambda: paddle.isnan([1.0]), TypeError, "isnan: x must be a Tensor"),
        (lambda: paddle.arange(0, 5, 0), ValueError, "arange: step must not be 0"),
        (lambda: paddle.arange(0, -5, 1), ValueError, "arange: step 1 points away from end"),
        (lambda: paddle.arange("a"), TypeError, "arange: start must be a number"),
        (lambda: paddle.linspace(0, 1, 0), ValueError, "linspace: num must be a positive int"),
        (lambda: paddle.eye(-1), TypeError, "eye: num_rows must be a non-negative int"),
        (lambda: paddle.eye(2.5), TypeError, "eye: num_rows must be a non-negative int"),
        (lambda: paddle.empty([2, -3]), ValueError, "empty: shape must not have negative dimensions"),
        (lambda: paddle.diag(paddle.ones([2, 2, 2])), ValueError, "diag: x must be 0-D, 1-D or 2-D"),
        (lambda: paddle.diag(paddle.ones([2]), offset=0.5), TypeError, "diag: offset must be an int"),
        (lambda: paddle.diag_embed(paddle.ones([2]), dim1=0, dim2=-2), ValueError, "diag_embed: dim1 and dim2"),
        (lambda: paddle.diag_embed(paddle.ones([2]), dim1=3), ValueError, "diag_embed: axis 3 is out of range"),
        (lambda: paddle.tril(paddle.ones([3])), ValueError, "tril: x needs at least 2 dimensions"),
        (lambda: paddle.triu(paddle.ones([3, 3]), diagonal="1"), TypeError, "triu: offset must be an int"),
        (lambda: paddle.meshgrid(), ValueError, "meshgrid: give at least one"),
        (lambda: paddle.meshgrid(paddle.ones([2, 2])), ValueError, "meshgrid: every input must be 0-D or 1-D"),
        (lambda: paddle.meshgrid([1, 2]), TypeError, "meshgrid: args\\[0\\] must be a Tensor"),
    ],
)  # fmt: skip
def test_bad_arguments_raise_clear_errors(call, error, words):
    with pytest.raises(error, match=words):
        call()
