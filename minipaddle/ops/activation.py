"""Activations: relu, sigmoid, softmax, log_softmax."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import UnaryOp
from minipaddle.ops.low_precision import BFLOAT16, FLOAT16, LOW_CODES, in_float32, positive, relu_low

__all__ = ["relu", "relu_grad", "sigmoid", "softmax", "log_softmax"]  # raw op functions, gathered by ops/__init__.py


@register
class Relu(UnaryOp):
    name = "relu"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        if x.dtype.char in LOW_CODES:  # the same bits on the integer view, 30x faster (ops/low_precision.py)
            return relu_low(x)
        return np.maximum(x, 0)

    def grad(self, node, g):
        return (relu_grad(g, node.output(0)),)


def relu(x: Tensor) -> Tensor:
    return apply(Relu, (x,))


@register
class ReluGrad(OpDef):
    """g where relu's output y is positive, else 0: relu's backward as one op (it runs in every MLP step)."""

    name = "relu_grad"
    saves_inputs = True

    def kernel(self, g, y):
        mask = positive(y) if y.dtype.char in LOW_CODES else y > 0  # (the int16 view: ops/low_precision.py)
        if g.dtype is FLOAT16 or g.dtype is BFLOAT16:  # the same bits through float32 loops, faster
            return in_float32(np.multiply, g, mask)  # (ops/low_precision.py)
        return g * mask  # (5x faster than np.where here)

    def grad(self, node, gg):
        return relu_grad(gg, node.inputs[1]), None  # linear in g; y only selects

    def infer_meta(self, g, y):
        return g


def relu_grad(g: Tensor, y: Tensor) -> Tensor:
    return apply(ReluGrad, (g, y))


@register
class Sigmoid(UnaryOp):
    name = "sigmoid"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        with np.errstate(over="ignore"):
            return 1 / (1 + np.exp(-x))

    def grad(self, node, g):
        y = node.output(0)
        return (ops.multiply(g, ops.multiply(y, ops.subtract(1.0, y))),)


def sigmoid(x: Tensor) -> Tensor:
    return apply(Sigmoid, (x,))


# Paddle's softmax kernels (phi's ValueClip) floor the shifted logits at -64 before exp: no probability is below
# exp(-64) ~ 1.6e-28, so log_softmax is never below about -64 and cross-entropy of a hopeless sample is about 64,
# not 2000. minipaddle does the same, so training on extreme logits follows paddle (and stays finite where it does).
SHIFT_FLOOR = -64.0


def shifted_logits(x: np.ndarray, axis: int) -> np.ndarray:
    """x minus its max along `axis` (so exp cannot overflow), floored at SHIFT_FLOOR as paddle's kernels do."""
    # (np.maximum.reduce is what np.max runs, without its two Python wrappers)
    return np.maximum(x - np.maximum.reduce(x, axis=axis, keepdims=True), x.dtype.type(SHIFT_FLOOR))


@register
class Softmax(UnaryOp):
    name = "softmax"
    amp = "black"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x, axis=-1):
        e = np.exp(shifted_logits(x, axis))
        return e / np.sum(e, axis=axis, keepdims=True)

    def grad(self, node, g):
        y, axis = node.output(0), node.attrs["axis"] % node.output(0).ndim
        inner = ops.sum(ops.multiply(g, y), (axis,), keepdim=True)
        return (ops.multiply(y, ops.subtract(g, inner)),)


def softmax(x: Tensor, axis: int = -1) -> Tensor:
    return apply(Softmax, (x,), {"axis": axis})


@register
class LogSoftmax(UnaryOp):
    name = "log_softmax"
    amp = "black"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x, axis=-1):
        shifted = shifted_logits(x, axis)
        return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))

    def grad(self, node, g):
        y, axis = node.output(0), node.attrs["axis"] % node.output(0).ndim
        total = ops.sum(g, (axis,), keepdim=True)
        return (ops.subtract(g, ops.multiply(ops.exp(y), total)),)


def log_softmax(x: Tensor, axis: int = -1) -> Tensor:
    return apply(LogSoftmax, (x,), {"axis": axis})
