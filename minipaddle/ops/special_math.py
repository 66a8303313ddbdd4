"""Special functions and the elementwise binary math of paddle 2.6: atan2, fmax/fmin, heaviside, nextafter, gcd,
logit, the gamma family (lgamma, digamma, polygamma), erfinv and the modified Bessel functions i0, i0e, i1, i1e.

numpy has none of the special functions, so each kernel evaluates one in float64 with a classic method (series
where all terms are positive, asymptotic expansions for large arguments, recurrences and reflection in between)
and returns the input's dtype. The loops in these kernels run over series terms, never over elements.

Special values follow paddle 2.6 (measured on its CPU kernels), e.g. digamma(0) = nan, lgamma(-inf) = inf,
polygamma(n, inf) = nan, erfinv(x) = +-inf for |x| >= 1, i0(inf) = nan, i0e(inf) = 0.
"""

from __future__ import annotations

import math

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import BinaryOp, UnaryOp
from minipaddle.ops.unary_math import _erf

__all__ = [
    "atan2",
    "fmax",
    "fmin",
    "heaviside",
    "nextafter",
    "gcd",
    "logit",
    "lgamma",
    "digamma",
    "polygamma",
    "erfinv",
    "i0",
    "i0e",
    "i1",
    "i1e",
]  # the raw op functions; ops/__init__.py gathers them

_EULER_GAMMA = 0.5772156649015329
# B_2, B_4, ..., B_26: the Bernoulli numbers of the asymptotic (Stirling, Euler-Maclaurin) series below.
_BERNOULLI = np.array([1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510, 43867 / 798,
                       -174611 / 330, 854513 / 138, -236364091 / 2730, 8553103 / 6])  # fmt: skip


def _float64(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


# ---- the numerical methods (float64 in, float64 out) -------------------------------------------------------------


def _hurwitz_zeta(s: int, q: np.ndarray) -> np.ndarray:
    """zeta(s, q) = sum_k (q + k)^-s for an integer s >= 2, by Euler-Maclaurin summation (as Cephes' zeta).

    The first N terms are summed directly, N large enough that a = q + N >= 9 for every element (negative,
    non-integer q included: for integer s the terms are real); the rest is the integral a^(1-s)/(s-1), half the
    first left-out term, and 12 Bernoulli corrections. Poles (q = 0, -1, -2, ...) give inf; q = +inf gives nan.
    """
    q = _float64(q)
    pole = (q <= 0) & (q == np.floor(q))
    ok = np.isfinite(q) & ~pole
    qq = np.where(ok, q, 1.0)
    n_terms = int(max(9, math.ceil(9 - qq.min()))) if qq.size else 9
    total = np.zeros_like(qq)
    for k in range(n_terms):
        total += (qq + k) ** -s
    a = qq + n_terms
    total += a ** (1 - s) / (s - 1) + 0.5 * a**-s
    rising = float(s)  # s (s + 1) ... (s + 2j - 2)
    power = a ** -(s + 1)  # a^(-s - 2j + 1)
    factorial = 2.0  # (2j)!
    for j in range(1, 13):
        total += _BERNOULLI[j - 1] / factorial * rising * power
        rising *= (s + 2 * j - 1) * (s + 2 * j)
        power = power / (a * a)
        factorial *= (2 * j + 1) * (2 * j + 2)
    out = np.where(pole, np.inf, total)
    return np.where(np.isnan(q) | (q == np.inf), np.nan, out)


# lgamma(1 + z) = -gamma z + sum_{k>=2} (-1)^k zeta(k) / k z^k, for |z| <= 1/2: near the zeros of lgamma at 1
# and 2 this keeps full relative precision, which a Stirling sum (a large number minus a large number) would lose.
_LGAMMA_SERIES = [(-1) ** k * _hurwitz_zeta(k, np.array(1.0)).item() / k for k in range(2, 56)]


def _lgamma_near_one(z: np.ndarray) -> np.ndarray:
    """lgamma(1 + z) for |z| <= 1/2 (Horner's rule on the zeta series)."""
    p = np.zeros_like(z)
    for c in reversed(_LGAMMA_SERIES):
        p = p * z + c
    return z * (-_EULER_GAMMA + z * p)


def _lgamma_positive(y: np.ndarray) -> np.ndarray:
    """log Gamma(y) for y > 0."""
    near_one = np.clip(y - 1.0, -0.5, 0.5)
    near_two = np.clip(y - 2.0, -0.5, 0.5)
    tiny = np.minimum(y, 0.5)
    # y >= 2.5: Stirling's series at y + 8 (>= 10.5, where 8 terms reach double precision), stepped back down
    big = np.maximum(y, 2.5)
    shift = big < 10.0
    w = np.where(shift, big + 8.0, big)
    stirling = (w - 0.5) * np.log(w) - w + 0.5 * math.log(2 * math.pi)
    inv, inv_sq = 1.0 / w, 1.0 / (w * w)
    for k in range(1, 9):
        stirling += _BERNOULLI[k - 1] / (2 * k * (2 * k - 1)) * inv
        inv = inv * inv_sq
    steps = np.ones_like(big)
    for i in range(8):
        steps *= big + i
    stirling = np.where(shift, stirling - np.log(steps), stirling)
    return np.select(
        [y < 0.5, y < 1.5, y < 2.5, y == np.inf],
        [_lgamma_near_one(tiny) - np.log(tiny), _lgamma_near_one(near_one),
         _lgamma_near_one(near_two) + np.log1p(near_two), np.inf],
        stirling,
    )  # fmt: skip


def _lgamma(x: np.ndarray) -> np.ndarray:
    """log |Gamma(x)|; negative x by the reflection Gamma(x) Gamma(1 - x) = pi / sin(pi x). Poles give inf."""
    x = _float64(x)
    with np.errstate(all="ignore"):
        neg = x <= 0
        y = np.where(neg, 1.0 - x, x)
        out = _lgamma_positive(np.where(np.isnan(y), 1.0, y))
        r = np.where(neg, x - np.round(x), 0.5)  # sin(pi x) = +-sin(pi r), reduced exactly (sin(pi * 1e6) is 0)
        reflected = np.log(math.pi / np.abs(np.sin(math.pi * r))) - out
        out = np.where(neg, reflected, out)
        out = np.where(np.isinf(x), np.inf, out)
    return np.where(np.isnan(x), np.nan, out)


def _digamma(x: np.ndarray) -> np.ndarray:
    """psi(x) = d/dx log Gamma(x): the recurrence psi(y) = psi(y + 10) - sum_i 1/(y + i) lifts y to >= 10, where
    the asymptotic series is exact to double precision; negative x by the reflection
    psi(x) = psi(1 - x) - pi / tan(pi x). Non-positive integers (and -inf) give nan, as in Paddle."""
    x = _float64(x)
    with np.errstate(all="ignore"):
        neg = x < 0
        y = np.where(neg, 1.0 - x, x)
        y = np.where(np.isfinite(y) & (y > 0), y, 1.0)
        shift = y < 10.0
        w = np.where(shift, y + 10.0, y)
        out = np.log(w) - 0.5 / w
        inv_sq = 1.0 / (w * w)
        power = inv_sq
        for k in range(1, 9):
            out -= _BERNOULLI[k - 1] / (2 * k) * power
            power = power * inv_sq
        steps = np.zeros_like(y)
        for i in range(10):
            steps += 1.0 / (y + i)
        out = np.where(shift, out - steps, out)
        r = x - np.round(x)
        out = np.where(neg, out - math.pi * np.cos(math.pi * r) / np.sin(math.pi * r), out)
        pole = (x <= 0) & (x == np.floor(x))
        out = np.where(pole | np.isnan(x), np.nan, out)
    return np.where(x == np.inf, np.inf, out)


def _polygamma(x: np.ndarray, n: int) -> np.ndarray:
    """psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for n >= 1."""
    with np.errstate(all="ignore"):
        return (-1.0) ** (n + 1) * math.factorial(n) * _hurwitz_zeta(n + 1, x)


# erfinv's first guess: Giles, "Approximating the erfinv function" (GPU Computing Gems, 2011), single precision;
# polynomials in w = -log(1 - x^2), one for w < 5 and one (in sqrt(w) - 3) for the tails.
_ERFINV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                   -0.00417768164, 0.246640727, 1.50140941)  # fmt: skip
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                0.00943887047, 1.00167406, 2.83297682)  # fmt: skip


def _erfinv(x: np.ndarray) -> np.ndarray:
    """The inverse error function: Giles' approximation (relative error ~1e-7), then two Halley steps on erf,
    which bring it to double precision. |x| >= 1 gives +-inf (Paddle's kernel does the same beyond 1)."""
    x = _float64(x)
    with np.errstate(all="ignore"):
        inside = np.abs(x) < 1
        t = np.where(inside, x, 0.0)
        w = -np.log((1.0 - t) * (1.0 + t))
        central, tail = np.zeros_like(w), np.zeros_like(w)
        for c in _ERFINV_CENTRAL:
            central = central * (w - 2.5) + c
        for c in _ERFINV_TAIL:
            tail = tail * (np.sqrt(w) - 3.0) + c
        y = np.where(w < 5.0, central, tail) * t
        for _ in range(2):  # Halley: f = erf(y) - x, f' = 2/sqrt(pi) exp(-y^2), f'' = -2 y f'
            u = (_erf(y) - t) / (2.0 / math.sqrt(math.pi) * np.exp(-y * y))
            y = y - u / (1.0 + y * u)
        out = np.where(inside, y, np.sign(x) * np.inf)
    return np.where(np.isnan(x), np.nan, out)


def _bessel_scaled(x: np.ndarray, order: int) -> np.ndarray:
    """exp(-|x|) I_order(x) for order 0 or 1, where I is the modified Bessel function of the first kind.

    |x| < 30: the power series I_v(x) = sum_k (x/2)^(2k+v) / (k! (k+v)!), whose terms are all positive (80
    terms reach full precision there). |x| >= 30: the asymptotic expansion
    exp(-x) I_v(x) ~ 1/sqrt(2 pi x) sum_k (-1)^k prod_{j<=k} (4v^2 - (2j-1)^2) / (k! (8x)^k), 40 terms.
    """
    x = _float64(x)
    a = np.abs(x)
    with np.errstate(all="ignore"):
        small = np.minimum(a, 30.0)
        quarter_sq = small * small / 4.0
        term = np.ones_like(small) if order == 0 else small / 2.0
        series = term.copy()
        for k in range(1, 80):
            term = term * quarter_sq / (k * (k + order))
            series += term
        series = series * np.exp(-small)
        big = np.maximum(a, 30.0)
        mu = 4.0 * order * order
        term = np.ones_like(big)
        asymptotic = term.copy()
        for k in range(1, 40):
            term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * big)
            asymptotic += term
        asymptotic = asymptotic / np.sqrt(2 * math.pi * big)
        out = np.where(a < 30.0, series, asymptotic)
    out = np.where(np.isnan(x), np.nan, out)
    return out * np.sign(x) if order == 1 else out


def _bessel(x: np.ndarray, order: int) -> np.ndarray:
    """I_order(x) itself: the scaled value times exp(|x|); inf once exp overflows, nan at +-inf (as Cephes)."""
    x = _float64(x)
    with np.errstate(all="ignore"):
        out = _bessel_scaled(x, order) * np.exp(np.abs(x))
    return np.where(np.isinf(x), np.nan, out)


# ---- binary ops --------------------------------------------------------------------------------------------------


def _grads_of(node, gx, gy) -> tuple:
    """Each gradient summed back to its input's shape, None where no gradient is needed."""
    x, y = node.inputs
    return (
        ops.unbroadcast(gx, x.shape) if node.needs_grad(0) else None,
        ops.unbroadcast(gy, y.shape) if node.needs_grad(1) else None,
    )


@register
class Atan2(BinaryOp):
    """atan2(x, y) = arctan(x / y) in the quadrant of the point (y, x) (Paddle's argument order is numpy's)."""

    name = "atan2"

    def kernel(self, x, y):
        return np.arctan2(x, y)

    def grad(self, node, g):
        x, y = node.inputs
        radius_sq = ops.add(ops.multiply(x, x), ops.multiply(y, y))
        gx = ops.divide(ops.multiply(g, y), radius_sq)  # g y / (x^2 + y^2): nan at the origin, as Paddle
        gy = ops.neg(ops.divide(ops.multiply(g, x), radius_sq))
        return _grads_of(node, gx, gy)


class _NanIgnoringExtremum(BinaryOp):
    """fmax / fmin: like maximum / minimum, but a nan loses to a number. The gradient goes to the chosen input;
    ties go to x, and a nan y sends it to x (Paddle's fmax_grad)."""

    ufunc = None
    picks_x = None  # the comparison under which x is chosen

    def kernel(self, x, y):
        return self.ufunc(x, y)

    def grad(self, node, g):
        x, y = node.inputs
        to_x = ops.cast(ops.logical_or(self.picks_x(x, y), ops.isnan(y)), g.dtype)
        return _grads_of(node, ops.multiply(g, to_x), ops.multiply(g, ops.subtract(1.0, to_x)))


@register
class Fmax(_NanIgnoringExtremum):
    name = "fmax"
    ufunc = staticmethod(np.fmax)
    picks_x = staticmethod(lambda x, y: ops.greater_equal(x, y))


@register
class Fmin(_NanIgnoringExtremum):
    name = "fmin"
    ufunc = staticmethod(np.fmin)
    picks_x = staticmethod(lambda x, y: ops.less_equal(x, y))


@register
class Heaviside(BinaryOp):
    """0 where x < 0, y where x == 0, 1 where x > 0 (and 0 for a nan x, as Paddle; numpy would give nan).

    Its gradient is zero for x and reaches y only where x == 0."""

    name = "heaviside"

    def kernel(self, x, y):
        return np.where(x == 0, y, (x > 0).astype(x.dtype))

    def grad(self, node, g):
        x, _ = node.inputs
        at_zero = ops.cast(ops.equal(x, ops.full_like(x, 0)), g.dtype)
        return _grads_of(node, ops.full_like(g, 0), ops.multiply(g, at_zero))


@register
class Nextafter(BinaryOp):
    """The next representable float after x in the direction of y. No gradient."""

    name = "nextafter"
    differentiable = False
    saves_inputs = False

    def kernel(self, x, y):
        return np.nextafter(x, y)


@register
class Gcd(BinaryOp):
    """The greatest common divisor of |x| and |y| (gcd(0, 0) = 0). Floats by Euclid's algorithm with fmod, as
    Paddle's loop of paddle.mod does (gcd(1.5, 1.0) = 0.5). Piecewise constant: its gradient is zero."""

    name = "gcd"
    saves_inputs = False

    def kernel(self, x, y):
        a, b = np.broadcast_arrays(np.abs(x), np.abs(y))
        if a.dtype.kind in "iu":
            return np.gcd(a, b)
        a, b = np.maximum(a, b), np.minimum(a, b)
        with np.errstate(invalid="ignore"):
            while np.any((b != 0) & ~np.isnan(b)):  # the loop runs over Euclid's steps, for all elements at once
                nonzero = b != 0
                a, b = np.where(nonzero, b, a), np.where(nonzero, np.fmod(a, np.where(nonzero, b, 1)), 0)
        return a

    def grad(self, node, g):
        zeros = ops.full_like(g, 0)
        return _grads_of(node, zeros, zeros)


def atan2(x: Tensor, y: Tensor) -> Tensor:
    return apply(Atan2, (x, y))


def fmax(x: Tensor, y: Tensor) -> Tensor:
    return apply(Fmax, (x, y))


def fmin(x: Tensor, y: Tensor) -> Tensor:
    return apply(Fmin, (x, y))


def heaviside(x: Tensor, y: Tensor) -> Tensor:
    return apply(Heaviside, (x, y))


def nextafter(x: Tensor, y: Tensor) -> Tensor:
    return apply(Nextafter, (x, y))


def gcd(x: Tensor, y: Tensor) -> Tensor:
    return apply(Gcd, (x, y))


# ---- unary special functions -------------------------------------------------------------------------------------


class _Special(UnaryOp):
    """A special function computed in float64 by `method` and returned in x's dtype."""

    method = None

    def kernel(self, x, **attrs):
        return self.method(x, **attrs).astype(x.dtype)


@register
class Logit(UnaryOp):
    """log(x / (1 - x)). With eps > 0, x is first limited to [eps, 1 - eps] (eps as a float32, like Paddle's
    attribute) and the gradient is zero outside that range; with eps = 0 the gradient is zero outside [0, 1]."""

    name = "logit"

    def kernel(self, x, eps=0.0):
        with np.errstate(divide="ignore", invalid="ignore"):
            if eps:
                e = np.float32(eps).astype(x.dtype)
                x = np.maximum(np.minimum(x, 1 - e), e)  # (this order gives Paddle's result when eps > 1/2)
            return np.log(x / (1 - x))

    def grad(self, node, g):
        x = node.inputs[0]
        e = float(np.float32(node.attrs["eps"]))
        inside = ops.logical_and(ops.greater_equal(x, e), ops.less_equal(x, 1.0 - e))
        slope = ops.divide(g, ops.multiply(x, ops.subtract(1.0, x)))  # 1 / (x (1 - x))
        return (ops.where(inside, slope, ops.full_like(g, 0)),)


@register
class Lgamma(_Special):
    """log |Gamma(x)|. Its derivative is digamma."""

    name = "lgamma"
    method = staticmethod(_lgamma)

    def grad(self, node, g):
        return (ops.multiply(g, digamma(node.inputs[0])),)


@register
class Digamma(_Special):
    """psi(x), the derivative of lgamma. Its own derivative is polygamma(x, 1)."""

    name = "digamma"
    method = staticmethod(_digamma)

    def grad(self, node, g):
        return (ops.multiply(g, polygamma(node.inputs[0], 1)),)


@register
class Polygamma(_Special):
    """The n-th derivative of digamma (n >= 1; polygamma(x, 0) is digamma itself)."""

    name = "polygamma"
    method = staticmethod(_polygamma)

    def grad(self, node, g):
        return (ops.multiply(g, polygamma(node.inputs[0], node.attrs["n"] + 1)),)


@register
class Erfinv(_Special):
    """The inverse of erf on (-1, 1). Its derivative is sqrt(pi)/2 exp(erfinv(x)^2)."""

    name = "erfinv"
    amp = "black"
    method = staticmethod(_erfinv)
    saves_inputs = False
    saves_outputs = True

    def grad(self, node, g):
        y = node.output(0)
        return (ops.multiply(g, ops.scale(ops.exp(ops.multiply(y, y)), math.sqrt(math.pi) / 2)),)


def _sign_at_zero_positive(x: Tensor) -> Tensor:
    """-1 where x < 0, else 1: the side Paddle's i0e/i1e gradients take at the kink x = 0."""
    return ops.where(ops.less_than(x, 0.0), ops.full_like(x, -1), ops.full_like(x, 1))


def _nonzero(x: Tensor) -> Tensor:
    """x with its zeros replaced by ones, to divide by it where the quotient is not used at 0."""
    return ops.where(ops.equal(x, 0.0), ops.full_like(x, 1), x)


def _half_at_zero(x: Tensor, slope: Tensor) -> Tensor:
    """`slope` with 1/2 at x = 0: the limit of i1's and i1e's derivatives there, where their formulas divide
    by x."""
    return ops.where(ops.equal(x, 0.0), ops.full_like(x, 0.5), slope)


@register
class I0(_Special):
    """The modified Bessel function of the first kind, order 0. I0' = I1."""

    name = "i0"
    method = staticmethod(lambda x: _bessel(x, 0))

    def grad(self, node, g):
        return (ops.multiply(g, i1(node.inputs[0])),)


@register
class I0e(_Special):
    """exp(-|x|) I0(x). Its derivative is i1e(x) - sign(x) i0e(x) (-1 at x = 0, as Paddle)."""

    name = "i0e"
    method = staticmethod(lambda x: _bessel_scaled(x, 0))
    saves_outputs = True

    def grad(self, node, g):
        x, y = node.inputs[0], node.output(0)
        return (ops.multiply(g, ops.subtract(i1e(x), ops.multiply(_sign_at_zero_positive(x), y))),)


@register
class I1(_Special):
    """The modified Bessel function of the first kind, order 1. I1' = I0 - I1 / x (1/2 at x = 0)."""

    name = "i1"
    method = staticmethod(lambda x: _bessel(x, 1))
    saves_outputs = True

    def grad(self, node, g):
        x, y = node.inputs[0], node.output(0)
        slope = ops.subtract(i0(x), ops.divide(y, _nonzero(x)))
        return (ops.multiply(g, _half_at_zero(x, slope)),)


@register
class I1e(_Special):
    """exp(-|x|) I1(x). Its derivative is i0e(x) - i1e(x) (sign(x) + 1/x) (1/2 at x = 0)."""

    name = "i1e"
    method = staticmethod(lambda x: _bessel_scaled(x, 1))
    saves_outputs = True

    def grad(self, node, g):
        x, y = node.inputs[0], node.output(0)
        factor = ops.add(_sign_at_zero_positive(x), ops.reciprocal(_nonzero(x)))
        slope = ops.subtract(i0e(x), ops.multiply(y, factor))
        return (ops.multiply(g, _half_at_zero(x, slope)),)


def logit(x: Tensor, eps: float = 0.0) -> Tensor:
    return apply(Logit, (x,), {"eps": eps})


def lgamma(x: Tensor) -> Tensor:
    return apply(Lgamma, (x,))


def digamma(x: Tensor) -> Tensor:
    return apply(Digamma, (x,))


def polygamma(x: Tensor, n: int) -> Tensor:
    return apply(Polygamma, (x,), {"n": n})


def erfinv(x: Tensor) -> Tensor:
    return apply(Erfinv, (x,))


def i0(x: Tensor) -> Tensor:
    return apply(I0, (x,))


def i0e(x: Tensor) -> Tensor:
    return apply(I0e, (x,))


def i1(x: Tensor) -> Tensor:
    return apply(I1, (x,))


def i1e(x: Tensor) -> Tensor:
    return apply(I1e, (x,))
