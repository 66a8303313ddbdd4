"""Op-table section: paddle.fft (the ops fft_c2c, fft_r2c, fft_c2r behind every transform; fftshift; fftfreq).

Entries take real float inputs; the transforms of complex input build it inside with paddle.complex, so the
table's float64 gradcheck runs through the complex ops too (as in tests/op_table/complex.py). The references are
numpy.fft; for the Hermitian n-D transforms, which numpy lacks, its 1-D identities are used over n axes:
hfftn(z) = irfftn(conj(z)) with the other norm, ihfftn(x) = conj(rfftn(x)) with the other norm.
tests/test_fft.py pins values and gradients recorded from Paddle 2.6 itself.
"""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, r

F = paddle.fft
OTHER_NORM = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def cplx(a, b):
    return paddle.complex(a, b)


def real_samples(*samples):
    """Samples of one real array each: (shape, kwargs, label)."""

    def make(rng):
        return [Sample((r(rng, *shape),), kwargs, label) for shape, kwargs, label in samples]

    return make


def complex_samples(*samples):
    """Samples of a complex array given as its real and imaginary parts: (shape, kwargs, label)."""

    def make(rng):
        return [Sample((r(rng, *shape), r(rng, *shape)), kwargs, label) for shape, kwargs, label in samples]

    return make


def on_complex(fn):
    """The minipaddle function of a complex input, called with its parts; and the numpy one likewise."""
    return lambda a, b, **kw: fn(cplx(a, b), **kw)


def np_complex(fn):
    return lambda a, b, **kw: fn(a + 1j * b, **kw)


def np_nd(fn):
    """numpy's n-D function with Paddle's default axes for s alone: the last len(s) (numpy 2 wants them named)."""

    def ref(x, s=None, axes=None, norm="backward"):
        if axes is None and s is not None:
            axes = list(range(x.ndim - len(s), x.ndim))
        return fn(x, s, axes, norm=norm)

    return ref


@np_nd
def np_hfftn(z, s=None, axes=None, norm="backward"):
    return np.fft.irfftn(np.conj(z), s, axes, norm=OTHER_NORM[norm])


@np_nd
def np_ihfftn(x, s=None, axes=None, norm="backward"):
    return np.conj(np.fft.rfftn(x, s, axes, norm=OTHER_NORM[norm]))


def np_two(fn, default_axes=(-2, -1)):
    """numpy's n-D function as a 2-D one (axes default to the last two)."""
    return lambda x, s=None, axes=default_axes, norm="backward": fn(x, s, axes, norm=norm)


def np_freq(fn):
    return lambda n, d=1.0: fn(n, d).astype(np.float32)  # Paddle 2.6: always the default dtype


NORMS = ("backward", "forward", "ortho")

ENTRIES: list[OpInfo] = [
    # 1-D
    OpInfo("fft_real", F.fft, np.fft.fft, real_samples(
        ((5,), {}, "1-d"), ((3, 4), {"n": 6, "axis": 0, "norm": "ortho"}, "pad axis 0"),
        ((2, 6), {"n": 4, "norm": "forward"}, "crop")), double_grad=True),
    OpInfo("fft_complex", on_complex(F.fft), np_complex(np.fft.fft), complex_samples(
        *[((2, 4), {"norm": norm}, norm) for norm in NORMS], ((5,), {"n": 7}, "pad"))),
    OpInfo("ifft", on_complex(F.ifft), np_complex(np.fft.ifft), complex_samples(
        ((4, 3), {"axis": 0}, "axis 0"), ((5,), {"n": 3, "norm": "ortho"}, "crop ortho"))),
    OpInfo("ifft_real", F.ifft, np.fft.ifft, real_samples(((2, 5), {"norm": "forward"}, "forward"))),
    OpInfo("rfft", F.rfft, np.fft.rfft, real_samples(
        *[((3, 6), {"norm": norm}, norm) for norm in NORMS], ((5,), {"n": 8}, "pad even"),
        ((4, 7), {"axis": 0, "n": 3}, "crop odd"))),
    OpInfo("irfft", on_complex(F.irfft), np_complex(np.fft.irfft), complex_samples(
        *[((2, 4), {"norm": norm}, norm) for norm in NORMS], ((4,), {"n": 5}, "n odd"),
        ((3, 6), {"n": 4, "axis": 1}, "crop"), ((3,), {"n": 9}, "pad")), double_grad=True),
    OpInfo("irfft_real_input", F.irfft, np.fft.irfft, real_samples(((4,), {}, "float read as complex"))),
    OpInfo("hfft", on_complex(F.hfft), np_complex(np.fft.hfft), complex_samples(
        *[((3, 4), {"norm": norm, "n": 7}, norm) for norm in NORMS], ((5,), {}, "default n"))),
    OpInfo("ihfft", F.ihfft, np.fft.ihfft, real_samples(
        *[((2, 5), {"norm": norm}, norm) for norm in NORMS], ((3,), {"n": 6}, "pad"))),
    # 2-D
    OpInfo("fft2", F.fft2, np_two(np.fft.fftn), real_samples(
        ((2, 3, 4), {}, "real"), ((3, 4), {"s": [2, 5], "norm": "ortho"}, "s"))),
    OpInfo("fft2_complex", on_complex(F.fft2), np_complex(np_two(np.fft.fftn)), complex_samples(
        ((3, 4, 2), {"s": [3, 5], "axes": [2, 0]}, "s axes"))),
    OpInfo("ifft2", on_complex(F.ifft2), np_complex(np_two(np.fft.ifftn)), complex_samples(
        ((4, 3), {"norm": "forward"}, "forward"))),
    OpInfo("rfft2", F.rfft2, np_two(np.fft.rfftn), real_samples(
        ((2, 4, 6), {"s": [3, 5]}, "s"), ((3, 4), {"axes": (1, 0)}, "axes reversed"))),
    OpInfo("irfft2", on_complex(F.irfft2), np_complex(np_two(np.fft.irfftn)), complex_samples(
        ((3, 4), {"axes": (1, 0)}, "axes reversed"), ((2, 3, 3), {"s": [2, 4], "norm": "ortho"}, "s"))),
    OpInfo("hfft2", on_complex(F.hfft2), np_complex(np_two(np_hfftn)), complex_samples(
        ((2, 3, 3), {"axes": (0, 2)}, "axes"), ((3, 4), {"s": [3, 5], "norm": "forward"}, "s"))),
    OpInfo("ihfft2", F.ihfft2, np_two(np_ihfftn), real_samples(((4, 5), {}, "2-d"))),
    # n-D
    OpInfo("fftn", F.fftn, np_nd(np.fft.fftn), real_samples(
        ((2, 3, 4), {}, "all axes"), ((3, 4), {"s": [5]}, "s only"))),
    OpInfo("fftn_complex", on_complex(F.fftn), np_complex(np_nd(np.fft.fftn)), complex_samples(
        ((2, 3, 4), {"axes": [2, 0], "s": [3, 5]}, "s axes"), ((2, 3), {"norm": "ortho"}, "ortho"))),
    OpInfo("ifftn", on_complex(F.ifftn), np_complex(np_nd(np.fft.ifftn)), complex_samples(((2, 2, 3), {}, "all axes"))),
    OpInfo("ifftn_real", F.ifftn, np_nd(np.fft.ifftn), real_samples(((3, 2, 2), {"axes": [0, 2]}, "axes"))),
    OpInfo("rfftn", F.rfftn, np_nd(np.fft.rfftn), real_samples(
        ((2, 3, 4), {"axes": [2, 0], "norm": "forward"}, "last axis first"), ((3, 5), {"s": [4, 4]}, "s"))),
    OpInfo("irfftn", on_complex(F.irfftn), np_complex(np_nd(np.fft.irfftn)), complex_samples(
        ((3, 2, 4), {}, "all axes"), ((3, 4, 3), {"s": [3, 5], "axes": [2, 0]}, "s axes"))),
    OpInfo("hfftn", on_complex(F.hfftn), np_complex(np_hfftn), complex_samples(
        ((3, 4), {"s": [2, 5], "norm": "ortho"}, "s"), ((2, 2, 3), {}, "all axes"))),
    OpInfo("ihfftn", F.ihfftn, np_ihfftn, real_samples(((3, 4, 2), {"axes": (1, 0)}, "axes"))),
    # shifts and frequencies
    OpInfo("fftshift", F.fftshift, np.fft.fftshift, real_samples(
        ((5, 4), {}, "all axes"), ((5, 4), {"axes": [1]}, "one axis"), ((3, 5), {"axes": -1}, "int axis"))),
    OpInfo("ifftshift", F.ifftshift, np.fft.ifftshift, real_samples(
        ((5, 3), {}, "all axes"), ((5, 3), {"axes": 0}, "int axis"))),
    OpInfo("fftfreq", F.fftfreq, np_freq(np.fft.fftfreq), lambda rng: [Sample((5, 0.5)), Sample((8,))], grad=False),
    OpInfo("rfftfreq", F.rfftfreq, np_freq(np.fft.rfftfreq), lambda rng: [Sample((5, 0.5)), Sample((8,))],
           grad=False),
]  # fmt: skip
