"""Autograd: accumulation, retain_graph, paddle.grad, double backward, hooks, no_grad, version counters,
and the introspection API that viz draws from."""

import numpy as np
import pytest

import minipaddle as paddle


def leaf(values, dtype="float64"):
    return paddle.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)


def test_gradients_accumulate_until_cleared():
    w = leaf([1.0, 2.0])
    for _ in range(3):
        (w * w).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), 3 * 2 * np.array([1.0, 2.0]))
    grad_tensor = w.grad
    w.clear_grad()
    assert w.grad is grad_tensor  # zeroed in place, as paddle 2.6
    np.testing.assert_array_equal(w.grad.numpy(), [0, 0])
    w.clear_grad(set_to_zero=False)
    assert w.grad is None


def test_leaf_grads_do_not_alias_each_other():
    a, b = leaf([1.0]), leaf([2.0])
    (a + b).sum().backward()  # add hands the same gradient to both inputs
    with paddle.no_grad():
        a.grad.scale_(10.0)
    np.testing.assert_allclose(b.grad.numpy(), [1.0])


def test_a_value_used_twice_gets_both_gradients():
    x = leaf([3.0])
    y = x * x + x  # dy/dx = 2x + 1
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [7.0])


def test_backward_twice_needs_retain_graph():
    x = leaf([1.0, 2.0])
    y = (x.exp() * 2).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 4 * np.exp([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="second time.*retain_graph=True"):
        y.backward()


def test_backward_from_a_stop_gradient_tensor_warns_and_does_nothing():
    x = paddle.to_tensor([1.0])  # paddle 2.6 runs this without a word; minipaddle says why no gradient appears
    with pytest.warns(UserWarning, match="stop_gradient=True, so no gradient flows"):
        (x * 2).sum().backward()
    assert x.grad is None


def test_non_scalar_backward_uses_ones_or_the_given_gradient():
    x = leaf([1.0, 2.0])
    (x * 3).backward()
    np.testing.assert_allclose(x.grad.numpy(), [3, 3])
    x.clear_grad()
    (x * 3).backward(paddle.to_tensor([1.0, -1.0], dtype="float64"))
    np.testing.assert_allclose(x.grad.numpy(), [3, -3])


def test_paddle_grad_leaves_dot_grad_alone_and_returns_a_list():
    x = leaf([2.0])
    y = x**3
    (g,) = paddle.grad(y, x)
    np.testing.assert_allclose(g.numpy(), [12.0])
    assert x.grad is None and g.stop_gradient


def test_paddle_grad_of_a_non_leaf():
    x = leaf([2.0])
    h = x * x
    y = h * 3
    (gh,) = paddle.grad(y, h)
    np.testing.assert_allclose(gh.numpy(), [3.0])


def test_double_backward_tanh_and_pow():
    x = leaf([0.3, -0.7])
    (dx,) = paddle.grad(paddle.tanh(x).sum(), x, create_graph=True)
    assert not dx.stop_gradient
    (ddx,) = paddle.grad(dx.sum(), x)
    t = np.tanh([0.3, -0.7])
    np.testing.assert_allclose(ddx.numpy(), -2 * t * (1 - t**2))

    x = leaf([2.0])
    (d1,) = paddle.grad(x**3, x, create_graph=True)
    (d2,) = paddle.grad(d1, x, create_graph=True)
    (d3,) = paddle.grad(d2, x)
    np.testing.assert_allclose([d1.item(), d2.item(), d3.item()], [12.0, 12.0, 6.0])


def test_unused_input_raises_unless_allowed():
    x, z = leaf([1.0]), leaf([1.0])
    y = x * 2
    with pytest.raises(RuntimeError, match="input 1.*not used.*allow_unused=True"):
        paddle.grad(y, [x, z], retain_graph=True)
    gx, gz = paddle.grad(y, [x, z], allow_unused=True)
    assert gz is None and gx.item() == 2.0


def test_no_grad_context_and_decorator_and_set_grad_enabled():
    x = leaf([1.0])
    with paddle.no_grad():
        assert (x * 2).stop_gradient
    assert not paddle.no_grad()(lambda: paddle.is_grad_enabled())()

    @paddle.no_grad()
    def f(t):
        return t * 2

    assert f(x).stop_gradient
    with paddle.set_grad_enabled(False):
        assert not paddle.is_grad_enabled()
        with paddle.set_grad_enabled(True):
            assert not (x * 2).stop_gradient
    assert paddle.is_grad_enabled()


def test_stop_gradient_inputs_make_stop_gradient_outputs():
    a = paddle.to_tensor([1.0])
    assert (a * 2).stop_gradient and (a * 2).grad_fn is None
    b = leaf([1.0])
    assert not (a * b).stop_gradient


def test_hooks_on_leaf_and_non_leaf():
    x = leaf([1.0, 2.0])
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.numpy().copy()))
    h = x * 3
    h.register_hook(lambda g: g * 10)  # replaces the gradient flowing into h
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [30, 30])
    np.testing.assert_allclose(seen[0], [30, 30])
    assert handle.remove() is True
    h2 = x * 1
    h2.sum().backward()
    assert len(seen) == 1
    with pytest.raises(RuntimeError, match="stop_gradient=True"):
        paddle.to_tensor([1.0]).register_hook(lambda g: g)


def test_retain_grads_keeps_a_non_leaf_gradient():
    x = leaf([1.0, 2.0])
    h = x * 2
    h.retain_grads()
    (h * h).sum().backward()
    np.testing.assert_allclose(h.grad.numpy(), [4.0, 8.0])


def test_in_place_change_of_a_saved_tensor_is_refused_with_the_op_and_tensor_named():
    x = leaf([1.0, 2.0])
    y = x.exp()
    y.name = "y_saved"
    z = (y * 2).sum()  # multiply saves y
    y.exp_()
    with pytest.raises(
        RuntimeError, match=r"op 'multiply' needs its input 0 \(tensor y_saved.*modified by an in-place"
    ):
        z.backward()


def test_in_place_op_records_a_correct_gradient():
    x = leaf([1.0, 2.0])
    h = x * 1
    h.exp_()  # h = exp(x), recorded in place
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([1.0, 2.0]))
    assert h.inplace_version == 1


def test_in_place_on_a_leaf_that_needs_grad_is_refused_but_allowed_under_no_grad():
    w = leaf([1.0])
    with pytest.raises(RuntimeError, match="leaf Tensor"):
        w.add_(paddle.to_tensor([1.0], dtype="float64"))
    with paddle.no_grad():
        w.add_(paddle.to_tensor([1.0], dtype="float64"))
    assert w.item() == 2.0


def test_deep_graph_backward_is_iterative():
    x = leaf([1.0])
    y = x
    for _ in range(5000):  # far past Python's recursion limit
        y = y * 1.0
    y.backward()
    assert x.grad.item() == 1.0


def test_introspection_api():
    x = leaf(np.ones((2, 3)))
    w = leaf(np.ones((3, 4)))
    w.name = "w"
    y = paddle.tanh(paddle.matmul(x, w)).sum()
    nodes = paddle.autograd.graph_nodes(y)
    assert [n.type for n in nodes] == ["sum", "tanh", "matmul"]
    mm = nodes[-1]
    assert mm.input_shapes == [[2, 3], [3, 4]] and mm.output_shapes == [[2, 4]]
    assert mm.attrs == {"transpose_x": False, "transpose_y": False}
    assert [d.name for d in mm.output_dtypes] == ["float64"]
    assert mm.next_nodes[1] is w
    assert set(nodes[1].saved_tensors()) == {"out0"}
    assert mm.scope == ""


def test_grad_rule_with_wrong_shape_is_reported():
    from minipaddle.core.dispatch import apply
    from minipaddle.core.op import OpDef

    class Broken(OpDef):
        name = "broken_for_test"

        def kernel(self, x):
            return x * 2

        def grad(self, node, g):
            return (paddle.sum(g),)

    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="grad rule of op 'broken_for_test' returned a gradient of shape"):
        apply(Broken(), (x,)).backward()


def test_backward_hook_fires_once_per_pass_as_soon_as_the_leafs_gradient_is_final():
    # loss = sum((x * w1) * w2): backward reaches w2 first, then h = x * w1, then w1.
    x = leaf([1.0, 2.0])
    w1, w2 = leaf([3.0, 4.0]), leaf([5.0, 6.0])
    log = []
    w1._register_backward_hook(lambda: log.append(("w1", w1.grad.numpy().tolist())))
    w2._register_backward_hook(lambda: log.append(("w2", w2.grad.numpy().tolist(), w1.grad)))
    h = x * w1
    h.register_hook(lambda g: log.append(("h",)))
    (h * w2 + w2).sum().backward()  # w2 has two edges: ready only after both
    assert log == [("w2", [4.0, 9.0], None), ("h",), ("w1", [5.0, 12.0])]  # w2 is ready before h's grad rule runs
    (x * w1).sum().backward()  # the hook sees the accumulated gradient (as Paddle's, verified on 2.6.2)
    assert log[-1] == ("w1", [6.0, 14.0])
    paddle.grad((x * w1).sum(), w1)  # paddle.grad accumulates nothing, so no hook
    assert len(log) == 4


def test_backward_hook_is_refused_on_non_leaves_stopped_tensors_and_non_callables():
    x = leaf([1.0])
    with pytest.raises(ValueError, match="only a leaf"):
        (x * 2)._register_backward_hook(lambda: None)
    with pytest.raises(ValueError, match="stop_gradient=True"):
        paddle.to_tensor([1.0])._register_backward_hook(lambda: None)
    with pytest.raises(TypeError, match="must be callable, got int"):
        x._register_backward_hook(3)
