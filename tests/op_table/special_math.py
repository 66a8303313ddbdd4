"""Op-table section: the elementwise and special math of paddle 2.6 (minipaddle/tensor/special_math.py).

The special functions are checked against references computed another way than the kernels: Python's
math.lgamma and math.erf, numpy's np.i0, Bessel integrals by the trapezoid rule, and direct series.
"""

from __future__ import annotations

import math

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, binary_samples, distinct, pos, r, unary_samples


def within(low, high):
    def make(rng, *shape):
        return rng.uniform(low, high, size=shape)

    return make


def away_from_zero(rng, *shape):
    """Values in [-2, -0.3] or [0.3, 2] (kinks and poles at 0 stay out of the gradient checks)."""
    return rng.uniform(0.3, 2.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)


# ---- references ------------------------------------------------------------------------------------------------

_lgamma_ref = np.vectorize(math.lgamma, otypes=[np.float64])
_erf_ref = np.vectorize(math.erf, otypes=[np.float64])


def lgamma_ref(x):
    return _lgamma_ref(x).astype(x.dtype)


def digamma_ref(x):
    """The derivative of math.lgamma by central differences, Richardson-extrapolated (error ~1e-10)."""
    h, v = 1e-3, x.astype(np.float64)
    d1 = (_lgamma_ref(v + h) - _lgamma_ref(v - h)) / (2 * h)
    d2 = (_lgamma_ref(v + h / 2) - _lgamma_ref(v - h / 2)) / h
    return ((4 * d2 - d1) / 3).astype(x.dtype)


def polygamma_ref(x, n):
    """(-1)^(n+1) n! sum_k 1/(x + k)^(n+1), the first 2000 terms summed and the rest integrated."""
    v = x.astype(np.float64)
    k = np.arange(2000.0).reshape((-1,) + (1,) * x.ndim)
    s = n + 1
    tail = (v + 2000.0) ** (1 - s) / (s - 1) + 0.5 * (v + 2000.0) ** -s
    return ((-1) ** (n + 1) * math.factorial(n) * (np.sum((v + k) ** -s, axis=0) + tail)).astype(x.dtype)


def erfinv_ref(x):
    """Newton's method on math.erf from y = 0."""
    y = np.zeros_like(x, dtype=np.float64)
    for _ in range(60):
        y = y - (_erf_ref(y) - x) / (2 / math.sqrt(math.pi) * np.exp(-y * y))
    return y.astype(x.dtype)


def bessel_ref(x, order, scaled=False):
    """I_order(x) = 1/pi integral_0^pi exp(x cos t) cos(order t) dt, by the trapezoid rule (exact to rounding for
    this periodic integrand); scaled: times exp(-|x|)."""
    t = np.linspace(0, np.pi, 401).reshape((-1,) + (1,) * x.ndim)
    shift = np.abs(x) if scaled else 0.0
    f = np.exp(x * np.cos(t) - shift) * np.cos(order * t)
    w = np.full(t.shape, 1.0)
    w[0] = w[-1] = 0.5
    return (np.sum(w * f, axis=0) / 400).astype(x.dtype)


def logit_ref(x, eps=None):
    if eps:
        e = np.float32(eps).astype(x.dtype)
        x = np.maximum(np.minimum(x, 1 - e), e)
    return np.log(x / (1 - x))


def lerp_ref(x, y, weight):
    return x + weight * (y - x)


def multigammaln_ref(x, p):
    j = np.arange(1, p + 1)
    out = p * (p - 1) / 4 * math.log(math.pi) + np.sum(_lgamma_ref(x[..., None] + (1 - j) / 2), axis=-1)
    return out.astype(x.dtype)


def heaviside_ref(x, y):
    return np.heaviside(x, y)


def gcd_ref(x, y):
    return np.gcd(x, y)


def lcm_ref(x, y):
    return np.lcm(x, y)


def nan_to_num_ref(x, nan=0.0, posinf=None, neginf=None):
    return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


# ---- samples ---------------------------------------------------------------------------------------------------


def int_pair_samples(rng):
    ints = lambda *s: rng.integers(-30, 31, size=s)  # noqa: E731
    return [
        Sample((ints(3, 4), ints(3, 4)), {}, "int64"),
        Sample((ints(2, 3, 4).astype(np.int32), ints(3, 1).astype(np.int32)), {}, "int32 broadcast"),
        Sample((np.array([0, 0, 7, -12]), np.array([0, 5, 0, 18])), {}, "zeros"),
    ]


def heaviside_samples(rng):
    x = rng.choice([-1.5, 0.0, 2.0, -0.5], size=(3, 4))
    return [
        Sample((x, r(rng, 3, 4)), {}, "same shape"),
        Sample((x, r(rng, 4)), {}, "broadcast y"),
        Sample((np.array(0.0), r(rng, 2, 2)), {}, "0-d x"),
    ]


def fmax_samples(rng):
    with_nan = distinct(rng, 3, 4)
    with_nan[0, 1] = with_nan[2, 3] = np.nan
    return binary_samples(distinct, r)(rng) + [Sample((with_nan, r(rng, 3, 4)), {}, "nan in x")]


def lerp_samples(rng):
    return [
        Sample((r(rng, 3, 4), r(rng, 3, 4), r(rng, 3, 4)), {}, "three tensors"),
        Sample((r(rng, 3, 4), r(rng, 4), 0.3), {}, "float weight"),
        Sample((r(rng, 3, 1), r(rng, 1, 4), r(rng, 2, 1, 1)), {}, "broadcast all three"),
    ]


def logit_samples(rng):
    x = within(0.1, 0.9)(rng, 3, 4)
    return [
        Sample((x,), {}, "no eps"),
        Sample((np.array([0.02, 0.3, 0.97, 0.6]),), {"eps": 0.1}, "eps clips"),
        Sample((np.asarray(0.4),), {}, "0-d"),
    ]


def polygamma_samples(rng):
    return [
        Sample((pos(rng, 3, 4), 1), {}, "n=1"),
        Sample((within(-2.9, -2.1)(rng, 5), 2), {}, "n=2 negative x"),
        Sample((pos(rng, 2, 3) * 3, 3), {}, "n=3"),
    ]


def multigammaln_samples(rng):
    return [Sample((within(2.0, 5.0)(rng, 3, 4), 3), {}, "p=3"), Sample((within(1.0, 4.0)(rng, 5), 1), {}, "p=1")]


def nan_to_num_samples(rng):
    x = r(rng, 3, 4)
    x[0, 0], x[1, 2], x[2, 3] = np.nan, np.inf, -np.inf
    return [
        Sample((x,), {}, "defaults"),
        Sample((x,), {"nan": 1.5, "posinf": 9.0, "neginf": -9.0}, "values"),
    ]


def frexp_mantissa(x):
    return paddle.frexp(x)[0]


def frexp_exponent(x):
    return paddle.frexp(x)[1]


def _unary(name, ref, make, **kw):
    return OpInfo(name, getattr(paddle, name), ref, unary_samples(make), **kw)


def _binary(name, ref, make_x=r, make_y=r, **kw):
    return OpInfo(name, getattr(paddle, name), ref, binary_samples(make_x, make_y), **kw)


def _kept(samples, *labels):
    """Only the samples of these labels: the broadcasts paddle 2.6 allows an op (atan2 broadcasts at one rank,
    nextafter only a 0-d operand)."""
    return lambda rng: [s for s in samples(rng) if s.label in labels]


ENTRIES: list[OpInfo] = [
    OpInfo("atan2", paddle.atan2, np.arctan2, _kept(binary_samples(away_from_zero, away_from_zero), "same shape",
           "broadcast both"), double_grad=True),  # fmt: skip
    _binary("hypot", np.hypot, away_from_zero, away_from_zero),
    _binary("logaddexp", np.logaddexp, double_grad=True),
    OpInfo("fmax", paddle.fmax, np.fmax, fmax_samples),
    OpInfo("fmin", paddle.fmin, np.fmin, fmax_samples),
    OpInfo("heaviside", paddle.heaviside, heaviside_ref, heaviside_samples, grad=False),  # (a jump at x == 0)
    OpInfo("heaviside_grad", paddle.heaviside, heaviside_ref, binary_samples(away_from_zero)),
    OpInfo("nextafter", paddle.nextafter, np.nextafter, _kept(binary_samples(), "same shape", "0-d x"), grad=False),
    OpInfo("gcd", paddle.gcd, gcd_ref, int_pair_samples, grad=False),
    OpInfo("lcm", paddle.lcm, lcm_ref, int_pair_samples, grad=False),
    _binary("ldexp", lambda x, y: x * 2.0**y, r, within(-3, 3)),
    _unary("deg2rad", np.deg2rad, r),
    _unary("rad2deg", np.rad2deg, r),
    _unary("frac", lambda x: x - np.trunc(x), within(-3, 3)),
    OpInfo("frexp_mantissa", frexp_mantissa, lambda x: np.frexp(x)[0], unary_samples(away_from_zero)),
    OpInfo("frexp_exponent", frexp_exponent, lambda x: np.frexp(x)[1].astype(x.dtype), unary_samples(away_from_zero),
           grad=False),  # fmt: skip
    OpInfo("lerp", paddle.lerp, lerp_ref, lerp_samples, double_grad=True),
    OpInfo("logit", paddle.logit, logit_ref, logit_samples, double_grad=True),
    OpInfo("nan_to_num", paddle.nan_to_num, nan_to_num_ref, nan_to_num_samples, grad=False),
    OpInfo("nan_to_num_grad", paddle.nan_to_num, nan_to_num_ref, unary_samples(r)),
    _unary("lgamma", lgamma_ref, within(0.2, 4.0), double_grad=True),
    OpInfo("lgamma_negative", paddle.lgamma, lgamma_ref, lambda rng: [Sample((within(-2.9, -2.1)(rng, 3, 4),))]),
    _unary("digamma", digamma_ref, within(0.5, 6.0), double_grad=True, atol=1e-8, rtol=1e-8),
    OpInfo("polygamma", paddle.polygamma, polygamma_ref, polygamma_samples, double_grad=True, atol=1e-9, rtol=1e-9),
    OpInfo("multigammaln", paddle.multigammaln, multigammaln_ref, multigammaln_samples, double_grad=True),
    _unary("erfinv", erfinv_ref, within(-0.95, 0.95), double_grad=True, atol=1e-12, rtol=1e-12),
    _unary("i0", lambda x: np.i0(x).astype(x.dtype), within(-4, 4), double_grad=True, atol=1e-12, rtol=1e-12),
    _unary("i0e", lambda x: bessel_ref(x, 0, scaled=True), away_from_zero, atol=1e-12, rtol=1e-12),
    _unary("i1", lambda x: bessel_ref(x, 1), within(-4, 4), double_grad=True, atol=1e-12, rtol=1e-12),
    _unary("i1e", lambda x: bessel_ref(x, 1, scaled=True), away_from_zero, atol=1e-12, rtol=1e-12),
]  # fmt: skip
