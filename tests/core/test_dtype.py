"""dtypes as objects, their spellings, and paddle 2.6's promotion rules (docs/notes/paddle26_facts.md)."""

import numpy as np
import pytest

import minipaddle as paddle


def test_dtype_objects_and_spellings():
    x = paddle.to_tensor([1.0, 2.0])
    assert x.dtype == paddle.float32
    assert str(paddle.float32) == "paddle.float32"
    for spelling in ("float64", paddle.float64, np.float64, np.dtype("float64")):
        assert x.astype(spelling).dtype == paddle.float64
    assert paddle.to_tensor([1], dtype="int32").dtype == paddle.int32
    assert paddle.bool.name == "bool" and paddle.uint8.name == "uint8" and paddle.int8.name == "int8"


def test_unknown_dtype_is_a_type_error_naming_the_choices():
    with pytest.raises(TypeError, match="unknown dtype 'floaty'.*float32"):
        paddle.to_tensor([1.0], dtype="floaty")


@pytest.mark.parametrize(
    "left,right,expected",
    [
        ("int32", "float32", "int32"),  # the right operand is cast to the left's dtype
        ("float32", "int32", "float32"),
        ("float32", "float64", "float64"),  # floats promote to the wider
        ("float64", "float32", "float64"),
        ("float16", "float32", "float32"),
        ("int64", "int32", "int64"),
        ("float32", "complex64", "complex64"),
        ("complex64", "float64", "complex128"),
    ],
)
def test_tensor_tensor_promotion(left, right, expected):
    a = paddle.ones([2], dtype=left)
    b = paddle.ones([2], dtype=right)
    assert (a + b).dtype.name == expected
    assert (a * b).dtype.name == expected


def test_a_bool_tensor_with_a_float_tensor_is_refused_as_paddle_does():
    """paddle 2.6.2 promotes bool + float32 tensors to bool and then finds no bool add kernel (RuntimeError
    NotFound); with a Python number on one side it runs a scale op, which works (test below)."""
    with pytest.raises(TypeError, match="add: paddle 2.6 has no kernel for a bool"):
        paddle.ones([2], dtype="bool") + paddle.ones([2], dtype="float32")


@pytest.mark.parametrize(
    "dtype,scalar,expected",
    [
        ("int32", 2, "int32"),
        ("int32", 1.5, "float32"),
        ("int64", 1.5, "float32"),
        ("float16", 1.5, "float16"),
        ("float64", 2, "float64"),
        ("bool", 1, "bool"),
    ],
)
def test_tensor_scalar_promotion(dtype, scalar, expected):
    assert (paddle.ones([2], dtype=dtype) + scalar).dtype.name == expected
    assert (scalar + paddle.ones([2], dtype=dtype)).dtype.name == expected


def test_int_true_division_gives_float32_but_divide_truncates():
    a = paddle.to_tensor([1, 2, -3])
    assert (a / 2).dtype == paddle.float32
    np.testing.assert_allclose((a / 2).numpy(), [0.5, 1.0, -1.5])
    np.testing.assert_array_equal(paddle.divide(a, paddle.to_tensor([2, 2, 2])).numpy(), [0, 1, -1])


def test_default_dtype_governs_python_floats_and_creation():
    assert paddle.get_default_dtype() == "float32"
    paddle.set_default_dtype("float64")
    try:
        assert paddle.to_tensor(1.5).dtype == paddle.float64
        assert paddle.zeros([2]).dtype == paddle.float64
        assert paddle.to_tensor(1 + 2j).dtype == paddle.complex128
    finally:
        paddle.set_default_dtype("float32")
    with pytest.raises(TypeError, match="set_default_dtype"):
        paddle.set_default_dtype("int32")


@pytest.mark.parametrize(
    "data,expected",
    [
        (1, "int64"),
        (1.5, "float32"),
        (True, "bool"),
        (1 + 2j, "complex64"),
        ([1, 2], "int64"),
        ([1, 2.5], "float32"),
        ([[True, False]], "bool"),
        (np.array([1.0], dtype=np.float64), "float64"),
        (np.array([1], dtype=np.int32), "int32"),
        (np.float64(2.0), "float64"),
    ],
)
def test_to_tensor_dtype_inference(data, expected):
    assert paddle.to_tensor(data).dtype.name == expected


def test_to_tensor_shapes_and_errors():
    assert paddle.to_tensor(3.0).shape == []
    assert paddle.to_tensor([[1, 2], [3, 4]]).shape == [2, 2]
    with pytest.raises(ValueError, match="ragged"):
        paddle.to_tensor([[1, 2], [3]])
    with pytest.raises(TypeError, match="to_tensor: data must be"):
        paddle.to_tensor({"a": 1})
    t = paddle.to_tensor([1.0], stop_gradient=False)
    copy = paddle.to_tensor(t)
    assert copy.stop_gradient and copy.numpy() is not t.numpy()
