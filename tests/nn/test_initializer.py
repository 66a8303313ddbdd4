"""paddle.nn.initializer: the distributions (statistics over many draws with a fixed seed), the fan rules,
repeatability under paddle.seed, and the deterministic initializers against values printed by paddle 2.6."""

from __future__ import annotations

import math

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.nn import initializer as init


def _draw(initializer, shape, dtype="float32"):
    return paddle.create_parameter(list(shape), dtype, default_initializer=initializer).numpy()


def test_constant_and_assign():
    assert (_draw(init.Constant(0.5), [3, 2]) == 0.5).all()
    np.testing.assert_array_equal(_draw(init.Assign([[1.0, 2.0], [3.0, 4.0]]), [2, 2]), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(_draw(init.Assign(paddle.to_tensor([1.0, 2.0])), [2]), [1, 2])
    with pytest.raises(ValueError, match="shape"):
        _draw(init.Assign(np.ones(3)), [2])
    with pytest.raises(TypeError, match="ndarray"):
        init.Assign("ones")


@pytest.mark.parametrize("make, mean, std", [
    (lambda: init.Normal(1.0, 0.5), 1.0, 0.5),
    (lambda: init.Uniform(-2.0, 4.0), 1.0, 6 / math.sqrt(12)),
    (lambda: init.XavierUniform(), 0.0, math.sqrt(6 / 700) / math.sqrt(3)),
    (lambda: init.XavierNormal(), 0.0, math.sqrt(2 / 700)),
    (lambda: init.KaimingNormal(), 0.0, math.sqrt(2 / 200)),
    (lambda: init.KaimingUniform(), 0.0, math.sqrt(6 / 200) / math.sqrt(3)),
    (lambda: init.KaimingNormal(fan_in=50, nonlinearity="tanh"), 0.0, 5 / 3 / math.sqrt(50)),
    (lambda: init.XavierUniform(fan_in=10, fan_out=20), 0.0, math.sqrt(6 / 30) / math.sqrt(3)),
])  # fmt: skip
def test_random_initializers_have_the_right_statistics(make, mean, std):
    paddle.seed(123)
    values = _draw(make(), [200, 500])  # Linear-style [in, out]: fan_in = 200, fan_out = 500
    assert abs(values.mean() - mean) < 0.02 * max(std, 1)
    assert abs(values.std() / std - 1) < 0.02


def test_uniform_bounds_and_conv_fans():
    paddle.seed(0)
    values = _draw(init.XavierUniform(), [8, 4, 3, 3])  # conv weight: fan_in = 4 * 9, fan_out = 8 * 9
    limit = math.sqrt(6 / (36 + 72))
    assert np.abs(values).max() <= limit and np.abs(values).max() > 0.95 * limit
    kaiming = _draw(init.KaimingUniform(), [8, 4, 3, 3])
    assert np.abs(kaiming).max() <= math.sqrt(2) * math.sqrt(3 / 36)
    assert init.Initializer._compute_fans([5]) == (5, 5) and init.Initializer._compute_fans([]) == (1, 1)


def test_truncated_normal_stays_within_two_std():
    paddle.seed(3)
    values = _draw(init.TruncatedNormal(1.0, 2.0), [1000, 500])
    assert values.min() >= -3.0 and values.max() <= 5.0
    assert abs(values.std() - 1.7575) < 0.01  # std of a normal truncated at 2 sigma: 0.8796 * 2 (paddle: 1.7578)


def test_seed_makes_draws_repeat():
    paddle.seed(7)
    a = paddle.nn.Linear(3, 4).weight.numpy()
    paddle.seed(7)
    b = paddle.nn.Linear(3, 4).weight.numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, paddle.nn.Linear(3, 4).weight.numpy())


def test_structured_initializers_match_paddle():
    bilinear = _draw(init.Bilinear(), [2, 1, 4, 4])[0, 0]
    np.testing.assert_allclose(
        bilinear,
        [
            [0.0625, 0.28125, 0.375, 0.15625],
            [0.1875, 0.65625, 0.75, 0.21875],
            [0.1875, 0.46875, 0.375, 0.09375],
            [0.0625, 0.09375, 0.0, -0.03125],
        ],
    )
    np.testing.assert_array_equal(_draw(init.Dirac(), [2, 2, 3]), [[[0, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 1, 0]]])
    np.testing.assert_array_equal(_draw(init.Dirac(groups=2), [4, 2, 3])[:, :, 1], [[1, 0], [0, 1], [1, 0], [0, 1]])
    q = _draw(init.Orthogonal(gain=2.0), [3, 5], "float64")
    np.testing.assert_allclose(q @ q.T, 4 * np.eye(3), atol=1e-12)
    with pytest.raises(ValueError, match="2 or more"):
        _draw(init.Orthogonal(), [3])


def test_calculate_gain():
    assert init.calculate_gain("tanh") == 5 / 3 and init.calculate_gain("relu") == math.sqrt(2)
    assert init.calculate_gain("selu") == 0.75 and init.calculate_gain("conv2d") == 1
    assert init.calculate_gain("leaky_relu", 0.2) == pytest.approx(1.3867504905630728)
    with pytest.raises(ValueError, match="nonlinearity"):
        init.calculate_gain("swish")


def test_calling_an_initializer_on_a_parameter_fills_it_in_place():
    fc = paddle.nn.Linear(2, 2)
    weight = fc.weight
    init.Constant(0.9)(fc.weight)
    assert fc.weight is weight and (weight.numpy() == np.float32(0.9)).all()
    assert weight.grad is None and not weight.stop_gradient
    with pytest.raises(TypeError, match="Parameter"):
        init.Constant(1.0)(np.zeros(2))
