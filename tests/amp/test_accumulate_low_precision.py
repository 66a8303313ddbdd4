"""A float16/bfloat16 gradient written over clear_grad's unwritten zeros (core/plus_zero.write_plus_zero) has the
bits of the add of those zeros, on every code; and under AMP with a GradScaler the zeros are left unwritten at
all (the conversions of ops/half_casts.py give fresh arrays, so clear_grad finds the gradient unshared)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.core.plus_zero import write_plus_zero
from minipaddle.ops.half_casts import from_float32, to_float32

CODES = np.arange(65536, dtype=np.uint32).astype(np.uint16)
LOW = [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)]


@pytest.mark.parametrize("dtype", LOW, ids=str)
def test_every_code_gets_the_bits_of_adding_zero(dtype):
    x = CODES.view(dtype)
    with np.errstate(all="ignore"):
        expected = np.add(x, 0).view(np.uint16)
    out = np.empty_like(x)
    write_plus_zero(x, out)
    np.testing.assert_array_equal(out.view(np.uint16), expected)
    grid, into = x.reshape(256, 256)[:, ::-1], np.empty((256, 256), dtype).T  # strided source and target
    write_plus_zero(grid, into)
    np.testing.assert_array_equal(into.view(np.uint16), expected.reshape(256, 256)[:, ::-1])


@pytest.mark.parametrize("dtype", LOW, ids=str)
def test_conversions_give_fresh_arrays(dtype):
    x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
    assert from_float32(x, dtype).base is None and from_float32(x[:, ::2], dtype).base is None
    assert to_float32(x.astype(dtype)).base is None


def _o2_steps(dtype: str, write_zeros_first: bool, steps: int = 3) -> tuple[list, list]:
    """Each step's weight gradient and whether clear_grad left its zeros unwritten, for an O2 Linear."""
    paddle.seed(0)
    model = paddle.nn.Linear(8, 4)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    model, opt = paddle.amp.decorate(model, opt, level="O2", dtype=dtype)
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0) if dtype == "float16" else None
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((2, 8)).astype("float32"))
    grads, unwritten = [], []
    for _ in range(steps):
        if write_zeros_first and model.weight._grad is not None:
            assert not model.weight.grad.numpy().any()  # reading .grad writes the zeros: the next backward adds
        with paddle.amp.auto_cast(level="O2", dtype=dtype):
            loss = model(x).astype("float32").mean()
        if scaler is None:
            loss.backward()
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        grads.append(model.weight._grad.numpy().view(np.uint16).copy())
        opt.clear_grad()
        unwritten.append(model.weight._grad_cleared)
    return grads, unwritten


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_o2_steps_leave_clear_grads_zeros_unwritten_with_the_same_gradients(dtype):
    grads, unwritten = _o2_steps(dtype, write_zeros_first=False)
    assert all(unwritten)  # the scaler's unscaled gradient (a fresh array) does not pin the zeros
    added, _ = _o2_steps(dtype, write_zeros_first=True)
    for a, b in zip(grads, added):
        np.testing.assert_array_equal(a, b)
