"""Losses at the edges as paddle 2.6 (tests/golden/fidelity/loss_cases.py, recorded into losses.json by
make_loss_golden.py): no gradient for the label of cross-entropy and the BCE losses; softmax, log_softmax and
cross-entropy on extreme logits (floored at -64); a textbook MLP at lr 0.5 whose losses stay bounded, step by step."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "losses.json")


def _cases():
    spec = importlib.util.spec_from_file_location("loss_cases", GOLDEN_ROOT / "fidelity" / "loss_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES = _cases()


@pytest.mark.parametrize("name", sorted(GOLDEN["label_gradients"]))
def test_label_gradient_as_paddle(name):
    got, want = CASES.label_gradients(paddle)[name], GOLDEN["label_gradients"][name]
    if want is None:
        assert got is None
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_extreme_logits_as_paddle(dtype):
    got, want = CASES.extreme_logits(paddle)[dtype], GOLDEN["extreme_logits"][dtype]
    assert sorted(got) == sorted(want)
    for key in want:
        g, w = np.asarray(got[key]), np.asarray(want[key])
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=key)
        tiny = (np.abs(w) < 1e-20) & (w != 0)  # the exp(-64) ~ 1.6e-28 entries, compared relative to their size
        np.testing.assert_allclose(g[tiny], w[tiny], rtol=1e-5, err_msg=key)
    assert max(got["loss"]) == pytest.approx(64.0)


def test_cross_entropy_without_softmax_of_a_zero_probability():
    assert CASES.extreme_logits(paddle)["no_softmax_zero_prob"] == pytest.approx(
        GOLDEN["extreme_logits"]["no_softmax_zero_prob"]
    )


def test_hsigmoid_paths_as_paddle():
    assert CASES.hsigmoid_paths(paddle) == GOLDEN["hsigmoid_paths"]


def test_static_hsigmoid_loss_builds_and_runs_as_dynamic():
    rng = np.random.default_rng(2)
    x, w, b = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 1))
    labels = np.array([0, 1, 4])
    F = paddle.nn.functional
    want = F.hsigmoid_loss(paddle.to_tensor(x), paddle.to_tensor(labels), 6, paddle.to_tensor(w),
                           paddle.to_tensor(b)).numpy()  # fmt: skip
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            xs, ls = paddle.static.data("x", [3, 4], "float64"), paddle.static.data("label", [3], "int64")
            ws, bs = paddle.static.data("w", [5, 4], "float64"), paddle.static.data("b", [5, 1], "float64")
            out = F.hsigmoid_loss(xs, ls, 6, ws, bs)
        assert out.shape == [3, 1]
        (got,) = paddle.static.Executor().run(main, feed={"x": x, "label": labels, "w": w, "b": b}, fetch_list=[out])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_textbook_mlp_trains_as_paddle():
    got, want = CASES.textbook_mlp(paddle), GOLDEN["textbook_mlp"]
    assert all(np.isfinite(got["mean"])) and max(got["max"]) < 65
    np.testing.assert_allclose(got["mean"], want["mean"], rtol=1e-3)
    np.testing.assert_allclose(got["max"], want["max"], rtol=1e-3)


def test_static_cross_entropy_is_bounded_too():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [1, 3], "float32")
            loss = paddle.nn.functional.cross_entropy(x, paddle.to_tensor([2]), reduction="none")
        (out,) = paddle.static.Executor().run(main, feed={"x": np.array([[2000.0, 0, -2000]], "float32")},
                                              fetch_list=[loss])  # fmt: skip
    finally:
        paddle.disable_static()
    assert out.ravel().tolist() == pytest.approx([64.0])


def test_static_kl_div_gives_the_label_no_gradient_as_paddle():
    # paddle 2.6.2: paddle.static.gradients([kl_div(a, b)], [a, b]) gives [a@GRAD, None], and a's gradient is
    # -label / numel for 'mean' (values checked in dynamic mode by the golden file)
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            a = paddle.static.data("a", [2, 3], "float64")
            b = paddle.static.data("b", [2, 3], "float64")
            a.stop_gradient = b.stop_gradient = False
            ga, gb = paddle.static.gradients([paddle.nn.functional.kl_div(a, b)], [a, b])
        assert gb is None
        label = np.array([[0.1, 0.4, 0.5], [0.3, 0.3, 0.4]])
        feed = {"a": np.log(np.full((2, 3), 1 / 3)), "b": label}
        (got,) = paddle.static.Executor().run(main, feed=feed, fetch_list=[ga])
        np.testing.assert_allclose(got, -label / 6)
    finally:
        paddle.disable_static()
