"""Activation ops beyond relu/sigmoid/softmax: leaky_relu, elu, softplus, hardsigmoid and hardswish.

Activations that are short compositions of ops (selu, celu, silu/swish, mish, log_sigmoid, softsign,
tanhshrink, gelu with erf, relu6/hardtanh with clip...) are written as compositions in
minipaddle/nn/functional/activation.py. Each grad rule here
is written with minipaddle ops, so second derivatives work too.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import UnaryOp

__all__ = [
    "leaky_relu",
    "elu",
    "softplus",
    "hardsigmoid",
    "hardswish",
]  # the raw op functions; ops/__init__.py gathers them


def _mask(cond: Tensor, like: Tensor) -> Tensor:
    """A bool tensor as 0/1 values of `like`'s dtype, for multiplying gradients."""
    return ops.cast(cond, like.dtype)


@register
class LeakyRelu(UnaryOp):
    name = "leaky_relu"

    def kernel(self, x, alpha):
        return np.where(x > 0, x, x * np.asarray(alpha, dtype=x.dtype))

    def grad(self, node, g):
        alpha = node.attrs["alpha"]
        slope = ops.scale(_mask(ops.greater_than(node.inputs[0], 0.0), g), 1.0 - alpha, alpha)  # 1 or alpha
        return (ops.multiply(g, slope),)


def leaky_relu(x: Tensor, alpha: float) -> Tensor:
    return apply(LeakyRelu, (x,), {"alpha": alpha})


@register
class Elu(UnaryOp):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""

    name = "elu"

    def kernel(self, x, alpha):
        with np.errstate(over="ignore"):
            return np.where(x > 0, x, np.asarray(alpha, dtype=x.dtype) * np.expm1(np.minimum(x, 0)))

    def grad(self, node, g):
        x = node.inputs[0]
        negative_slope = ops.scale(ops.exp(ops.minimum(x, ops.full_like(x, 0))), node.attrs["alpha"])
        return (ops.where(ops.greater_than(x, 0.0), g, ops.multiply(g, negative_slope)),)


def elu(x: Tensor, alpha: float) -> Tensor:
    return apply(Elu, (x,), {"alpha": alpha})


@register
class Softplus(UnaryOp):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold (where they agree anyway)."""

    name = "softplus"
    amp = "black"

    def kernel(self, x, beta, threshold):
        bx = x * np.asarray(beta, dtype=x.dtype)
        smooth = (np.maximum(bx, 0) + np.log1p(np.exp(-np.abs(bx)))) / np.asarray(beta, dtype=x.dtype)
        return np.where(bx > threshold, x, smooth)

    def grad(self, node, g):
        x, beta, threshold = node.inputs[0], node.attrs["beta"], node.attrs["threshold"]
        bx = ops.scale(x, beta)
        return (ops.where(ops.greater_than(bx, threshold), g, ops.multiply(g, ops.sigmoid(bx))),)


def softplus(x: Tensor, beta: float, threshold: float) -> Tensor:
    return apply(Softplus, (x,), {"beta": beta, "threshold": threshold})


@register
class Hardsigmoid(UnaryOp):
    """clip(slope * x + offset, 0, 1)."""

    name = "hardsigmoid"

    def kernel(self, x, slope, offset):
        return np.clip(x * np.asarray(slope, dtype=x.dtype) + np.asarray(offset, dtype=x.dtype), 0, 1).astype(x.dtype)

    def grad(self, node, g):
        y = ops.scale(node.inputs[0], node.attrs["slope"], node.attrs["offset"])
        inside = ops.multiply(_mask(ops.greater_than(y, 0.0), g), _mask(ops.less_than(y, 1.0), g))
        return (ops.multiply(g, ops.scale(inside, node.attrs["slope"])),)


def hardsigmoid(x: Tensor, slope: float, offset: float) -> Tensor:
    return apply(Hardsigmoid, (x,), {"slope": slope, "offset": offset})


@register
class Hardswish(UnaryOp):
    """x * clip(x + 3, 0, 6) / 6 (MobileNetV3)."""

    name = "hardswish"

    def kernel(self, x):
        return (x * np.clip(x + 3, 0, 6) / 6).astype(x.dtype)

    def grad(self, node, g):
        x = node.inputs[0]
        # 0 below -3, 1 above 3, (2x + 3) / 6 between (Paddle's hardswish_grad uses the same edges).
        middle = ops.scale(x, 1.0 / 3.0, 0.5)
        slope = ops.where(ops.less_than(x, -3.0), ops.full_like(x, 0), ops.where(ops.greater_than(x, 3.0),
                          ops.full_like(x, 1), middle))  # fmt: skip
        return (ops.multiply(g, slope),)


def hardswish(x: Tensor) -> Tensor:
    return apply(Hardswish, (x,))
