"""The dtype rules that the dtype sweep (test_dtype_sweep.py) made minipaddle follow, checked on values too: what
paddle 2.6.2 gives for these calls (recorded by hand from /work/paddle-venv; the sweep pins the dtypes)."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F


def test_angles_keep_bool_and_complex():
    t = paddle.to_tensor([True, False])
    assert paddle.deg2rad(t).dtype == paddle.bool and paddle.deg2rad(t).numpy().tolist() == [True, False]
    assert paddle.rad2deg(t).dtype == paddle.bool
    z = paddle.deg2rad(paddle.to_tensor(np.array([180 + 90j], "complex64")))
    assert z.dtype == paddle.complex64 and np.allclose(z.numpy(), [np.pi + 0.5j * np.pi])
    assert paddle.deg2rad(paddle.to_tensor([180], "int32")).dtype == paddle.float32


def test_neg_of_bool_is_kept_as_paddle_scale_does():
    out = paddle.neg(paddle.to_tensor([True, False]))
    assert out.dtype == paddle.bool and out.numpy().tolist() == [True, False]


def test_int32_dot_and_trace_stay_int32():
    a = paddle.to_tensor([1, 2, 3], "int32")
    assert paddle.dot(a, a).dtype == paddle.int32 and int(paddle.dot(a, a)) == 14
    m = paddle.to_tensor(np.arange(9).reshape(3, 3), "int32")
    assert paddle.trace(m).dtype == paddle.int32 and int(paddle.trace(m)) == 12
    assert paddle.trace(paddle.cast(m, "int64")).dtype == paddle.int64


def test_abs_of_complex_is_real_in_both_modes():
    z = np.array([3 + 4j], "complex64")
    assert paddle.abs(paddle.to_tensor(z)).numpy().tolist() == [5.0]
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            out = paddle.abs(paddle.static.data("z", [1], "complex64"))
        assert out.dtype == paddle.float32
        (got,) = paddle.static.Executor().run(main, feed={"z": z}, fetch_list=[out])
        assert got.dtype == np.float32 and got.tolist() == [5.0]
    finally:
        paddle.disable_static()


def test_ldexp_of_complex_drops_the_imaginary_part():
    out = paddle.ldexp(paddle.to_tensor(np.array([1.5 + 2j], "complex64")), paddle.to_tensor([2], "int32"))
    assert out.dtype == paddle.float32 and out.numpy().tolist() == [6.0]


@pytest.mark.parametrize("fn", [F.silu, F.softplus, F.log_sigmoid, F.hardswish, F.softsign])
def test_activations_run_on_complex_as_on_their_real_part(fn):
    x = np.array([-4.0, -0.5, 0.0, 1.5, 4.0], "float32")
    out = fn(paddle.to_tensor(x.astype("complex64")))
    assert out.dtype == paddle.complex64
    np.testing.assert_allclose(out.numpy().real, fn(paddle.to_tensor(x)).numpy(), rtol=1e-5, atol=1e-6)


def test_losses_of_integer_inputs_follow_paddle():
    x, y = paddle.to_tensor([[1, 4]], "int32"), paddle.to_tensor([[3, 1]], "int32")
    assert F.mse_loss(x, y).dtype == paddle.int32 and int(F.mse_loss(x, y)) == 6  # (4 + 9) / 2, truncated
    assert F.square_error_cost(x, y).numpy().tolist() == [[4, 9]]
    soft = F.soft_margin_loss(paddle.to_tensor([[0, 0]], "int64"), paddle.to_tensor([[1, -1]], "int64"))
    assert soft.dtype == paddle.float32 and abs(float(soft) - np.log(2)) < 1e-6
    hinge = F.multi_margin_loss(paddle.to_tensor([[0, 0]], "int64"), paddle.to_tensor([0]), margin=3.0)
    assert hinge.dtype == paddle.float32 and float(hinge) == 1.5  # (3 + 3) / 2 - 3 / 2
    poisson = F.poisson_nll_loss(paddle.to_tensor([[0]], "int32"), paddle.to_tensor([[2]], "int32"))
    assert poisson.dtype == paddle.float32 and float(poisson) == 1.0  # exp(0) - 2 * 0
    l1 = F.l1_loss(paddle.to_tensor(np.array([3 + 4j], "complex64")), paddle.to_tensor(np.array([0j], "complex64")))
    assert l1.dtype == paddle.float32 and float(l1) == 5.0


def test_nearest_interpolation_of_ints():
    x = paddle.to_tensor(np.arange(4).reshape(1, 1, 2, 2), "int64")
    out = F.interpolate(x, scale_factor=2)
    assert out.dtype == paddle.int64 and out.numpy()[0, 0, 0].tolist() == [0, 0, 1, 1]
    with pytest.raises(TypeError, match="interpolate: x must be a float tensor, got int64"):
        F.interpolate(paddle.cast(x, "int64"), scale_factor=2, mode="bilinear")
