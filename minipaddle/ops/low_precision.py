"""Matrix products on float16 and bfloat16 arrays, computed as tensor cores do: in float32, then rounded.

numpy multiplies float16 matrices many times slower than float32 ones, and has no bfloat16 BLAS at all (it gives
float32 results). Both low-precision formats convert to float32 exactly, so multiplying the float32 copies and
rounding the product once gives the float32-accumulated result, which is what AMP's white-list ops (matmul_v2,
conv2d) compute on a GPU: `gemm(a, b)` equals `(a.astype(float32) @ b.astype(float32)).astype(a.dtype)`, by
definition, and runs at float32 speed.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

__all__ = []  # kernel helpers, not ops

LOW_PRECISION = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))


def finfo(dtype):
    """np.finfo that knows bfloat16 too (ml_dtypes' finfo covers numpy's float types and its own)."""
    return ml_dtypes.finfo(dtype)


def is_float(dtype) -> bool:
    """Whether a numpy dtype is a real floating type, bfloat16 included (numpy calls bfloat16 kind 'V')."""
    return dtype.kind == "f" or dtype in LOW_PRECISION


def gemm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b; when both are the same low-precision dtype, computed in float32 and rounded to that dtype."""
    if a.dtype == b.dtype and a.dtype in LOW_PRECISION:
        with np.errstate(over="ignore", invalid="ignore"):  # overflow to Inf is IEEE's answer; the GradScaler's cue
            return np.matmul(a.astype(np.float32), b.astype(np.float32)).astype(a.dtype)
    return a @ b
