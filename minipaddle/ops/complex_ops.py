"""Complex numbers: build a complex tensor from parts, take the parts back, and the angle.

Gradients of complex tensors follow the convention of Paddle and PyTorch (docs/complex_autograd.md): for a real
loss L and a complex z = a + ib, z.grad = dL/da + i dL/db. So the gradient of `real(z)` puts g in the real part,
that of `imag(z)` puts g in the imaginary part, and a product's rule multiplies by the conjugate (ops/elementwise.py).
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import BinaryOp, UnaryOp
from minipaddle.ops.low_precision import is_float

__all__ = ["complex", "real", "imag", "angle"]  # the raw op functions; ops/__init__.py gathers them


@register
class Complex(BinaryOp):
    """re + i im, elementwise with broadcasting (float32 parts give complex64, float64 parts complex128)."""

    name = "complex"
    amp = "fp32"
    saves_inputs = False

    def kernel(self, re, im):
        return re + 1j * im  # float32 parts stay single precision: complex64

    def grad(self, node, g):
        re, im = node.inputs
        return ops.unbroadcast(real(g), re.shape), ops.unbroadcast(imag(g), im.shape)

    def infer_meta(self, re: Meta, im: Meta) -> Meta:
        meta = super().infer_meta(re, im)
        return meta._replace(dtype=dtypes.complex64 if re.dtype is dtypes.float32 else dtypes.complex128)


def complex(re: Tensor, im: Tensor) -> Tensor:  # noqa: A001 (Paddle's name)
    return apply(Complex, (re, im))


def _real_dtype(d: dtypes.DType) -> dtypes.DType:
    return {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}.get(d, d)


class _Part(OpDef):
    """real(x) or imag(x): complex64 gives float32, complex128 float64."""

    saves_inputs = False

    def infer_meta(self, x: Meta) -> Meta:
        return x._replace(dtype=_real_dtype(x.dtype))


@register
class Real(_Part):
    name = "real"

    def kernel(self, x):
        return np.real(x).copy()

    def grad(self, node, g):
        return (complex(g, ops.full_like(g, 0, None)),)


@register
class Imag(_Part):
    name = "imag"

    def kernel(self, x):
        return np.imag(x).copy()

    def grad(self, node, g):
        return (complex(ops.full_like(g, 0, None), g),)


def real(x: Tensor) -> Tensor:
    return apply(Real, (x,))


def imag(x: Tensor) -> Tensor:
    return apply(Imag, (x,))


@register
class Angle(UnaryOp):
    """The argument of each element, in (-pi, pi]; for real tensors 0 or pi."""

    name = "angle"

    def kernel(self, x):
        out = np.angle(x)
        return out.astype(np.real(x).dtype) if x.dtype.kind in "fc" or is_float(x.dtype) else out.astype(np.float32)

    def grad(self, node, g):
        x = node.inputs[0]
        if x._data.dtype.kind != "c":  # piecewise constant on the reals
            return (ops.full_like(g, 0, None),)
        # angle = atan2(b, a): d/da = -b/|z|^2, d/db = a/|z|^2, so z.grad = g * i z / |z|^2 (0 at z = 0)
        r = ops.abs(x)
        safe = ops.where(ops.equal(r, ops.full_like(r, 0, None)), ops.full_like(r, 1, None), r)
        rotated = ops.multiply(x, ops.full_like(x, 1j, None))
        return (ops.multiply(g, ops.divide(rotated, ops.multiply(safe, safe))),)

    def infer_meta(self, x: Meta) -> Meta:
        return x._replace(dtype=_real_dtype(x.dtype) if x.dtype.is_floating or x.dtype.is_complex else dtypes.float32)


def angle(x: Tensor) -> Tensor:
    return apply(Angle, (x,))
