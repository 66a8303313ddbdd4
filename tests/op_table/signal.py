"""Op-table section: paddle.signal (the ops frame and overlap_add; stft and istft built on them and paddle.fft).

References are numpy: frames by fancy indexing, overlap-add by np.add.at, stft by numpy.fft of the framed,
windowed signal, istft by the textbook least-squares overlap-add. tests/test_signal.py pins values and
gradients recorded from Paddle 2.6 itself.
"""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, r

S = paddle.signal


def np_frame(x, frame_length, hop_length, axis=-1):
    moved = x if axis == -1 else np.moveaxis(x, 0, -1)
    n = 1 + (moved.shape[-1] - frame_length) // hop_length
    idx = np.arange(frame_length)[:, None] + hop_length * np.arange(n)[None, :]  # [frame_length, frames]
    out = moved[..., idx]
    return out if axis == -1 else np.moveaxis(out, (-2, -1), (1, 0))


def np_overlap_add(x, hop_length, axis=-1):
    frames = x if axis == -1 else np.moveaxis(x, (0, 1), (-1, -2))  # [..., frame_length, frames]
    length, n = frames.shape[-2:]
    out = np.zeros((*frames.shape[:-2], (n - 1) * hop_length + length), dtype=x.dtype)
    idx = np.arange(length)[:, None] + hop_length * np.arange(n)[None, :]
    np.add.at(out, (..., idx), frames)
    return out if axis == -1 else np.moveaxis(out, -1, 0)


def np_stft(x, n_fft, hop_length=None, center=True, pad_mode="reflect", normalized=False, onesided=True):
    hop_length = hop_length or n_fft // 4
    if center:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode=pad_mode)
    frames = np.swapaxes(np_frame(x, n_fft, hop_length), -1, -2)
    norm = "ortho" if normalized else "backward"
    out = np.fft.rfft(frames, norm=norm) if onesided else np.fft.fft(frames, norm=norm)
    return np.swapaxes(out, -1, -2)


def np_istft(spec, n_fft, hop_length=None, center=True, length=None):
    hop_length = hop_length or n_fft // 4
    frames = np.fft.irfft(np.swapaxes(spec, -1, -2), n=n_fft)  # [..., frames, n_fft]
    out = np_overlap_add(np.swapaxes(frames, -1, -2), hop_length)
    envelope = np_overlap_add(np.ones((n_fft, spec.shape[-1]), out.dtype), hop_length)
    start = n_fft // 2 if center else 0
    stop = start + length if length else (len(envelope) - start if center else len(envelope))
    return out[..., start:stop] / envelope[start:stop]


def spec_samples(*samples):
    """An STFT given as its real and imaginary parts: (batch shape, n_fft, frames, kwargs, label)."""

    def make(rng):
        out = []
        for batch, n_fft, frames, kwargs, label in samples:
            shape = (*batch, n_fft // 2 + 1, frames)
            out.append(Sample((r(rng, *shape), r(rng, *shape), n_fft), kwargs, label))
        return out

    return make


ENTRIES: list[OpInfo] = [
    OpInfo("frame", S.frame, np_frame, lambda rng: [
        Sample((r(rng, 2, 10), 4, 3), {}, "last axis"), Sample((r(rng, 9, 2), 3, 2), {"axis": 0}, "axis 0"),
        Sample((r(rng, 7), 7, 1), {}, "one frame")]),
    OpInfo("overlap_add", S.overlap_add, np_overlap_add, lambda rng: [
        Sample((r(rng, 2, 4, 3), 2), {}, "last axis"), Sample((r(rng, 3, 4, 2), 3), {"axis": 0}, "axis 0"),
        Sample((r(rng, 3, 5), 3), {}, "hop = frame_length")]),
    OpInfo("stft", S.stft, np_stft, lambda rng: [
        Sample((r(rng, 2, 40), 8), {}, "default"), Sample((r(rng, 30), 6), {"hop_length": 4, "normalized": True}),
        Sample((r(rng, 2, 25), 8), {"onesided": False, "pad_mode": "constant"}, "full constant"),
        Sample((r(rng, 21), 5), {"center": False, "hop_length": 2}, "no centre")], atol=1e-4, rtol=1e-4),
    OpInfo("istft", lambda re, im, n_fft, **kw: S.istft(paddle.complex(re, im), n_fft, **kw),
           lambda re, im, n_fft, **kw: np_istft(re + 1j * im, n_fft, **kw), spec_samples(
               ((2,), 8, 6, {}, "batch"), ((), 12, 5, {"length": 20}, "length"),
               ((1,), 8, 5, {"center": False, "hop_length": 3}, "no centre")), atol=1e-4, rtol=1e-4),
]  # fmt: skip
