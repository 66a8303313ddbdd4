"""GradScaler / AmpScaler: paddle 2.6's arguments, state machine and dynamic loss scaling. The rule that matters:
no overflow ever reaches a parameter or an optimizer's state."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle


def _model_and_opt(opt_cls=paddle.optimizer.Adam, **kw):
    paddle.seed(0)
    model = paddle.nn.Linear(3, 2)
    return model, opt_cls(parameters=model.parameters(), **kw)


def _train_step(model, opt, scaler, x):
    with paddle.amp.auto_cast():
        loss = model(x).mean()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    opt.clear_grad()
    return loss


def test_defaults_are_paddles():
    g, a = paddle.amp.GradScaler(), paddle.amp.AmpScaler()
    assert g.get_init_loss_scaling() == 2.0**16 and g.get_incr_every_n_steps() == 2000
    assert a.get_init_loss_scaling() == 2.0**15 and a.get_incr_every_n_steps() == 1000
    for s in (g, a):
        assert s.get_incr_ratio() == 2.0 and s.get_decr_ratio() == 0.5 and s.get_decr_every_n_nan_or_inf() == 1
        assert s.is_enable() and s.is_use_dynamic_loss_scaling()


def test_scale_multiplies_and_unscale_divides():
    model, opt = _model_and_opt(paddle.optimizer.SGD, learning_rate=0.1)
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
    x = paddle.rand([4, 3])
    with paddle.amp.auto_cast():
        loss = model(x).mean()
    scaled = scaler.scale(loss)
    np.testing.assert_allclose(scaled.numpy(), loss.numpy() * 1024, rtol=1e-6)
    scaled.backward()
    scaled_grad = model.weight.grad.numpy().copy()
    scaler.unscale_(opt)
    np.testing.assert_array_equal(model.weight.grad.numpy(), scaled_grad * np.float32(1 / 1024))
    with pytest.raises(RuntimeError, match="unscale_\\(\\) has already been called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called since the last update\\(\\)."):
        scaler.step(opt)
    with pytest.raises(RuntimeError, match="unscale_\\(\\) is being called after step\\(\\)."):
        scaler.unscale_(opt)
    scaler.update()
    assert scaler.history[-1].found_inf is False


def test_an_overflowing_step_changes_no_parameter_and_no_moment():
    model, opt = _model_and_opt(paddle.optimizer.Adam, learning_rate=0.1)
    scaler = paddle.amp.GradScaler(init_loss_scaling=2.0**10)
    x = paddle.rand([4, 3])
    _train_step(model, opt, scaler, x)  # a good step: the moments exist now
    params = {p.name: p.numpy().copy() for p in model.parameters()}
    state = {k: v.numpy().copy() for k, v in opt.state_dict().items() if hasattr(v, "numpy")}
    with paddle.amp.auto_cast():
        loss = model(x * 1e30).mean()  # float16 overflows: Inf
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    opt.clear_grad()
    for p in model.parameters():
        np.testing.assert_array_equal(p.numpy(), params[p.name])
    for k, v in opt.state_dict().items():
        if hasattr(v, "numpy"):
            np.testing.assert_array_equal(v.numpy(), state[k])
    assert scaler.history[-1].found_inf and scaler.history[-1].new_scale == 2.0**9
    assert float(scaler.get_loss_scaling()) == 2.0**9


def test_dynamic_scaling_grows_after_n_good_steps_and_shrinks_on_overflow(capsys):
    model, opt = _model_and_opt(paddle.optimizer.SGD, learning_rate=0.01)
    scaler = paddle.amp.GradScaler(init_loss_scaling=8.0, incr_every_n_steps=2, decr_every_n_nan_or_inf=2)
    x = paddle.rand([4, 3])
    for _ in range(4):
        _train_step(model, opt, scaler, x)
    assert [r.new_scale for r in scaler.history] == [8.0, 16.0, 16.0, 32.0]
    for _ in range(2):
        _train_step(model, opt, scaler, x * 1e30)
    assert [r.new_scale for r in scaler.history[-2:]] == [32.0, 16.0]
    assert "Found inf or nan, current scale is: 32.0, decrease to: 32.0*0.5" in capsys.readouterr().out
    state = scaler.state_dict()
    assert state["incr_count"] == 0 and state["decr_count"] == 0 and state["scale"].tolist() == [16.0]


def test_minimize_skips_on_overflow_and_updates():
    model, opt = _model_and_opt(paddle.optimizer.SGD, learning_rate=0.1)
    scaler = paddle.amp.GradScaler(init_loss_scaling=4.0)
    before = model.weight.numpy().copy()
    with paddle.amp.auto_cast():
        loss = model(paddle.full([2, 3], 1e30)).mean()
    scaled = scaler.scale(loss)
    scaled.backward()
    assert scaler.minimize(opt, scaled) == (None, None)
    np.testing.assert_array_equal(model.weight.numpy(), before)
    assert float(scaler.get_loss_scaling()) == 2.0


def test_fixed_scaling_keeps_the_scale():
    model, opt = _model_and_opt(paddle.optimizer.SGD, learning_rate=0.1)
    scaler = paddle.amp.GradScaler(init_loss_scaling=4.0, use_dynamic_loss_scaling=False)
    _train_step(model, opt, scaler, paddle.full([2, 3], 1e30))
    assert float(scaler.get_loss_scaling()) == 4.0 and not scaler.is_use_dynamic_loss_scaling()


def test_bfloat16_turns_dynamic_scaling_off_with_paddles_warning():
    model, _ = _model_and_opt()
    scaler = paddle.amp.GradScaler()
    with paddle.amp.auto_cast(dtype="bfloat16"):
        loss = model(paddle.rand([2, 3])).mean()
    with pytest.warns(UserWarning, match="not recommended to use dynamic loss scaling for bfloat16"):
        out = scaler.scale(loss)
    assert out is loss and not scaler.is_enable() and scaler.state_dict() == {}


def test_disabled_scaler_passes_through():
    model, opt = _model_and_opt(paddle.optimizer.SGD, learning_rate=0.1)
    scaler = paddle.amp.GradScaler(enable=False)
    loss = model(paddle.rand([2, 3])).mean()
    assert scaler.scale(loss) is loss
    loss.backward()
    before = model.weight.numpy().copy()
    scaler.step(opt)
    assert not np.array_equal(model.weight.numpy(), before)
    with pytest.raises(RuntimeError, match="The input state dict is empty"):
        paddle.amp.GradScaler().load_state_dict({})


def test_setters_getters_and_state_dict_roundtrip():
    s = paddle.amp.GradScaler()
    s.set_init_loss_scaling(1000)
    s.set_incr_ratio(3.0)
    s.set_decr_ratio(0.1)
    s.set_incr_every_n_steps(7)
    s.set_decr_every_n_nan_or_inf(3)
    assert float(s.get_loss_scaling()) == 1000.0
    with pytest.raises(AssertionError, match="The new_incr_ratio must be > 1.0."):
        s.set_incr_ratio(0.5)
    with pytest.raises(AssertionError, match="The new_decr_ratio must be < 1.0."):
        s.set_decr_ratio(2.0)
    t = paddle.amp.GradScaler()
    t.load_state_dict(s.state_dict())
    assert t.state_dict().keys() == s.state_dict().keys()
    assert (t.get_init_loss_scaling(), t.get_incr_ratio(), t.get_incr_every_n_steps()) == (1000.0, 3.0, 7)
    with pytest.raises(AssertionError, match="The incr_ratio must be > 1.0."):
        paddle.amp.GradScaler(incr_ratio=1.0)
    with pytest.raises(TypeError, match="must be Tensor"):
        s.scale(1.0)


def test_underflowing_gradients_are_rescued_by_the_scale():
    """Under O1 the float16 gradient of a matmul, 1e-3 * 1e-5 = 1e-8, is below float16's smallest subnormal (6e-8)
    and flushes to zero; scaled by 2**16 it survives the float16 part and is unscaled in float32."""
    w = paddle.create_parameter([1, 1], "float32", default_initializer=paddle.nn.initializer.Constant(1.0))
    x = paddle.full([1, 1], 1e-3)

    def grad(scaler):
        w.clear_grad()
        with paddle.amp.auto_cast():
            loss = paddle.matmul(x, w).sum() * 1e-5
        scaler.scale(loss).backward()
        if scaler.is_enable():
            scaler.unscale_(opt)
        return float(w.grad)

    opt = paddle.optimizer.SGD(parameters=[w])
    assert grad(paddle.amp.GradScaler(enable=False)) == 0.0
    np.testing.assert_allclose(grad(paddle.amp.GradScaler()), 1e-8, rtol=2e-3)
