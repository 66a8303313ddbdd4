"""paddle.fft: discrete Fourier transforms, their sample frequencies, and centring the spectrum.

Each transform crops or zero-pads its input to the sizes asked for (`n` or `s`) and then runs one of three ops
(minipaddle/ops/fft_ops.py, Paddle's own three kernels):

    fft_c2c   fft, ifft, fftn, ifftn, fft2, ifft2 of complex input
    fft_r2c   the same of real input (the full spectrum), rfft*, ihfft* (half of it: Hermitian symmetry)
    fft_c2r   irfft*, hfft* (a half spectrum in, a real signal out)

`norm` says which direction is scaled, by 1/n: 'backward' (the default) the inverse transforms, 'forward' the
forward ones, 'ortho' both, by 1/sqrt(n). Real input gives complex64 from float32 and complex128 from float64;
integer input is first cast to the default float dtype (to its complex type for fft_c2r). float16, bfloat16
and bool have no FFT kernel in Paddle 2.6 (TypeError here).

>>> import minipaddle as paddle
>>> paddle.fft.fft(paddle.to_tensor([1.0, 2.0, 3.0, 4.0]))   # [10, -2+2j, -2, -2-2j], complex64
>>> paddle.fft.irfft(paddle.fft.rfft(paddle.to_tensor([1.0, 2.0, 3.0, 4.0])))   # back to [1, 2, 3, 4]

Where Paddle 2.6 crashes or fails on an input (a 0-d tensor or `s=[]` for fftn, a repeated axis, negative
axes in a list for fftshift), minipaddle raises a ValueError or, for fftshift, does what numpy does.
"""

from __future__ import annotations

import builtins
import numbers
from collections.abc import Sequence

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import MAX_ELEMENTS, PreconditionNotMetError, check_number, check_size
from minipaddle.tensor.creation import arange
from minipaddle.tensor.manipulation import roll

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
__all__ += ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"]
__all__ += ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]
__all__ += ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_NORMS = ("backward", "forward", "ortho")


# ---- argument checks (Paddle raises ValueError for all of these) ---------------------------------------------------


def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))


def _check_x(x, fn: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}: x must be a Tensor, got {type(x).__name__}")
    return x


def _check_norm(norm, fn: str) -> None:
    if norm not in _NORMS:
        raise ValueError(f"{fn}: norm must be 'backward', 'forward' or 'ortho', got {norm!r}")


def _check_n(n, fn: str) -> int:
    if not _is_int(n) or n <= 0:
        raise ValueError(f"{fn}: n must be a positive int, got {n!r}")
    return int(n)


def _check_axis(x: Tensor, axis, fn: str) -> int:
    nd = x.ndim
    if not _is_int(axis) or not -nd <= axis < nd:
        raise ValueError(f"{fn}: axis must be an int in [-{nd}, {nd}) for a tensor of {nd} dimensions, got {axis!r}")
    return int(axis) % nd


def _check_sizes(x: Tensor, s, fn: str) -> list:
    if not isinstance(s, Sequence) or isinstance(s, str):
        raise ValueError(f"{fn}: s must be a sequence of positive ints, got {s!r}")
    if not 0 < len(s) <= x.ndim:
        raise ValueError(f"{fn}: s must name 1 to {x.ndim} sizes (the rank of x), got {list(s)}")
    for size in s:
        if not _is_int(size) or size <= 0:
            raise ValueError(f"{fn}: s must hold positive ints, got {list(s)}")
    return [int(size) for size in s]


def _check_axes(x: Tensor, axes, fn: str) -> list:
    nd = x.ndim
    if not isinstance(axes, Sequence) or isinstance(axes, str):
        raise ValueError(f"{fn}: axes must be a sequence of ints, got {axes!r}")
    if not 0 < len(axes) <= nd:
        raise ValueError(f"{fn}: axes must name 1 to {nd} axes (the rank of x), got {list(axes)}")
    for axis in axes:
        if not _is_int(axis) or not -nd <= axis < nd:
            raise ValueError(f"{fn}: axes {list(axes)} holds {axis!r}; each axis must be an int in [-{nd}, {nd})")
    normalized = [int(a) % nd for a in axes]
    if len(set(normalized)) != len(normalized):
        raise ValueError(f"{fn}: axes {list(axes)} names the same axis twice")
    return normalized


def _check_two(x: Tensor, s, axes, fn: str) -> None:
    """The 2-D transforms: x has at least 2 dimensions; s and axes, when given, have 2 entries."""
    if x.ndim < 2:
        raise ValueError(f"{fn}: x must have at least 2 dimensions, got {x.ndim}")
    for arg, value in (("s", s), ("axes", axes)):
        if value is not None and (not isinstance(value, Sequence) or len(value) != 2):
            raise ValueError(f"{fn}: {arg} must be a sequence of 2 ints, got {value!r}")


# ---- input dtypes ----------------------------------------------------------------------------------------------


def _unsupported(x: Tensor, fn: str, expected: str) -> TypeError:
    return TypeError(f"{fn}: x must be {expected}, got {x.dtype.name} (Paddle 2.6 has no FFT kernel for it)")


def _as_real(x: Tensor, fn: str) -> Tensor:
    """Input of fft_r2c: float32/float64 as they are, integers cast to the default float dtype."""
    if x.dtype.is_integer:
        return ops.cast(x, dtypes.default_float().np)
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise _unsupported(x, fn, "a float32, float64 or integer tensor")
    return x


def _as_complex(x: Tensor, fn: str) -> Tensor:
    """Input of fft_c2r: complex64/complex128 as they are, float32/float64 made complex (a zero imaginary part)."""
    if x.dtype in (dtypes.float32, dtypes.float64):
        return ops.complex(x, ops.full_like(x, 0, None))
    if not x.dtype.is_complex:  # integers too: Paddle 2.6 casts them to float32, which fft_c2r refuses
        raise _unsupported(x, fn, "a complex64, complex128, float32 or float64 tensor")
    return x


def _is_real_input(x: Tensor) -> bool:
    return not x.dtype.is_complex and x.dtype != dtypes.bool_


# ---- shapes: cropping or zero-padding to the sizes asked for -------------------------------------------------------


def _resize(x: Tensor, sizes, axes, fn: str) -> Tensor:
    """x cropped or zero-padded at the end of each of `axes` to `sizes`, as Paddle does before transforming."""
    shape = x.shape
    for a in axes:
        if shape[a] < 0:  # static mode: a size known only when the Program runs
            raise ValueError(f"{fn}: axis {a} of x has an unknown size, so x cannot be cropped or padded to {sizes}")
    resized = [max(d, 1) for d in shape]  # (an unknown batch, -1 in static mode, counts as 1)
    for n, a in zip(sizes, axes):
        resized[a] = n
    check_size(tuple(resized), fn)  # s = [10**20, ...] is a mistake, said before the padding tries it
    if any(shape[a] > n for n, a in zip(sizes, axes)):
        index = [builtins.slice(None)] * x.ndim
        for n, a in zip(sizes, axes):
            index[a] = builtins.slice(0, min(n, shape[a]))
        x = ops.index_view(x, tuple(index))
    if any(shape[a] < n for n, a in zip(sizes, axes)):
        pad = {a: max(n - shape[a], 0) for n, a in zip(sizes, axes)}
        x = ops.pad(x, tuple((0, pad.get(i, 0)) for i in range(x.ndim)))
    return x


def _plan(x: Tensor, s, axes, fn: str, sort_all: bool) -> tuple:
    """The axes to transform (sorted, as Paddle sorts them) and the matching sizes (None: keep x's).

    With neither s nor axes, every axis; with s only, the last len(s) axes. Paddle sorts the axes (all of them
    for fft_c2c, all but the last for r2c and c2r, whose last axis is the halved one) and s with them.
    """
    if s is not None:
        s = _check_sizes(x, s, fn)
    if axes is None:
        if x.ndim == 0:
            raise ValueError(f"{fn}: x is 0-d; it needs at least 1 dimension to transform")
        count = x.ndim if s is None else len(s)
        return s, list(range(x.ndim - count, x.ndim))
    axes = _check_axes(x, axes, fn)
    if s is not None and len(s) != len(axes):
        raise ValueError(f"{fn}: s {s} and axes {axes} must have the same length")
    order = np.argsort(axes if sort_all else axes[:-1], kind="stable").tolist()
    order += [] if sort_all else [len(axes) - 1]
    return (None if s is None else [s[i] for i in order]), [axes[i] for i in order]


# ---- the three kinds of transform ----------------------------------------------------------------------------------


def _c2c_or_r2c(x, s, axes, norm, forward: bool, fn: str) -> Tensor:
    """fft/ifft of any input: the full spectrum (fft_r2c for real input, fft_c2c for complex)."""
    if _is_real_input(x):
        return _r2c(x, s, axes, norm, forward, False, fn)
    if not x.dtype.is_complex:
        raise _unsupported(x, fn, "a float32, float64, complex64, complex128 or integer tensor")
    _check_norm(norm, fn)
    s, axes = _plan(x, s, axes, fn, sort_all=True)
    if s is not None:
        x = _resize(x, s, axes, fn)
    return ops.fft_c2c(x, axes, norm, forward)


def _r2c(x, s, axes, norm, forward: bool, onesided: bool, fn: str) -> Tensor:
    x = _as_real(x, fn)
    _check_norm(norm, fn)
    s, axes = _plan(x, s, axes, fn, sort_all=False)
    if s is not None:
        x = _resize(x, s, axes, fn)
    return ops.fft_r2c(x, axes, norm, forward, onesided)


def _c2r(x, s, axes, norm, forward: bool, fn: str) -> Tensor:
    x = _as_complex(x, fn)
    _check_norm(norm, fn)
    s, axes = _plan(x, s, axes, fn, sort_all=False)
    last_dim_size = 0
    if s is not None:  # the last axis holds a half spectrum: s[-1] // 2 + 1 entries of it make s[-1] samples
        x = _resize(x, s[:-1] + [s[-1] // 2 + 1], axes, fn)
        last_dim_size = s[-1]
    elif x.shape[axes[-1]] == 1:
        raise ValueError(f"{fn}: x has 1 entry along axis {axes[-1]}, which gives a signal of length 0; pass n or s")
    return ops.fft_c2r(x, axes, norm, forward, last_dim_size)


def _one_axis(x: Tensor, n, axis, fn: str) -> tuple:
    """The 1-D transforms as n-d ones: ([n] or None, [axis])."""
    _check_x(x, fn)
    axis = _check_axis(x, -1 if axis is None else axis, fn)
    return (None if n is None else [_check_n(n, fn)]), [axis]


# ---- 1-D ---------------------------------------------------------------------------------------------------------


def fft(x, n=None, axis=-1, norm="backward", name=None) -> Tensor:
    """The 1-D discrete Fourier transform along `axis`: out[k] = sum_t x[t] exp(-2 pi i k t / n).

    Args:
        x (Tensor): real, complex or integer input.
        n (int, optional): the transform length; x is cropped or zero-padded to it along `axis`. Default: x's size.
        axis (int, optional): the axis to transform. Default: -1.
        norm (str, optional): 'backward' (no scaling here), 'forward' (1/n) or 'ortho' (1/sqrt(n)).
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: the complex spectrum (complex64 for float32 or integer input, complex128 for float64).

    Example:
        >>> paddle.fft.fft(paddle.to_tensor([1.0, 2.0, 3.0, 4.0]))   # [10, -2+2j, -2, -2-2j]
    """
    s, axes = _one_axis(x, n, axis, "fft")
    return _c2c_or_r2c(x, s, axes, norm, True, "fft")


def ifft(x, n=None, axis=-1, norm="backward", name=None) -> Tensor:
    """The inverse of fft along `axis`: out[t] = 1/n sum_k x[k] exp(2 pi i k t / n) (with norm='backward').

    Args and returns as for `paddle.fft.fft`.

    Example:
        >>> paddle.fft.ifft(paddle.fft.fft(paddle.to_tensor([1.0, 2.0, 3.0])))   # [1, 2, 3] (complex)
    """
    s, axes = _one_axis(x, n, axis, "ifft")
    return _c2c_or_r2c(x, s, axes, norm, False, "ifft")


def rfft(x, n=None, axis=-1, norm="backward", name=None) -> Tensor:
    """The fft of a real signal, keeping the n//2 + 1 non-negative frequencies (the rest are their conjugates).

    Args:
        x (Tensor): float32, float64 or integer input.
        n, axis, norm, name: as for `paddle.fft.fft`.

    Returns:
        Tensor: complex, with n//2 + 1 entries along `axis`.

    Example:
        >>> paddle.fft.rfft(paddle.to_tensor([1.0, 2.0, 3.0, 4.0]))   # [10, -2+2j, -2]
    """
    s, axes = _one_axis(x, n, axis, "rfft")
    return _r2c(x, s, axes, norm, True, True, "rfft")


def irfft(x, n=None, axis=-1, norm="backward", name=None) -> Tensor:
    """The inverse of rfft: the real signal of length n whose half spectrum is x.

    Args:
        x (Tensor): the half spectrum (complex; float is read as complex with a zero imaginary part).
        n (int, optional): the output length; x is cropped or zero-padded to n//2 + 1 entries along `axis`.
            Default: 2 * (m - 1) for m entries.
        axis, norm, name: as for `paddle.fft.fft`.

    Returns:
        Tensor: real (float32 from complex64, float64 from complex128).

    Example:
        >>> paddle.fft.irfft(paddle.to_tensor([10, -2 + 2j, -2]))   # [1, 2, 3, 4]
    """
    s, axes = _one_axis(x, n, axis, "irfft")
    return _c2r(x, s, axes, norm, False, "irfft")


def hfft(x, n=None, axis=-1, norm="backward", name=None) -> Tensor:
    """The fft of a signal with Hermitian symmetry, given by its first half x: a real spectrum of length n.

    Args and returns as for `paddle.fft.irfft` (hfft(x) is n * irfft(conj(x)) with norm='backward').

    Example:
        >>> paddle.fft.hfft(paddle.to_tensor([2.5, -0.5 - 0.5j, -0.5]))   # [1, 2, 3, 4]: hfft undoes ihfft
    """
    s, axes = _one_axis(x, n, axis, "hfft")
    return _c2r(x, s, axes, norm, True, "hfft")


def ihfft(x, n=None, axis=-1, norm="backward", name=None) -> Tensor:
    """The inverse of hfft: the first n//2 + 1 entries of ifft of a real signal.

    Args and returns as for `paddle.fft.rfft` (ihfft(x) is conj(rfft(x)) / n with norm='backward').

    Example:
        >>> paddle.fft.ihfft(paddle.to_tensor([1.0, 2.0, 3.0, 4.0]))   # [2.5, -0.5-0.5j, -0.5]
    """
    s, axes = _one_axis(x, n, axis, "ihfft")
    return _r2c(x, s, axes, norm, False, True, "ihfft")


# ---- n-D ---------------------------------------------------------------------------------------------------------


def fftn(x, s=None, axes=None, norm="backward", name=None) -> Tensor:
    """The n-D discrete Fourier transform over `axes`.

    Args:
        x (Tensor): real, complex or integer input.
        s (sequence of int, optional): the transform size along each of `axes`; x is cropped or zero-padded
            to it. Default: x's sizes.
        axes (sequence of int, optional): the axes to transform. Default: the last len(s) axes, or all.
        norm (str, optional): 'backward' (no scaling here), 'forward' (1/n) or 'ortho' (1/sqrt(n)), where n is
            the product of the transform sizes.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: the complex spectrum.

    Example:
        >>> paddle.fft.fftn(paddle.ones([2, 2]))   # [[4, 0], [0, 0]]
    """
    _check_x(x, "fftn")
    return _c2c_or_r2c(x, s, axes, norm, True, "fftn")


def ifftn(x, s=None, axes=None, norm="backward", name=None) -> Tensor:
    """The inverse of fftn. Args and returns as for `paddle.fft.fftn`.

    Example:
        >>> paddle.fft.ifftn(paddle.fft.fftn(paddle.ones([2, 2])))   # ones (complex)
    """
    _check_x(x, "ifftn")
    return _c2c_or_r2c(x, s, axes, norm, False, "ifftn")


def rfftn(x, s=None, axes=None, norm="backward", name=None) -> Tensor:
    """The fftn of a real input, keeping s[-1]//2 + 1 entries along the last of `axes`.

    Args and returns as for `paddle.fft.fftn` (x: float32, float64 or integer).

    Example:
        >>> paddle.fft.rfftn(paddle.ones([2, 4])).shape   # [2, 3]
    """
    _check_x(x, "rfftn")
    return _r2c(x, s, axes, norm, True, True, "rfftn")


def irfftn(x, s=None, axes=None, norm="backward", name=None) -> Tensor:
    """The inverse of rfftn: a real output whose last axis has s[-1] (default 2 * (m - 1)) samples.

    Args and returns as for `paddle.fft.fftn` (x: complex, or float read as complex); the output is real.

    Example:
        >>> paddle.fft.irfftn(paddle.fft.rfftn(paddle.ones([2, 4])))   # ones, [2, 4]
    """
    _check_x(x, "irfftn")
    return _c2r(x, s, axes, norm, False, "irfftn")


def hfftn(x, s=None, axes=None, norm="backward", name=None) -> Tensor:
    """The fftn of a Hermitian-symmetric input given by its half x: a real output. Args as for irfftn.

    Example:
        >>> paddle.fft.hfftn(paddle.to_tensor([[1 + 0j, 0j], [0j, 0j]])).shape   # [2, 2]
    """
    _check_x(x, "hfftn")
    return _c2r(x, s, axes, norm, True, "hfftn")


def ihfftn(x, s=None, axes=None, norm="backward", name=None) -> Tensor:
    """The inverse of hfftn: half of the ifftn of a real input. Args and returns as for rfftn.

    Example:
        >>> paddle.fft.ihfftn(paddle.ones([2, 4])).shape   # [2, 3]
    """
    _check_x(x, "ihfftn")
    return _r2c(x, s, axes, norm, False, True, "ihfftn")


# ---- 2-D: the n-D transforms over two axes (default the last two) --------------------------------------------------


def fft2(x, s=None, axes=(-2, -1), norm="backward", name=None) -> Tensor:
    """fftn over two axes (default the last two). Args as for `paddle.fft.fftn`, with 2 entries in s and axes.

    Example:
        >>> paddle.fft.fft2(paddle.ones([2, 2]))   # [[4, 0], [0, 0]]
    """
    _check_two(_check_x(x, "fft2"), s, axes, "fft2")
    return _c2c_or_r2c(x, s, axes, norm, True, "fft2")


def ifft2(x, s=None, axes=(-2, -1), norm="backward", name=None) -> Tensor:
    """ifftn over two axes (default the last two). Args as for `paddle.fft.fft2`."""
    _check_two(_check_x(x, "ifft2"), s, axes, "ifft2")
    return _c2c_or_r2c(x, s, axes, norm, False, "ifft2")


def rfft2(x, s=None, axes=(-2, -1), norm="backward", name=None) -> Tensor:
    """rfftn over two axes (default the last two). Args as for `paddle.fft.fft2`."""
    _check_two(_check_x(x, "rfft2"), s, axes, "rfft2")
    return _r2c(x, s, axes, norm, True, True, "rfft2")


def irfft2(x, s=None, axes=(-2, -1), norm="backward", name=None) -> Tensor:
    """irfftn over two axes (default the last two). Args as for `paddle.fft.fft2`."""
    _check_two(_check_x(x, "irfft2"), s, axes, "irfft2")
    return _c2r(x, s, axes, norm, False, "irfft2")


def hfft2(x, s=None, axes=(-2, -1), norm="backward", name=None) -> Tensor:
    """hfftn over two axes (default the last two). Args as for `paddle.fft.fft2`."""
    _check_two(_check_x(x, "hfft2"), s, axes, "hfft2")
    return _c2r(x, s, axes, norm, True, "hfft2")


def ihfft2(x, s=None, axes=(-2, -1), norm="backward", name=None) -> Tensor:
    """ihfftn over two axes (default the last two). Args as for `paddle.fft.fft2`."""
    _check_two(_check_x(x, "ihfft2"), s, axes, "ihfft2")
    return _r2c(x, s, axes, norm, False, True, "ihfft2")


# ---- sample frequencies and centring ---------------------------------------------------------------------------


def _check_freq_args(n, d, fn: str) -> float:
    d = check_number(d, fn, "d")
    if not _is_int(n):
        raise TypeError(f"{fn}: n must be a positive int, got {type(n).__name__}")
    if n <= 0 or d == 0:
        raise ValueError(f"{fn}: n must be a positive int and d must not be 0, got n={n!r}, d={d!r}")
    if n > MAX_ELEMENTS:  # (paddle 2.6 fails to allocate it: PreconditionNotMet)
        raise PreconditionNotMetError(f"{fn}: n={n} is more than the {MAX_ELEMENTS:.3g} elements a tensor may hold "
                                      "here")  # fmt: skip
    return float(d)


def fftfreq(n, d=1.0, dtype=None, name=None) -> Tensor:
    """The sample frequencies of an fft of length n with sample spacing d: [0, 1, ..., -1] / (n * d).

    Args:
        n (int): the window length.
        d (float, optional): the sample spacing (the inverse of the sampling rate). Default: 1.0.
        dtype (str, optional): ignored, as in Paddle 2.6: the result has the default float dtype.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: n frequencies, the non-negative ones first.

    Example:
        >>> paddle.fft.fftfreq(5, 0.5)   # [0, 0.4, 0.8, -0.8, -0.4]
    """
    d = _check_freq_args(n, d, "fftfreq")
    indices = arange(-(n // 2), (n + 1) // 2, dtype=dtypes.get_default_dtype())
    return roll(indices, -(n // 2)) * (1.0 / (n * d))


def rfftfreq(n, d=1.0, dtype=None, name=None) -> Tensor:
    """The sample frequencies of an rfft of length n: [0, 1, ..., n // 2] / (n * d). Args as for fftfreq.

    Example:
        >>> paddle.fft.rfftfreq(5, 0.5)   # [0, 0.4, 0.8]
    """
    d = _check_freq_args(n, d, "rfftfreq")
    return arange(0, n // 2 + 1, dtype=dtypes.get_default_dtype()) * (1.0 / (n * d))


def _shifts(x: Tensor, axes, fn: str, inverse: bool) -> tuple:
    """The roll of fftshift (half of each size, rounded down) or ifftshift (rounded up) over `axes`."""
    _check_x(x, fn)
    if axes is None:
        if x.ndim == 0:
            raise ValueError(f"{fn}: x is 0-d; it has no axis to shift")
        axes = list(range(x.ndim))
    elif _is_int(axes):
        axes = [axes]
    elif not isinstance(axes, Sequence) or isinstance(axes, str):
        raise TypeError(f"{fn}: axes must be an int or a non-empty sequence of ints, got {type(axes).__name__}")
    elif len(axes) == 0:
        raise ValueError(f"{fn}: axes must be an int or a non-empty sequence of ints, got {axes!r}")
    nd = x.ndim
    for axis in axes:
        if not _is_int(axis):
            raise TypeError(f"{fn}: axes {axes!r} holds {axis!r}; each axis must be an int in [-{nd}, {nd})")
        if not -nd <= axis < nd:
            raise ValueError(f"{fn}: axes {axes!r} holds {axis!r}; each axis must be an int in [-{nd}, {nd})")
    sizes = [x.shape[a] for a in axes]
    return [(size + inverse) // 2 for size in sizes], [int(a) % nd for a in axes]


def fftshift(x, axes=None, name=None) -> Tensor:
    """Move the zero frequency to the centre: roll each of `axes` (default all) by half its size.

    Args:
        x (Tensor): a spectrum (any dtype).
        axes (int or sequence of int, optional): the axes to shift. Default: all.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: x rolled, same shape and dtype.

    Example:
        >>> paddle.fft.fftshift(paddle.fft.fftfreq(5))   # [-0.4, -0.2, 0, 0.2, 0.4]
    """
    shifts, axes = _shifts(x, axes, "fftshift", inverse=False)
    return roll(x, shifts, axes)


def ifftshift(x, axes=None, name=None) -> Tensor:
    """The inverse of fftshift (they differ for odd sizes). Args and returns as for `paddle.fft.fftshift`.

    Example:
        >>> paddle.fft.ifftshift(paddle.fft.fftshift(paddle.arange(5)))   # [0, 1, 2, 3, 4]
    """
    shifts, axes = _shifts(x, axes, "ifftshift", inverse=True)
    return roll(x, shifts, axes)
