"""paddle.signal: the short-time Fourier transform (stft) and its inverse (istft), and the two ops under them,
frame and overlap_add (minipaddle/ops/signal_ops.py).

stft cuts the signal into overlapping frames (`hop_length` apart, each `n_fft` long), multiplies each by a
window and takes its DFT with paddle.fft's ops (fft_r2c for real signals, fft_c2c for complex ones); istft takes
the inverse DFT of each frame, multiplies it by the window again, adds the frames back (overlap_add) and divides
by the overlap-added squared window. Every step is an op with a gradient, so gradients flow through both.

>>> import minipaddle as paddle
>>> x = paddle.randn([2, 400], dtype="float64")
>>> spec = paddle.signal.stft(x, n_fft=64)            # [2, 33, 26] complex128
>>> paddle.signal.istft(spec, n_fft=64).shape          # back to [2, 400]

Where Paddle 2.6 fails an `assert`, minipaddle raises a ValueError (or TypeError for a wrong type) with the same
message. Where minipaddle differs: istft with an odd n_fft and a real result returns the signal (Paddle 2.6
crashes: its inverse transform gives n_fft - 1 samples per frame), and istft of a non-complex x is a TypeError.
"""

from __future__ import annotations

import numbers

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import in_dynamic_mode
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_flag, check_tensor
from minipaddle.tensor.creation import ones
from minipaddle.tensor.manipulation import squeeze, tile, transpose, unsqueeze
from minipaddle.tensor.math import divide, multiply

__all__ = ["stft", "istft"]  # as Paddle 2.6: frame and overlap_add are reachable here but not in __all__


def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _check_framing_dtype(x: Tensor, fn: str) -> None:
    if x.dtype in (dtypes.bool_, dtypes.float16, dtypes.bfloat16):
        raise TypeError(f"{fn}: x must be an int32, int64, float32, float64 or complex tensor, got {x.dtype.name} "
                        "(Paddle 2.6 has no kernel for it)")  # fmt: skip


def frame(x, frame_length, hop_length, axis=-1, name=None):
    """Slice x into overlapping frames along its first or last axis.

    Frame t holds x[t*hop_length : t*hop_length + frame_length] along `axis`.

    Args:
        x (Tensor): a tensor of at least 1 dimension, shape [..., seq_length] (axis=-1) or [seq_length, ...] (axis=0).
        frame_length (int): the length of each frame, 0 < frame_length <= seq_length.
        hop_length (int): the step between the starts of adjacent frames, > 0.
        axis (int, optional): 0 or -1 (default), the axis to frame.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: x's dtype, shape [..., frame_length, num_frames] (axis=-1) or [num_frames, frame_length, ...]
        (axis=0), where num_frames = 1 + (seq_length - frame_length) // hop_length.

    Examples:
        >>> paddle.signal.frame(paddle.arange(8), frame_length=4, hop_length=2)   # [[0, 2, 4], [1, 3, 5], ...]
    """
    fn = "paddle.signal.frame"
    check_tensor(x, fn)
    if axis not in (0, -1) or isinstance(axis, bool):
        raise ValueError(f"{fn}: Unexpected axis: {axis}. It should be 0 or -1.")
    if not _is_int(frame_length) or frame_length <= 0:
        raise ValueError(f"{fn}: Unexpected frame_length: {frame_length}. It should be an positive integer.")
    if not _is_int(hop_length) or not 0 < hop_length <= 2**31 - 1:  # (an int32 attribute in paddle 2.6)
        raise ValueError(f"{fn}: Unexpected hop_length: {hop_length}. It should be a positive int32 integer.")
    if x.ndim < 1:
        raise ValueError(f"{fn}: x must have at least 1 dimension, got a 0-d tensor")
    _check_framing_dtype(x, fn)
    if x.shape[axis] >= 0 and frame_length > x.shape[axis]:
        raise ValueError(f"{fn}: Attribute frame_length should be less equal than sequence length, "
                         f"but got ({frame_length}) > ({x.shape[axis]}).")  # fmt: skip
    return ops.frame(x, frame_length, hop_length, axis)


def overlap_add(x, hop_length, axis=-1, name=None):
    """Add overlapping frames back into one signal (the adjoint of `frame`).

    Args:
        x (Tensor): frames of at least 2 dimensions, shape [..., frame_length, num_frames] (axis=-1) or
            [num_frames, frame_length, ...] (axis=0).
        hop_length (int): the step between the starts of adjacent frames, 0 < hop_length <= frame_length.
        axis (int, optional): 0 or -1 (default), where the frame axes are.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: x's dtype, shape [..., seq_length] (axis=-1) or [seq_length, ...] (axis=0), where
        seq_length = (num_frames - 1) * hop_length + frame_length.

    Examples:
        >>> paddle.signal.overlap_add(paddle.arange(16).reshape([8, 2]), hop_length=2)   # [0, 2, 5, 9, ...]
    """
    fn = "paddle.signal.overlap_add"
    check_tensor(x, fn)
    if axis not in (0, -1) or isinstance(axis, bool):
        raise ValueError(f"{fn}: Unexpected axis: {axis}. It should be 0 or -1.")
    if not _is_int(hop_length) or hop_length <= 0:
        raise ValueError(f"{fn}: Unexpected hop_length: {hop_length}. It should be an positive integer.")
    if x.ndim < 2:
        raise ValueError(f"{fn}: x must have at least 2 dimensions (frame_length, num_frames), got rank {x.ndim}")
    _check_framing_dtype(x, fn)
    frame_length = x.shape[-2] if axis == -1 else x.shape[1]
    if frame_length >= 0 and hop_length > frame_length:
        raise ValueError(f"{fn}: hop_length must be <= frame_length, "
                         f"but got hop_length({hop_length}) > frame_length({frame_length})")  # fmt: skip
    return ops.overlap_add(x, hop_length, axis)


def _require(condition: bool, message: str) -> None:
    """Paddle 2.6 checks these with `assert`; minipaddle raises ValueError with its message."""
    if not condition:
        raise ValueError(message)


def _centre_window(window: Tensor, win_length: int, n_fft: int) -> Tensor:
    """A window shorter than n_fft, zero-padded on both sides to n_fft (the extra zero on the right)."""
    if win_length == n_fft:
        return window
    left = (n_fft - win_length) // 2
    return ops.pad(window, ((left, n_fft - win_length - left),))


def _check_window(window, win_length: int, fn: str) -> None:
    check_tensor(window, fn, "window")
    _require(window.ndim == 1 and window.shape[0] == win_length,
             f"{fn}: expected a 1D window tensor of size equal to win_length({win_length}), "
             f"but got window with shape {window.shape}.")  # fmt: skip


def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect", normalized=False,
         onesided=True, name=None):  # fmt: skip
    r"""Short-time Fourier transform: the DFT of overlapping, windowed frames of x.

    .. math::
        X_t[f] = \sum_{n=0}^{N-1} \text{window}[n]\ x[t H + n]\ e^{-2 \pi j f n / N}

    Args:
        x (Tensor): a real or complex signal of shape [seq_length] or [batch, seq_length].
        n_fft (int): the number of samples in each frame (the DFT size), 0 < n_fft <= seq_length.
        hop_length (int, optional): the step between adjacent frames, > 0. Default: n_fft // 4.
        win_length (int, optional): the window's size, 0 < win_length <= n_fft. Default: n_fft.
        window (Tensor, optional): a 1-D window of size win_length, zero-padded on both sides to n_fft.
            Default: a window of ones.
        center (bool, optional): pad x by n_fft // 2 on both sides, so frame t is centred at t * hop_length.
            Default: True.
        pad_mode (str, optional): 'reflect' (default) or 'constant', the padding when `center` is True.
        normalized (bool, optional): scale the result by 1/sqrt(n_fft) ('ortho'). Default: False.
        onesided (bool, optional): keep only the n_fft // 2 + 1 non-redundant frequencies of a real signal;
            must be False for complex x or window. Default: True.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: complex, shape [..., n_fft // 2 + 1, num_frames] (onesided) or [..., n_fft, num_frames];
        complex64 from float32 and integer x, complex128 from float64.

    Examples:
        >>> x = paddle.randn([8, 4800], dtype="float64")
        >>> paddle.signal.stft(x, n_fft=512).shape              # [8, 257, 38]
        >>> paddle.signal.stft(x, n_fft=512, onesided=False).shape  # [8, 512, 38]
    """
    fn = "paddle.signal.stft"
    check_tensor(x, fn)
    rank = x.ndim
    _require(rank in (1, 2), f"{fn}: x should be a 1D or 2D real tensor, but got rank of x is {rank}")
    _check_framing_dtype(x, fn)
    onesided = check_flag(onesided, fn, "onesided")
    if x.dtype.is_integer:  # Paddle's fft_r2c casts integers to float32
        x = ops.cast(x, dtypes.default_float().np)
    if rank == 1:
        x = unsqueeze(x, 0)  # [batch, seq_length]
    if not _is_int(n_fft):  # before n_fft // 4 below
        raise TypeError(f"{fn}: n_fft must be an int, got {type(n_fft).__name__}")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    for arg, value in (("hop_length", hop_length), ("win_length", win_length)):
        if not _is_int(value):
            raise TypeError(f"{fn}: {arg} must be an int, got {type(value).__name__}")
    _require(hop_length > 0, f"{fn}: hop_length should be > 0, but got {hop_length}.")
    _require(0 < n_fft <= x.shape[-1], f"{fn}: n_fft should be in (0, seq_length({x.shape[-1]})], but got {n_fft}.")
    _require(0 < win_length <= n_fft, f"{fn}: win_length should be in (0, n_fft({n_fft})], but got {win_length}.")
    if window is not None:
        _check_window(window, win_length, fn)
    else:
        window = ones((win_length,), dtype=x.dtype)
    window = _centre_window(window, win_length, n_fft)

    if center:
        _require(pad_mode in ("constant", "reflect"),
                 f'{fn}: pad_mode should be "reflect" or "constant", but got "{pad_mode}".')  # fmt: skip
        half = n_fft // 2
        x = ops.pad(x, ((0, 0), (half, half)), pad_mode)

    frames = transpose(ops.frame(x, n_fft, hop_length, -1), [0, 2, 1])  # [batch, num_frames, n_fft]
    frames = multiply(frames, window)
    norm = "ortho" if normalized else "backward"
    if frames.dtype.is_complex:
        _require(not onesided, f"{fn}: onesided should be False when input or window is a complex Tensor.")
        out = ops.fft_c2c(frames, (2,), norm, True)
    else:
        out = ops.fft_r2c(frames, (2,), norm, True, onesided)
    out = transpose(out, [0, 2, 1])  # [batch, frequencies, num_frames]
    return squeeze(out, 0) if rank == 1 else out


def istft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, onesided=True,
          length=None, return_complex=False, name=None):  # fmt: skip
    r"""Inverse short-time Fourier transform: the least-squares signal whose STFT is x (Griffin-Lim).

    Each frame's inverse DFT is multiplied by the window and the frames are added back `hop_length` apart; the
    sum is divided by the overlap-added squared window, which must not vanish anywhere (the NOLA condition).

    Args:
        x (Tensor): a complex STFT of shape [n_fft // 2 + 1 or n_fft, num_frames] or [batch, ..., num_frames].
        n_fft (int): the DFT size used by stft.
        hop_length (int, optional): the step between frames, 0 < hop_length <= win_length. Default: n_fft // 4.
        win_length (int, optional): the window's size, 0 < win_length <= n_fft. Default: n_fft.
        window (Tensor, optional): a 1-D window of size win_length (real unless `return_complex`), zero-padded
            on both sides to n_fft. Default: a window of ones.
        center (bool, optional): whether stft padded the signal by n_fft // 2 on both sides. Default: True.
        normalized (bool, optional): whether stft scaled by 1/sqrt(n_fft). Default: False.
        onesided (bool, optional): whether x holds only the n_fft // 2 + 1 non-redundant frequencies. Default: True.
        length (int, optional): the length of the signal to return. Default: all of it.
        return_complex (bool, optional): return a complex signal (onesided must be False then). Default: False.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: the signal, shape [..., seq_length]; real (float32 from complex64, float64 from complex128)
        unless `return_complex`.

    Examples:
        >>> x = paddle.randn([8, 4800], dtype="float64")
        >>> y = paddle.signal.istft(paddle.signal.stft(x, n_fft=512), n_fft=512)   # y equals x
    """
    fn = "paddle.signal.istft"
    check_tensor(x, fn)
    if not x.dtype.is_complex:
        raise TypeError(f"{fn}: x must be a complex64 or complex128 tensor (an STFT), got {x.dtype.name}")
    rank = x.ndim
    _require(rank in (2, 3), f"{fn}: x should be a 2D or 3D complex tensor, but got rank of x is {rank}")
    if rank == 2:
        x = unsqueeze(x, 0)  # [batch, frequencies, num_frames]
    if not _is_int(n_fft):  # before n_fft // 4 below
        raise TypeError(f"{fn}: n_fft must be an int, got {type(n_fft).__name__}")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    for arg, value in (("hop_length", hop_length), ("win_length", win_length)):
        if not _is_int(value):
            raise TypeError(f"{fn}: {arg} must be an int, got {type(value).__name__}")
    if length is not None and not _is_int(length):
        raise TypeError(f"{fn}: length must be an int or None, got {type(length).__name__}")
    _require(0 < hop_length <= win_length,
             f"{fn}: hop_length should be in (0, win_length({win_length})], but got {hop_length}.")  # fmt: skip
    _require(0 < win_length <= n_fft, f"{fn}: win_length should be in (0, n_fft({n_fft})], but got {win_length}.")
    n_frames, fft_size = x.shape[-1], x.shape[-2]
    if onesided:
        _require(fft_size == n_fft // 2 + 1, f"{fn}: fft_size should be equal to n_fft // 2 + 1({n_fft // 2 + 1}) "
                                             f"when onesided is True, but got {fft_size}.")  # fmt: skip
    else:
        _require(
            fft_size == n_fft,
            f"{fn}: fft_size should be equal to n_fft({n_fft}) when onesided is False, but got {fft_size}.",
        )
    if window is not None:
        _check_window(window, win_length, fn)
    else:
        window = ones((win_length,), dtype="float32" if x.dtype == dtypes.complex64 else "float64")
    window = _centre_window(window, win_length, n_fft)

    x = transpose(x, [0, 2, 1])  # [batch, num_frames, frequencies]
    norm = "ortho" if normalized else "backward"
    if return_complex:
        _require(
            not onesided, f"{fn}: onesided should be False when input(output of istft) or window is a complex Tensor."
        )
        frames = ops.fft_c2c(x, (2,), norm, False)
    else:
        _require(
            not window.dtype.is_complex,
            f"{fn}: Data type of window should not be complex when return_complex is False.",
        )
        if not onesided:
            x = x[:, :, : n_fft // 2 + 1]
        frames = ops.fft_c2r(x, (2,), norm, False, n_fft)  # n_fft samples per frame, odd n_fft too
    frames = transpose(multiply(frames, window), [0, 2, 1])  # [batch, n_fft, num_frames]
    out = ops.overlap_add(frames, hop_length, -1)  # [batch, seq_length]
    squared = tile(unsqueeze(multiply(window, window), 0), [n_frames, 1])  # [num_frames, n_fft]
    envelope = ops.overlap_add(transpose(squared, [1, 0]), hop_length, -1)  # [seq_length]

    start = n_fft // 2 if center else 0
    if length is None:
        if center:
            out, envelope = out[:, start:-start], envelope[start:-start]
    else:
        out, envelope = out[:, start : start + length], envelope[start : start + length]
    if in_dynamic_mode() and ops.min(ops.abs(envelope)).item() < 1e-11:  # static: not known until run
        raise ValueError(
            "Abort istft because Nonzero Overlap Add (NOLA) condition failed. For more information about NOLA "
            "constraint please see `scipy.signal.check_NOLA`(https://docs.scipy.org/doc/scipy/reference/generated/"
            "scipy.signal.check_NOLA.html)."
        )
    out = divide(out, envelope)
    return squeeze(out, 0) if rank == 2 else out
