"""out = g + 0 written on the bits: what adding a gradient to clear_grad's zeros gives (core/autograd.py's
deferred zeros), and a pixel's one gradient in a max-pool backward (ops/pool.py).

It gets its own file because float16 and bfloat16 need it on their 16-bit codes: numpy's float16 add and
ml_dtypes' bfloat16 add convert one element at a time (~75 and ~22 instructions a value), while the few integer
passes here cost about one.
"""

from __future__ import annotations

import numpy as np

__all__ = ["write_plus_zero"]

# float16 and bfloat16 (ml_dtypes) codes as int16: the sign bit, +inf (the NaNs lie above it), the quiet bit
_HALF_BITS = {"e": (0x7C00, 0x0200), "E": (0x7F80, 0x0040)}
_MINUS_ZERO = np.int16(-32768)


def write_plus_zero(g: np.ndarray, out: np.ndarray) -> None:
    """out[...] = g + 0, the bits of the add of clear_grad's zeros: -0 becomes +0, a NaN comes out quiet.

    float16/bfloat16 on the int16 view: numpy's float16 add and ml_dtypes' bfloat16 add convert one element at a
    time (~75 and ~22 instructions a value), the integer passes cost about one. The NaNs they give back (checked on
    every code in tests/amp/test_accumulate_low_precision.py): float16 keeps the payload and sets the quiet bit;
    bfloat16 gives the one quiet NaN 0x7fc0 with the sign (its add rounds through float32)."""
    bits = _HALF_BITS.get(g.dtype.char)
    if bits is None or g.dtype != out.dtype:
        np.add(g, 0, out=out)
        return
    v, o = g.view(np.int16), out.view(np.int16)
    np.multiply(v, v != _MINUS_ZERO, out=o)
    inf, quiet = bits
    magnitude = o & np.int16(0x7FFF)
    if magnitude.max() > inf:  # NaNs (rare): quieted as the add does
        nan = magnitude > inf
        o[nan] = (o[nan] | quiet) if g.dtype.char == "e" else ((o[nan] & _MINUS_ZERO) | np.int16(0x7FC0))
