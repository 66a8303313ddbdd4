"""paddle.audio (minipaddle/audio): functional and features against golden cases recorded from Paddle 2.6
(tests/golden/signal_audio), then signatures, Python-number inputs, buffers, gradients and argument checks.
Paddle 2.6's audio.backends and audio.datasets (files and downloads) are not part of minipaddle."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import minipaddle as paddle
from tests.test_signal import check_golden_case, golden_names

AF = paddle.audio.functional


@pytest.mark.parametrize("name", golden_names("audio."))
def test_values_dtypes_and_gradients_match_paddle(name):
    check_golden_case(name)


SIGNATURES = {
    "functional.compute_fbank_matrix": "(sr, n_fft, n_mels=64, f_min=0.0, f_max=None, htk=False, norm='slaney', "
                                       "dtype='float32')",
    "functional.create_dct": "(n_mfcc, n_mels, norm='ortho', dtype='float32')",
    "functional.fft_frequencies": "(sr, n_fft, dtype='float32')",
    "functional.hz_to_mel": "(freq, htk=False)",
    "functional.mel_to_hz": "(mel, htk=False)",
    "functional.mel_frequencies": "(n_mels=64, f_min=0.0, f_max=11025.0, htk=False, dtype='float32')",
    "functional.power_to_db": "(spect, ref_value=1.0, amin=1e-10, top_db=80.0)",
    "functional.get_window": "(window, win_length, fftbins=True, dtype='float64')",
    "features.Spectrogram": "(n_fft=512, hop_length=512, win_length=None, window='hann', power=1.0, center=True, "
                            "pad_mode='reflect', dtype='float32')",
    "features.MelSpectrogram": "(sr=22050, n_fft=2048, hop_length=512, win_length=None, window='hann', power=2.0, "
                               "center=True, pad_mode='reflect', n_mels=64, f_min=50.0, f_max=None, htk=False, "
                               "norm='slaney', dtype='float32')",
    "features.LogMelSpectrogram": "(sr=22050, n_fft=512, hop_length=None, win_length=None, window='hann', "
                                  "power=2.0, center=True, pad_mode='reflect', n_mels=64, f_min=50.0, f_max=None, "
                                  "htk=False, norm='slaney', ref_value=1.0, amin=1e-10, top_db=None, "
                                  "dtype='float32')",
    "features.MFCC": "(sr=22050, n_mfcc=40, n_fft=512, hop_length=None, win_length=None, window='hann', power=2.0, "
                     "center=True, pad_mode='reflect', n_mels=64, f_min=50.0, f_max=None, htk=False, norm='slaney', "
                     "ref_value=1.0, amin=1e-10, top_db=None, dtype='float32')",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signatures_match_paddle(name):
    module, fn = name.split(".")
    assert str(inspect.signature(getattr(getattr(paddle.audio, module), fn))) == SIGNATURES[name]


def test_all_lists():
    assert paddle.audio.__all__ == ["functional", "features"]
    assert sorted(paddle.audio.features.__all__) == ["LogMelSpectrogram", "MFCC", "MelSpectrogram", "Spectrogram"]
    assert len(AF.__all__) == 8


def test_python_numbers_in_python_numbers_out():
    """Values from Paddle 2.6: hz_to_mel(440.) = 6.6, hz_to_mel(2000) = 25.0818..., mel_to_hz(30.) = 2804.64..."""
    assert AF.hz_to_mel(440.0) == pytest.approx(6.6)
    assert AF.hz_to_mel(2000) == pytest.approx(25.081880158035574, rel=1e-14)
    assert AF.hz_to_mel(440, htk=True) == pytest.approx(549.6386753811499, rel=1e-14)
    assert AF.mel_to_hz(10) == pytest.approx(666.6666666666667, rel=1e-14)
    assert AF.mel_to_hz(30.0) == pytest.approx(2804.6441307389214, rel=1e-14)
    assert isinstance(AF.hz_to_mel(440.0), float)


def test_layers_hold_buffers_and_pass_gradients():
    mfcc = paddle.audio.features.MFCC(sr=8000, n_mfcc=5, n_fft=32, n_mels=8, dtype="float64")
    names = set(mfcc.state_dict())
    assert {"dct_matrix", "_log_melspectrogram._melspectrogram.fbank_matrix",
            "_log_melspectrogram._melspectrogram._spectrogram.fft_window"} <= names  # fmt: skip
    assert mfcc.parameters() == []
    x = paddle.to_tensor(np.random.default_rng(1).standard_normal((1, 96)), stop_gradient=False)
    assert paddle.testing.gradcheck(lambda t: paddle.audio.features.Spectrogram(16, 4, dtype="float64")(t), [x])
    out = mfcc(x)
    assert out.shape == [1, 5, 13]
    (g,) = paddle.grad([out.sum()], [x])
    assert np.isfinite(g.numpy()).all() and np.abs(g.numpy()).max() > 0


ERRORS = [
    (lambda: AF.get_window("gaussian", 5), ValueError, "needs one or more parameters"),
    (lambda: AF.get_window(3, 5), ValueError, "not supported"),
    (lambda: AF.get_window("kaiser", 5), ValueError, "Unknown window type"),
    (lambda: AF.get_window("hann", -1), ValueError, "non-negative integer"),
    (lambda: AF.get_window(("exponential", 1.0, 2.0), 5, fftbins=False), ValueError, "center must be None"),
    (lambda: AF.power_to_db(paddle.ones([3]), amin=0), ValueError, "amin"),
    (lambda: AF.power_to_db(paddle.ones([3]), ref_value=-1), ValueError, "ref_value"),
    (lambda: AF.power_to_db(paddle.ones([3]), top_db=-1), ValueError, "top_db"),
    (lambda: AF.create_dct(3, 4, norm="l1"), ValueError, "norm"),
    (lambda: AF.hz_to_mel("440"), TypeError, "number or a Tensor"),
    (lambda: paddle.audio.features.Spectrogram(power=0), ValueError, "power"),
    (lambda: paddle.audio.features.MFCC(n_mfcc=80, n_mels=64), ValueError, "n_mfcc"),
]  # fmt: skip


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_argument_errors(i):
    call, error, message = ERRORS[i]
    with pytest.raises(error, match=message):
        call()
