"""paddle.static.nn's static_pylayer and nce: values and gradients against Paddle 2.6 (tests/golden/pylayer_nce,
recorded by its make_golden.py from the cases in cases.py, which run here on minipaddle) and behaviour."""

import numpy as np
import pytest

import minipaddle as paddle
from tests.static.golden_cases import build as _build
from tests.static.golden_cases import check_against_paddle


@pytest.mark.parametrize("group", ["pylayer_cases", "nce_cases"])
def test_values_match_paddle(group):
    check_against_paddle("pylayer_nce", group)


def _run(main, startup, feed, fetch):
    exe = paddle.static.Executor()
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        return exe.run(main, feed=feed, fetch_list=fetch)


# ---- static_pylayer ------------------------------------------------------------------------------------------------


def test_pylayer_structure_and_none_gradient(static_mode):
    def build():
        x = paddle.static.data("x", [-1, 2], "float32")
        y = paddle.static.data("y", [-1, 2], "float32")
        x.stop_gradient = y.stop_gradient = False
        out = paddle.static.nn.static_pylayer(lambda a, b, s: {"p": [a + b * s]}, [x, y, 2.0],
                                              lambda d: (d * 5.0, None))  # fmt: skip
        gx, gy = paddle.static.gradients([paddle.sum(out["p"][0])], [x, y])
        return out, gx, gy

    main, startup, (out, gx, gy) = _build(build)
    assert isinstance(out, dict) and isinstance(out["p"], list)
    assert gy is None  # backward_fn gave no gradient for y
    xv = np.ones((3, 2), np.float32)
    p, g = _run(main, startup, {"x": xv, "y": 2 * xv}, [out["p"][0], gx])
    np.testing.assert_allclose(p, 5 * xv)
    np.testing.assert_allclose(g, 5 * xv)
    assert [op.type for op in main.global_block().ops].count("pylayer_grad") == 1


def test_pylayer_without_backward_and_returning_none(static_mode):
    def build():
        x = paddle.static.data("x", [2], "float32")
        assert paddle.static.nn.static_pylayer(lambda a: None, [x]) is None
        return paddle.static.nn.static_pylayer(lambda a: a * 3.0, [x])

    main, startup, out = _build(build)
    assert out.stop_gradient
    np.testing.assert_allclose(_run(main, startup, {"x": np.ones(2, np.float32)}, [out])[0], [3.0, 3.0])


def test_pylayer_clone_for_test_keeps_forward(static_mode):
    def build():
        x = paddle.static.data("x", [2], "float32")
        x.stop_gradient = False
        out = paddle.static.nn.static_pylayer(paddle.exp, [x], lambda d: d)
        paddle.static.append_backward(paddle.sum(out), parameter_list=[x])
        return out

    main, startup, out = _build(build)
    test = main.clone(for_test=True)
    assert "pylayer_grad" not in [op.type for op in test.global_block().ops]
    np.testing.assert_allclose(_run(test, startup, {"x": np.zeros(2, np.float32)}, [out.name])[0], [1.0, 1.0])


def test_pylayer_errors(static_mode):
    x = paddle.static.data("x", [2], "float32")
    with pytest.raises(TypeError, match="static_pylayer: inputs must be a list"):
        paddle.static.nn.static_pylayer(paddle.exp, (x,))
    with pytest.raises(TypeError, match="forward_fn must be callable"):
        paddle.static.nn.static_pylayer(None, [x])
    x.stop_gradient = False
    with pytest.raises(ValueError, match="stop_gradient=True"):
        paddle.static.nn.static_pylayer(paddle.exp, [x])
    with pytest.raises(ValueError, match="one gradient per Variable input"):
        paddle.static.nn.static_pylayer(paddle.exp, [x], lambda d: (d, d))


def test_pylayer_is_static_only():
    with pytest.raises(RuntimeError, match="static mode only"):
        paddle.static.nn.static_pylayer(paddle.exp, [paddle.ones([2])])


# ---- nce -----------------------------------------------------------------------------------------------------------


def _nce_reference(x, labels, samples, w, b, prob, k):
    """The loss by its formula, for given samples and sampler probabilities."""
    logits = np.einsum("nd,nsd->ns", x, w[samples]) + b[samples, 0]
    o = 1 / (1 + np.exp(-logits))
    noise = prob * k
    true = np.arange(samples.shape[1]) < labels.shape[1]
    cost = np.where(true, -np.log(o / (o + noise)), -np.log(noise / (o + noise)))
    return cost.sum(1, keepdims=True) / (k + 1)


@pytest.mark.parametrize("sampler", ["uniform", "log_uniform"])
def test_nce_loss_formula_for_drawn_samples(sampler, static_mode):
    n_classes, k = 7, 4

    def build():
        x = paddle.static.data("x", [-1, 3], "float64")
        label = paddle.static.data("l", [-1, 1], "int64")
        cost = paddle.static.nn.nce(x, label, n_classes, num_neg_samples=k, sampler=sampler, seed=5)
        return cost

    main, startup, cost = _build(build)
    sample_op = next(op for op in main.global_block().ops if op.type == "nce_sample")
    samples_name = sample_op.outputs["Out"][0]
    rng = np.random.default_rng(0)
    xv, lv = rng.standard_normal((5, 3)), rng.integers(0, n_classes, (5, 1))
    exe = paddle.static.Executor()
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        got, samples = exe.run(main, feed={"x": xv, "l": lv}, fetch_list=[cost, samples_name])
        again = exe.run(main, feed={"x": xv, "l": lv}, fetch_list=[samples_name])[0]
        w, b = scope.vars["nce_0.w_0"], scope.vars["nce_0.b_0"]
    np.testing.assert_array_equal(samples, again)  # a non-zero seed draws the same samples every run, as Paddle
    np.testing.assert_array_equal(samples[:, :1], lv)
    if sampler == "uniform":
        prob = np.full(samples.shape, 1 / n_classes)
        assert samples.min() >= 0 and samples.max() < n_classes
    else:
        prob = np.log((samples + 2.0) / (samples + 1.0)) / np.log(n_classes)
        assert samples[:, 1:].max() < n_classes - 1  # Paddle's log-uniform sampler takes the id modulo n - 1
    want = _nce_reference(xv, lv, samples, w, b, prob.astype(np.float32).astype(np.float64), k)
    np.testing.assert_allclose(got, want, rtol=1e-10)


def test_nce_samples_follow_the_sampler():
    from minipaddle import ops

    paddle.seed(3)
    label = paddle.zeros([4000, 1], "int64")
    dist = np.array([0.1, 0.6, 0.0, 0.3])
    from minipaddle.static.nn.nce import _alias_table

    alias, alias_probs = _alias_table(dist, 4)
    tables = [paddle.to_tensor(a) for a in (dist.astype(np.float32), alias, alias_probs)]
    samples, scaled = ops.nce_sample(label, *tables, 4, 5, "custom_dist", 0)
    freq = np.bincount(samples.numpy()[:, 1:].reshape(-1), minlength=4) / (4000 * 5)
    np.testing.assert_allclose(freq, dist, atol=0.01)
    np.testing.assert_allclose(scaled.numpy()[:, 0], 0.1 * 5, rtol=1e-6)
    uniform = ops.nce_sample(label, None, None, None, 4, 5, "uniform", 0)[0].numpy()[:, 1:]
    np.testing.assert_allclose(np.bincount(uniform.reshape(-1), minlength=4) / uniform.size, 0.25, atol=0.01)


def test_nce_runs_in_dynamic_mode_and_differentiates():
    x = paddle.to_tensor(np.random.default_rng(1).standard_normal((2, 3)), stop_gradient=False)
    cost = paddle.static.nn.nce(x, paddle.to_tensor([[1], [4]]), 5, num_neg_samples=2)
    assert cost.shape == [2, 1] and cost.dtype == paddle.float64
    cost.sum().backward()
    assert x.grad.shape == [2, 3]


def test_nce_errors(static_mode):
    x = paddle.static.data("x", [-1, 3], "float32")
    label = paddle.static.data("l", [-1, 1], "int64")
    with pytest.raises(TypeError, match="nce: label must be int64"):
        paddle.static.nn.nce(x, paddle.static.data("l32", [-1, 1], "int32"), 5)
    with pytest.raises(ValueError, match="nce: input must be"):
        paddle.static.nn.nce(paddle.static.data("x3", [-1, 3, 2], "float32"), label, 5)
    with pytest.raises(ValueError, match="sampler must be one of"):
        paddle.static.nn.nce(x, label, 5, sampler="zipf")
    with pytest.raises(ValueError, match="custom_dist must hold"):
        paddle.static.nn.nce(x, label, 5, sampler="custom_dist", custom_dist=[0.5, 0.5])


def test_nce_label_out_of_range():
    with pytest.raises(ValueError, match="labels must be in"):
        paddle.static.nn.nce(paddle.ones([1, 3]), paddle.to_tensor([[7]]), 5)
