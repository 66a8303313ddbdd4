"""Two behaviours paddle 2.6 has that users hit through other APIs (distribution parameters, 0-d reductions)."""

from __future__ import annotations

import pytest

import minipaddle as paddle


def test_squeeze_of_a_0d_tensor_accepts_axis_0_and_minus_1_as_paddle():
    x = paddle.to_tensor(1.0)
    for axis in (None, 0, -1, [0], [-1]):
        assert paddle.squeeze(x, axis=axis).shape == []
    with pytest.raises(ValueError, match="squeeze: axis 1 is out of range for a 0-d tensor"):
        paddle.squeeze(x, axis=1)


def test_to_tensor_with_a_float64_dtype_keeps_python_floats_at_full_precision():
    assert paddle.to_tensor([0.3], dtype="float64").numpy()[0] == 0.3  # not 0.3 rounded to float32 first
    assert paddle.to_tensor(0.1, dtype=paddle.float64).item() == 0.1
    assert paddle.to_tensor([0.3]).dtype == paddle.float32  # without a dtype: the default float dtype
    assert paddle.to_tensor([1, 2], dtype="float32").dtype == paddle.float32
