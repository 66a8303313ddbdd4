"""paddle.static.ctr_metric_bundle: its sums over three Executor runs against Paddle 2.6
(tests/golden/ctr_metric_bundle, recorded by its make_golden.py from the cases in cases.py, which run here on
minipaddle), its persistable state and its argument checks."""

import numpy as np
import pytest

import minipaddle as paddle
from tests.static.golden_cases import build as _build
from tests.static.golden_cases import check_against_paddle


def test_values_match_paddle():
    check_against_paddle("ctr_metric_bundle", "bundle_cases")


def _bundle(weighted=False):
    x = paddle.static.data("x", [-1, 1], "float32")
    label = paddle.static.data("l", [-1, 1], "float32")
    w = paddle.static.data("w", [-1, 1], "float32") if weighted else None
    return paddle.static.ctr_metric_bundle(x, label, w)


def test_state_is_persistable_named_and_shaped_as_paddle(static_mode):
    main, startup, sums = _build(_bundle)
    # measured on Paddle 2.6: sqrerr, abserr, prob, q, pos_num, ins_num are created as abserr first
    assert [v.name for v in sums] == [f"_generated_var_{i}" for i in (1, 0, 2, 3, 4, 5)]
    assert [v.shape for v in sums] == [[1], [1], [1], [1, 1], [1], [1, 1]]
    assert all(v.persistable and v.dtype == paddle.float32 for v in sums)
    assert {v.name for v in sums} <= set(startup.global_block().vars)
    main2, _, sums2 = _build(lambda: (_bundle(), _bundle())[1])
    assert [v.name for v in sums2][:2] == ["_generated_var_16", "_generated_var_15"]  # as Paddle's second bundle


def test_sums_accumulate_and_startup_resets(static_mode):
    main, startup, sums = _build(lambda: _bundle(weighted=True))
    exe, scope = paddle.static.Executor(), paddle.static.Scope()
    feed = {"x": np.array([[0.5], [0.25]], "float32"), "l": np.array([[1.0], [0.0]], "float32"),
            "w": np.array([[0.0], [1.0]], "float32")}  # fmt: skip
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        exe.run(main, feed=feed, fetch_list=list(sums))
        second = exe.run(main, feed=feed, fetch_list=list(sums))
        exe.run(startup)
        reset = exe.run(main, feed=feed, fetch_list=list(sums))
    sqrerr, abserr, prob, q, pos, ins = second
    np.testing.assert_allclose(sqrerr, [2 * (0.25 + 0.0625)])
    np.testing.assert_allclose(abserr, [2 * 0.75])
    np.testing.assert_allclose(prob, [2 * 0.75])
    np.testing.assert_allclose(pos, [2.0])
    assert q.tolist() == [[0.0]] and ins.tolist() == [[0.0]]  # the first tag is 0: a fake batch
    np.testing.assert_allclose(reset[0], [0.25 + 0.0625])


def test_dynamic_mode_sums_one_batch():
    x, label = paddle.to_tensor([[0.5], [0.25]]), paddle.to_tensor([[1.0], [0.0]])
    sqrerr, abserr, prob, q, pos, ins = paddle.static.ctr_metric_bundle(x, label)
    np.testing.assert_allclose(sqrerr.numpy(), [0.3125])
    np.testing.assert_allclose(q.numpy(), [[1 / (1 + np.exp(-0.5)) + 1 / (1 + np.exp(-0.25))]], rtol=1e-6)
    assert ins.numpy().tolist() == [[2.0]] and pos.shape == [1]


def test_errors(static_mode):
    x = paddle.static.data("x", [-1, 1], "float32")
    with pytest.raises(TypeError, match="ctr_metric_bundle: label must be float32, got int64"):
        paddle.static.ctr_metric_bundle(x, paddle.static.data("l", [-1, 1], "int64"))
    with pytest.raises(ValueError, match="ctr_metric_bundle: input and label must have the same shape"):
        paddle.static.ctr_metric_bundle(x, paddle.static.data("l2", [-1], "float32"))
    wide = paddle.static.data("wide", [-1, 2], "float32")
    with pytest.raises(ValueError, match=r"input must be \[N, 1\] or \[N\]"):
        paddle.static.ctr_metric_bundle(wide, wide)
    with pytest.raises(TypeError, match="ctr_metric_bundle: input"):
        paddle.static.ctr_metric_bundle([0.5], x)
