"""Record what real Paddle 2.6 computes for paddle.signal and paddle.audio (functional and features), as golden
cases for tests/test_signal.py and tests/audio/ (which need no Paddle).

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/signal_audio/make_golden.py

It writes cases.json (each case: the dotted name under paddle, how it is called, its keyword arguments, the
output dtype) and arrays.npz (per case: the input `x` if any, the output `out` and, for float64/complex128
inputs, a weight `w` and the gradient `grad` of the real loss sum(real(out * w)) with respect to x).
Kinds: 'fn' calls paddle.<name>(x, **kwargs); 'make' calls paddle.<name>(**kwargs) (no input); 'layer' builds
paddle.<name>(**kwargs) and calls it on x.
"""

import json
import os

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(26)


def real(*shape):
    return rng.standard_normal(shape)


def cplx(*shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def spectrum(n_fft, frames, onesided=True, batch=None):
    """A genuine STFT (so istft's input is consistent), as complex128."""
    x = real(*((batch,) if batch else ()), (frames - 1) * (n_fft // 4) + n_fft)
    spec = paddle.signal.stft(paddle.to_tensor(x), n_fft, onesided=onesided)
    return spec.numpy()


# name -> (kind, dotted function, input or None, keyword arguments)
CASES = {
    "frame_last": ("fn", "signal.frame", real(2, 10), {"frame_length": 4, "hop_length": 3}),
    "frame_axis0": ("fn", "signal.frame", real(9, 2, 3), {"frame_length": 3, "hop_length": 2, "axis": 0}),
    "frame_int64": ("fn", "signal.frame", np.arange(8), {"frame_length": 4, "hop_length": 2}),
    "frame_complex": ("fn", "signal.frame", cplx(7), {"frame_length": 3, "hop_length": 1}),
    "overlap_add_last": ("fn", "signal.overlap_add", real(2, 4, 3), {"hop_length": 2}),
    "overlap_add_axis0": ("fn", "signal.overlap_add", real(3, 4, 2), {"hop_length": 3, "axis": 0}),
    "overlap_add_int32": ("fn", "signal.overlap_add", np.arange(16, dtype=np.int32).reshape(8, 2), {"hop_length": 2}),
    "stft_default": ("fn", "signal.stft", real(2, 64), {"n_fft": 16}),
    "stft_1d_float32": ("fn", "signal.stft", real(50).astype(np.float32), {"n_fft": 12, "hop_length": 5}),
    "stft_full_ortho": ("fn", "signal.stft", real(40), {"n_fft": 10, "onesided": False, "normalized": True}),
    "stft_constant_pad": ("fn", "signal.stft", real(2, 30), {"n_fft": 8, "pad_mode": "constant", "hop_length": 3}),
    "stft_no_center": ("fn", "signal.stft", real(33), {"n_fft": 9, "center": False, "hop_length": 4}),
    "stft_complex": ("fn", "signal.stft", cplx(2, 32), {"n_fft": 8, "onesided": False}),
    "stft_int64": ("fn", "signal.stft", np.arange(40) % 7, {"n_fft": 8}),
    "istft_default": ("fn", "signal.istft", spectrum(16, 9, batch=2), {"n_fft": 16}),
    "istft_1d_length": ("fn", "signal.istft", spectrum(12, 7), {"n_fft": 12, "length": 30}),
    "istft_full": ("fn", "signal.istft", spectrum(8, 6, onesided=False), {"n_fft": 8, "onesided": False}),
    "istft_return_complex": (
        "fn",
        "signal.istft",
        cplx(8, 6),
        {"n_fft": 8, "onesided": False, "return_complex": True, "normalized": True},
    ),
    "istft_no_center": ("fn", "signal.istft", cplx(2, 5, 7), {"n_fft": 8, "center": False, "hop_length": 3}),
    "istft_complex64": ("fn", "signal.istft", spectrum(8, 5).astype(np.complex64), {"n_fft": 8}),
    "hz_to_mel": ("fn", "audio.functional.hz_to_mel", np.array([20.0, 440.0, 999.0, 1000.0, 1500.0, 8000.0]), {}),
    "hz_to_mel_htk": ("fn", "audio.functional.hz_to_mel", np.array([0.0, 440.0, 8000.0]), {"htk": True}),
    "hz_to_mel_float32": ("fn", "audio.functional.hz_to_mel", np.array([100.0, 3000.0], np.float32), {}),
    "mel_to_hz": ("fn", "audio.functional.mel_to_hz", np.array([0.0, 7.5, 15.0, 20.0, 40.0]), {}),
    "mel_to_hz_htk": ("fn", "audio.functional.mel_to_hz", np.array([0.0, 500.0, 2000.0]), {"htk": True}),
    "power_to_db": ("fn", "audio.functional.power_to_db", np.abs(real(3, 5)) ** 3, {"top_db": 20.0}),
    "power_to_db_ref": ("fn", "audio.functional.power_to_db", np.abs(real(4)), {"ref_value": 2.0, "top_db": None}),
    "power_to_db_float32": ("fn", "audio.functional.power_to_db", np.abs(real(6)).astype(np.float32), {}),
    "mel_frequencies": ("make", "audio.functional.mel_frequencies", None, {"n_mels": 10}),
    "mel_frequencies_htk": (
        "make",
        "audio.functional.mel_frequencies",
        None,
        {"n_mels": 6, "f_min": 30.0, "f_max": 4000.0, "htk": True, "dtype": "float64"},
    ),
    "fft_frequencies": ("make", "audio.functional.fft_frequencies", None, {"sr": 16000, "n_fft": 10}),
    "fbank": ("make", "audio.functional.compute_fbank_matrix", None, {"sr": 16000, "n_fft": 64, "n_mels": 8}),
    "fbank_htk_f64": (
        "make",
        "audio.functional.compute_fbank_matrix",
        None,
        {"sr": 8000, "n_fft": 32, "n_mels": 5, "f_min": 100.0, "f_max": 3000.0, "htk": True, "dtype": "float64"},
    ),
    "fbank_norm_2": (
        "make",
        "audio.functional.compute_fbank_matrix",
        None,
        {"sr": 8000, "n_fft": 32, "n_mels": 4, "norm": 2.0},
    ),
    "fbank_no_norm": (
        "make",
        "audio.functional.compute_fbank_matrix",
        None,
        {"sr": 8000, "n_fft": 32, "n_mels": 4, "norm": None},
    ),
    "create_dct": ("make", "audio.functional.create_dct", None, {"n_mfcc": 5, "n_mels": 8}),
    "create_dct_none_f64": (
        "make",
        "audio.functional.create_dct",
        None,
        {"n_mfcc": 3, "n_mels": 4, "norm": None, "dtype": "float64"},
    ),
    "spectrogram": (
        "layer",
        "audio.features.Spectrogram",
        real(2, 200),
        {"n_fft": 32, "hop_length": 16, "dtype": "float64"},
    ),
    "spectrogram_f32": (
        "layer",
        "audio.features.Spectrogram",
        real(150).astype(np.float32),
        {"n_fft": 16, "window": "hamming", "power": 2.0},
    ),
    "melspectrogram": (
        "layer",
        "audio.features.MelSpectrogram",
        real(2, 300),
        {"sr": 8000, "n_fft": 64, "hop_length": 32, "n_mels": 10, "dtype": "float64"},
    ),
    "logmelspectrogram": (
        "layer",
        "audio.features.LogMelSpectrogram",
        real(2, 300),
        {"sr": 8000, "n_fft": 64, "n_mels": 12, "top_db": 40.0, "dtype": "float64"},
    ),
    "logmelspectrogram_f32": (
        "layer",
        "audio.features.LogMelSpectrogram",
        real(1, 256).astype(np.float32),
        {"sr": 16000, "n_fft": 64, "n_mels": 16, "win_length": 48},
    ),
    "mfcc": (
        "layer",
        "audio.features.MFCC",
        real(2, 300),
        {"sr": 8000, "n_mfcc": 6, "n_fft": 64, "n_mels": 12, "dtype": "float64"},
    ),
    "mfcc_f32": (
        "layer",
        "audio.features.MFCC",
        real(1, 400).astype(np.float32),
        {"sr": 16000, "n_mfcc": 13, "n_fft": 128, "n_mels": 20, "htk": True},
    ),
}
WINDOWS = ["hamming", "hann", "blackman", "triang", "bohman", "cosine", "taylor", "tukey", ("tukey", 0.3),
           ("gaussian", 2.0), ("exponential", None, 2.0), ("general_gaussian", 1.5, 2.0), ("taylor", 5, 40),
           ("general_hamming", 0.6), ("general_cosine", [0.5, 0.3, 0.2])]  # fmt: skip
for window in WINDOWS:
    label = "_".join(str(v) for v in window) if isinstance(window, tuple) else window
    for fftbins in (True, False):
        for n in (7, 8):
            CASES[f"window_{label}_{n}_{fftbins}"] = (
                "make",
                "audio.functional.get_window",
                None,
                {"window": window, "win_length": n, "fftbins": fftbins},
            )
CASES["window_hann_float32"] = (
    "make",
    "audio.functional.get_window",
    None,
    {"window": "hann", "win_length": 16, "dtype": "float32"},
)


def resolve(dotted):
    obj = paddle
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def main():
    meta, arrays, backward_fails = {}, {}, []
    for name, (kind, dotted, x, kwargs) in CASES.items():
        target = resolve(dotted)
        differentiable = x is not None and x.dtype in (np.float64, np.complex128)
        t = None if x is None else paddle.to_tensor(x, stop_gradient=not differentiable)
        if kind == "make":
            out = target(**kwargs)
        elif kind == "layer":
            out = target(**kwargs)(t)
        else:
            out = target(t, **kwargs)
        if x is not None:
            arrays[f"{name}/x"] = x
        arrays[f"{name}/out"] = out.numpy()
        if differentiable:
            w = cplx(*out.shape) if out.dtype in (paddle.complex64, paddle.complex128) else real(*out.shape)
            loss = paddle.real(out * paddle.to_tensor(w)) if np.iscomplexobj(w) else out * paddle.to_tensor(w)
            try:
                loss.sum().backward()
                arrays[f"{name}/w"], arrays[f"{name}/grad"] = w, t.grad.numpy()
            except RuntimeError:  # istft of 2-D x: Paddle 2.6's in-place squeeze_ breaks its backward
                backward_fails.append(name)
        meta[name] = {"kind": kind, "fn": dotted, "kwargs": kwargs, "out_dtype": str(out.numpy().dtype)}
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "cases": meta, "paddle_backward_fails": backward_fails}, f, indent=1)
        f.write("\n")
    np.savez_compressed(os.path.join(HERE, "arrays.npz"), **arrays)
    print(f"{len(meta)} cases")


if __name__ == "__main__":
    main()
