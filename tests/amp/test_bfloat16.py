"""bfloat16 as a full dtype: creation, astype, printing as Paddle prints, arithmetic through the door, save/load in
Paddle's format (the raw bits as uint16, as Paddle's own files hold them)."""

from __future__ import annotations

import pickle

import ml_dtypes
import numpy as np

import minipaddle as paddle

PADDLE_PRINT = """Tensor(shape=[2, 2], dtype=bfloat16, place=Place(cpu), stop_gradient=True,
       [[1.50000000, 2.25000000],
        [3.        , 4.09375000]])"""  # paddle 2.6.2's output for the same values


def _x():
    return paddle.to_tensor([[1.5, 2.25], [3.0, 4.1]]).astype("bfloat16")


def test_creation_astype_and_printing():
    x = _x()
    assert x.dtype == paddle.bfloat16 and str(x) == PADDLE_PRINT
    assert paddle.zeros([2], dtype="bfloat16").dtype == paddle.bfloat16
    assert paddle.to_tensor(np.ones(2, ml_dtypes.bfloat16)).dtype == paddle.bfloat16
    assert x.astype("float32").numpy().tolist() == [[1.5, 2.25], [3.0, 4.09375]]


def test_arithmetic_keeps_bfloat16():
    x = _x()
    for y in (x + x, x * 2.0, paddle.exp(x), paddle.matmul(x, x), x.sum(), paddle.nn.functional.relu(x),
              paddle.clip(x, 0.0, 2.0), paddle.nn.functional.softmax(x)):  # fmt: skip
        assert y.dtype == paddle.bfloat16
    ref = (x.numpy().astype(np.float32) @ x.numpy().astype(np.float32)).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(paddle.matmul(x, x).numpy(), ref)


def test_save_and_load_in_paddles_format(tmp_path):
    x = _x()
    path = str(tmp_path / "bf.pdparams")
    paddle.save({"a": x}, path)
    with open(path, "rb") as f:
        raw = pickle.load(f)["a"]
    assert raw.dtype == np.uint16 and raw.tolist() == [[16320, 16400], [16448, 16515]]  # paddle 2.6.2's bits
    back = paddle.load(path)["a"]
    assert back.dtype == paddle.bfloat16 and str(back) == PADDLE_PRINT
    paddle.save({"a": x}, path, format="minipaddle")
    assert paddle.load(path)["a"].dtype == paddle.bfloat16


def test_a_bfloat16_layer_round_trips(tmp_path):
    lin = paddle.nn.Linear(2, 3)
    lin.to(dtype="bfloat16")
    path = str(tmp_path / "l.pdparams")
    paddle.save(lin.state_dict(), path)
    other = paddle.nn.Linear(2, 3)
    other.to(dtype="bfloat16")
    other.set_state_dict(paddle.load(path))
    np.testing.assert_array_equal(other.weight.numpy(), lin.weight.numpy())
