"""paddle.audio.features: Spectrogram, MelSpectrogram, LogMelSpectrogram and MFCC as layers."""

from minipaddle.audio.features.layers import MFCC, LogMelSpectrogram, MelSpectrogram, Spectrogram

__all__ = ["LogMelSpectrogram", "MelSpectrogram", "MFCC", "Spectrogram"]
