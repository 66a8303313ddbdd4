"""Mel scales, filter banks, decibels and the DCT: the building blocks of paddle.audio.features.

The mel scale is Slaney's (linear below 1 kHz, logarithmic above; librosa's default) or, with `htk=True`,
HTK's 2595 log10(1 + f / 700). hz_to_mel and mel_to_hz take a Python number (and return one) or a Tensor
(and return a Tensor, with gradients); the rest build Tensors in the requested dtype.
"""

from __future__ import annotations

import math
import numbers

from minipaddle.core.tensor import Tensor
from minipaddle.nn.functional.norm import normalize
from minipaddle.tensor.creation import arange, linspace, ones_like, to_tensor, zeros_like
from minipaddle.tensor.math import cos, exp, log, log10, maximum, minimum
from minipaddle.tensor.math import max as tensor_max

__all__ = ["compute_fbank_matrix", "create_dct", "fft_frequencies", "hz_to_mel", "mel_frequencies", "mel_to_hz",
           "power_to_db"]  # fmt: skip

# Slaney's mel scale: 3 mels per 200 Hz up to 1 kHz, then logarithmic (27 mels per factor 6.4)
_F_SP = 200.0 / 3
_MIN_LOG_HZ = 1000.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP
_LOGSTEP = math.log(6.4) / 27.0


def _check_scalar_or_tensor(v, fn: str, arg: str) -> None:
    if not isinstance(v, (Tensor, numbers.Real)) or isinstance(v, bool):
        raise TypeError(f"{fn}: {arg} must be a number or a Tensor, got {type(v).__name__}")


def hz_to_mel(freq, htk=False):
    """Frequencies in Hz to mels (Slaney's scale, or HTK's with `htk=True`).

    Args:
        freq (Tensor|float): frequencies in Hz.
        htk (bool, optional): use HTK's formula 2595 log10(1 + f / 700). Default: False.

    Returns:
        Tensor|float: the mels, of freq's kind (a Tensor of freq's dtype, or a float).

    Examples:
        >>> paddle.audio.functional.hz_to_mel(440.0)   # 6.6
    """
    _check_scalar_or_tensor(freq, "paddle.audio.functional.hz_to_mel", "freq")
    if htk:
        if isinstance(freq, Tensor):
            return 2595.0 * log10(1.0 + freq / 700.0)
        return 2595.0 * math.log10(1.0 + freq / 700.0)
    mels = freq / _F_SP
    if isinstance(freq, Tensor):
        target = _MIN_LOG_MEL + log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
        mask = (freq > _MIN_LOG_HZ).astype(freq.dtype)
        return target * mask + mels * (1 - mask)
    if freq >= _MIN_LOG_HZ:
        return _MIN_LOG_MEL + math.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
    return mels


def mel_to_hz(mel, htk=False):
    """Mels to frequencies in Hz (the inverse of hz_to_mel).

    Args:
        mel (Tensor|float): mels.
        htk (bool, optional): use HTK's formula 700 (10^(m / 2595) - 1). Default: False.

    Returns:
        Tensor|float: the frequencies, of mel's kind.

    Examples:
        >>> paddle.audio.functional.mel_to_hz(10)   # 666.67
    """
    _check_scalar_or_tensor(mel, "paddle.audio.functional.mel_to_hz", "mel")
    if htk:
        return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
    freqs = _F_SP * mel
    if isinstance(mel, Tensor):
        target = _MIN_LOG_HZ * exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
        mask = (mel > _MIN_LOG_MEL).astype(mel.dtype)
        return target * mask + freqs * (1 - mask)
    if mel >= _MIN_LOG_MEL:
        return _MIN_LOG_HZ * math.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
    return freqs


def mel_frequencies(n_mels=64, f_min=0.0, f_max=11025.0, htk=False, dtype="float32"):
    """`n_mels` frequencies in Hz, evenly spaced on the mel scale from f_min to f_max.

    Args:
        n_mels (int, optional): how many. Default: 64.
        f_min (float, optional): the lowest, in Hz. Default: 0.0.
        f_max (float, optional): the highest, in Hz. Default: 11025.0.
        htk (bool, optional): HTK's mel scale instead of Slaney's. Default: False.
        dtype (str, optional): Default: 'float32'.

    Returns:
        Tensor: shape [n_mels].

    Examples:
        >>> paddle.audio.functional.mel_frequencies(n_mels=8)
    """
    mels = linspace(hz_to_mel(f_min, htk=htk), hz_to_mel(f_max, htk=htk), n_mels, dtype=dtype)
    return mel_to_hz(mels, htk=htk)


def fft_frequencies(sr, n_fft, dtype="float32"):
    """The centre frequencies (Hz) of the n_fft // 2 + 1 bins of a onesided DFT at sample rate `sr`.

    Args:
        sr (int): the sample rate.
        n_fft (int): the DFT size.
        dtype (str, optional): Default: 'float32'.

    Returns:
        Tensor: shape [n_fft // 2 + 1], from 0 to sr / 2.

    Examples:
        >>> paddle.audio.functional.fft_frequencies(16000, 512)   # [0, 31.25, ..., 8000]
    """
    return linspace(0, float(sr) / 2, int(1 + n_fft // 2), dtype=dtype)


def compute_fbank_matrix(sr, n_fft, n_mels=64, f_min=0.0, f_max=None, htk=False, norm="slaney", dtype="float32"):
    """The mel filter bank: n_mels triangular filters over the n_fft // 2 + 1 DFT bins (librosa's filters.mel).

    Filter i rises from mel frequency i to i + 1 and falls to i + 2 (of n_mels + 2 frequencies evenly spaced on
    the mel scale from f_min to f_max).

    Args:
        sr (int): the sample rate.
        n_fft (int): the DFT size.
        n_mels (int, optional): the number of filters. Default: 64.
        f_min (float, optional): the lowest frequency, in Hz. Default: 0.0.
        f_max (float, optional): the highest frequency, in Hz. Default: sr / 2.
        htk (bool, optional): HTK's mel scale instead of Slaney's. Default: False.
        norm (str|float, optional): 'slaney' scales each filter to unit area (2 / its width in Hz); a number p
            scales each to unit p-norm; anything else leaves them peaking at 1. Default: 'slaney'.
        dtype (str, optional): Default: 'float32'.

    Returns:
        Tensor: shape [n_mels, n_fft // 2 + 1].

    Examples:
        >>> paddle.audio.functional.compute_fbank_matrix(sr=16000, n_fft=512, n_mels=40).shape   # [40, 257]
    """
    if f_max is None:
        f_max = float(sr) / 2
    fftfreqs = fft_frequencies(sr=sr, n_fft=n_fft, dtype=dtype)
    mel_f = mel_frequencies(n_mels + 2, f_min=f_min, f_max=f_max, htk=htk, dtype=dtype)
    fdiff = mel_f[1:] - mel_f[:-1]  # [n_mels + 1]
    ramps = mel_f.unsqueeze(1) - fftfreqs.unsqueeze(0)  # [n_mels + 2, bins]
    lower = -ramps[:n_mels] / fdiff[:n_mels].unsqueeze(1)  # the rising edges
    upper = ramps[2 : n_mels + 2] / fdiff[1 : n_mels + 1].unsqueeze(1)  # the falling edges
    weights = maximum(zeros_like(lower), minimum(lower, upper))
    if norm == "slaney":
        enorm = 2.0 / (mel_f[2 : n_mels + 2] - mel_f[:n_mels])
        weights = weights * enorm.unsqueeze(1)
    elif isinstance(norm, (int, float)) and not isinstance(norm, bool):
        weights = normalize(weights, p=norm, axis=-1)
    return weights


def power_to_db(spect, ref_value=1.0, amin=1e-10, top_db=80.0):
    """A power spectrogram in decibels: 10 log10(max(spect, amin) / max(ref_value, amin)), clipped to `top_db`
    below its maximum.

    Args:
        spect (Tensor): a power spectrogram (amplitude squared).
        ref_value (float, optional): the power that becomes 0 dB. Default: 1.0.
        amin (float, optional): the floor under spect, > 0. Default: 1e-10.
        top_db (float, optional): the dynamic range kept below the maximum, >= 0; None keeps all. Default: 80.0.

    Returns:
        Tensor: spect's shape and dtype.

    Examples:
        >>> paddle.audio.functional.power_to_db(paddle.to_tensor([1.0, 10.0, 100.0]))   # [0, 10, 20]
    """
    fn = "paddle.audio.functional.power_to_db"
    if not isinstance(spect, Tensor):
        raise TypeError(f"{fn}: spect must be a Tensor, got {type(spect).__name__}")
    if amin <= 0:
        raise ValueError(f"{fn}: amin must be strictly positive, got {amin}")
    if ref_value <= 0:
        raise ValueError(f"{fn}: ref_value must be strictly positive, got {ref_value}")
    if top_db is not None and top_db < 0:
        raise ValueError(f"{fn}: top_db must be non-negative, got {top_db}")
    ones = ones_like(spect)
    log_spec = 10.0 * log10(maximum(ones * amin, spect))
    log_spec = log_spec - 10.0 * math.log10(max(ref_value, amin))
    if top_db is not None:
        log_spec = maximum(log_spec, ones * (tensor_max(log_spec) - top_db))
    return log_spec


def create_dct(n_mfcc, n_mels, norm="ortho", dtype="float32"):
    """The DCT-II matrix that turns n_mels log-mel energies into n_mfcc cepstral coefficients.

    Args:
        n_mfcc (int): the number of coefficients.
        n_mels (int): the number of mel bands.
        norm (str, optional): 'ortho' (default) for an orthonormal DCT, None for the unscaled one (times 2).
        dtype (str, optional): Default: 'float32'.

    Returns:
        Tensor: shape [n_mels, n_mfcc].

    Examples:
        >>> paddle.audio.functional.create_dct(n_mfcc=20, n_mels=64).shape   # [64, 20]
    """
    if norm not in (None, "ortho"):
        raise ValueError(f"paddle.audio.functional.create_dct: norm must be 'ortho' or None, got {norm!r}")
    n = arange(n_mels, dtype=dtype)
    k = arange(n_mfcc, dtype=dtype).unsqueeze(1)
    dct = cos(math.pi / float(n_mels) * (n + 0.5) * k)  # [n_mfcc, n_mels]
    if norm is None:
        dct = dct * 2.0
    else:  # the first row scaled by 1/sqrt(2), then all by sqrt(2 / n_mels)
        first_row = to_tensor([1.0 / math.sqrt(2.0)] + [1.0] * (n_mfcc - 1), dtype=dtype).unsqueeze(1)
        dct = dct * first_row
        dct = dct * math.sqrt(2.0 / float(n_mels))
    return dct.T
