"""paddle.distribution's behaviour beyond the golden values: sample shapes, seeded repeatability and moments,
reparameterized gradients, closed forms, KL dispatch and registration, and the errors Paddle 2.6 raises."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.distribution import (
    AbsTransform,
    AffineTransform,
    Bernoulli,
    Beta,
    Categorical,
    Cauchy,
    ChainTransform,
    Dirichlet,
    Distribution,
    ExponentialFamily,
    ExpTransform,
    Geometric,
    Gumbel,
    Independent,
    IndependentTransform,
    Laplace,
    LogNormal,
    Multinomial,
    Normal,
    ReshapeTransform,
    SoftmaxTransform,
    StackTransform,
    TanhTransform,
    TransformedDistribution,
    Uniform,
    kl_divergence,
    register_kl,
)

T = paddle.to_tensor


def f64(*values):
    return T(np.array(values, dtype=np.float64), stop_gradient=False)


# ---- sample shapes -----------------------------------------------------------------------------------------------

BATCH2 = {
    "normal": lambda: Normal(T([0.0, 1.0]), T([1.0, 2.0])),
    "uniform": lambda: Uniform(T([0.0, 1.0]), T([1.0, 2.0])),
    "categorical": lambda: Categorical(T([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])),
    "bernoulli": lambda: Bernoulli(T([0.3, 0.6])),
    "beta": lambda: Beta(T([2.0, 3.0]), T([1.0, 4.0])),
    "laplace": lambda: Laplace(T([0.0, 1.0]), T([1.0, 2.0])),
    "lognormal": lambda: LogNormal(T([0.0, 1.0]), T([1.0, 2.0])),
    "gumbel": lambda: Gumbel(T([0.0, 1.0]), T([1.0, 2.0])),
    "cauchy": lambda: Cauchy(T([0.0, 1.0]), T([1.0, 2.0])),
    "geometric": lambda: Geometric(T([0.3, 0.6])),
}


@pytest.mark.parametrize("name", sorted(BATCH2))
def test_sample_shape_is_sample_shape_plus_batch_shape(name):
    d = BATCH2[name]()
    assert d.batch_shape == (2,)
    assert d.event_shape == ()
    assert d.sample([4, 3]).shape == [4, 3, 2]
    if name not in ("categorical", "uniform", "beta"):  # Paddle 2.6 gives these no rsample
        assert d.rsample([5]).shape == [5, 2]


def test_event_shaped_samples():
    assert Dirichlet(T([[1.0, 2.0, 3.0]] * 2)).sample([4]).shape == [4, 2, 3]
    m = Multinomial(5, T([0.2, 0.3, 0.5]))
    assert (m.batch_shape, m.event_shape) == ((), (3,))
    counts = m.sample([6])
    assert counts.shape == [6, 3]
    np.testing.assert_array_equal(counts.sum(-1).numpy(), np.full(6, 5.0))
    ind = Independent(Normal(T([[0.0, 1.0]] * 3), T([[1.0, 1.0]] * 3)), 1)
    assert (ind.batch_shape, ind.event_shape) == ((3,), (2,))
    assert ind.sample([4]).shape == [4, 3, 2]


def test_paddle_quirks_of_sample_shapes():
    assert Normal(0.0, 1.0).sample().shape == []  # number parameters: a 0-D batch
    assert Categorical(T([1.0, 2.0])).sample([]).shape == []
    assert Beta(2.0, 3.0).sample([3, 1]).shape == [3]  # Paddle squeezes a trailing 1
    assert Categorical(T([[1.0, 2.0], [3.0, 4.0]])).batch_shape == (2,)  # Paddle 2.6 raises AttributeError


def test_number_and_list_parameters_become_float32_and_numpy_float64_stays():
    assert Normal(1, 2).loc.dtype == paddle.float32
    assert Normal([0.0, 1.0], 1.0).scale.shape == [2]
    assert Normal(np.array([0.0, 1.0]), 1.0).scale.dtype == paddle.float64
    assert Uniform(np.array([0.0], np.float32), 1.0).high.dtype == paddle.float32
    assert Bernoulli(0.3).probs.dtype == paddle.float32
    assert Geometric(0.3).probs.dtype == paddle.float32
    assert Normal(f64(0.0), f64(1.0)).sample([2]).dtype == paddle.float64


# ---- seeded repeatability and moments ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BATCH2))
def test_paddle_seed_makes_samples_repeat(name):
    d = BATCH2[name]()
    paddle.seed(11)
    first = d.sample([3]).numpy()
    paddle.seed(11)
    np.testing.assert_array_equal(d.sample([3]).numpy(), first)


MOMENTS = [  # (distribution, mean, variance) checked on 20000 draws
    (lambda: Normal(1.5, 2.0), 1.5, 4.0),
    (lambda: Uniform(-1.0, 3.0), 1.0, 16 / 12),
    (lambda: Bernoulli(0.3), 0.3, 0.21),
    (lambda: Beta(2.0, 3.0), 0.4, 6 / (25 * 6)),
    (lambda: Laplace(1.0, 0.5), 1.0, 0.5),
    (lambda: LogNormal(0.0, 0.5), math.exp(0.125), math.expm1(0.25) * math.exp(0.25)),
    (lambda: Gumbel(1.0, 2.0), 1.0 + 2.0 * np.euler_gamma, math.pi**2 * 4 / 6),
    (lambda: Geometric(0.4), 1.5, 1.5 / 0.4),
]


@pytest.mark.parametrize("make, mean, var", MOMENTS)
def test_sample_moments(make, mean, var):
    paddle.seed(3)
    x = make().sample([20000]).numpy().astype(np.float64)
    assert abs(x.mean() - mean) < 4 * math.sqrt(var / 20000)
    assert abs(x.var() - var) < 0.05 * var


def test_categorical_and_dirichlet_frequencies():
    paddle.seed(5)
    draws = Categorical(T([0.0, 1.0, 2.0])).sample([30000]).numpy()  # softmax(logits)
    p = np.exp([0.0, 1.0, 2.0]) / np.exp([0.0, 1.0, 2.0]).sum()
    np.testing.assert_allclose(np.bincount(draws, minlength=3) / 30000, p, atol=0.015)
    x = Dirichlet(T([1.0, 2.0, 3.0])).sample([20000]).numpy()
    np.testing.assert_allclose(x.mean(0), [1 / 6, 2 / 6, 3 / 6], atol=0.01)
    np.testing.assert_allclose(x.sum(-1), 1.0, rtol=1e-5)


def test_cauchy_samples_have_the_right_quartiles():
    paddle.seed(2)
    x = Cauchy(1.0, 2.0).sample([20000]).numpy()
    np.testing.assert_allclose(np.percentile(x, [25, 50, 75]), [-1.0, 1.0, 3.0], atol=0.15)


# ---- gradients ---------------------------------------------------------------------------------------------------


def test_normal_rsample_is_reparameterized():
    loc, scale = f64(1.0, -2.0), f64(0.5, 2.0)
    paddle.seed(4)
    y = Normal(loc, scale).rsample([3])
    paddle.seed(4)
    eps = paddle.normal(shape=[3, 2]).numpy()
    np.testing.assert_allclose(y.numpy(), loc.numpy() + eps * scale.numpy(), rtol=1e-6)
    g_loc, g_scale = paddle.grad([y.sum()], [loc, scale])
    np.testing.assert_allclose(g_loc.numpy(), [3.0, 3.0])
    np.testing.assert_allclose(g_scale.numpy(), eps.sum(0), rtol=1e-6)


@pytest.mark.parametrize(
    "make",
    [
        lambda loc, scale: Laplace(loc, scale),
        lambda loc, scale: Gumbel(loc, scale),
        lambda loc, scale: Cauchy(loc, scale),
        lambda loc, scale: LogNormal(loc, scale),
    ],
)
def test_location_scale_rsample_gradients(make):
    loc, scale = f64(0.5, -1.0), f64(1.5, 0.7)
    paddle.seed(9)
    y = make(loc, scale).rsample([4])
    g_loc, g_scale = paddle.grad([y.sum()], [loc, scale])
    if isinstance(make(loc, scale), LogNormal):  # y = exp(loc + scale * eps): dy/dloc = y
        np.testing.assert_allclose(g_loc.numpy(), y.numpy().sum(0), rtol=1e-6)
    else:  # y = loc + scale * z: dy/dloc = 1, dy/dscale = z
        np.testing.assert_allclose(g_loc.numpy(), [4.0, 4.0], rtol=1e-6)
        z = (y.numpy() - loc.numpy()) / scale.numpy()
        np.testing.assert_allclose(g_scale.numpy(), z.sum(0), rtol=1e-6)


def test_bernoulli_relaxed_rsample_gradient():
    p = f64(0.3)
    paddle.seed(1)
    y = Bernoulli(p).rsample([5], temperature=0.5)
    (g,) = paddle.grad([y.sum()], [p])
    np.testing.assert_allclose(g.numpy(), [5 / (0.3 * 0.7) / 0.5], rtol=1e-5)  # d logit(p)/dp / temperature


def test_sample_has_no_gradient_where_paddle_has_none():
    assert Laplace(f64(0.0), f64(1.0)).sample([2]).stop_gradient
    assert Bernoulli(f64(0.4)).sample([2]).stop_gradient
    assert Dirichlet(f64(1.0, 2.0)).sample([2]).stop_gradient


def test_bernoulli_entropy_has_the_true_gradient():
    p = f64(0.2, 0.55)
    (g,) = paddle.grad([Bernoulli(p).entropy().sum()], [p])
    np.testing.assert_allclose(g.numpy(), np.log((1 - p.numpy()) / p.numpy()), rtol=1e-6)


# ---- closed forms ------------------------------------------------------------------------------------------------


class _DirichletWithCarrier(Dirichlet):
    """Dirichlet's carrier measure k(x) = -sum log x, so ExponentialFamily.entropy can run on it."""

    @property
    def _mean_carrier_measure(self):
        c = self.concentration
        return -(paddle.digamma(c) - paddle.digamma(c.sum(-1, keepdim=True))).sum(-1)  # E[log x_i] = digammas


def test_exponential_family_entropy_is_the_closed_form():
    d = _DirichletWithCarrier(T(np.array([[1.5, 2.0, 0.7], [3.0, 1.0, 2.5]])))
    bregman = ExponentialFamily.entropy(d)
    assert bregman.shape == [2]
    np.testing.assert_allclose(bregman.numpy(), d.entropy().numpy(), rtol=1e-9)


def test_entropies_match_their_closed_forms():
    assert float(Normal(0.0, 2.0).entropy()) == pytest.approx(0.5 + 0.5 * math.log(2 * math.pi) + math.log(2.0))
    assert float(Uniform(1.0, 4.0).entropy()) == pytest.approx(math.log(3.0))
    assert float(Laplace(0.0, 2.0).entropy()) == pytest.approx(1 + math.log(4.0))
    assert float(Cauchy(0.0, 2.0).entropy()) == pytest.approx(math.log(8 * math.pi))
    assert float(Geometric(0.5).entropy()) == pytest.approx(2 * math.log(2.0))
    c = Categorical(T([0.0, math.log(3.0)]))  # softmax: (1/4, 3/4)
    assert float(c.entropy()) == pytest.approx(-(0.25 * math.log(0.25) + 0.75 * math.log(0.75)))
    assert float(Multinomial(1, T([0.25, 0.75])).entropy()) == pytest.approx(float(c.entropy()), rel=1e-5)


def test_kl_matches_a_monte_carlo_estimate():
    p, q = Normal(0.0, 1.0), Normal(1.0, 2.0)
    paddle.seed(0)
    x = p.sample([40000])
    estimate = float((p.log_prob(x) - q.log_prob(x)).mean())
    assert float(kl_divergence(p, q)) == pytest.approx(estimate, abs=0.02)


def test_transformed_distribution_matches_lognormal():
    value = T([0.5, 1.0, 3.0])
    td = TransformedDistribution(Normal(0.3, 0.8), [ExpTransform()])
    np.testing.assert_allclose(td.log_prob(value).numpy(), LogNormal(0.3, 0.8).log_prob(value).numpy(), rtol=1e-6)
    chained = ExpTransform()(Normal(0.3, 0.8))  # a Transform called on a Distribution
    assert isinstance(chained, TransformedDistribution)


def test_transform_shapes_and_chains():
    assert isinstance(ExpTransform()(TanhTransform()), ChainTransform)
    r = ReshapeTransform((2, 3), (6,))
    assert r.forward(paddle.ones([4, 2, 3])).shape == [4, 6]
    assert r.forward_shape((4, 2, 3)) == (4, 6) and r.inverse_shape((4, 6)) == (4, 2, 3)
    assert AffineTransform(T([0.0, 1.0]), T(2.0)).forward_shape((3, 1)) == (3, 2)
    assert IndependentTransform(ExpTransform(), 1).forward_log_det_jacobian(paddle.ones([2, 3])).shape == [2]
    neg, pos = AbsTransform().inverse(T([1.5]))
    assert (float(neg), float(pos)) == (-1.5, 1.5)
    s = StackTransform([ExpTransform(), TanhTransform()], axis=1)
    x = T([[0.5, 0.5]])
    np.testing.assert_allclose(s.forward(x).numpy(), [[math.exp(0.5), math.tanh(0.5)]], rtol=1e-6)


# ---- kl_divergence dispatch and register_kl ----------------------------------------------------------------------


def test_every_registered_pair_dispatches():
    pairs = [
        (Normal(0.0, 1.0), Normal(1.0, 2.0)),
        (Bernoulli(0.3), Bernoulli(0.6)),
        (Beta(2.0, 3.0), Beta(1.0, 1.0)),
        (Dirichlet(T([1.0, 2.0])), Dirichlet(T([2.0, 2.0]))),
        (Categorical(T([1.0, 2.0])), Categorical(T([2.0, 1.0]))),
        (Cauchy(0.0, 1.0), Cauchy(1.0, 1.0)),
        (Laplace(0.0, 1.0), Laplace(1.0, 2.0)),
        (Geometric(0.3), Geometric(0.5)),
        (LogNormal(0.0, 1.0), LogNormal(1.0, 2.0)),
    ]
    for p, q in pairs:
        assert float(kl_divergence(p, q).sum()) > 0
        assert float(kl_divergence(p, p).sum()) == pytest.approx(0.0, abs=1e-6)


def test_unregistered_pairs_raise_not_implemented():
    with pytest.raises(NotImplementedError):
        kl_divergence(Normal(0.0, 1.0), Laplace(0.0, 1.0))
    with pytest.raises(NotImplementedError):  # registered, but Paddle 2.6's Uniform has no kl_divergence
        kl_divergence(Uniform(0.0, 1.0), Uniform(0.0, 2.0))
    with pytest.raises(NotImplementedError):  # the exponential-family fallback needs the same class
        kl_divergence(Beta(2.0, 3.0), Dirichlet(T([1.0, 2.0])))


def test_register_kl_picks_the_most_specific_pair():
    class MyNormal(Normal):
        pass

    @register_kl(MyNormal, Normal)
    def _kl(p, q):
        return paddle.full([], 7.0)

    assert float(kl_divergence(MyNormal(0.0, 1.0), Normal(0.0, 1.0))) == 7.0
    assert float(kl_divergence(Normal(0.0, 1.0), MyNormal(0.0, 1.0))) == 0.0  # falls back to (Normal, Normal)
    with pytest.raises(TypeError, match="subclass of Distribution"):
        register_kl(int, Normal)


# ---- errors ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: Normal("a", 1.0), TypeError, "float, list, tuple"),
        (lambda: Normal(T(1.0), 1.0), ValueError, "all arguments should be Tensor"),
        (lambda: Normal(0.0, 1.0).sample(3), TypeError, "Iterable"),
        (lambda: Bernoulli(1.5), ValueError, "range [0, 1]"),
        (lambda: Bernoulli(1), TypeError, "float, list"),
        (lambda: Bernoulli(0.5).log_prob(1.0), TypeError, "Tensor"),
        (lambda: Dirichlet(T(1.0)), ValueError, "at least one dimensional"),
        (lambda: Laplace("0", 1.0), TypeError, "Real|Variable"),
        (lambda: Cauchy(0.0, 1.0).log_prob(1.0), TypeError, "Variable"),
        (lambda: Cauchy(0.0, 1.0).mean, ValueError, "no mean"),
        (lambda: Geometric(1.5), ValueError, "Interval"),
        (lambda: Geometric("x"), TypeError, "Real"),
        (lambda: Geometric(0.5).pmf(1.5), TypeError, "number"),
        (lambda: Multinomial(0, T([0.5, 0.5])), ValueError, "total_count"),
        (lambda: Multinomial(2, T(0.5)), ValueError, "dimension"),
        (lambda: Independent(Normal(0.0, 1.0), 1), ValueError, "reinterpreted_batch_rank"),
        (lambda: Independent("x", 1), TypeError, "Distribution"),
        (lambda: TransformedDistribution(Normal(0.0, 1.0), ExpTransform()), TypeError, "Sequence"),
        (lambda: TransformedDistribution(Normal(0.0, 1.0), [1]), TypeError, "Transform type"),
        (lambda: AffineTransform(0.0, T(1.0)), TypeError, "Tensor"),
        (lambda: ExpTransform().forward(1.0), TypeError, "Tensor"),
        (lambda: SoftmaxTransform().forward_log_det_jacobian(T([1.0, 2.0])), NotImplementedError, "injective"),
        (lambda: SoftmaxTransform().forward(T(1.0)), ValueError, "dimensions"),
        (lambda: ReshapeTransform((2, 3), (5,)), ValueError, "numel"),
        (lambda: StackTransform([ExpTransform()], axis=0).forward(T([1.0, 2.0])), ValueError, "length"),
        (lambda: Uniform(0.0, 1.0).mean, NotImplementedError, "mean"),
        (lambda: Distribution().sample(), NotImplementedError, "sample"),
    ],
)
def test_errors(call, error, words):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=None) as info:
            call()
    assert words in str(info.value)


def test_value_dtype_is_converted_with_a_warning():
    with pytest.warns(UserWarning, match="will be converted"):
        out = Normal(0.0, 1.0).log_prob(f64(0.5))
    assert out.dtype == paddle.float32


class _Exponential(ExponentialFamily):
    """Exponential(rate) as an exponential family: theta = -rate, F(theta) = -log(-theta), no registered KL."""

    def __init__(self, rate):
        self.rate = rate
        super().__init__(rate.shape)

    @property
    def _natural_parameters(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -paddle.log(-x)


def test_kl_falls_back_to_the_bregman_divergence_of_the_family():
    a, b = f64(0.5, 2.0), f64(1.5, 1.5)
    kl = kl_divergence(_Exponential(a), _Exponential(b))
    expected = np.log(a.numpy() / b.numpy()) + b.numpy() / a.numpy() - 1
    np.testing.assert_allclose(kl.numpy(), expected, rtol=1e-9)
    (g,) = paddle.grad([kl.sum()], [b])  # differentiable in q's parameters
    np.testing.assert_allclose(g.numpy(), -1 / b.numpy() + 1 / a.numpy(), rtol=1e-9)
