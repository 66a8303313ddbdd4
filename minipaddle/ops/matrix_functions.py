"""Functions of square matrices (batched over leading axes): inverse, cholesky, det, singular values.

numpy's LinAlgError (a singular matrix, a matrix that is not positive definite) is turned into a ValueError that
says which op failed and why. Shape checks happen in the public functions; the kernels trust their inputs.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["inverse", "cholesky", "det", "svdvals"]  # the raw op functions; ops/__init__.py gathers them


def _matrix_transpose(x: Tensor) -> Tensor:
    """Swap the last two axes (a view op), for the grad rules below."""
    perm = tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2)
    return ops.transpose(x, perm)


def _h(x: Tensor) -> Tensor:
    """The conjugate transpose."""
    return ops.conj(_matrix_transpose(x))


@register
class Inverse(OpDef):
    name = "inverse"
    amp = "fp32"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        try:
            return np.linalg.inv(x)
        except np.linalg.LinAlgError:
            raise ValueError("inverse: the matrix is singular (not invertible)") from None

    def grad(self, node, g):
        # d(A^-1) = -A^-1 dA A^-1, so dL/dA = -A^-H g A^-H.
        y_h = _h(node.output(0))
        return (ops.neg(ops.matmul(ops.matmul(y_h, g), y_h)),)

    def infer_meta(self, x: Meta) -> Meta:
        return x


@register
class Cholesky(OpDef):
    """The lower-triangular L with L L^H = x (x symmetric positive definite), or L^H when upper=True."""

    name = "cholesky"
    amp = "fp32"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x, upper=False):
        try:
            low = np.linalg.cholesky(x)
        except np.linalg.LinAlgError:
            raise ValueError("cholesky: the matrix is not positive definite (the decomposition failed)") from None
        return np.conj(np.swapaxes(low, -1, -2)) if upper else low

    def grad(self, node, g):
        # Murray (2016), "Differentiation of the Cholesky decomposition", as in PyTorch's cholesky_backward:
        #   P = tril(L^H gL) with its diagonal halved,  S = L^-H P L^-1,  dA = (S + S^H) / 2.
        out = node.output(0)
        low, g_low = (_h(out), _h(g)) if node.attrs["upper"] else (out, g)
        p = ops.tril(ops.matmul(_h(low), g_low))
        p = ops.subtract(p, ops.scale(ops.diag_embed(ops.extract_diagonal(p, 0, -2, -1), 0, -2, -1), 0.5))
        low_inv = inverse(low)
        s = ops.matmul(ops.matmul(_h(low_inv), p), low_inv)
        return (ops.scale(ops.add(s, _h(s)), 0.5),)

    def infer_meta(self, x: Meta, upper=False) -> Meta:
        return x


@register
class Det(OpDef):
    """The determinant of each matrix."""

    name = "det"
    amp = "fp32"
    saves_outputs = True

    def kernel(self, x):
        return np.linalg.det(x).astype(x.dtype)

    def grad(self, node, g):
        # d det(A) / dA = det(A) A^-T (Jacobi's formula).
        x = node.inputs[0]
        scale = ops.reshape(ops.multiply(g, ops.conj(node.output(0))), tuple(x.shape[:-2]) + (1, 1))
        return (ops.multiply(scale, _h(inverse(x))),)

    def infer_meta(self, x: Meta) -> Meta:
        return Meta(tuple(x.shape[:-2]), x.dtype)


@register
class Svdvals(OpDef):
    """Singular values, largest first, with the singular vectors as extra outputs (u, vh), which the grad reads.

    The gradient is written for the singular values only: dA = U diag(g_s) V^H.
    """

    name = "svdvals"
    amp = "fp32"
    saves_inputs = False
    saves_outputs = True

    def kernel(self, x):
        u, s, vh = np.linalg.svd(x, full_matrices=False)
        return s.astype(x.real.dtype), u, vh

    def grad(self, node, g_s, g_u=None, g_vh=None):
        u, vh = node.output(1), node.output(2)
        row = ops.reshape(g_s, tuple(g_s.shape[:-1]) + (1, g_s.shape[-1]))  # scales u's columns
        return (ops.matmul(ops.multiply(u, row), vh),)

    def infer_meta(self, x: Meta) -> tuple:
        *batch, m, n = x.shape
        k = min(m, n) if -1 not in (m, n) else -1
        batch = tuple(batch)
        return Meta(batch + (k,), x.dtype), Meta(batch + (m, k), x.dtype), Meta(batch + (k, n), x.dtype)


def inverse(x: Tensor) -> Tensor:
    return apply(Inverse, (x,))


def cholesky(x: Tensor, upper: bool = False) -> Tensor:
    return apply(Cholesky, (x,), {"upper": upper})


def det(x: Tensor) -> Tensor:
    return apply(Det, (x,))


def svdvals(x: Tensor) -> Tensor:
    """The singular values only (the op's first output)."""
    return apply(Svdvals, (x,))[0]
