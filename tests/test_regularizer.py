"""paddle.regularizer: the decay terms, and which one an optimizer uses for a parameter."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle


def test_decay_terms():
    p = paddle.Parameter(np.array([2.0, -3.0, 0.0], "float32"), name="p")
    g = paddle.zeros([3])
    np.testing.assert_allclose(paddle.regularizer.L2Decay(0.1)(p, g).numpy(), [0.2, -0.3, 0.0], rtol=1e-6)
    np.testing.assert_allclose(paddle.regularizer.L1Decay(0.1)(p, g).numpy(), [0.1, -0.1, 0.0], rtol=1e-6)
    assert str(paddle.regularizer.L2Decay(0.5)) == "L2Decay, coeff=0.500000"
    with pytest.raises(TypeError, match="coeff must be a number"):
        paddle.regularizer.L1Decay("0.1")


def test_a_parameters_own_regularizer_wins_over_the_optimizers():
    own = paddle.Parameter(np.array([1.0], "float32"), name="own")
    own.regularizer = paddle.regularizer.L1Decay(1.0)
    plain = paddle.Parameter(np.array([1.0], "float32"), name="plain")
    (own.sum() * 0 + plain.sum() * 0).backward()  # zero gradients: the step is the decay alone
    paddle.optimizer.SGD(0.1, parameters=[own, plain], weight_decay=0.5).step()
    np.testing.assert_allclose(own.numpy(), [1.0 - 0.1 * 1.0], rtol=1e-6)  # L1: sign(p) * 1.0
    np.testing.assert_allclose(plain.numpy(), [1.0 - 0.1 * 0.5], rtol=1e-6)  # the optimizer's L2: 0.5 * p
