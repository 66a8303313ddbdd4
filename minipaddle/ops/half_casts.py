"""float16 and bfloat16 to and from float32 on the bits, whole arrays at a time, equal bit for bit to numpy's and
ml_dtypes' casts (NaN payloads, signed zeros, subnormals, ties to even, overflow to Inf).

numpy converts float16 one element at a time in C (npy_halfbits_to_floatbits / npy_floatbits_to_halfbits, ~25-40
instructions a value, no F16C): in an AMP training step on numpy these conversions were 60-80% of all instructions,
more than the matrix products. The same conversions written as a dozen vectorized integer and float32 passes over
the array cost a few instructions a value:

  float16 -> float32   the exponent and significand shifted into place and multiplied by 2**112, which rebiases
                       normal numbers and normalizes subnormals exactly (a power of two); Inf/NaN get exponent 255
                       with their significand (numpy keeps the payload); the sign OR-ed back.
  float32 -> float16   normal results: the rebiased bits plus 0xfff plus the lowest kept bit, shifted right by 13
                       (round half to even; a carry into the exponent gives the next binade or Inf); subnormal
                       results: |x| + 0.5 in float32, whose own rounding to nearest even is float16's, minus the
                       bits of 0.5; the smaller of the two codes is the right one everywhere (no mask, no
                       select: see _f32_to_f16); |x| >= 65536, Inf and NaN as numpy (NaN keeps the top of its
                       payload, never becomes Inf).
  bfloat16 -> float32  the 16 bits shifted into the top half.
  float32 -> bfloat16  the bits plus 0x7fff plus the lowest kept bit, shifted right by 16 (ties to even); NaN as
                       ml_dtypes: the quiet NaN 0x7fc0 with the sign (no payload).

tests/amp/test_half_casts.py compares them with numpy's and ml_dtypes' casts on every float16/bfloat16 value and
on float32 values around every rounding boundary.
"""

from __future__ import annotations

import threading

import ml_dtypes
import numpy as np

__all__ = ["to_float32", "from_float32", "astype"]

FLOAT16, BFLOAT16, FLOAT32 = np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32)
_U32 = np.uint32
_TWO_112 = np.float32(2.0**112)


def _f16_to_f32(x: np.ndarray) -> np.ndarray:
    out = np.empty_like(x, np.float32)  # fresh (base None) and laid out as x (a transposed x: no strided copy)
    bits = out.view(np.int32)
    np.copyto(bits, x.view(np.int16))  # sign-extended: the sign lands in bit 31 (and 28-30, cleared next)
    bits <<= 13
    bits &= np.int32(-0x70000001)  # 0x8fffffff: the sign and the 15 bits of exponent and significand
    out *= _TWO_112  # rebiases normals, normalizes subnormals, keeps the sign: exact
    if (x.view(np.uint16) & np.uint16(0x7FFF)).max() >= 0x7C00:  # Inf/NaN somewhere (16-bit passes: cheap)
        h = x.view(np.uint16)
        where = (h & np.uint16(0x7C00)) == np.uint16(0x7C00)  # exponent 31: 255, significand and sign kept
        hw = h[where].astype(_U32)
        bits[where] = (((hw & _U32(0x3FF)) << _U32(13)) | _U32(0x7F800000) | ((hw >> _U32(15)) << _U32(31))).view(
            np.int32
        )
    return out


def _f32_to_f16(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    u = np.ascontiguousarray(x, np.float32).view(_U32)
    a, h = _work_arrays(u.shape)
    np.bitwise_and(u, _U32(0x7FFFFFFF), out=a)
    np.right_shift(a, _U32(13), out=h)
    h &= _U32(1)  # the lowest kept bit: ties to even
    h += a
    h -= _U32(0x38800000 - 0xFFF)  # rebiased to exponent 1: wraps to 2**32 - ... below 2**-14 - 2**-25
    h >>= _U32(13)
    h += _U32(0x400)  # the normal codes; below float16's normals a huge number or (just below 2**-14) 0x400
    big = a >= _U32(0x47800000) if a.max() >= _U32(0x47800000) else None  # 65536 and up, Inf, NaN (rare)
    big_magnitudes = a[big] if big is not None else None
    # the subnormal codes: |x| + 0.5 rounds in float32 as float16's subnormals do (ulp 2**-24). Below 2**-14 they
    # are <= 0x400 and the normal formula's is not smaller; from 2**-14 up round(|x| * 2**24) is >= the normal
    # code (equal in the first binade, then growing twice as fast): so the minimum of the two is the code.
    tiny = a.view(np.float32)
    tiny += np.float32(0.5)
    a -= _U32(0x3F000000)  # (tiny's bits)
    np.minimum(h, a, out=h)  # (array with array: numpy's vector loop; with a scalar it is not)
    if big is not None:  # fixed where they are
        nan = big_magnitudes > _U32(0x7F800000)
        code = np.where(nan, _U32(0x7C00) + ((big_magnitudes & _U32(0x7FFFFF)) >> _U32(13)), _U32(0x7C00))
        code[nan & (code == _U32(0x7C00))] = 0x7C01  # a NaN stays a NaN
        h[big] = code
    np.right_shift(u, _U32(16), out=a)
    a &= _U32(0x8000)
    h |= a  # the sign
    if out is None:
        out = np.empty(np.shape(x), FLOAT16)  # a fresh array (base None), as numpy's cast gives
    np.copyto(out.view(np.uint16), h, casting="unsafe")
    return out


def _bf16_to_f32(x: np.ndarray) -> np.ndarray:
    out = np.empty_like(x, np.float32)  # fresh (base None) and laid out as x (a transposed x: no strided copy)
    bits = out.view(_U32)
    np.copyto(bits, x.view(np.uint16))
    bits <<= _U32(16)
    return out


def _f32_to_bf16(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    u = np.ascontiguousarray(x, np.float32).view(_U32)
    magnitude, b = _work_arrays(u.shape)
    np.bitwise_and(u, _U32(0x7FFFFFFF), out=magnitude)
    nan = magnitude.max() > _U32(0x7F800000)
    np.right_shift(u, _U32(16), out=b)
    b &= _U32(1)
    b += u
    b += _U32(0x7FFF)
    b >>= _U32(16)
    if nan:  # (rare) ml_dtypes' quiet NaN with the sign, no payload
        where = magnitude > _U32(0x7F800000)
        b[where] = ((u[where] >> _U32(16)) & _U32(0x8000)) | _U32(0x7FC0)
    if out is None:
        out = np.empty(np.shape(x), BFLOAT16)
    np.copyto(out.view(np.uint16), b, casting="unsafe")
    return out


# Two uint32 work arrays per shape, kept per thread and reused by every conversion down. Fresh temporaries of this
# size are what glibc hands back to the OS when they are freed (its heap is trimmed once the free top passes a
# threshold), so each conversion faulted its pages in again, some 1.5 us a 4 KB page: a float16 O2 MLP step took
# ~2200 page faults, more time than its arithmetic. Kept arrays never leave these functions (the result is copied
# out of them); the least recently used shapes are dropped beyond _WORK_BYTES a thread, and a pair bigger than
# that is not kept.
_WORK = threading.local()
_WORK_BYTES = 32 << 20


def _work_arrays(shape: tuple) -> tuple:
    cache = _WORK.__dict__.get("by_shape")  # shape -> (a, b), the most recently used last
    if cache is None:
        cache = _WORK.by_shape = {}
    pair = cache.pop(shape, None)
    if pair is None:
        pair = (np.empty(shape, _U32), np.empty(shape, _U32))
        if 2 * pair[0].nbytes > _WORK_BYTES:  # too big to keep: numpy's own fresh arrays
            return pair
        kept = 2 * pair[0].nbytes + sum(a.nbytes + b.nbytes for a, b in cache.values())  # (only for a new shape)
        while kept > _WORK_BYTES and cache:
            a, b = cache.pop(next(iter(cache)))
            kept -= a.nbytes + b.nbytes
    cache[shape] = pair
    return pair


_UP = {FLOAT16: _f16_to_f32, BFLOAT16: _bf16_to_f32}
_DOWN = {FLOAT16: _f32_to_f16, BFLOAT16: _f32_to_bf16}


def to_float32(x: np.ndarray) -> np.ndarray:
    """x.astype(float32), through the bit conversions for a float16 or bfloat16 x."""
    up = _UP.get(x.dtype)
    return up(x) if up is not None and x.size and x.ndim else x.astype(FLOAT32)


def from_float32(x: np.ndarray, dtype, out: np.ndarray | None = None) -> np.ndarray:
    """x.astype(dtype) for a float32 x and dtype float16 or bfloat16, through the bit conversions; with `out` (an
    array of x's shape and that dtype) written into it instead of a new array."""
    down = _DOWN.get(np.dtype(dtype)) if x.dtype == FLOAT32 else None
    if down is not None and x.size and x.ndim:
        return down(x, out)
    if out is None:
        return x.astype(dtype)
    out[...] = x
    return out


def astype(x: np.ndarray, dtype) -> np.ndarray:
    """x.astype(dtype), float16/bfloat16 <-> float32 through the bit conversions (a copy in every case)."""
    dtype = np.dtype(dtype)
    if dtype == FLOAT32 and x.dtype in _UP and x.size and x.ndim:
        return _UP[x.dtype](x)
    if x.dtype == FLOAT32 and dtype in _DOWN and x.size and x.ndim:
        return _DOWN[dtype](x)
    return x.astype(dtype)
