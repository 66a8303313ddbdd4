"""GradScaler unscales with one fused check_finite_and_unscale op (ops/loss_scaling.py), in place, as paddle does."""

from __future__ import annotations

from collections import Counter

import ml_dtypes
import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import ops
from minipaddle.core.dispatch import tracing


def _model_and_scaler():
    paddle.seed(0)
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3))
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
    model, opt = paddle.amp.decorate(model, opt, level="O2")
    return model, opt, paddle.amp.GradScaler(init_loss_scaling=1024.0)


def _backward(model, scaler, x):
    with paddle.amp.auto_cast(level="O2"):
        loss = model(paddle.to_tensor(x)).astype("float32").mean()
    scaler.scale(loss).backward()


def test_unscale_is_one_op_over_all_gradients_in_place():
    model, opt, scaler = _model_and_scaler()
    _backward(model, scaler, np.ones([2, 4], np.float32))
    grads = [p.grad for p in model.parameters()]
    before = [g.numpy().astype(np.float32).copy() for g in grads]
    versions = [g.inplace_version for g in grads]
    seen = Counter()
    with tracing(lambda op, i, a, o: seen.update([op.name]), phases=("dynamic",)):
        scaler.unscale_(opt)
    assert seen == Counter({"check_finite_and_unscale": 1})
    for p, g, b, v in zip(model.parameters(), grads, before, versions):
        assert p.grad is g and g.inplace_version == v + 1  # the same gradient object, changed in place
        assert g.dtype == paddle.float16
        np.testing.assert_array_equal(g.numpy(), (b / np.float32(1024.0)).astype(np.float16))


def test_an_overflowing_gradient_is_found_and_the_step_skipped():
    model, opt, scaler = _model_and_scaler()
    _backward(model, scaler, np.full([2, 4], 6e4, np.float32))  # float16 overflows
    weights = [p.numpy().copy() for p in model.parameters()]
    scaler.step(opt)
    scaler.update()
    assert scaler.history[-1].found_inf
    for p, w in zip(model.parameters(), weights):
        np.testing.assert_array_equal(p.numpy(), w)
    assert float(scaler.get_loss_scaling().numpy()[0]) == 512.0


def test_float16_gradients_are_unscaled_in_float32_and_rounded_once():
    g = paddle.to_tensor(np.array([3.0, 65504.0, 1e-3], np.float16))
    *(out,), found = ops.check_finite_and_unscale([g], paddle.to_tensor(np.array([3.0], np.float32)))
    want = (np.array([3.0, 65504.0, 1e-3], np.float16).astype(np.float32) * (np.float32(1) / np.float32(3))).astype(
        np.float16
    )
    np.testing.assert_array_equal(out.numpy(), want)
    assert out.dtype == paddle.float16 and not bool(found.numpy()[0])


def test_a_nan_anywhere_sets_found_inf_and_every_gradient_is_still_unscaled():
    a = paddle.to_tensor(np.array([np.nan, 2.0], np.float32))
    b = paddle.to_tensor(np.array([4.0], np.float32))
    out_a, out_b, found = ops.check_finite_and_unscale([a, b], paddle.to_tensor(np.array([2.0], np.float32)))
    assert bool(found.numpy()[0]) and found.dtype == paddle.bool
    np.testing.assert_array_equal(out_b.numpy(), [2.0])  # paddle's GPU kernel: no zeroing after the bad one
    np.testing.assert_array_equal(out_a.numpy()[1:], [1.0])


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)], ids=str)
@pytest.mark.parametrize("scale", [1024.0, 1.0, 3.0, 0.5, 2.0**-120, np.inf, 0.0, -4.0, np.nan])
def test_found_inf_on_low_precision_bits_is_the_float32_products_answer(dtype, scale):
    """found_inf read on a float16/bfloat16 gradient's bits (loss_scaling._all_finite_low) says what isfinite of
    the float32 products says: every code alone, and blocks of neighbouring codes, under scales that keep, grow
    and break the shortcut's range."""
    codes = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(dtype)
    s = np.array([scale], np.float32)
    with np.errstate(all="ignore"):
        products = codes.astype(np.float32) * (np.float32(1.0) / s[0])
    alone = np.isfinite(products)
    picks = np.concatenate([np.flatnonzero(~alone)[::37], np.flatnonzero(alone)[::997]])
    for i in picks:
        (found,) = ops.check_finite_and_unscale([paddle.to_tensor(codes[i : i + 1])], paddle.to_tensor(s))[-1:]
        assert bool(found.numpy()[0]) == (not alone[i])
    blocks = alone.reshape(-1, 1024).all(axis=1)
    for b in range(0, 64, 3):
        (found,) = ops.check_finite_and_unscale([paddle.to_tensor(codes[b * 1024 : (b + 1) * 1024])],
                                                paddle.to_tensor(s))[-1:]  # fmt: skip
        assert bool(found.numpy()[0]) == (not blocks[b])
