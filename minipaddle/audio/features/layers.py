"""Audio features as layers, each built on the one before:

    Spectrogram         |stft(x)| ** power                          [batch, n_fft // 2 + 1, frames]
    MelSpectrogram      fbank_matrix @ Spectrogram(x)               [batch, n_mels, frames]
    LogMelSpectrogram   power_to_db(MelSpectrogram(x))              [batch, n_mels, frames]
    MFCC                dct of LogMelSpectrogram(x) over the mels   [batch, n_mfcc, frames]

The window, filter bank and DCT matrix are buffers (saved in state_dict, not trained). Every step is
differentiable, so gradients flow back to the waveform.
"""

from __future__ import annotations

from minipaddle.audio.functional import compute_fbank_matrix, create_dct, get_window, power_to_db
from minipaddle.nn.layer.layers import Layer
from minipaddle.signal import stft
from minipaddle.tensor.linalg import matmul
from minipaddle.tensor.manipulation import transpose
from minipaddle.tensor.math import abs as tensor_abs
from minipaddle.tensor.math import pow as tensor_pow

__all__ = ["Spectrogram", "MelSpectrogram", "LogMelSpectrogram", "MFCC"]


class Spectrogram(Layer):
    """The spectrogram |stft(x)| ** power of waveforms x [batch, seq_length] (or [seq_length]).

    Args:
        n_fft (int, optional): the DFT size. Default: 512.
        hop_length (int, optional): the step between frames. Default: 512 (None: n_fft // 4).
        win_length (int, optional): the window's size. Default: n_fft.
        window (str, optional): the window's name, for get_window. Default: 'hann'.
        power (float, optional): the exponent of the magnitude, > 0 (1: magnitude, 2: power). Default: 1.0.
        center (bool, optional): pad x so that frames are centred on t * hop_length. Default: True.
        pad_mode (str, optional): 'reflect' or 'constant'. Default: 'reflect'.
        dtype (str, optional): the window's dtype. Default: 'float32'.

    Examples:
        >>> layer = paddle.audio.features.Spectrogram(n_fft=512, hop_length=160)
        >>> layer(paddle.randn([2, 16000])).shape   # [2, 257, 101]
    """

    def __init__(self, n_fft=512, hop_length=512, win_length=None, window="hann", power=1.0, center=True,
                 pad_mode="reflect", dtype="float32"):  # fmt: skip
        super().__init__()
        if not power > 0:
            raise ValueError(f"Spectrogram: power must be > 0, got {power}")
        self.power = power
        win_length = n_fft if win_length is None else win_length
        self.register_buffer("fft_window", get_window(window, win_length, fftbins=True, dtype=dtype))
        self._stft_args = {"n_fft": n_fft, "hop_length": hop_length, "win_length": win_length, "center": center,
                           "pad_mode": pad_mode}  # fmt: skip

    def forward(self, x):
        spectrum = stft(x, window=self.fft_window, **self._stft_args)
        return tensor_pow(tensor_abs(spectrum), self.power)


class MelSpectrogram(Layer):
    """The mel spectrogram: a Spectrogram (power 2 by default) through a mel filter bank.

    Args:
        sr (int, optional): the sample rate. Default: 22050.
        n_fft, hop_length, win_length, window, power, center, pad_mode: as Spectrogram (defaults: 2048, 512,
            None, 'hann', 2.0, True, 'reflect').
        n_mels (int, optional): the number of mel bands. Default: 64.
        f_min (float, optional): the lowest frequency, in Hz. Default: 50.0.
        f_max (float, optional): the highest frequency, in Hz. Default: sr // 2.
        htk (bool, optional): HTK's mel scale instead of Slaney's. Default: False.
        norm (str|float, optional): the filters' normalization, as compute_fbank_matrix. Default: 'slaney'.
        dtype (str, optional): the dtype of the window and filter bank. Default: 'float32'.

    Examples:
        >>> layer = paddle.audio.features.MelSpectrogram(sr=16000, n_fft=512, hop_length=160, n_mels=40)
        >>> layer(paddle.randn([2, 16000])).shape   # [2, 40, 101]
    """

    def __init__(self, sr=22050, n_fft=2048, hop_length=512, win_length=None, window="hann", power=2.0, center=True,
                 pad_mode="reflect", n_mels=64, f_min=50.0, f_max=None, htk=False, norm="slaney",
                 dtype="float32"):  # fmt: skip
        super().__init__()
        self._spectrogram = Spectrogram(n_fft=n_fft, hop_length=hop_length, win_length=win_length, window=window,
                                        power=power, center=center, pad_mode=pad_mode, dtype=dtype)  # fmt: skip
        self.n_mels, self.f_min, self.f_max, self.htk, self.norm = n_mels, f_min, f_max, htk, norm
        f_max = sr // 2 if f_max is None else f_max
        fbank = compute_fbank_matrix(sr=sr, n_fft=n_fft, n_mels=n_mels, f_min=f_min, f_max=f_max, htk=htk,
                                     norm=norm, dtype=dtype)  # fmt: skip
        self.register_buffer("fbank_matrix", fbank)

    def forward(self, x):
        return matmul(self.fbank_matrix, self._spectrogram(x))


class LogMelSpectrogram(Layer):
    """The log mel spectrogram: a MelSpectrogram in decibels (power_to_db).

    Args:
        sr, n_fft, hop_length, win_length, window, power, center, pad_mode, n_mels, f_min, f_max, htk, norm, dtype:
            as MelSpectrogram, except n_fft (default 512) and hop_length (default None: n_fft // 4).
        ref_value (float, optional): the power that becomes 0 dB. Default: 1.0.
        amin (float, optional): the floor under the power, > 0. Default: 1e-10.
        top_db (float, optional): the dynamic range kept below the maximum; None keeps all. Default: None.

    Examples:
        >>> layer = paddle.audio.features.LogMelSpectrogram(sr=16000, n_mels=40)
        >>> layer(paddle.randn([2, 16000])).shape   # [2, 40, 126]
    """

    def __init__(self, sr=22050, n_fft=512, hop_length=None, win_length=None, window="hann", power=2.0, center=True,
                 pad_mode="reflect", n_mels=64, f_min=50.0, f_max=None, htk=False, norm="slaney", ref_value=1.0,
                 amin=1e-10, top_db=None, dtype="float32"):  # fmt: skip
        super().__init__()
        self._melspectrogram = MelSpectrogram(sr=sr, n_fft=n_fft, hop_length=hop_length, win_length=win_length,
                                              window=window, power=power, center=center, pad_mode=pad_mode,
                                              n_mels=n_mels, f_min=f_min, f_max=f_max, htk=htk, norm=norm,
                                              dtype=dtype)  # fmt: skip
        self.ref_value, self.amin, self.top_db = ref_value, amin, top_db

    def forward(self, x):
        mel = self._melspectrogram(x)
        return power_to_db(mel, ref_value=self.ref_value, amin=self.amin, top_db=self.top_db)


class MFCC(Layer):
    """Mel-frequency cepstral coefficients: the orthonormal DCT of a LogMelSpectrogram over its mel bands.

    Args:
        sr (int, optional): the sample rate. Default: 22050.
        n_mfcc (int, optional): the number of coefficients, <= n_mels. Default: 40.
        n_fft, hop_length, win_length, window, power, center, pad_mode, n_mels, f_min, f_max, htk, norm, ref_value,
            amin, top_db, dtype: as LogMelSpectrogram.

    Examples:
        >>> layer = paddle.audio.features.MFCC(sr=16000, n_mfcc=13, n_mels=40)
        >>> layer(paddle.randn([2, 16000])).shape   # [2, 13, 126]
    """

    def __init__(self, sr=22050, n_mfcc=40, n_fft=512, hop_length=None, win_length=None, window="hann", power=2.0,
                 center=True, pad_mode="reflect", n_mels=64, f_min=50.0, f_max=None, htk=False, norm="slaney",
                 ref_value=1.0, amin=1e-10, top_db=None, dtype="float32"):  # fmt: skip
        super().__init__()
        if n_mfcc > n_mels:
            raise ValueError(f"MFCC: n_mfcc cannot be larger than n_mels: {n_mfcc} vs {n_mels}")
        self._log_melspectrogram = LogMelSpectrogram(sr=sr, n_fft=n_fft, hop_length=hop_length,
                                                     win_length=win_length, window=window, power=power,
                                                     center=center, pad_mode=pad_mode, n_mels=n_mels, f_min=f_min,
                                                     f_max=f_max, htk=htk, norm=norm, ref_value=ref_value, amin=amin,
                                                     top_db=top_db, dtype=dtype)  # fmt: skip
        self.register_buffer("dct_matrix", create_dct(n_mfcc=n_mfcc, n_mels=n_mels, dtype=dtype))

    def forward(self, x):
        log_mel = self._log_melspectrogram(x)  # [batch, n_mels, frames]
        return transpose(matmul(transpose(log_mel, [0, 2, 1]), self.dct_matrix), [0, 2, 1])
