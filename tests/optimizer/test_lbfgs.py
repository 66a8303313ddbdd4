"""paddle.optimizer.LBFGS against real Paddle 2.6 (golden values from tests/golden/lbfgs/make_golden.py) and its
own behaviour: closure steps, the stopping rules, state_dict, errors."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden.lbfgs import problems
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = {c["name"]: c for c in read_json(GOLDEN_ROOT / "lbfgs" / "cases.json")["cases"]}
CASES = {c["name"]: c for c in problems.CASES}


def tolerance(case) -> float:
    return 2e-6 if case["dtype"] == "float32" else 1e-8


@pytest.mark.parametrize("name", sorted(CASES))
def test_steps_match_paddle(name):
    case, golden = CASES[name], GOLDEN[name]
    opt, steps = problems.run(paddle, case)
    for got, want in zip(steps, golden["steps"], strict=True):
        assert got["func_evals"] == want["func_evals"]
        assert got["n_iter"] == want["n_iter"]
        np.testing.assert_allclose(got["loss"], want["loss"], rtol=tolerance(case), atol=tolerance(case))
        for p, q in zip(got["params"], want["params"], strict=True):
            np.testing.assert_allclose(p, q, rtol=tolerance(case), atol=tolerance(case))
    state, final = opt.state_dict()["state"], golden["final"]
    assert len(state["old_yk"]) == len(state["old_sk"]) == len(state["ro"]) == final["history"]
    for key in ("alpha", "H_diag", "prev_loss"):
        np.testing.assert_allclose(float(state[key]), final[key], rtol=1e-4)
    np.testing.assert_allclose(state["d"].numpy(), final["d"], rtol=1e-3, atol=1e-6)


def rosenbrock_setup(**kwargs):
    x = paddle.to_tensor(np.array([-1.2, 1.0]), stop_gradient=False)
    opt = paddle.optimizer.LBFGS(parameters=[x], **kwargs)

    def closure():
        opt.clear_grad()
        loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] * x[0]) ** 2
        loss.backward()
        return loss

    return x, opt, closure


def test_converges_on_rosenbrock():
    x, opt, closure = rosenbrock_setup(line_search_fn="strong_wolfe", max_iter=100)
    opt.step(closure)
    np.testing.assert_allclose(x.numpy(), [1.0, 1.0], atol=1e-4)


def test_step_returns_first_loss_and_leaves_no_graph():
    x, opt, closure = rosenbrock_setup(max_iter=3, learning_rate=1e-3)
    loss = opt.step(closure)
    assert isinstance(loss, paddle.Tensor) and loss.shape == []
    np.testing.assert_allclose(float(loss), 24.2)
    assert not x.stop_gradient and x.grad is not None


def test_zero_gradient_returns_at_once():
    x = paddle.to_tensor(np.array([1.0, 1.0]), stop_gradient=False)
    opt = paddle.optimizer.LBFGS(parameters=[x])

    def closure():
        opt.clear_grad()
        loss = ((x - 1) ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    assert opt.state_dict()["state"] == {"func_evals": 1, "n_iter": 0}
    np.testing.assert_array_equal(x.numpy(), [1.0, 1.0])


def test_weight_decay_and_grad_clip_are_not_applied():
    """As in paddle 2.6, LBFGS's step reads the raw gradients."""
    plain_x, plain, plain_closure = rosenbrock_setup(max_iter=4, learning_rate=1e-3)
    x, opt, closure = rosenbrock_setup(
        max_iter=4, learning_rate=1e-3, weight_decay=0.5, grad_clip=paddle.nn.ClipGradByValue(0.1)
    )
    plain.step(plain_closure)
    opt.step(closure)
    np.testing.assert_array_equal(x.numpy(), plain_x.numpy())


def test_state_dict_round_trip_continues_the_same_way():
    x, opt, closure = rosenbrock_setup(line_search_fn="strong_wolfe", max_iter=5, history_size=3)
    opt.step(closure)
    saved = opt.state_dict()
    assert isinstance(saved["state"]["H_diag"], paddle.Tensor)
    assert all(v is None or isinstance(v, paddle.Tensor) for v in saved["state"]["al"])
    start = x.numpy().copy()
    opt.step(closure)
    expected = x.numpy().copy()

    y = paddle.to_tensor(start, stop_gradient=False)
    again = paddle.optimizer.LBFGS(parameters=[y], line_search_fn="strong_wolfe", max_iter=5, history_size=3)
    again.set_state_dict(saved)

    def closure_y():
        again.clear_grad()
        loss = (1 - y[0]) ** 2 + 100 * (y[1] - y[0] * y[0]) ** 2
        loss.backward()
        return loss

    again.step(closure_y)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-12)


def test_max_eval_default():
    assert paddle.optimizer.LBFGS(parameters=[paddle.ones([1])], max_iter=8).max_eval == 10


def test_errors():
    x, opt, closure = rosenbrock_setup()
    with pytest.raises(NotImplementedError, match="step\\(closure\\)"):
        opt.minimize(closure())
    with pytest.raises(TypeError, match="closure"):
        opt.step(None)
    _, bad, bad_closure = rosenbrock_setup(line_search_fn="backtracking")
    with pytest.raises(RuntimeError, match="strong_wolfe"):
        bad.step(bad_closure)
    params = [paddle.ones([1])]
    with pytest.raises(TypeError, match="max_iter"):
        paddle.optimizer.LBFGS(parameters=params, max_iter=2.5)
    with pytest.raises(ValueError, match="history_size"):
        paddle.optimizer.LBFGS(parameters=params, history_size=0)
    with pytest.raises(TypeError, match="learning_rate"):
        paddle.optimizer.LBFGS(parameters=params, learning_rate="1")
    with pytest.raises(TypeError, match="parameters"):
        paddle.optimizer.LBFGS(parameters=paddle.ones([1]))
    with pytest.raises(TypeError, match="set_state_dict"):
        opt.set_state_dict({"x": 1})
