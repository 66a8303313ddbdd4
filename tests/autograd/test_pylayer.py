"""paddle.autograd.PyLayer: custom ops with a Python forward and backward, recorded as one node of the graph."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.autograd import PyLayer, PyLayerContext
from minipaddle.testing import gradcheck, gradgradcheck


class cus_tanh(PyLayer):  # noqa: N801 (Paddle's documentation example)
    @staticmethod
    def forward(ctx, x, func1=paddle.tanh, func2=paddle.square):
        ctx.func = func2  # non-Tensor arguments and attributes on ctx reach backward
        y = func1(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy * (1 - ctx.func(y))


class MulAdd(PyLayer):
    """Two inputs, two outputs: (x * y, x + y)."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y, x + y

    @staticmethod
    def backward(ctx, d_prod, d_sum):
        x, y = ctx.saved_tensor()
        return d_prod * y + d_sum, d_prod * x + d_sum


def leaf(*shape, seed=0):
    return paddle.to_tensor(np.random.default_rng(seed).uniform(-1, 1, shape), stop_gradient=False)


def test_custom_tanh_matches_tanh_and_passes_gradcheck():
    x = leaf(2, 3)
    y = cus_tanh.apply(x)
    np.testing.assert_allclose(y.numpy(), np.tanh(x.numpy()))
    assert not y.stop_gradient and y.grad_fn.type == "cus_tanh"
    y.mean().backward()
    np.testing.assert_allclose(x.grad.numpy(), (1 - np.tanh(x.numpy()) ** 2) / 6)
    assert gradcheck(lambda t: cus_tanh.apply(t), [leaf(3, 2, seed=1)])


def test_double_backward_through_a_backward_written_in_paddle_ops():
    x = leaf(4)
    assert gradgradcheck(lambda t: cus_tanh.apply(t), [x], atol=1e-4, rtol=1e-3)
    (g,) = paddle.grad(cus_tanh.apply(x).sum(), x, create_graph=True)
    (h,) = paddle.grad(g.sum(), x)
    t = np.tanh(x.numpy())
    np.testing.assert_allclose(h.numpy(), -2 * t * (1 - t**2), rtol=1e-10)


def test_several_inputs_and_outputs():
    x, y = leaf(3, seed=2), leaf(3, seed=3)
    prod, total = MulAdd.apply(x, y)
    np.testing.assert_allclose(prod.numpy(), x.numpy() * y.numpy())
    assert gradcheck(lambda a, b: MulAdd.apply(a, b), [x, y])


def test_an_unused_output_gets_a_zero_gradient():
    seen = {}

    class Pair(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, d2, d3):
            seen["d3"] = d3.numpy().copy()
            return d2 * 2 + d3 * 3

    x = leaf(2)
    Pair.apply(x)[0].sum().backward()
    np.testing.assert_array_equal(seen["d3"], [0.0, 0.0])
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_non_tensor_arguments_and_outputs_pass_through():
    class Scale(PyLayer):
        @staticmethod
        def forward(ctx, x, factor, label="scaled"):
            ctx.factor = factor
            return x * factor, label

        @staticmethod
        def backward(ctx, dy):  # one gradient: only the Tensor output has one
            return dy * ctx.factor

    x = leaf(3)
    y, label = Scale.apply(x, 2.5, label="big")
    assert label == "big"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.5] * 3)


def test_keyword_tensors_are_inputs_in_call_order():
    class Weighted(PyLayer):
        @staticmethod
        def forward(ctx, a, b=None, c=None):
            return a + 2 * b + 3 * c

        @staticmethod
        def backward(ctx, d):
            return d, d * 10, d * 100  # the inputs' order: a, then the keywords as passed (c, b)

    a, b, c = leaf(2, seed=4), leaf(2, seed=5), leaf(2, seed=6)
    Weighted.apply(a, c=c, b=b).sum().backward()
    assert a.grad.numpy().tolist() == [1, 1] and c.grad.numpy().tolist() == [10, 10]
    assert b.grad.numpy().tolist() == [100, 100]


def test_forward_runs_without_recording_and_backward_sees_needs_input_grad():
    seen = {}

    class Probe(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            seen["grad_enabled"] = paddle.is_grad_enabled()
            seen["needs"] = ctx.needs_input_grad
            assert isinstance(ctx, PyLayerContext)
            return x * y

        @staticmethod
        def backward(ctx, d):
            seen["backward_grad_enabled"] = paddle.is_grad_enabled()
            return d, None

    x, y = leaf(2), paddle.ones([2], dtype="float64")
    Probe.apply(x, y).sum().backward()
    assert seen == {"grad_enabled": False, "needs": (True, False), "backward_grad_enabled": False}


def test_saved_output_is_the_recorded_output_and_saved_tensor_defaults_to_none():
    ctxs = []

    class Keep(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctxs.append(ctx)
            y = x * 2
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx, d):
            return d * 2

    x = leaf(2)
    y = Keep.apply(x)
    saved_x, saved_y = ctxs[0].saved_tensor()
    assert saved_x is x and saved_y is y
    assert PyLayerContext().saved_tensor() is None


def test_mark_non_differentiable():
    class ArgMaxAndDouble(PyLayer):
        @staticmethod
        def forward(ctx, x):
            index = paddle.argmax(x)
            ctx.mark_non_differentiable(index)
            return x * 2, index

        @staticmethod
        def backward(ctx, dy, dindex):
            return dy * 2

    x = leaf(3)
    y, index = ArgMaxAndDouble.apply(x)
    assert index.stop_gradient and not y.stop_gradient
    assert index.item() == int(np.argmax(x.numpy()))
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0] * 3)


def test_no_graph_without_inputs_that_need_a_gradient():
    x = paddle.to_tensor([0.5, -0.5])
    assert cus_tanh.apply(x).stop_gradient
    with paddle.no_grad():
        y = cus_tanh.apply(leaf(2))
    assert y.stop_gradient and y.grad_fn is None


# ---- errors ---------------------------------------------------------------------------------------------------------


def _layer(backward, forward=lambda ctx, a, b: a * b):
    return type("Custom", (PyLayer,), {"forward": staticmethod(forward), "backward": staticmethod(backward)})


@pytest.mark.parametrize(
    "backward",
    [lambda ctx, d: d, lambda ctx, d: (d, d, d)],
    ids=["too few", "too many"],
)
def test_backward_returning_the_wrong_number_of_gradients(backward):
    a, b = leaf(2, seed=7), leaf(2, seed=8)
    with pytest.raises(ValueError, match=r"PyLayer Custom: backward must return one gradient per Tensor input.*2.*"):
        _layer(backward).apply(a, b).sum().backward()


def test_backward_may_leave_out_trailing_inputs_that_need_no_gradient():
    a, b = leaf(2, seed=7), paddle.ones([2], dtype="float64")
    _layer(lambda ctx, d: d).apply(a, b).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [1.0, 1.0])


def test_backward_returning_a_non_tensor():
    a, b = leaf(2, seed=7), leaf(2, seed=8)
    with pytest.raises(TypeError, match="gradient 1 must be a Tensor or None, got float"):
        _layer(lambda ctx, d: (d, 3.0)).apply(a, b).sum().backward()


def test_backward_returning_a_wrong_shape():
    a, b = leaf(2, seed=7), leaf(2, seed=8)
    with pytest.raises(RuntimeError, match="op 'Custom' returned a gradient of shape"):
        _layer(lambda ctx, d: (d, d.sum())).apply(a, b).sum().backward()


def test_forward_must_return_a_tensor():
    with pytest.raises(ValueError, match="forward must return a Tensor"):
        _layer(lambda ctx, d: d, forward=lambda ctx, a: 3).apply(leaf(2))


def test_a_class_without_backward():
    class OnlyForward(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

    with pytest.raises(TypeError, match="define a static method backward"):
        OnlyForward.apply(leaf(2))


def test_tensors_needing_gradients_inside_a_list_are_refused():
    with pytest.raises(TypeError, match="inside a list argument"):
        _layer(lambda ctx, d: d, forward=lambda ctx, xs: xs[0] * xs[1]).apply([leaf(2), leaf(2)])


def test_static_mode_is_refused():
    paddle.enable_static()
    try:
        with pytest.raises(RuntimeError, match="dynamic mode only"):
            cus_tanh.apply(paddle.static.data("x", [2], "float32"))
    finally:
        paddle.disable_static()
