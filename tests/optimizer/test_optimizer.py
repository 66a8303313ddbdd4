"""The Optimizer machinery: arguments, learning rates, step/minimize/clear_grad, state dicts, groups, the op door.

The update rules themselves are checked against real Paddle in test_golden_optimizers.py.
"""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.core.dispatch import tracing
from minipaddle.core.state import name_guard

OPTIMIZERS = {
    "SGD": dict(learning_rate=0.1),
    "Momentum": dict(learning_rate=0.1, use_nesterov=True, weight_decay=0.01),
    "Adam": dict(learning_rate=0.1),
    "AdamW": dict(learning_rate=0.1, weight_decay=0.05),
    "Adamax": dict(learning_rate=0.1),
    "Adagrad": dict(learning_rate=0.1),
    "Adadelta": dict(learning_rate=1.0),
    "RMSProp": dict(learning_rate=0.05, momentum=0.5, centered=True),
    "Lamb": dict(learning_rate=0.1),
}


def make_params(seed=0):
    rng = np.random.default_rng(seed)
    w = paddle.Parameter(rng.standard_normal((3, 2)).astype("float32"), name="w")
    b = paddle.Parameter(rng.standard_normal(2).astype("float32"), name="b")
    return [w, b]


def backward(params, seed):
    """A loss whose gradient depends on the parameters (so a wrong state shows up in later steps)."""
    x = paddle.to_tensor(np.random.default_rng(seed).standard_normal((4, 3)).astype("float32"))
    w, b = params
    loss = ((paddle.matmul(x, w) + b) ** 2).mean()
    loss.backward()
    return loss


def train(opt, params, steps, start=0):
    for s in range(start, start + steps):
        backward(params, s)
        opt.step()
        opt.clear_grad()


# ---- arguments ------------------------------------------------------------------------------------------


def test_learning_rate_must_be_float_or_scheduler():
    with pytest.raises(TypeError, match="learning_rate must be a float or an LRScheduler, got int"):
        paddle.optimizer.SGD(1, parameters=make_params())


def test_parameters_are_required_and_must_be_an_iterable_of_tensors():
    with pytest.raises(AttributeError, match="parameters must be given"):
        paddle.optimizer.Adam(0.1)
    w = make_params()[0]
    with pytest.raises(TypeError, match="got a single Tensor"):
        paddle.optimizer.Adam(0.1, parameters=w)
    with pytest.raises(TypeError, match="must not be a dict"):
        paddle.optimizer.Adam(0.1, parameters={"params": [w]})
    with pytest.raises(TypeError, match="must hold Tensors"):
        paddle.optimizer.Adam(0.1, parameters=[np.zeros(3)])


def test_weight_decay_and_grad_clip_types_are_checked():
    with pytest.raises(TypeError, match="weight_decay must be a float"):
        paddle.optimizer.SGD(0.1, parameters=make_params(), weight_decay=1)
    with pytest.raises(TypeError, match="grad_clip must be"):
        paddle.optimizer.SGD(0.1, parameters=make_params(), grad_clip=1.0)
    with pytest.raises(TypeError, match="AdamW: weight_decay must be a float, got L2Decay"):
        paddle.optimizer.AdamW(0.1, parameters=make_params(), weight_decay=paddle.regularizer.L2Decay(0.1))
    with pytest.raises(ValueError, match=r"beta1 must be in \[0, 1\)"):
        paddle.optimizer.Adam(0.1, beta1=1.0, parameters=make_params())
    with pytest.raises(ValueError, match="epsilon must be >= 0"):
        paddle.optimizer.RMSProp(0.1, epsilon=-1.0, parameters=make_params())


def test_signatures_follow_paddle():
    import inspect

    assert list(inspect.signature(paddle.optimizer.Adam).parameters) == [
        "learning_rate", "beta1", "beta2", "epsilon", "parameters", "weight_decay", "grad_clip", "lazy_mode",
        "multi_precision", "use_multi_tensor", "name"]  # fmt: skip
    assert list(inspect.signature(paddle.optimizer.Adagrad).parameters)[0] == "learning_rate"
    assert inspect.signature(paddle.optimizer.Adagrad).parameters["learning_rate"].default is inspect.Parameter.empty


# ---- learning rate ----------------------------------------------------------------------------------------


def test_get_lr_and_set_lr():
    opt = paddle.optimizer.SGD(0.1, parameters=make_params())
    assert opt.get_lr() == 0.1
    opt.set_lr(0.5)
    assert opt.get_lr() == 0.5
    opt.set_lr(1)  # set_lr takes ints, unlike the constructor
    assert opt.get_lr() == 1.0 and isinstance(opt.get_lr(), float)
    with pytest.raises(TypeError, match="set_lr: value must be a float, got str"):
        opt.set_lr("0.1")


def test_set_lr_refuses_a_scheduler_and_get_lr_follows_it():
    scheduler = paddle.optimizer.lr.StepDecay(0.5, step_size=1, gamma=0.1)
    opt = paddle.optimizer.SGD(scheduler, parameters=make_params())
    assert opt.get_lr() == 0.5
    scheduler.step()
    assert opt.get_lr() == pytest.approx(0.05)
    with pytest.raises(RuntimeError, match="LRScheduler"):
        opt.set_lr(0.1)
    opt.set_lr_scheduler(paddle.optimizer.lr.ExponentialDecay(0.3, gamma=0.5))
    assert opt.get_lr() == 0.3
    with pytest.raises(TypeError, match="expected an LRScheduler"):
        opt.set_lr_scheduler(0.1)


def test_paramattr_learning_rate_scales_the_step():
    w, b = make_params()
    w.optimize_attr["learning_rate"] = 0.5
    w0, b0 = w.numpy().copy(), b.numpy().copy()
    (w.sum() + b.sum()).backward()
    paddle.optimizer.SGD(0.1, parameters=[w, b]).step()
    np.testing.assert_allclose(w.numpy(), w0 - 0.05, rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), b0 - 0.1, rtol=1e-6)


# ---- step, minimize, clear_grad ---------------------------------------------------------------------------


def test_step_updates_in_place_through_the_op_door():
    w, b = make_params()
    storage, version = w.numpy(), w.inplace_version
    backward([w, b], 0)
    seen = []
    with tracing(lambda op, inputs, attrs, outputs: seen.append(op.name)):
        paddle.optimizer.Adam(0.1, parameters=[w, b]).step()
    assert seen.count("adam_param") == 2 and seen.count("ema") == 2 and seen.count("ema_square") == 2
    assert w.numpy() is storage and w.inplace_version == version + 1
    assert w.is_leaf and not w.stop_gradient  # the update recorded no graph


def test_step_skips_frozen_parameters_and_those_without_gradient():
    w, b = make_params()
    w.stop_gradient = True
    w0, b0 = w.numpy().copy(), b.numpy().copy()
    opt = paddle.optimizer.SGD(0.1, parameters=[w, b])
    opt.step()  # no gradients at all: nothing happens
    np.testing.assert_array_equal(b.numpy(), b0)
    b.sum().backward()
    opt.step()
    np.testing.assert_array_equal(w.numpy(), w0)
    np.testing.assert_allclose(b.numpy(), b0 - 0.1, rtol=1e-6)


def test_clear_grad_zeros_in_place_or_drops_the_gradient():
    w, b = make_params()
    opt = paddle.optimizer.SGD(0.1, parameters=[w, b])
    backward([w, b], 0)
    g = w.grad
    opt.clear_grad()
    assert w.grad is g and not g.numpy().any()  # zeroed in place, as paddle 2.6
    opt.clear_gradients(set_to_zero=False)
    assert w.grad is None and b.grad is None


def test_minimize_uses_the_gradients_backward_left_and_does_not_run_backward():
    w, b = make_params()
    opt = paddle.optimizer.SGD(0.1, parameters=[w, b])
    w0 = w.numpy().copy()
    loss = (w * 2.0).sum() + b.sum()
    assert opt.minimize(loss) == ([], [])  # as paddle 2.6: no backward inside, so nothing to update
    np.testing.assert_array_equal(w.numpy(), w0)
    loss.backward()
    ops, params_grads = opt.minimize(loss)
    assert ops == [] and [p.name for p, _ in params_grads] == ["w", "b"]
    np.testing.assert_allclose(w.numpy(), w0 - 0.2, rtol=1e-6)
    with pytest.raises(TypeError, match="loss must be a Tensor"):
        opt.minimize(1.0)


def test_momentum_rescale_grad_multiplies_the_gradient_but_not_the_l2_term():
    # Paddle's docs and GPU kernel: g = rescale_grad * grad + coeff * param (its CPU kernel ignores rescale_grad)
    p = paddle.Parameter(np.array([1.0, -2.0], "float32"), name="p")
    (p * paddle.to_tensor([4.0, 4.0])).sum().backward()
    opt = paddle.optimizer.Momentum(0.1, momentum=0.9, parameters=[p], rescale_grad=0.5, weight_decay=0.1)
    opt.step()
    velocity = opt.state_dict()["p_velocity_0"].numpy()
    np.testing.assert_allclose(velocity, [0.5 * 4 + 0.1 * 1.0, 0.5 * 4 + 0.1 * -2.0], rtol=1e-6)
    np.testing.assert_allclose(p.numpy(), [1.0 - 0.1 * 2.1, -2.0 - 0.1 * 1.8], rtol=1e-6)


def test_adamw_lr_ratio_scales_each_parameters_rate():
    w, b = make_params()
    w_ref, b_ref = make_params()
    for params in ([w, b], [w_ref, b_ref]):
        backward(params, 0)
    paddle.optimizer.AdamW(0.1, parameters=[w, b], lr_ratio=lambda p: 0.5 if p.name == "b" else 1.0).step()
    paddle.optimizer.AdamW(0.1, parameters=[w_ref], weight_decay=0.01).step()
    paddle.optimizer.AdamW(0.05, parameters=[b_ref], weight_decay=0.01).step()
    np.testing.assert_allclose(w.numpy(), w_ref.numpy(), rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), b_ref.numpy(), rtol=1e-6)


# ---- parameter groups ---------------------------------------------------------------------------------------


def test_parameter_groups_are_checked():
    w, b = make_params()
    with pytest.raises(ValueError, match="more than one parameter group"):
        paddle.optimizer.SGD(0.1, parameters=[{"params": [w, b]}, {"params": [b]}])
    with pytest.raises(TypeError, match="not a set"):
        paddle.optimizer.SGD(0.1, parameters=[{"params": {w}}])
    with pytest.raises(ValueError, match="needs a 'params' entry"):
        paddle.optimizer.SGD(0.1, parameters=[{"learning_rate": 0.1}])
    with pytest.raises(TypeError, match="not a mixture"):
        paddle.optimizer.SGD(0.1, parameters=[w, {"params": [b]}])


def test_a_group_option_overrides_the_default_for_its_parameters_only():
    w, b = make_params()
    w_ref, b_ref = make_params()
    backward([w, b], 0)
    backward([w_ref, b_ref], 0)
    paddle.optimizer.Adam(0.1, parameters=[{"params": [w]}, {"params": [b], "beta1": 0.5}]).step()
    paddle.optimizer.Adam(0.1, parameters=[w_ref]).step()
    paddle.optimizer.Adam(0.1, beta1=0.5, parameters=[b_ref]).step()
    np.testing.assert_allclose(w.numpy(), w_ref.numpy(), rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), b_ref.numpy(), rtol=1e-6)


# ---- state dicts --------------------------------------------------------------------------------------------


def test_state_dict_names_follow_paddle():
    with name_guard():
        params = make_params()
        scheduler = paddle.optimizer.lr.StepDecay(0.1, step_size=2)
        opt = paddle.optimizer.Adam(scheduler, parameters=params)
        assert opt.state_dict() == {"LR_Scheduler": {"last_epoch": 0, "last_lr": 0.1}}  # accumulators come at step 1
        train(opt, params, 1)
        state = opt.state_dict()
    assert sorted(state) == sorted(
        ["LR_Scheduler"] + [f"{p}_{acc}_0" for p in ("w", "b") for acc in ("moment1", "moment2", "beta1_pow_acc",
                                                                           "beta2_pow_acc")])  # fmt: skip
    assert state["w_beta1_pow_acc_0"].shape == [1]
    np.testing.assert_allclose(state["w_beta1_pow_acc_0"].numpy(), [0.81], rtol=1e-6)
    named = paddle.optimizer.SGD(0.1, parameters=make_params(), name="mine")
    assert named.state_dict() == {}


@pytest.mark.parametrize("name", list(OPTIMIZERS))
@pytest.mark.parametrize("load_before_step", [True, False], ids=["into new", "into stepped"])
def test_set_state_dict_continues_identically(name, load_before_step):
    """Two steps, save the state (through paddle.save/load), load it into a fresh optimizer, two more steps:
    the same parameters as four uninterrupted steps."""

    def make(params):
        scheduler = paddle.optimizer.lr.StepDecay(OPTIMIZERS[name]["learning_rate"], step_size=1, gamma=0.8)
        kwargs = {**OPTIMIZERS[name], "learning_rate": scheduler}
        return getattr(paddle.optimizer, name)(parameters=params, **kwargs), scheduler

    reference = make_params()
    opt, scheduler = make(reference)
    for s in range(4):
        train(opt, reference, 1, start=s)
        scheduler.step()

    params = make_params()
    opt, scheduler = make(params)
    for s in range(2):
        train(opt, params, 1, start=s)
        scheduler.step()
    buffer = io.BytesIO()
    paddle.save(opt.state_dict(), buffer)
    buffer.seek(0)
    saved = paddle.load(buffer)

    if not load_before_step:  # the new optimizer's accumulators exist, holding other values, and are overwritten
        fresh = make_params(seed=1)
        resumed, resumed_scheduler = make(fresh)
        train(resumed, fresh, 1, start=7)
        for p, q in zip(fresh, params):
            p.set_value(q)
        params = fresh
    else:
        resumed, resumed_scheduler = make(params)
    resumed.set_state_dict(saved)
    assert resumed_scheduler.last_epoch == 2
    for s in range(2, 4):
        train(resumed, params, 1, start=s)
        resumed_scheduler.step()
    for p, q in zip(params, reference):
        np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=1e-6, atol=1e-7)


def test_set_state_dict_checks_what_it_loads():
    params = make_params()
    opt = paddle.optimizer.Adam(0.1, parameters=params)
    train(opt, params, 1)
    state = opt.state_dict()
    bad = {k: (paddle.zeros([5]) if "w_moment1" in k else v) for k, v in state.items()}
    with pytest.raises(ValueError, match=r"has shape \[3, 2\] but the saved value has shape \[5\]"):
        opt.set_state_dict(bad)
    with pytest.raises(RuntimeError, match="no value for the accumulator"):
        opt.set_state_dict({k: v for k, v in state.items() if "w_moment2" not in k})
    scheduled = paddle.optimizer.Adam(paddle.optimizer.lr.StepDecay(0.1, 2), parameters=params)
    with pytest.raises(KeyError, match="LR_Scheduler"):
        scheduled.set_state_dict({})


def test_multi_precision_updates_a_float32_master_copy():
    half = paddle.Parameter(np.array([1.0, 2.0, 3.0], "float16"), name="h")
    full = paddle.Parameter(np.array([1.0, 2.0, 3.0], "float32"), name="f")
    opt_half = paddle.optimizer.Adam(0.001, parameters=[half], multi_precision=True)
    opt_full = paddle.optimizer.Adam(0.001, parameters=[full])
    for _ in range(3):
        for p, opt in ((half, opt_half), (full, opt_full)):
            (p * p).sum().backward()
            opt.step()
            opt.clear_grad()
    master = opt_half.state_dict()["master_weights"]["h"]
    assert master.dtype == paddle.float32 and half.dtype == paddle.float16
    np.testing.assert_allclose(master.numpy(), full.numpy(), rtol=1e-3)
    np.testing.assert_array_equal(half.numpy(), master.numpy().astype("float16"))


def test_float16_without_multi_precision_warns():
    half = paddle.Parameter(np.array([1.0, 2.0], "float16"), name="h16")
    (half * half).sum().backward()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        paddle.optimizer.Adam(0.001, parameters=[half]).step()
    assert any("multi_precision" in str(w.message) for w in caught)
    assert half.dtype == paddle.float16


def test_append_regularization_ops_and_apply_gradients():
    w, b = make_params()
    b.regularizer = paddle.regularizer.L1Decay(1.0)
    g = paddle.ones([3, 2])
    opt = paddle.optimizer.SGD(0.1, parameters=[w, b])
    (pw, gw), (pb, gb) = opt.append_regularization_ops([(w, g), (b, paddle.zeros([2]))], 0.5)
    assert pw is w and pb is b
    np.testing.assert_allclose(gw.numpy(), 1.0 + 0.5 * w.numpy(), rtol=1e-6)  # the given L2
    np.testing.assert_allclose(gb.numpy(), np.sign(b.numpy()), rtol=1e-6)  # b's own L1 wins
    w0 = w.numpy().copy()
    opt.apply_gradients([(w, g)])
    np.testing.assert_allclose(w.numpy(), w0 - 0.1, rtol=1e-6)


def test_clear_grad_that_defers_its_zeros_gives_the_bits_of_zeroing_in_place():
    """clear_grad leaves its zeros unwritten when no one holds the gradient (tensor_methods.clear_grad): the next
    backward writes 0 + g into the storage, the same bits as adding g to zeros (-0.0 becomes 0.0), and reading
    .grad before that gives zeros; a held gradient is zeroed in place at once."""
    w = paddle.create_parameter([3], "float32")
    c = paddle.to_tensor(np.array([-0.0, 2.0, -3.0], np.float32))
    (w * c).sum().backward()
    storage = id(w.grad._data)  # (a name on the array itself would make clear_grad write the zeros at once)
    w.clear_grad()
    assert w._grad_cleared and w._grad._data[1] == 2.0  # deferred: nothing written yet
    (w * c).sum().backward()
    assert not w._grad_cleared and id(w.grad._data) == storage  # the same storage, written once
    np.testing.assert_array_equal(w.grad.numpy(), [0.0, 2.0, -3.0])
    assert not np.signbit(w.grad.numpy()[0])  # 0 + (-0.0) is 0.0, as the add into zeros gives
    w.clear_grad()
    np.testing.assert_array_equal(w.grad.numpy(), [0.0, 0.0, 0.0])  # read before a backward: the zeros
    held = w.grad
    w.clear_grad()
    assert not w._grad_cleared and not held.numpy().any()
    w.clear_grad(set_to_zero=False)
    (w * c).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [0.0, 2.0, -3.0])


def test_training_with_deferred_zeros_equals_zeroing_in_place():
    def train(hold: bool):
        paddle.seed(3)
        net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
        opt = paddle.optimizer.Momentum(0.1, parameters=net.parameters())
        held = []
        for step in range(4):
            x = paddle.to_tensor(np.random.default_rng(step).standard_normal((5, 4)).astype("float32"))
            (net(x) ** 2).mean().backward()
            opt.step()
            if hold:  # a name on each gradient: clear_grad zeroes them in place
                held = [p.grad for p in net.parameters()]
            opt.clear_grad()
            assert all(p._grad_cleared != hold for p in net.parameters())
        del held
        return [p.numpy() for p in net.parameters()]

    for a, b in zip(train(hold=False), train(hold=True)):
        np.testing.assert_array_equal(a, b)


def test_a_cleared_grad_takes_a_gradient_array_only_when_it_has_no_negative_zero_and_no_other_holder():
    """autograd._accumulate: a gradient marked _no_negative_zero (a matmul's result in a converted Program) becomes
    a cleared .grad's storage when nothing else holds its array; otherwise 0 + g is written into the storage."""
    from minipaddle.core.autograd import _accumulate
    from minipaddle.core.tensor import Tensor

    w = paddle.create_parameter([3], "float32")
    (w * 2.0).sum().backward()
    w.clear_grad()
    mine = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    mine._no_negative_zero = True
    _accumulate(w, mine, create_graph=False)
    assert w._grad._data is mine._data and not w._grad_cleared
    del mine  # (else clear_grad zeroes the storage in place at once)
    w.clear_grad()
    assert w._grad_cleared
    held = np.array([4.0, 5.0, 6.0], np.float32)  # a name on the array: it is copied, never shared
    shared = Tensor(held)
    shared._no_negative_zero = True
    _accumulate(w, shared, create_graph=False)
    assert w._grad._data is not held
    np.testing.assert_array_equal(w.grad.numpy(), held)
    w.clear_grad()
    unmarked = Tensor(np.array([-0.0, 1.0, 2.0], np.float32))  # not marked: 0 + (-0.0) is 0.0
    _accumulate(w, unmarked, create_graph=False)
    assert w._grad._data is not unmarked._data and not np.signbit(w.grad.numpy()[0])
    kept = []
    w.register_hook(kept.append)  # a hook that keeps the gradient it is given: the array must not become .grad's
    w.clear_grad()
    seen = Tensor(np.array([7.0, 8.0, 9.0], np.float32))
    seen._no_negative_zero = True
    from minipaddle.core.autograd import _finish_leaf

    _finish_leaf(w, seen, None, False)
    del seen
    assert kept and w._grad._data is not kept[0]._data
    np.testing.assert_array_equal(w.grad.numpy(), [7.0, 8.0, 9.0])
