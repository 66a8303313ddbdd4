"""paddle.bfloat16 (from the ml_dtypes package): creation, casts, printing, promotion as in paddle 2.6."""

from __future__ import annotations

import json
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F

PRINT_CASES = json.loads((Path(__file__).resolve().parents[1] / "golden" / "printing" / "cases.json").read_text())


def bf16(values):
    return paddle.to_tensor(values, dtype="bfloat16")


def test_the_dtype():
    assert str(paddle.bfloat16) == "paddle.bfloat16" and paddle.bfloat16 != paddle.float16
    assert paddle.bfloat16.is_floating and paddle.bfloat16.itemsize == 2
    x = paddle.to_tensor([1.0, 2.0]).astype("bfloat16")
    assert x.dtype == paddle.bfloat16 and x.numpy().dtype == ml_dtypes.bfloat16
    assert paddle.is_floating_point(x)
    assert paddle.to_tensor(x.numpy()).dtype == paddle.bfloat16  # a bfloat16 numpy array keeps its dtype


def test_casts_round_to_bfloat16_precision_and_back():
    x = paddle.to_tensor([1.0, 0.1, -3.14159, 1e-3], stop_gradient=False)
    back = x.astype(paddle.bfloat16).astype("float32").numpy()
    np.testing.assert_allclose(back, x.numpy(), rtol=2**-8)  # 8 significant bits
    assert back[0] == 1.0 and back[1] != np.float32(0.1)
    assert bf16([1.5, -2.0]).astype("int32").numpy().tolist() == [1, -2]
    x.astype("bfloat16").sum().backward()  # the gradient comes back through the cast, in x's dtype
    assert x.grad.dtype == paddle.float32 and x.grad.numpy().tolist() == [1.0] * 4


def test_prints_like_paddle():
    (case,) = [c for c in PRINT_CASES if c["name"] == "bfloat16_1d"]  # recorded from paddle 2.6
    assert str(paddle.to_tensor(case["data"]).astype("bfloat16")) == case["expected"]


@pytest.mark.parametrize(
    "make,expected",
    [
        (lambda a: a + paddle.to_tensor([1.0, 2.0]), "float32"),
        (lambda a: paddle.to_tensor([1.0, 2.0]) + a, "float32"),
        (lambda a: a + paddle.to_tensor([1.0, 2.0], dtype="float64"), "float64"),
        (lambda a: a + paddle.to_tensor([1.0, 2.0], dtype="float16"), "float32"),  # neither holds the other
        (lambda a: paddle.to_tensor([1.0, 2.0], dtype="float16") + a, "float32"),
        (lambda a: paddle.to_tensor([1, 2], dtype="int32") + a, "int32"),  # the left operand's dtype, as Paddle
        (lambda a: a * 2.5, "bfloat16"),
        (lambda a: a + a, "bfloat16"),
    ],
)
def test_promotion_as_paddle(make, expected):
    assert make(bf16([1.0, 2.5])).dtype.name == expected


def test_elementwise_math_stays_bfloat16_with_gradients():
    x = paddle.to_tensor([0.5, -1.0, 2.0], dtype="bfloat16", stop_gradient=False)
    y = (F.gelu(x) * paddle.tanh(x) + paddle.exp(x)).mean()
    assert y.dtype == paddle.bfloat16
    y.backward()
    assert x.grad.dtype == paddle.bfloat16
    exact = paddle.to_tensor(x.numpy().astype("float32"), stop_gradient=False)
    (F.gelu(exact) * paddle.tanh(exact) + paddle.exp(exact)).mean().backward()
    np.testing.assert_allclose(x.grad.numpy().astype("float32"), exact.grad.numpy(), rtol=0.05, atol=0.02)


def test_default_dtype_may_be_bfloat16():
    paddle.set_default_dtype("bfloat16")
    try:
        assert paddle.to_tensor([1.0]).dtype == paddle.bfloat16
    finally:
        paddle.set_default_dtype("float32")
