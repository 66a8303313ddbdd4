"""Elementwise and special math functions that paddle 2.6 added after 2.0 (paddle.tensor.math there):
atan2, hypot, logaddexp, fmax, fmin, heaviside, deg2rad, rad2deg, frac, sgn, gcd, lcm, ldexp, frexp, nextafter,
lerp, logit, nan_to_num, digamma, lgamma, polygamma, multigammaln, erfinv, i0, i0e, i1, i1e.

Functions that Paddle itself writes as compositions (hypot, logaddexp, lcm, ldexp, frexp, lerp, nan_to_num,
multigammaln, ...) are compositions of ops here too, so their values and gradients follow Paddle's formulas.
The others call one op of minipaddle/ops/special_math.py.

Where paddle 2.6 has no CPU kernel for a dtype (fmax of float16, atan2 of int8, ...), minipaddle computes it;
two tensors of different dtypes are promoted as paddle.add promotes them, and numbers are accepted for y.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import broadcast_shapes
from minipaddle.tensor.checks import (
    MAX_ELEMENTS,
    PreconditionNotMetError,
    check_float_tensor,
    check_not_empty,
    check_number,
    check_same_rank,
    check_tensor,
)
from minipaddle.tensor.math import binary_operands

__all__ = [
    "atan2",
    "hypot",
    "logaddexp",
    "fmax",
    "fmin",
    "heaviside",
    "deg2rad",
    "rad2deg",
    "frac",
    "sgn",
    "gcd",
    "lcm",
    "ldexp",
    "frexp",
    "nextafter",
    "lerp",
    "logit",
    "nan_to_num",
    "digamma",
    "lgamma",
    "polygamma",
    "multigammaln",
    "erfinv",
    "i0",
    "i0e",
    "i1",
    "i1e",
]


def _real_operands(x, y, fn: str, floats_only: bool = False) -> tuple[Tensor, Tensor]:
    """x and y promoted to one real dtype and checked to broadcast; bool and complex are refused."""
    check_tensor(x, fn, "x")
    x, y = binary_operands(x, y, fn)
    broadcast_shapes(tuple(x.shape), tuple(y.shape), fn)
    d = x.dtype
    if d.is_complex or d is dtypes.bool_ or (floats_only and not d.is_floating):
        kinds = "float16, float32 or float64" if floats_only else "an integer or float dtype"
        raise TypeError(f"{fn}: x and y must be of {kinds}, got {d.name}")
    return x, y


def _to_float(x: Tensor, d: dtypes.DType | None = None) -> Tensor:
    """x unchanged when it is floating, else cast to `d` (the default float dtype when None)."""
    if x.dtype.is_floating:
        return x
    return ops.cast(x, d or dtypes.default_float())


# ---- binary elementwise ------------------------------------------------------------------------------------------


def atan2(x, y, name=None) -> Tensor:
    """The angle arctan(x / y) in radians, in the quadrant of the point (y, x): a value in [-pi, pi].

    Args:
        x (Tensor): the numerator (int32, int64, float16, float32 or float64).
        y (Tensor): the denominator, broadcast with x.

    Returns:
        Tensor: x's dtype for floats; integer inputs give float64 (computed in float32, as Paddle).

    Example:
        >>> paddle.atan2(paddle.to_tensor([1.0, -1.0]), paddle.to_tensor([-1.0, -1.0]))    # [2.3562, -2.3562]
    """
    if isinstance(x, Tensor) and isinstance(y, Tensor):  # (a number for y is minipaddle's, broadcast as one)
        check_same_rank(x, y, "atan2")  # paddle 2.6 broadcasts atan2's operands only at one rank
    x, y = _real_operands(x, y, "atan2")
    if x.dtype.is_floating:
        return ops.atan2(x, y)
    # Paddle's integer kernel computes in float32 and hands the result out as float64
    angle = ops.atan2(ops.cast(x, dtypes.float32), ops.cast(y, dtypes.float32))
    return ops.cast(angle, dtypes.float64)


def hypot(x, y, name=None) -> Tensor:
    """sqrt(x^2 + y^2) elementwise: the length of the hypotenuse of a right triangle with legs x and y.

    Args:
        x (Tensor), y (Tensor): the legs (broadcast together). Integers are computed in the default float dtype.

    Example:
        >>> paddle.hypot(paddle.to_tensor([3.0]), paddle.to_tensor([4.0]))    # [5.]
    """
    for t, arg in ((x, "x"), (y, "y")):
        if not isinstance(t, Tensor):
            raise TypeError(f"hypot: {arg} must be a Tensor, got {type(t).__name__}")
    x, y = _real_operands(x, y, "hypot")
    x, y = _to_float(x), _to_float(y)
    return ops.sqrt(ops.add(ops.pow(x, 2), ops.pow(y, 2)))


def logaddexp(x, y, name=None) -> Tensor:
    """log(exp(x) + exp(y)) elementwise, without overflow: log1p(exp(-|x - y|)) + maximum(x, y).

    Integer inputs give float32 (as Paddle). Example:
        >>> paddle.logaddexp(paddle.to_tensor([1.0]), paddle.to_tensor([1.0]))    # [1.6931]
    """
    x, y = _real_operands(x, y, "logaddexp")
    x, y = _to_float(x, dtypes.float32), _to_float(y, dtypes.float32)
    return ops.add(ops.log1p(ops.exp(ops.neg(ops.abs(ops.subtract(x, y))))), ops.maximum(x, y))


def fmax(x, y, name=None) -> Tensor:
    """The larger of x and y elementwise, where a nan loses to a number (nan only where both are nan).

    The gradient goes to the chosen input; ties go to x. Example:
        >>> paddle.fmax(paddle.to_tensor([1.0, float('nan')]), paddle.to_tensor([2.0, 3.0]))    # [2., 3.]
    """
    return ops.fmax(*_real_operands(x, y, "fmax"))


def fmin(x, y, name=None) -> Tensor:
    """The smaller of x and y elementwise, where a nan loses to a number (nan only where both are nan).

    Example:
        >>> paddle.fmin(paddle.to_tensor([1.0, float('nan')]), paddle.to_tensor([2.0, 3.0]))    # [1., 3.]
    """
    return ops.fmin(*_real_operands(x, y, "fmin"))


def heaviside(x, y, name=None) -> Tensor:
    """The Heaviside step function: 0 where x < 0, y where x == 0, 1 where x > 0 (and 0 where x is nan).

    Args:
        x (Tensor): the input. y (Tensor): the values taken where x == 0, broadcast with x.

    Example:
        >>> paddle.heaviside(paddle.to_tensor([-1.0, 0.0, 2.0]), paddle.to_tensor([0.5]))    # [0., 0.5, 1.]
    """
    return ops.heaviside(*_real_operands(x, y, "heaviside"))


def nextafter(x, y, name=None) -> Tensor:
    """The next floating-point value after x in the direction of y, elementwise. No gradient.

    Example:
        >>> paddle.nextafter(paddle.to_tensor([1.0]), paddle.to_tensor([2.0]))    # [1.0000001] (float32)
    """
    x, y = _real_operands(x, y, "nextafter", floats_only=True)
    if x.shape != y.shape and x.ndim and y.ndim:  # paddle 2.6 broadcasts only a 0-d operand here
        raise ValueError(f"nextafter: x and y must have the same shape (or one be 0-d), got {x.shape} and {y.shape}")
    return ops.nextafter(x, y)


def gcd(x, y, name=None) -> Tensor:
    """The greatest common divisor of |x| and |y| elementwise; gcd(0, 0) = 0.

    Integers as usual; floats by Euclid's algorithm on the remainders, as Paddle (gcd(1.5, 1.0) = 0.5).
    The result is piecewise constant, so its gradient is zero.

    Example:
        >>> paddle.gcd(paddle.to_tensor([12, 20]), paddle.to_tensor([18, -15]))    # [6, 5]
    """
    return ops.gcd(*_real_operands(x, y, "gcd"))


def lcm(x, y, name=None) -> Tensor:
    """The least common multiple |x * y| // gcd(x, y) elementwise; 0 where x or y is 0. No gradient.

    Example:
        >>> paddle.lcm(paddle.to_tensor([4, 0]), paddle.to_tensor([6, 5]))    # [12, 0]
    """
    x, y = _real_operands(x, y, "lcm")
    d = ops.gcd(x, y)
    is_zero = ops.equal(d, ops.full_like(d, 0))
    d_safe = ops.where(is_zero, ops.full_like(d, 1), d)  # (floor_divide by 0 would raise for integers)
    return ops.where(is_zero, ops.full_like(d, 0), ops.floor_divide(ops.abs(ops.multiply(x, y)), d_safe))


def ldexp(x, y, name=None) -> Tensor:
    """x * 2^y elementwise.

    Args:
        x (Tensor): the mantissas. y (Tensor): the exponents, broadcast with x.

    Returns:
        Tensor: float64 if x or y is float64, else the default float dtype (integers included; a complex input
        loses its imaginary part, as paddle's cast does).

    Example:
        >>> paddle.ldexp(paddle.to_tensor([1.0, 3.0]), paddle.to_tensor([2, 1]))    # [4., 6.]
    """
    for t, arg in ((x, "x"), (y, "y")):
        if not isinstance(t, Tensor):
            raise TypeError(f"ldexp: {arg} must be a Tensor, got {type(t).__name__}")
    # paddle 2.6 says ValueError for two shapes that do not broadcast, PreconditionNotMet when one is empty: both
    broadcast_shapes(tuple(x.shape), tuple(y.shape), "ldexp", PreconditionNotMetError)
    x, y = (ops.real(t) if t.dtype.is_complex else t for t in (x, y))  # paddle casts complex to real: the imag goes
    d = dtypes.float64 if dtypes.float64 in (x.dtype, y.dtype) else dtypes.default_float()
    x = x if x.dtype is d else ops.cast(x, d)
    y = y if y.dtype is d else ops.cast(y, d)
    two = Tensor(np.asarray(2, dtype=d.np))
    return ops.multiply(x, ops.elementwise_pow(two, y))


def frexp(x, name=None) -> tuple[Tensor, Tensor]:
    """Split x into a mantissa in [0.5, 1) (with x's sign) and a power of two: x = mantissa * 2^exponent.

    Computed as Paddle does, from floor(log2(|x|)): 0 gives (0, 0); the exponent has x's dtype.

    Args:
        x (Tensor): float32 or float64.

    Returns:
        tuple: (mantissa, exponent), both of x's shape and dtype.

    Example:
        >>> paddle.frexp(paddle.to_tensor([3.0, -5.0]))    # ([0.75, -0.625], [2., 3.])
    """
    check_tensor(x, "frexp")
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"frexp: x must be float32 or float64, got {x.dtype.name}")
    magnitude = ops.abs(x)
    zero = ops.equal(magnitude, ops.full_like(magnitude, 0))
    # (log2 of 1 instead of 0: the same exponent 0 in the end, and no 0/0 in log2's gradient at x = 0)
    exponent = ops.floor(ops.log2(ops.where(zero, ops.full_like(magnitude, 1), magnitude)))
    exponent = ops.where(ops.isinf(exponent), ops.full_like(exponent, 0), exponent)
    two = ops.full_like(exponent, 2)
    mantissa = ops.divide(magnitude, ops.elementwise_pow(two, exponent))
    too_big = ops.greater_equal(mantissa, ops.full_like(mantissa, 1))  # log2 rounded up: one more halving
    exponent = ops.where(too_big, ops.add(exponent, ops.full_like(exponent, 1)), exponent)
    mantissa = ops.where(too_big, ops.divide(mantissa, two), mantissa)
    mantissa = ops.where(ops.less_than(x, ops.full_like(x, 0)), ops.neg(mantissa), mantissa)
    return mantissa, exponent


def lerp(x, y, weight, name=None) -> Tensor:
    """Linear interpolation x + weight * (y - x), elementwise with broadcasting of all three.

    Args:
        x (Tensor), y (Tensor): the end points (float16, float32 or float64).
        weight (float|Tensor): the weight; a number is used in x's dtype.

    Gradients reach x, y and a weight tensor. Example:
        >>> paddle.lerp(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 6.0]), 0.5)    # [2., 4.]
    """
    x, y = _real_operands(x, y, "lerp", floats_only=True)
    if isinstance(weight, Tensor):
        if not (weight.dtype.is_floating or weight.dtype.is_integer):
            raise TypeError(f"lerp: weight must be a real Tensor or a number, got {weight.dtype.name}")
        broadcast_shapes(broadcast_shapes(tuple(x.shape), tuple(y.shape), "lerp"), tuple(weight.shape), "lerp")
        w = weight if weight.dtype is x.dtype else ops.cast(weight, x.dtype)
    elif isinstance(weight, numbers.Real) and not isinstance(weight, bool):
        w = Tensor(np.asarray(weight, dtype=x.dtype.np))
    else:
        raise TypeError(f"lerp: weight must be a float or a Tensor, got {type(weight).__name__}")
    return ops.add(x, ops.multiply(w, ops.subtract(y, x)))


def logit(x, eps=None, name=None) -> Tensor:
    """The log-odds log(x / (1 - x)), the inverse of sigmoid.

    Args:
        x (Tensor): float16, float32 or float64, in [0, 1] (outside: nan).
        eps (float, optional): when given (and nonzero), x is first limited to [eps, 1 - eps], and the gradient
            is zero outside that range.

    Example:
        >>> paddle.logit(paddle.to_tensor([0.5, 0.9]))    # [0., 2.1972]
    """
    check_float_tensor(x, "logit")
    eps = 0.0 if eps is None else check_number(eps, "logit", "eps")
    return ops.logit(x, float(eps))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None, name=None) -> Tensor:
    """Replace nan by `nan`, +inf by `posinf` and -inf by `neginf` (default: the dtype's largest and smallest
    finite values). The gradient passes through the elements that were kept.

    Args:
        x (Tensor): float32 or float64.

    Example:
        >>> paddle.nan_to_num(paddle.to_tensor([float('nan'), float('inf'), 1.0]), posinf=9.0)    # [0., 9., 1.]
    """
    check_tensor(x, "nan_to_num")
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"nan_to_num: x must be float32 or float64, got {x.dtype.name}")
    finfo = np.finfo(x.dtype.np)
    nan = check_number(nan, "nan_to_num", "nan")
    posinf = finfo.max if posinf is None else check_number(posinf, "nan_to_num", "posinf")
    neginf = finfo.min if neginf is None else check_number(neginf, "nan_to_num", "neginf")
    x = ops.where(ops.isnan(x), ops.full_like(x, nan), x)
    x = ops.where(ops.equal(x, ops.full_like(x, np.inf)), ops.full_like(x, posinf), x)
    return ops.where(ops.equal(x, ops.full_like(x, -np.inf)), ops.full_like(x, neginf), x)


# ---- one input: angles, fractional part, sign ----------------------------------------------------------------------


def deg2rad(x, name=None) -> Tensor:
    """Degrees to radians: x * pi / 180. Integer inputs give float32 (as Paddle).

    Example:
        >>> paddle.deg2rad(paddle.to_tensor([180.0]))    # [3.1416]
    """
    check_tensor(x, "deg2rad")
    return ops.scale(_ints_to_float32(x), np.pi / 180.0)


def rad2deg(x, name=None) -> Tensor:
    """Radians to degrees: x * 180 / pi. Integer inputs give float32 (as Paddle).

    Example:
        >>> paddle.rad2deg(paddle.to_tensor([3.1415926]))    # [180.]
    """
    check_tensor(x, "rad2deg")
    return ops.scale(_ints_to_float32(x), 180 / np.pi)


def _ints_to_float32(x: Tensor) -> Tensor:
    """Paddle's rule for deg2rad/rad2deg: int32/int64 become float32, every other dtype is scaled as it is (a
    complex angle stays complex, and a bool stays bool: the scaled True is still True)."""
    return ops.cast(x, dtypes.float32) if x.dtype in (dtypes.int32, dtypes.int64) else x


def frac(x, name=None) -> Tensor:
    """The fractional part x - trunc(x), with x's sign (integers give 0). Its gradient is 1.

    Args:
        x (Tensor): int32, int64, float32 or float64.

    Example:
        >>> paddle.frac(paddle.to_tensor([1.25, -2.5]))    # [0.25, -0.5]
    """
    check_tensor(x, "frac")
    if x.dtype not in (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64):
        raise TypeError(f"frac: x must be int32, int64, float32 or float64, got {x.dtype.name}")
    return ops.subtract(x, ops.trunc(x))


def sgn(x, name=None) -> Tensor:
    """The sign of x: -1, 0 or 1 for real x (as paddle.sign); x / |x| for complex x (0 where x is 0).

    Args:
        x (Tensor): float16, float32, float64, complex64 or complex128.

    Example:
        >>> paddle.sgn(paddle.to_tensor([3 + 4j, 0j]))    # [0.6+0.8j, 0j]
    """
    check_tensor(x, "sgn")
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"sgn: x must be float16, float32, float64, complex64 or complex128, got {x.dtype.name}")
    if not x.dtype.is_complex:
        return ops.sign(x)
    magnitude = ops.abs(x)
    safe = ops.where(ops.equal(magnitude, ops.full_like(magnitude, 0)), ops.full_like(magnitude, 1), magnitude)
    return ops.complex(ops.divide(ops.real(x), safe), ops.divide(ops.imag(x), safe))


# ---- special functions -------------------------------------------------------------------------------------------


def _special(op_fn, fn: str, doc: str):
    def public(x, name=None) -> Tensor:
        return op_fn(check_float_tensor(x, fn))

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = (
        f"{doc}\n\n    Args:\n        x (Tensor): float16, float32 or float64.\n"
        "        name: unused, for compatibility.\n\n    Returns:\n        Tensor of x's shape and dtype.\n\n"
        f"    Example:\n        >>> paddle.{fn}(paddle.to_tensor([0.5, 1.5]))\n"
    )
    return public


lgamma = _special(ops.lgamma, "lgamma", "log |Gamma(x)| elementwise (inf at 0, -1, -2, ...). Its gradient is digamma.")
digamma = _special(ops.digamma, "digamma", "The digamma function psi(x) = d/dx lgamma(x) elementwise (nan at 0, -1, "
                   "-2, ...). Its gradient is polygamma(x, 1).")  # fmt: skip
erfinv = _special(ops.erfinv, "erfinv", "The inverse error function: erf(erfinv(x)) = x for x in (-1, 1); +-inf at "
                  "and beyond +-1. Its gradient is sqrt(pi)/2 * exp(erfinv(x)^2).")  # fmt: skip
i0 = _special(ops.i0, "i0", "The modified Bessel function of the first kind of order 0, I0(x). Its gradient is I1.")
i0e = _special(ops.i0e, "i0e", "The exponentially scaled modified Bessel function of order 0, exp(-|x|) I0(x).")
i1 = _special(ops.i1, "i1", "The modified Bessel function of the first kind of order 1, I1(x).")
i1e = _special(ops.i1e, "i1e", "The exponentially scaled modified Bessel function of order 1, exp(-|x|) I1(x).")


def polygamma(x, n, name=None) -> Tensor:
    """The n-th derivative of digamma, psi^(n)(x), elementwise; n = 0 is digamma itself.

    Args:
        x (Tensor): float16, float32 or float64.
        n (int): the order, >= 0.

    Example:
        >>> paddle.polygamma(paddle.to_tensor([1.0]), 1)    # [1.6449] (pi^2 / 6)
    """
    check_float_tensor(x, "polygamma")
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"polygamma: n must be an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"polygamma: n must be greater than or equal to 0, got {n}")
    return ops.digamma(x) if n == 0 else ops.polygamma(x, int(n))


def multigammaln(x, p, name=None) -> Tensor:
    """The multivariate log-gamma function of dimension p, elementwise:
    p (p - 1) / 4 * log(pi) + sum_{j=1..p} lgamma(x + (1 - j) / 2).

    Args:
        x (Tensor): float16, float32 or float64.
        p (int): the dimension, >= 1.

    Example:
        >>> paddle.multigammaln(paddle.to_tensor([2.5, 3.0]), 2)    # [0.8570, 1.5502]
    """
    check_not_empty(check_float_tensor(x, "multigammaln"), "multigammaln", error=PreconditionNotMetError)
    p = check_number(p, "multigammaln", "p")
    if not p >= 1:
        raise ValueError(f"multigammaln: p must be greater than or equal to 1, got {p}")
    if x.size * math.ceil(p) > MAX_ELEMENTS:  # one lgamma term per element and j = 1..p
        raise PreconditionNotMetError(f"multigammaln: p = {p:g} needs {x.size} x {math.ceil(p):.3g} terms, more "
                                      f"than the {MAX_ELEMENTS:.3g} elements a tensor may hold here")  # fmt: skip
    halves = Tensor(0.5 * np.arange(1 - p, 1, 1, dtype=x.dtype.np))  # (as Paddle: 0.5 * arange(1 - p, 1))
    terms = ops.lgamma(ops.add(ops.reshape(x, tuple(x.shape) + (1,)), halves))
    constant = Tensor(np.asarray(0.25 * p * (p - 1) * math.log(math.pi), dtype=x.dtype.np))
    return ops.add(ops.sum(terms, (x.ndim,), False), constant)
