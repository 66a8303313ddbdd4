"""Matrix products on float16 and bfloat16 arrays, computed as tensor cores do: in float32, then rounded; and
float16 element-wise arithmetic through float32 loops.

numpy multiplies float16 matrices many times slower than float32 ones, and has no bfloat16 BLAS at all (it gives
float32 results). Both low-precision formats convert to float32 exactly, so multiplying the float32 copies and
rounding the product once gives the float32-accumulated result, which is what AMP's white-list ops (matmul_v2,
conv2d) compute on a GPU: `gemm(a, b)` equals `(a.astype(float32) @ b.astype(float32)).astype(a.dtype)`, by
definition, and runs at float32 speed.

Element-wise +, -, * on float16 and bfloat16 (`in_float32`): numpy's own float16 loops convert each element to
float32, compute and round back, one element at a time; converting whole arrays, running the vectorized float32
loop and rounding once gives the very same bits (float32's 24-bit significand is at least 2 x 11 + 2 bits, so the
double rounding of a sum, difference or product is innocuous, and a product of two float16 values is exact in
float32; tests/amp/test_low_precision_kernels.py checks every float16 and bfloat16 value against a set of
partners). ml_dtypes' bfloat16 loops compute in float32 and round, one element at a time, through generic calls:
the whole-array form gives their bits too, in about a third of the instructions (an add of LeNet's first conv
output and its bias: 6.5M -> 2.5M; relu's gradient 8.0M -> 2.5M).

relu and the comparison y > 0 on float16/bfloat16 (`relu_low`, `positive`) read the values' bits as int16: the
sign bit, and the codes of -inf and +inf that bound the NaNs. numpy's float16 maximum and comparison loops convert
element by element (about 12 ns per value here); the integer loops give the same results 30x faster.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from minipaddle.ops.half_casts import from_float32, to_float32

__all__ = []  # kernel helpers, not ops

LOW_PRECISION = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))
FLOAT16, BFLOAT16 = np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)  # (each one object: kernels test with `is`)
# Their one-letter dtype codes: float16 'e', ml_dtypes' bfloat16 'E'. Kernels ask `x.dtype.char in LOW_CODES` on
# every call: a one-character string test, where `x.dtype in LOW_PRECISION` compares numpy dtypes, which is not free
# (a float32 MLP step makes dozens of these tests).
LOW_CODES = "eE"
assert "".join(d.char for d in LOW_PRECISION) == LOW_CODES


def finfo(dtype):
    """np.finfo that knows bfloat16 too (ml_dtypes' finfo covers numpy's float types and its own)."""
    return ml_dtypes.finfo(dtype)


def is_float(dtype) -> bool:
    """Whether a numpy dtype is a real floating type, bfloat16 included (numpy calls bfloat16 kind 'V')."""
    return dtype.kind == "f" or dtype.char in LOW_CODES


def gemm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b; when both are the same low-precision dtype, computed in float32 and rounded to that dtype."""
    if a.dtype.char in LOW_CODES and a.dtype == b.dtype:
        with np.errstate(over="ignore", invalid="ignore"):  # overflow to Inf is IEEE's answer; the GradScaler's cue
            return from_float32(np.matmul(to_float32(a), to_float32(b)), a.dtype)
    return a @ b


def in_float32(ufunc, x: np.ndarray, y, out: np.ndarray | None = None) -> np.ndarray:
    """ufunc(x, y) for a float16 or bfloat16 x, with y of x's dtype or a bool array, computed in float32 and
    rounded once to x's dtype (into `out` when given): bit for bit numpy's float16 result and ml_dtypes' bfloat16
    one (which is float32's, rounded), in fewer instructions (see the module docstring)."""
    y32 = to_float32(y) if y.dtype == x.dtype else y
    with np.errstate(over="ignore", invalid="ignore"):  # as numpy's float16 loops: Inf/NaN are values here
        r = ufunc(to_float32(x), y32)
        if out is None:
            return from_float32(r, x.dtype)
        out[...] = from_float32(r, x.dtype)
    return out


def both_low(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether an element-wise kernel on x and y may take in_float32: x float16 or bfloat16 and y of its dtype
    (or a bool mask)."""
    return x.dtype.char in LOW_CODES and (y.dtype == x.dtype or y.dtype == np.bool_)


def relu_low(x: np.ndarray) -> np.ndarray:
    """np.maximum(x, 0) for a float16 or bfloat16 x, bit for bit, on the int16 view of its values.

    Negative numbers and -inf have the sign bit set and codes below -inf's (as int16): they become +0; positive
    values, +0 and every NaN (either sign) are kept. -0: numpy's float16 maximum keeps it (it returns the first
    argument of an equal pair), ml_dtypes' bfloat16 maximum gives +0; so does this."""
    v = x.view(np.int16)
    keep = v > np.array(-np.inf, x.dtype).view(np.int16)
    if x.dtype == FLOAT16:
        keep |= v == np.int16(-32768)  # -0
    return (v * keep).view(x.dtype)


def positive(y: np.ndarray) -> np.ndarray:
    """y > 0 for a float16 or bfloat16 y, on its int16 view: sign bit clear, not zero, not above +inf (NaN)."""
    v = y.view(np.int16)
    return (v > 0) & (v <= np.array(np.inf, y.dtype).view(np.int16))
