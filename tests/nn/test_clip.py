"""Gradient clipping (paddle.nn.ClipGradBy*) on its own; inside optimizers it is checked against Paddle in
tests/optimizer/test_golden_optimizers.py."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle


def pairs(*grads, need_clip=None):
    out = []
    for i, g in enumerate(grads):
        p = paddle.Parameter(np.zeros_like(np.asarray(g, "float32")), name=f"p{i}")
        if need_clip is not None:
            p.need_clip = need_clip[i]
        out.append((p, paddle.to_tensor(np.asarray(g, "float32"))))
    return out


def values(params_grads):
    return [g.numpy() for _, g in params_grads]


def test_clip_by_value():
    out = paddle.nn.ClipGradByValue(max=1.0, min=-0.5)(pairs([-2.0, 0.3, 4.0]))
    np.testing.assert_allclose(values(out)[0], [-0.5, 0.3, 1.0])
    out = paddle.nn.ClipGradByValue(0.5)(pairs([-2.0, 0.3]))  # min defaults to -max
    np.testing.assert_allclose(values(out)[0], [-0.5, 0.3])
    with pytest.raises(ValueError, match="max must be > 0"):
        paddle.nn.ClipGradByValue(-1.0)


def test_clip_by_norm_scales_each_gradient_on_its_own():
    out = paddle.nn.ClipGradByNorm(1.0)(pairs([3.0, 4.0], [0.3, 0.4]))
    np.testing.assert_allclose(values(out)[0], [0.6, 0.8], rtol=1e-6)
    np.testing.assert_array_equal(values(out)[1], np.float32([0.3, 0.4]))  # within the limit: unchanged


def test_clip_by_global_norm_scales_all_together_and_skips_need_clip_false():
    grads = pairs([3.0, 0.0], [0.0, 4.0], [10.0, 10.0], need_clip=[True, True, False])
    out = paddle.nn.ClipGradByGlobalNorm(1.0)(grads)
    np.testing.assert_allclose(values(out)[0], [0.6, 0.0], rtol=1e-6)
    np.testing.assert_allclose(values(out)[1], [0.0, 0.8], rtol=1e-6)
    np.testing.assert_array_equal(values(out)[2], [10.0, 10.0])
    assert paddle.nn.ClipGradByGlobalNorm(1.0).global_norm(grads).item() == pytest.approx(5.0)


def test_global_norm_auto_skip_clip_leaves_small_gradients_untouched():
    grads = pairs([0.3, 0.4])
    out = paddle.nn.ClipGradByGlobalNorm(1.0, auto_skip_clip=True)(grads)
    assert out[0][1] is grads[0][1]
    out = paddle.nn.ClipGradByGlobalNorm(1.0, group_name="g")(grads)  # default: multiplied by exactly 1
    np.testing.assert_array_equal(values(out)[0], np.float32([0.3, 0.4]))


def test_clipping_does_not_touch_param_grad():
    w = paddle.Parameter(np.array([1.0, 1.0], "float32"), name="w")
    (w * paddle.to_tensor([30.0, 40.0])).sum().backward()
    opt = paddle.optimizer.SGD(0.1, parameters=[w], grad_clip=paddle.nn.ClipGradByNorm(5.0))
    opt.step()
    np.testing.assert_allclose(w.grad.numpy(), [30.0, 40.0])
    np.testing.assert_allclose(w.numpy(), [1.0 - 0.1 * 3.0, 1.0 - 0.1 * 4.0], rtol=1e-6)


def test_printing():
    assert str(paddle.nn.ClipGradByValue(1.0)) == "Clip Gradient By Value, min = -1.000000, max=1.000000"
    assert str(paddle.nn.ClipGradByNorm(2.0)) == "Gradient Clip By Norm, clip_norm=2.000000"
    assert str(paddle.nn.ClipGradByGlobalNorm(3.0)) == "Gradient Clip By GlobalNorm, global_norm=3.000000"
