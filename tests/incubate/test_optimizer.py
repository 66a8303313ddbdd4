"""paddle.incubate.LookAhead and ModelAverage give paddle 2.6.2's values step by step (tests/golden/incubate_optim/,
recorded there by make_golden.py), and check their arguments."""

import re

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

CASES = read_json(GOLDEN_ROOT / "incubate_optim" / "cases.json")


def _params(start):
    params = []
    for name, value in start.items():
        value = np.array(value, "float32")
        attr = paddle.ParamAttr(name=name, initializer=paddle.nn.initializer.Assign(value))
        params.append(paddle.create_parameter(list(value.shape), "float32", attr=attr))
    return params


def _backward(params, grads):
    loss = None
    for p in params:
        if grads.get(p.name) is not None:
            term = (p * paddle.to_tensor(grads[p.name])).sum()
            loss = term if loss is None else loss + term
    loss.backward()


def _check_state(got, expected):
    """The same accumulators (names up to their counter suffix) with the same values."""
    strip = {re.sub(r"_\d+$", "", k): v for k, v in got.items()}
    assert sorted(strip) == sorted(re.sub(r"_\d+$", "", k) for k in expected)
    for key, value in expected.items():
        np.testing.assert_allclose(strip[re.sub(r"_\d+$", "", key)].numpy(), value, rtol=1e-6, atol=1e-6)


def _check_params(params, expected):
    for p in params:
        np.testing.assert_allclose(p.numpy(), expected[p.name], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["kind"] == "lookahead"], ids=lambda c: f"{c['inner']}-k{c['k']}"
)
def test_lookahead_matches_paddle(case):
    params = _params(case["start"])
    if case["inner"] == "sgd":
        inner = paddle.optimizer.SGD(0.1, parameters=params)
    else:
        inner = paddle.optimizer.Adam(0.05, parameters=params)
    opt = paddle.incubate.LookAhead(inner, alpha=case["alpha"], k=case["k"])
    assert opt.get_lr() == case["alpha"]
    for grads, expected in zip(case["grads"], case["expected"]):
        _backward(params, grads)
        opt.step()
        opt.clear_grad(set_to_zero=False)
        _check_params(params, expected["params"])
        _check_state(opt.state_dict(), expected["state"])


@pytest.mark.parametrize("case", [c for c in CASES if c["kind"] == "model_average"], ids=lambda c: f"rate{c['rate']}")
def test_model_average_matches_paddle(case):
    params = _params(case["start"])
    sgd = paddle.optimizer.SGD(0.1, parameters=params)
    ma = paddle.incubate.ModelAverage(
        case["rate"], parameters=params, min_average_window=case["min"], max_average_window=case["max"]
    )
    for grads, expected in zip(case["grads"], case["expected"]):
        _backward(params, grads)
        sgd.step()
        ma.step()
        sgd.clear_grad(set_to_zero=False)
        with ma.apply():
            _check_params(params, expected["applied"])
        _check_params(params, expected["params"])  # restored on leaving
        _check_state(ma.state_dict(), expected["state"])


def test_lookahead_minimize_and_sync():
    w = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Constant(1.0))
    opt = paddle.incubate.LookAhead(paddle.optimizer.SGD(1.0, parameters=[w]), alpha=0.5, k=2)
    for _ in range(2):
        loss = w.sum()
        loss.backward()
        opt.minimize(loss)
        opt.clear_grad()
    # fast: 1 -> 0 (slow starts at 0) -> -1; at step 2: 0.5 * -1 + 0.5 * 0 = -0.5
    np.testing.assert_allclose(w.numpy(), [-0.5, -0.5])


def test_model_average_apply_without_restore_and_restore():
    w = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Constant(2.0))
    ma = paddle.incubate.ModelAverage(1.0, parameters=[w], min_average_window=10, max_average_window=10)
    with pytest.raises(RuntimeError, match="step"):
        with ma.apply():
            pass
    for value in (2.0, 4.0):
        paddle.assign(paddle.full([2], value), w)
        w.sum().backward()
        ma.step()
    with ma.apply(need_restore=False):
        np.testing.assert_allclose(w.numpy(), [3.0, 3.0])
    np.testing.assert_allclose(w.numpy(), [3.0, 3.0])  # not restored
    ma.restore()
    np.testing.assert_allclose(w.numpy(), [4.0, 4.0])


def test_argument_errors():
    w = paddle.create_parameter([2], "float32")
    sgd = paddle.optimizer.SGD(0.1, parameters=[w])
    with pytest.raises(ValueError, match="inner_optimizer"):
        paddle.incubate.LookAhead(None)
    with pytest.raises(ValueError, match="alpha"):
        paddle.incubate.LookAhead(sgd, alpha=1.5)
    with pytest.raises(ValueError, match="k should be a positive integer"):
        paddle.incubate.LookAhead(sgd, k=0)
    with pytest.raises(ValueError, match="k should be a positive integer"):
        paddle.incubate.LookAhead(sgd, k=2.0)
    with pytest.raises(TypeError, match="learning_rate must be a float"):
        paddle.incubate.LookAhead(sgd, alpha=1)  # as Paddle: alpha is the base Optimizer's learning rate
    with pytest.raises(AttributeError, match="parameters"):
        paddle.incubate.ModelAverage(0.5)
    ma = paddle.incubate.ModelAverage(0.5, parameters=[w], min_average_window=5, max_average_window=2)
    w.sum().backward()
    with pytest.raises(ValueError, match="min_average_window"):
        ma.step()
