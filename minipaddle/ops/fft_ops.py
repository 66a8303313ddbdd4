"""The discrete Fourier transform, as Paddle's three kernels: fft_c2c, fft_r2c and fft_c2r.

Every function of `paddle.fft` is one of these three ops (after cropping or zero-padding the input to the sizes
asked for), over some `axes`, in some direction:

    fft_c2c   complex -> complex        fft, ifft, fftn, ifftn (of complex input)
    fft_r2c   real -> complex           fft and ifft of real input (onesided=False), rfft and ihfft (onesided=True)
    fft_c2r   complex -> real           irfft (forward=False) and hfft (forward=True)

`forward` is the sign of the exponent: True is exp(-2 pi i jk/n), False is exp(+2 pi i jk/n). `normalization` is
numpy's and Paddle's `norm`: 'backward' scales the inverse direction by 1/n, 'forward' the forward one, 'ortho'
both by 1/sqrt(n), where n is the product of the transform sizes. A onesided transform keeps only the first
n//2 + 1 entries of the last axis: for real input the rest are their complex conjugates (Hermitian symmetry).
fft_c2r reads its input as such a half spectrum and returns the real signal of length `last_dim_size` (0: 2(m-1)
for an input of m entries), ignoring the imaginary parts the symmetry says are 0 (the first entry, and the last
one when the length is even).

Gradients (docs/complex_autograd.md) are transforms too. Each op is linear, so its gradient is its adjoint:
the transform in the other direction with the same scale, that is with 'backward' and 'forward' swapped.
- fft_c2c: the adjoint c2c.
- fft_r2c: the adjoint of the (zero-padded) complex result, whose real part is what the real input gets.
- fft_c2r: an r2c of the gradient, onesided; the entries that stand for two (an entry and its mirrored conjugate)
  count twice: all but the first and, for an even length, the last.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.manipulation import input_shape

__all__ = ["fft_c2c", "fft_r2c", "fft_c2r"]  # the raw op functions; ops/__init__.py gathers them

# The adjoint of a transform runs in the other direction with the same scale: swap which direction is scaled.
_ADJOINT_NORM = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _complex_of(dtype: np.dtype) -> np.dtype:
    return np.result_type(dtype, np.complex64)  # float32 -> complex64, float64 -> complex128


def _real_of(dtype: np.dtype) -> np.dtype:
    return np.finfo(dtype).dtype  # complex64 -> float32, complex128 -> float64


def _c2r_length(m: int, last_dim_size: int) -> int:
    """The real signal's length along the last axis, for a half spectrum of m entries."""
    return last_dim_size if last_dim_size else 2 * (m - 1)


@register
class FftC2C(OpDef):
    """The complex transform over `axes`."""

    name = "fft_c2c"
    amp = "fp32"
    saves_inputs = False

    def kernel(self, x, axes, normalization, forward):
        transform = np.fft.fftn if forward else np.fft.ifftn
        return transform(x, axes=axes, norm=normalization).astype(x.dtype, copy=False)

    def grad(self, node, g):
        a = node.attrs
        return (fft_c2c(g, a["axes"], _ADJOINT_NORM[a["normalization"]], not a["forward"]),)

    def infer_meta(self, x: Meta, axes, normalization, forward) -> Meta:
        return x


@register
class FftR2C(OpDef):
    """The transform of a real tensor over `axes`; with `onesided`, the last axis keeps n//2 + 1 entries."""

    name = "fft_r2c"
    amp = "fp32"
    saves_inputs = False

    def kernel(self, x, axes, normalization, forward, onesided):
        if onesided:
            # exp(+...) of a real signal is the conjugate of exp(-...): ihfft = conj(rfft), scaled as asked.
            norm = normalization if forward else _ADJOINT_NORM[normalization]
            out = np.fft.rfftn(x, axes=axes, norm=norm)
            out = out if forward else np.conj(out)
        else:
            out = (np.fft.fftn if forward else np.fft.ifftn)(x, axes=axes, norm=normalization)
        return out.astype(_complex_of(x.dtype), copy=False)

    def grad(self, node, g):
        a = node.attrs
        axes = a["axes"]
        if a["onesided"]:  # the dropped half of the spectrum got no gradient: zeros
            shape = input_shape(node, 0)
            last = axes[-1]
            paddings = tuple((0, shape[last] - g.shape[last] if i == last else 0) for i in range(len(shape)))
            g = ops.pad(g, paddings)
        full = fft_c2c(g, axes, _ADJOINT_NORM[a["normalization"]], not a["forward"])
        return (ops.real(full),)

    def infer_meta(self, x: Meta, axes, normalization, forward, onesided) -> Meta:
        shape = list(x.shape)
        if onesided and shape[axes[-1]] >= 0:
            shape[axes[-1]] = shape[axes[-1]] // 2 + 1
        return Meta(tuple(shape), dtypes.from_numpy(_complex_of(x.dtype.np)))


@register
class FftC2R(OpDef):
    """The real signal (last axis of length `last_dim_size`, 0 = 2(m-1)) whose onesided spectrum is x."""

    name = "fft_c2r"
    amp = "fp32"
    saves_inputs = False

    def kernel(self, x, axes, normalization, forward, last_dim_size):
        n = _c2r_length(x.shape[axes[-1]], last_dim_size)
        if n < 1:
            raise ValueError(f"the real signal would have length {n}; give a half spectrum of at least 2 entries")
        sizes = [x.shape[a] for a in axes[:-1]] + [n]
        if forward:  # hfft: exp(-...) of a Hermitian spectrum = irfft of its conjugate, scaled as asked
            out = np.fft.irfftn(np.conj(x), s=sizes, axes=axes, norm=_ADJOINT_NORM[normalization])
        else:
            out = np.fft.irfftn(x, s=sizes, axes=axes, norm=normalization)
        return out.astype(_real_of(x.dtype), copy=False)

    def grad(self, node, g):
        a = node.attrs
        axes = a["axes"]
        shape = input_shape(node, 0)
        m = shape[axes[-1]]
        n = _c2r_length(m, a["last_dim_size"])
        half = fft_r2c(g, axes, _ADJOINT_NORM[a["normalization"]], not a["forward"], True)
        # Entries 1 .. n-m of the half spectrum stand for themselves and their mirrored conjugate: weight 2.
        weight = np.ones(m, dtype=half.dtype.np)
        weight[1 : n - m + 1] = 2
        weight = weight.reshape([m if i == axes[-1] else 1 for i in range(len(shape))])
        return (ops.multiply(half, Tensor(weight)),)

    def infer_meta(self, x: Meta, axes, normalization, forward, last_dim_size) -> Meta:
        shape = list(x.shape)
        m = shape[axes[-1]]
        shape[axes[-1]] = last_dim_size if last_dim_size else (-1 if m < 0 else 2 * (m - 1))
        return Meta(tuple(shape), dtypes.from_numpy(_real_of(x.dtype.np)))


def fft_c2c(x: Tensor, axes, normalization: str, forward: bool) -> Tensor:
    attrs = {"axes": tuple(axes), "normalization": normalization, "forward": bool(forward)}
    return apply(FftC2C, (x,), attrs)


def fft_r2c(x: Tensor, axes, normalization: str, forward: bool, onesided: bool) -> Tensor:
    attrs = {"axes": tuple(axes), "normalization": normalization, "forward": bool(forward), "onesided": bool(onesided)}
    return apply(FftR2C, (x,), attrs)


def fft_c2r(x: Tensor, axes, normalization: str, forward: bool, last_dim_size: int = 0) -> Tensor:
    attrs = {"axes": tuple(axes), "normalization": normalization, "forward": bool(forward),
             "last_dim_size": int(last_dim_size)}  # fmt: skip
    return apply(FftC2R, (x,), attrs)
