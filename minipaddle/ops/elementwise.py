"""Elementwise arithmetic and math: add, subtract, multiply, divide, pow, maximum, minimum, neg, abs, sign,
scale, exp, log, sqrt, tanh.

Binary ops broadcast like numpy; their grad rules hand the gradient to `unbroadcast`, which sums it back to
each input's shape. The lowercase function beside each op is its raw form: it accepts Python numbers (turned
into 0-d tensors of the other operand's dtype) but checks nothing else; the public `paddle.*` functions check.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.half_casts import from_float32, to_float32
from minipaddle.ops.kinds import BinaryOp, UnaryOp, as_tensor
from minipaddle.ops.low_precision import BFLOAT16, FLOAT16, LOW_CODES, both_low, in_float32

__all__ = [
    "pow",
    "add",
    "subtract",
    "multiply",
    "divide",
    "elementwise_pow",
    "maximum",
    "minimum",
    "neg",
    "scale",
    "sign",
    "abs",
    "exp",
    "log",
    "sqrt",
    "tanh",
    "conj",
]  # the raw op functions; ops/__init__.py gathers them


def _binary(op, x, y) -> Tensor:
    if not isinstance(x, Tensor):
        x = as_tensor(x, y)
    elif not isinstance(y, Tensor):
        y = as_tensor(y, x)
    return apply(op, (x, y))


def _shapes(node):
    return node.inputs[0].shape, node.inputs[1].shape


# ---- arithmetic ----------------------------------------------------------------------------------------------


@register
class Add(BinaryOp):
    name = "add"
    saves_inputs = False

    def kernel(self, x, y):
        # float16/bfloat16: the same bits through float32 loops, faster (ops/low_precision.py). The identity tests
        # first: a float32 step pays two `is` per op here, not a call (each dtype is one object).
        if (x.dtype is FLOAT16 or x.dtype is BFLOAT16) and both_low(x, y):
            return in_float32(np.add, x, y)
        return x + y

    def kernel_into(self, out, x, y):  # (gradient accumulation into .grad runs this every step)
        if (x.dtype is FLOAT16 or x.dtype is BFLOAT16) and out.dtype is x.dtype and both_low(x, y):
            in_float32(np.add, x, y, out)
        else:
            np.add(x, y, out=out, casting="unsafe")

    def grad(self, node, g):
        xs, ys = _shapes(node)
        return ops.unbroadcast(g, xs), ops.unbroadcast(g, ys)


@register
class Subtract(BinaryOp):
    name = "subtract"
    saves_inputs = False

    def kernel(self, x, y):
        if (x.dtype is FLOAT16 or x.dtype is BFLOAT16) and both_low(x, y):
            return in_float32(np.subtract, x, y)
        return x - y

    def grad(self, node, g):
        xs, ys = _shapes(node)
        return ops.unbroadcast(g, xs), ops.unbroadcast(neg(g), ys)


@register
class Multiply(BinaryOp):
    name = "multiply"

    def kernel(self, x, y):
        if (x.dtype is FLOAT16 or x.dtype is BFLOAT16) and both_low(x, y):
            return in_float32(np.multiply, x, y)
        return x * y

    def grad(self, node, g):
        x, y = node.inputs
        gx = ops.unbroadcast(multiply(g, ops.conj(y)), x.shape) if node.needs_grad(0) else None
        gy = ops.unbroadcast(multiply(g, ops.conj(x)), y.shape) if node.needs_grad(1) else None
        return gx, gy


@register
class Divide(BinaryOp):
    name = "divide"

    def kernel(self, x, y):
        with np.errstate(divide="ignore", invalid="ignore"):
            if x.dtype.kind in "iub":  # Paddle's divide keeps integers integral, truncating toward zero
                return np.trunc(x / y).astype(x.dtype)
            return x / y

    def grad(self, node, g):
        x, y = node.inputs
        gx = divide(g, ops.conj(y))
        gy = None
        if node.needs_grad(1):  # (a mean's divisor, a count, usually needs none)
            gy = ops.unbroadcast(neg(multiply(gx, ops.conj(divide(x, y)))), y.shape)  # d(x/y)/dy = -(g/y)(x/y)
        return (ops.unbroadcast(gx, x.shape) if node.needs_grad(0) else None), gy


@register
class Pow(UnaryOp):
    """x ** factor for a Python number `factor` (Paddle's pow with a scalar exponent)."""

    name = "pow"
    amp = "black"

    def kernel(self, x, factor):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.power(x, np.asarray(factor, dtype=x.dtype))

    def grad(self, node, g):
        x = node.inputs[0]
        factor = node.attrs["factor"]
        return (multiply(g, scale(pow(x, factor - 1), factor)),)


def pow(x: Tensor, factor) -> Tensor:  # noqa: A001 (Paddle's name)
    return apply(Pow, (x,), {"factor": factor})


@register
class ElementwisePow(BinaryOp):
    """x ** y for two tensors."""

    name = "elementwise_pow"
    saves_outputs = True

    def kernel(self, x, y):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.power(x, y)

    def grad(self, node, g):
        x, y = node.inputs
        gx = gy = None
        if node.needs_grad(0):
            gx = ops.unbroadcast(multiply(g, multiply(y, elementwise_pow(x, subtract(y, 1.0)))), x.shape)
        if node.needs_grad(1):
            gy = ops.unbroadcast(multiply(g, multiply(node.output(0), log(x))), y.shape)
        return gx, gy


@register
class Maximum(BinaryOp):
    name = "maximum"

    def kernel(self, x, y):
        return np.maximum(x, y)

    def grad(self, node, g):
        x, y = node.inputs
        to_x = ops.cast(ops.greater_than(x, y), g.dtype)  # ties go to y, as Paddle's elementwise_max_grad
        return ops.unbroadcast(multiply(g, to_x), x.shape), ops.unbroadcast(multiply(g, subtract(1.0, to_x)), y.shape)


@register
class Minimum(BinaryOp):
    name = "minimum"

    def kernel(self, x, y):
        return np.minimum(x, y)

    def grad(self, node, g):
        x, y = node.inputs
        to_x = ops.cast(ops.less_than(x, y), g.dtype)
        return ops.unbroadcast(multiply(g, to_x), x.shape), ops.unbroadcast(multiply(g, subtract(1.0, to_x)), y.shape)


def add(x, y) -> Tensor:
    return _binary(Add, x, y)


def subtract(x, y) -> Tensor:
    return _binary(Subtract, x, y)


def multiply(x, y) -> Tensor:
    return _binary(Multiply, x, y)


def divide(x, y) -> Tensor:
    return _binary(Divide, x, y)


def elementwise_pow(x, y) -> Tensor:
    return _binary(ElementwisePow, x, y)


def maximum(x, y) -> Tensor:
    return _binary(Maximum, x, y)


def minimum(x, y) -> Tensor:
    return _binary(Minimum, x, y)


# ---- one input ---------------------------------------------------------------------------------------------


@register
class Neg(UnaryOp):
    name = "neg"
    saves_inputs = False

    def kernel(self, x):
        if x.dtype == np.bool_:  # paddle's neg is scale(x, -1): -True cast back to bool is True, so bool is kept
            return x.copy()
        return np.negative(x)

    def grad(self, node, g):
        return (neg(g),)


def neg(x: Tensor) -> Tensor:
    return apply(Neg, (x,))


@register
class Scale(UnaryOp):
    """scale * x + bias (Paddle's scale op with bias_after_scale=True)."""

    name = "scale"
    saves_inputs = False

    def kernel(self, x, scale, bias=0.0):
        if x.dtype.char in LOW_CODES:  # float32 arithmetic, one rounding: paddle's kernel keeps scale and bias float32
            with np.errstate(over="ignore", invalid="ignore"):
                out = to_float32(x) * np.float32(scale)
                return from_float32(out + np.float32(bias) if bias else out, x.dtype)
        out = x * np.asarray(scale, dtype=x.dtype)
        return out + np.asarray(bias, dtype=x.dtype) if bias else out

    def grad(self, node, g):
        return (scale(g, node.attrs["scale"]),)


def scale(x: Tensor, scale, bias=0.0) -> Tensor:
    return apply(Scale, (x,), {"scale": scale, "bias": bias})


@register
class Sign(UnaryOp):
    name = "sign"
    saves_inputs = False

    def kernel(self, x):
        return np.sign(x)

    def grad(self, node, g):  # zero wherever it exists; a gradient all the same, as paddle 2.6's sign_grad gives
        return (ops.full_like(g, 0),)


def sign(x: Tensor) -> Tensor:
    return apply(Sign, (x,))


@register
class Abs(UnaryOp):
    name = "abs"

    def kernel(self, x):
        return np.abs(x)

    def infer_meta(self, x, **attrs):  # |complex| is real: complex64 gives float32, as numpy's kernel does
        return x._replace(
            dtype={dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}.get(x.dtype, x.dtype)
        )

    def grad(self, node, g):
        return (multiply(g, sign(node.inputs[0])),)


def abs(x: Tensor) -> Tensor:  # noqa: A001
    return apply(Abs, (x,))


@register
class Exp(UnaryOp):
    name = "exp"
    amp = "black"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        with np.errstate(over="ignore"):
            return np.exp(x)

    def grad(self, node, g):
        return (multiply(g, ops.conj(node.output(0))),)


def exp(x: Tensor) -> Tensor:
    return apply(Exp, (x,))


@register
class Log(UnaryOp):
    name = "log"
    amp = "black"

    def kernel(self, x):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(x)

    def grad(self, node, g):
        return (divide(g, ops.conj(node.inputs[0])),)


def log(x: Tensor) -> Tensor:
    return apply(Log, (x,))


@register
class Sqrt(UnaryOp):
    name = "sqrt"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.sqrt(x)

    def grad(self, node, g):
        return (divide(scale(g, 0.5), node.output(0)),)


def sqrt(x: Tensor) -> Tensor:
    return apply(Sqrt, (x,))


@register
class Tanh(UnaryOp):
    name = "tanh"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        return np.tanh(x)

    def grad(self, node, g):
        y = node.output(0)
        return (multiply(g, subtract(1.0, multiply(y, y))),)


def tanh(x: Tensor) -> Tensor:
    return apply(Tanh, (x,))


@register
class Conj(UnaryOp):
    """Complex conjugate; for real tensors the raw function skips the op entirely."""

    name = "conj"
    saves_inputs = False

    def kernel(self, x):
        return np.conj(x)

    def grad(self, node, g):
        return (conj(g),)


def conj(x: Tensor) -> Tensor:
    if x._data.dtype.kind != "c":  # real numbers are their own conjugate: no op, no node
        return x
    return apply(Conj, (x,))
