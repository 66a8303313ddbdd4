"""paddle.static.nn.data_norm: values, gradients and optimizer steps against Paddle 2.6 (tests/golden/data_norm,
recorded by its make_golden.py from the cases in cases.py, which run here on minipaddle) and behaviour."""

import numpy as np
import pytest

import minipaddle as paddle
from tests.static.golden_cases import build as _build
from tests.static.golden_cases import check_against_paddle


def test_data_norm_matches_paddle():
    check_against_paddle("data_norm", "data_norm_cases")


def test_data_norm_parameters_are_named_as_paddle(static_mode):
    def build():
        x = paddle.static.data("x", [-1, 4], "float64")
        return paddle.static.nn.data_norm(x, enable_scale_and_shift=True, param_attr={"scale_w": 3.0})

    main, startup, y = _build(build)
    params = {p.name: p for p in main.global_block().all_parameters()}
    assert sorted(params) == ["dn.batch_size", "dn.batch_square_sum", "dn.batch_sum", "dn.bias", "dn.scale_w"]
    assert all(p.shape == [4] and p.dtype == paddle.float64 and p.trainable for p in params.values())
    assert y.shape == [-1, 4] and y.dtype == paddle.float64
    exe, scope = paddle.static.Executor(), paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        values = {n: np.asarray(scope.vars[n]) for n in params}
    np.testing.assert_array_equal(values["dn.batch_size"], 1e4)
    np.testing.assert_array_equal(values["dn.batch_sum"], 0.0)
    np.testing.assert_array_equal(values["dn.batch_square_sum"], 1e4)
    np.testing.assert_array_equal(values["dn.scale_w"], 3.0)
    np.testing.assert_array_equal(values["dn.bias"], 0.0)


def test_data_norm_runs_in_dynamic_mode():
    """Starting statistics 1e4 / 0 / 1e4 make the identity; x's gradient is dy times the scales (here 1)."""
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.normal(3.0, 2.0, (8, 2)).astype("float32"), stop_gradient=False)
    y = paddle.static.nn.data_norm(x)
    np.testing.assert_allclose(y.numpy(), x.numpy(), rtol=1e-6)
    (y * 3.0).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3.0)


def test_data_norm_errors(static_mode):
    dn = paddle.static.nn.data_norm
    x = paddle.static.data("x", [-1, 4], "float32")
    with pytest.raises(ValueError, match="data_norm: input must be 2-D"):
        dn(paddle.static.data("x3", [-1, 4, 2], "float32"))
    with pytest.raises(ValueError, match="data_norm: input must be 2-D"):
        dn(paddle.static.data("x1", [4], "float32"))
    with pytest.raises(TypeError, match="data_norm: input must be float32 or float64"):
        dn(paddle.static.data("xi", [-1, 4], "int64"))
    with pytest.raises(ValueError, match="epsilon must be between 0.0 and 0.001"):
        dn(x, epsilon=0.1)
    with pytest.raises(ValueError, match="data_layout must be"):
        dn(x, data_layout="NCL")
    with pytest.raises(TypeError, match="enable_scale_and_shift needs param_attr as a dict"):
        dn(x, enable_scale_and_shift=True)
    with pytest.raises(ValueError, match="whole slots of slot_dim=3"):
        dn(x, slot_dim=3)
    with pytest.raises(ValueError, match="act must be None or one of"):
        dn(x, act="softsign_typo")
