"""Initializers with structure rather than independent draws: Orthogonal, Dirac (identity convolutions) and
Bilinear (upsampling kernels for transposed convolutions)."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.nn.initializer.initializer import Initializer

__all__ = ["Orthogonal", "Dirac", "Bilinear"]


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix, times `gain`, reshaped to the parameter (which needs 2 or more dimensions).

    Drawn as Paddle does: QR of a Gaussian matrix, with Q's columns signed by R's diagonal.
    """

    def __init__(self, gain=1.0, name=None):
        self._gain = gain

    def _values(self, shape, dtype):
        if len(shape) < 2:
            raise ValueError(f"Orthogonal: the parameter needs 2 or more dimensions, got shape {list(shape)}")
        rows, cols = shape[0], int(np.prod(shape[1:]))
        q, r = np.linalg.qr(ops.gaussian((max(rows, cols), min(rows, cols)), np.float64).numpy())
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return self._gain * q.reshape(shape)


class Dirac(Initializer):
    """Make a conv weight ([out_c, in_c, k...], 3 to 5 dimensions) pass its input through unchanged: a 1 at the
    kernel's centre linking output channel j of each group to input channel j, zeros elsewhere."""

    def __init__(self, groups=1, name=None):
        if not isinstance(groups, int) or groups <= 0:
            raise ValueError(f"Dirac: groups must be a positive integer, got {groups!r}")
        self._groups = groups

    def _values(self, shape, dtype):
        if len(shape) not in (3, 4, 5):
            raise ValueError(f"Dirac: the parameter needs 3, 4 or 5 dimensions, got shape {list(shape)}")
        if shape[0] % self._groups:
            raise ValueError(f"Dirac: dimension 0 ({shape[0]}) must be divisible by groups ({self._groups})")
        per_group = shape[0] // self._groups
        n = min(per_group, shape[1])
        out = np.zeros(shape, dtype=dtype)
        j = np.arange(n)
        rows = (np.arange(self._groups)[:, None] * per_group + j).ravel()
        centre = tuple(d // 2 for d in shape[2:])
        out[(rows, np.tile(j, self._groups)) + centre] = 1
        return out


class Bilinear(Initializer):
    """Bilinear-interpolation kernels for a Conv2DTranspose weight of shape [C_out, C_in, K, K], so the layer
    starts as an upsampler. Values are computed with Paddle's own formula."""

    def _values(self, shape, dtype):
        if len(shape) != 4:
            raise ValueError(f"Bilinear: the parameter needs 4 dimensions, got shape {list(shape)}")
        if shape[2] != shape[3]:
            raise ValueError(f"Bilinear: the kernel must be square, got shape {list(shape)}")
        size = shape[3]
        f = np.ceil(size / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        i = np.arange(int(np.prod(shape)))
        x = i % size
        y = (i / size) % size  # Paddle divides with `/` here, not `//`
        weight = (1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))
        return weight.astype(np.float32).reshape(shape)
