"""What a tensor is, and its complex parts (paddle.tensor.attribute): rank, shape, is_complex,
is_floating_point, is_integer, real, imag, and complex, as_complex, as_real, angle.

Complex gradients follow Paddle's and PyTorch's convention (docs/complex_autograd.md): for a real loss L of
z = a + ib, z.grad = dL/da + i dL/db, the direction of steepest ascent.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_tensor

__all__ = [
    "rank",
    "shape",
    "is_complex",
    "is_floating_point",
    "is_integer",
    "real",
    "imag",
    "complex",
    "as_complex",
    "as_real",
    "angle",
]


def rank(input) -> Tensor:
    """The number of dimensions, as a 0-d int32 tensor."""
    check_tensor(input, "rank", "input")
    return Tensor(np.asarray(input.ndim, dtype=np.int32))


def shape(input) -> Tensor:
    """The shape, as a 1-D int32 tensor (Tensor.shape gives a Python list)."""
    check_tensor(input, "shape", "input")
    if -1 in input.shape:  # a static Variable with a size known only at run time: the shape op reads it then
        return ops.shape_of(input)
    return Tensor(np.asarray(input.shape, dtype=np.int32))


def is_complex(x) -> bool:
    """Whether x's dtype is complex64 or complex128."""
    return check_tensor(x, "is_complex").dtype.is_complex


def is_floating_point(x) -> bool:
    """Whether x's dtype is a floating type (float16, float32, float64)."""
    return check_tensor(x, "is_floating_point").dtype.is_floating


def is_integer(x) -> bool:
    """Whether x's dtype is an integer type (uint8, int8, int16, int32, int64)."""
    return check_tensor(x, "is_integer").dtype.is_integer


def _complex_input(x, fn: str) -> Tensor:
    check_tensor(x, fn)
    if not x.dtype.is_complex:
        raise TypeError(f"{fn}: x must be complex64 or complex128, got {x.dtype.name}")
    return x


def real(x, name=None) -> Tensor:
    """The real part of a complex tensor (complex64 -> float32, complex128 -> float64)."""
    return ops.real(_complex_input(x, "real"))


def imag(x, name=None) -> Tensor:
    """The imaginary part of a complex tensor (complex64 -> float32, complex128 -> float64)."""
    return ops.imag(_complex_input(x, "imag"))


def complex(real, imag, name=None) -> Tensor:  # noqa: A001 (Paddle's name)
    """real + i * imag, elementwise with broadcasting: float32 parts give complex64, float64 parts complex128.

    Example:
        >>> z = paddle.complex(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.5, -1.0]))   # [1+0.5j, 2-1j]
    """
    check_tensor(real, "complex", "real")
    check_tensor(imag, "complex", "imag")
    for t, arg in ((real, "real"), (imag, "imag")):
        if t.dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError(f"complex: {arg} must be float32 or float64, got {t.dtype.name}")
    if real.dtype is not imag.dtype:
        raise TypeError(f"complex: real and imag must have the same dtype, got {real.dtype.name} and {imag.dtype.name}")
    return ops.complex(real, imag)


def as_complex(x, name=None) -> Tensor:
    """A real tensor whose last dimension has size 2 (real, imaginary) as a complex tensor without it."""
    check_tensor(x, "as_complex")
    if x.dtype not in (dtypes.float32, dtypes.float64) or x.ndim == 0 or x.shape[-1] != 2:
        raise ValueError(
            f"as_complex: x must be float32 or float64 with a last dimension of size 2, got {x.dtype.name} {x.shape}"
        )
    return ops.complex(ops.index_view(x, (Ellipsis, 0)), ops.index_view(x, (Ellipsis, 1)))


def as_real(x, name=None) -> Tensor:
    """A complex tensor as a real one with a new last dimension of size 2 holding (real, imaginary)."""
    x = _complex_input(x, "as_real")
    return ops.stack([ops.real(x), ops.imag(x)], x.ndim)


def angle(x, name=None) -> Tensor:
    """The argument of each element in radians, in (-pi, pi] (for real tensors: 0, or pi where negative).
    Integer tensors give float32."""
    check_tensor(x, "angle")
    return ops.angle(x)
