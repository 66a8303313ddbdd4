"""More elementwise math of one tensor: trigonometric and hyperbolic functions, rounding, erf, logarithms in
other bases, rsqrt, reciprocal, square and clip.

Each grad rule is the textbook derivative written with minipaddle ops (so it can be differentiated again).
Gradients of complex inputs use the conjugate derivative, as the existing exp and log do. Rounding ops have a
zero gradient almost everywhere; Paddle still records them in the graph and returns zeros, and so do we.
"""

from __future__ import annotations

import math

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import UnaryOp

__all__ = [
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "acosh",
    "atanh",
    "floor",
    "ceil",
    "round",
    "trunc",
    "erf",
    "log2",
    "log10",
    "log1p",
    "expm1",
    "rsqrt",
    "reciprocal",
    "square",
    "clip",
]  # the raw op functions; ops/__init__.py gathers them


def _chain(g: Tensor, derivative: Tensor) -> tuple:
    """g times the conjugate of the local derivative: the chain rule for one input."""
    return (ops.multiply(g, ops.conj(derivative)),)


# ---- trigonometric ---------------------------------------------------------------------------------------------


@register
class Sin(UnaryOp):
    name = "sin"

    def kernel(self, x):
        return np.sin(x)

    def grad(self, node, g):
        return _chain(g, cos(node.inputs[0]))


@register
class Cos(UnaryOp):
    name = "cos"

    def kernel(self, x):
        return np.cos(x)

    def grad(self, node, g):
        return _chain(g, ops.neg(sin(node.inputs[0])))


@register
class Tan(UnaryOp):
    name = "tan"
    amp = "black"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        return np.tan(x)

    def grad(self, node, g):
        y = node.output(0)
        return _chain(g, ops.add(square(y), 1.0))  # 1 + tan^2


@register
class Asin(UnaryOp):
    name = "asin"
    amp = "black"

    def kernel(self, x):
        with np.errstate(invalid="ignore"):
            return np.arcsin(x)

    def grad(self, node, g):
        x = node.inputs[0]
        return _chain(g, rsqrt(ops.subtract(1.0, square(x))))  # 1 / sqrt(1 - x^2)


@register
class Acos(UnaryOp):
    name = "acos"
    amp = "black"

    def kernel(self, x):
        with np.errstate(invalid="ignore"):
            return np.arccos(x)

    def grad(self, node, g):
        x = node.inputs[0]
        return _chain(g, ops.neg(rsqrt(ops.subtract(1.0, square(x)))))


@register
class Atan(UnaryOp):
    name = "atan"

    def kernel(self, x):
        return np.arctan(x)

    def grad(self, node, g):
        x = node.inputs[0]
        return _chain(g, reciprocal(ops.add(square(x), 1.0)))


# ---- hyperbolic ------------------------------------------------------------------------------------------------


@register
class Sinh(UnaryOp):
    name = "sinh"
    amp = "black"

    def kernel(self, x):
        with np.errstate(over="ignore"):
            return np.sinh(x)

    def grad(self, node, g):
        return _chain(g, cosh(node.inputs[0]))


@register
class Cosh(UnaryOp):
    name = "cosh"
    amp = "black"

    def kernel(self, x):
        with np.errstate(over="ignore"):
            return np.cosh(x)

    def grad(self, node, g):
        return _chain(g, sinh(node.inputs[0]))


@register
class Asinh(UnaryOp):
    name = "asinh"

    def kernel(self, x):
        return np.arcsinh(x)

    def grad(self, node, g):
        return _chain(g, rsqrt(ops.add(square(node.inputs[0]), 1.0)))  # 1 / sqrt(x^2 + 1)


@register
class Acosh(UnaryOp):
    name = "acosh"

    def kernel(self, x):
        with np.errstate(invalid="ignore"):
            return np.arccosh(x)

    def grad(self, node, g):
        return _chain(g, rsqrt(ops.subtract(square(node.inputs[0]), 1.0)))  # 1 / sqrt(x^2 - 1)


@register
class Atanh(UnaryOp):
    name = "atanh"
    amp = "black"

    def kernel(self, x):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.arctanh(x)

    def grad(self, node, g):
        return _chain(g, reciprocal(ops.subtract(1.0, square(node.inputs[0]))))  # 1 / (1 - x^2)


# ---- rounding: zero gradient -----------------------------------------------------------------------------------


class _Rounding(UnaryOp):
    """Integers are already whole, so integer inputs come back unchanged (numpy would make them float)."""

    saves_inputs = False
    ufunc = None

    def kernel(self, x):
        return x.copy() if x.dtype.kind in "iub" else self.ufunc(x)

    def grad(self, node, g):
        return (ops.full_like(g, 0),)


@register
class Floor(_Rounding):
    name = "floor"
    ufunc = staticmethod(np.floor)


@register
class Ceil(_Rounding):
    name = "ceil"
    ufunc = staticmethod(np.ceil)


@register
class Trunc(_Rounding):
    name = "trunc"
    ufunc = staticmethod(np.trunc)


def _round_half_away(x):
    # Paddle rounds halves away from zero (2.5 -> 3, -2.5 -> -3); numpy's np.round rounds them to even.
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


@register
class Round(_Rounding):
    name = "round"
    ufunc = staticmethod(_round_half_away)


# ---- erf -------------------------------------------------------------------------------------------------------

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _erf(x: np.ndarray) -> np.ndarray:
    """The error function to double precision, vectorized (numpy has none).

    For |x| < 3 the series  erf(x) = 2/sqrt(pi) exp(-x^2) sum_n 2^n x^(2n+1) / (1*3*...*(2n+1))  has only
    positive terms, so it loses no precision to cancellation; 80 terms reach full precision at |x| = 3.
    Beyond that the continued fraction of erfc converges fast:  erfc(x) = exp(-x^2)/sqrt(pi) / (x + 1/2/(x + 1/(x
    + 3/2/(x + ...)))), evaluated from the bottom up with a fixed depth. The loops run over terms, not elements.
    """
    a = np.abs(x).astype(np.float64)
    small = np.minimum(a, 3.0)
    term = small.copy()
    total = small.copy()
    for n in range(1, 80):
        term = term * (2.0 * small * small) / (2 * n + 1)
        total = total + term
    series = _TWO_OVER_SQRT_PI * np.exp(-small * small) * total
    big = np.maximum(a, 3.0)
    frac = np.zeros_like(big)
    for k in range(60, 0, -1):
        frac = (k / 2.0) / (big + frac)
    with np.errstate(under="ignore"):
        tail = 1.0 - np.exp(-big * big) / math.sqrt(math.pi) / (big + frac)
    out = np.where(a < 3.0, series, tail)
    return (np.sign(x) * out).astype(x.dtype)


@register
class Erf(UnaryOp):
    name = "erf"

    def kernel(self, x):
        return _erf(x)

    def grad(self, node, g):
        x = node.inputs[0]
        return (ops.multiply(g, ops.scale(ops.exp(ops.neg(square(x))), _TWO_OVER_SQRT_PI)),)


# ---- logarithms and powers -------------------------------------------------------------------------------------


@register
class Log2(UnaryOp):
    name = "log2"
    amp = "black"

    def kernel(self, x):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log2(x)

    def grad(self, node, g):
        return (ops.divide(g, ops.scale(ops.conj(node.inputs[0]), math.log(2.0))),)


@register
class Log10(UnaryOp):
    name = "log10"
    amp = "black"

    def kernel(self, x):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log10(x)

    def grad(self, node, g):
        return (ops.divide(g, ops.scale(ops.conj(node.inputs[0]), math.log(10.0))),)


@register
class Log1p(UnaryOp):
    name = "log1p"

    def kernel(self, x):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log1p(x)

    def grad(self, node, g):
        return (ops.divide(g, ops.add(ops.conj(node.inputs[0]), 1.0)),)


@register
class Expm1(UnaryOp):
    name = "expm1"
    amp = "black"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        with np.errstate(over="ignore"):
            return np.expm1(x)

    def grad(self, node, g):
        return _chain(g, ops.add(node.output(0), 1.0))  # e^x = expm1(x) + 1


@register
class Rsqrt(UnaryOp):
    """1 / sqrt(x)."""

    name = "rsqrt"
    amp = "black"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        with np.errstate(divide="ignore", invalid="ignore"):
            return 1 / np.sqrt(x)

    def grad(self, node, g):
        y = node.output(0)
        return (ops.multiply(g, ops.scale(ops.multiply(y, square(y)), -0.5)),)  # -1/2 x^(-3/2) = -y^3 / 2


@register
class Reciprocal(UnaryOp):
    name = "reciprocal"
    amp = "black"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        with np.errstate(divide="ignore"):
            return np.reciprocal(x)

    def grad(self, node, g):
        y = node.output(0)
        return _chain(g, ops.neg(square(y)))  # -1/x^2 = -y^2


@register
class Square(UnaryOp):
    name = "square"
    amp = "black"

    def kernel(self, x):
        return np.square(x)

    def grad(self, node, g):
        return _chain(g, ops.scale(node.inputs[0], 2.0))


@register
class Clip(UnaryOp):
    """min(max(x, min), max). The gradient passes only strictly inside (min, max): 0 at the bounds, as Paddle."""

    name = "clip"

    def kernel(self, x, min=None, max=None):  # noqa: A002 (Paddle's names)
        lo = None if min is None else np.asarray(min).astype(x.dtype)
        hi = None if max is None else np.asarray(max).astype(x.dtype)
        return np.clip(x, lo, hi).astype(x.dtype, copy=False)  # (numpy clips bfloat16 in float32)

    def grad(self, node, g):
        x, lo, hi = node.inputs[0], node.attrs["min"], node.attrs["max"]
        inside = None
        if lo is not None:
            inside = ops.greater_than(x, lo)
        if hi is not None:
            below = ops.less_than(x, hi)
            inside = below if inside is None else ops.logical_and(inside, below)
        if inside is None:
            return (g,)
        return (ops.multiply(g, ops.cast(inside, g.dtype)),)


# ---- the raw functions -----------------------------------------------------------------------------------------


def sin(x: Tensor) -> Tensor:
    return apply(Sin, (x,))


def cos(x: Tensor) -> Tensor:
    return apply(Cos, (x,))


def tan(x: Tensor) -> Tensor:
    return apply(Tan, (x,))


def asin(x: Tensor) -> Tensor:
    return apply(Asin, (x,))


def acos(x: Tensor) -> Tensor:
    return apply(Acos, (x,))


def atan(x: Tensor) -> Tensor:
    return apply(Atan, (x,))


def sinh(x: Tensor) -> Tensor:
    return apply(Sinh, (x,))


def cosh(x: Tensor) -> Tensor:
    return apply(Cosh, (x,))


def asinh(x: Tensor) -> Tensor:
    return apply(Asinh, (x,))


def acosh(x: Tensor) -> Tensor:
    return apply(Acosh, (x,))


def atanh(x: Tensor) -> Tensor:
    return apply(Atanh, (x,))


def floor(x: Tensor) -> Tensor:
    return apply(Floor, (x,))


def ceil(x: Tensor) -> Tensor:
    return apply(Ceil, (x,))


def round(x: Tensor) -> Tensor:  # noqa: A001 (Paddle's name)
    return apply(Round, (x,))


def trunc(x: Tensor) -> Tensor:
    return apply(Trunc, (x,))


def erf(x: Tensor) -> Tensor:
    return apply(Erf, (x,))


def log2(x: Tensor) -> Tensor:
    return apply(Log2, (x,))


def log10(x: Tensor) -> Tensor:
    return apply(Log10, (x,))


def log1p(x: Tensor) -> Tensor:
    return apply(Log1p, (x,))


def expm1(x: Tensor) -> Tensor:
    return apply(Expm1, (x,))


def rsqrt(x: Tensor) -> Tensor:
    return apply(Rsqrt, (x,))


def reciprocal(x: Tensor) -> Tensor:
    return apply(Reciprocal, (x,))


def square(x: Tensor) -> Tensor:
    return apply(Square, (x,))


def clip(x: Tensor, min=None, max=None) -> Tensor:  # noqa: A002
    return apply(Clip, (x,), {"min": min, "max": max})
