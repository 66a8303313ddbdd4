"""paddle.audio.functional: mel scales, filter banks, decibels, the DCT and window functions."""

from minipaddle.audio.functional.functional import (
    compute_fbank_matrix,
    create_dct,
    fft_frequencies,
    hz_to_mel,
    mel_frequencies,
    mel_to_hz,
    power_to_db,
)
from minipaddle.audio.functional.window import get_window

__all__ = ["compute_fbank_matrix", "create_dct", "fft_frequencies", "hz_to_mel", "mel_frequencies", "mel_to_hz",
           "power_to_db", "get_window"]  # fmt: skip
