"""What a dtype can hold: paddle.finfo (floating and complex dtypes) and paddle.iinfo (integer dtypes), with
the attributes of paddle 2.6 (read from numpy, and from ml_dtypes for bfloat16)."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from minipaddle.core import dtype as dtypes

__all__ = ["finfo", "iinfo"]


def _dtype(dtype, fn: str) -> dtypes.DType:
    try:
        return dtypes.to_dtype(dtype)
    except (TypeError, ValueError, KeyError):
        raise TypeError(f"{fn}: dtype must be a paddle dtype such as paddle.float32, got {dtype!r}") from None


class finfo:  # noqa: N801 (Paddle's name)
    """The limits of a floating dtype (a complex dtype reports its real part's).

    Attributes:
        bits (int), eps (float: the gap between 1 and the next number), min, max (the finite extremes),
        tiny and smallest_normal (the smallest positive normal number), resolution (10 ** -decimal digits),
        dtype (str: the float dtype's name).

    Example:
        >>> paddle.finfo(paddle.float32).eps    # 1.1920928955078125e-07
    """

    def __init__(self, dtype) -> None:
        d = _dtype(dtype, "finfo")
        if not (d.is_floating or d.is_complex):
            raise ValueError(
                "finfo: dtype must be float16, bfloat16, float32, float64, complex64 or complex128, got " + d.name
            )
        info = ml_dtypes.finfo(d.np) if d is dtypes.bfloat16 else np.finfo(d.np)
        self.dtype = "bfloat16" if d is dtypes.bfloat16 else np.dtype(info.dtype).name
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.min = float(info.min)
        self.max = float(info.max)
        self.tiny = float(info.tiny)
        self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)

    def __repr__(self) -> str:
        return (
            f"paddle.finfo(min={self.min:g}, max={self.max:g}, eps={self.eps:g}, resolution={self.resolution:g}, "
            f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, bits={self.bits}, dtype={self.dtype})"
        )


class iinfo:  # noqa: N801 (Paddle's name)
    """The limits of an integer dtype: bits, min, max (ints) and dtype (str).

    Example:
        >>> paddle.iinfo(paddle.int8).max    # 127
    """

    def __init__(self, dtype) -> None:
        d = _dtype(dtype, "iinfo")
        if not d.is_integer:
            raise ValueError(f"iinfo: dtype must be uint8, int8, int16, int32 or int64, got {d.name}")
        info = np.iinfo(d.np)
        self.dtype = d.name
        self.bits = int(info.bits)
        self.min = int(info.min)
        self.max = int(info.max)

    def __repr__(self) -> str:
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"
