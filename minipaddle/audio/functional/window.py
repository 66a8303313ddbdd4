"""Window functions for spectral analysis (paddle.audio.functional.get_window), as scipy.signal.windows defines them.

Each window is built from minipaddle's tensor functions in the requested dtype, as Paddle builds it. A window of
length M is symmetric (`fftbins=False`: it rises and falls back to its first value) or periodic (`fftbins=True`,
the default, for spectral analysis: the symmetric window of length M + 1 with its last sample dropped).
"""

from __future__ import annotations

import math

from minipaddle.core.tensor import Tensor
from minipaddle.tensor.creation import arange, linspace, ones, zeros
from minipaddle.tensor.linalg import matmul
from minipaddle.tensor.manipulation import concat, flip
from minipaddle.tensor.math import abs as tensor_abs
from minipaddle.tensor.math import cos, exp, prod, sin

__all__ = ["get_window"]


# ---- the shared steps: trivial lengths, and periodic = symmetric of one more sample, truncated ------------------


def _trivial(M) -> bool:
    """Windows of 0 or 1 samples are all ones; M must be a non-negative integer."""
    if int(M) != M or M < 0:
        raise ValueError("Window length M must be a non-negative integer")
    return M <= 1


def _extend(M: int, sym: bool) -> tuple[int, bool]:
    """A periodic window is the symmetric one of M + 1 samples without its last: (length to build, truncate?)."""
    return (M, False) if sym else (M + 1, True)


def _truncate(w: Tensor, needed: bool) -> Tensor:
    return w[:-1] if needed else w


# ---- the windows ---------------------------------------------------------------------------------------------


def _general_cosine(M, a, sym=True, dtype="float64"):
    """sum_k a[k] cos(k x) for x evenly spaced over [-pi, pi]."""
    if _trivial(M):
        return ones((M,), dtype=dtype)
    M, truncate = _extend(M, sym)
    fac = linspace(-math.pi, math.pi, M, dtype=dtype)
    w = zeros((M,), dtype=dtype)
    for k, coefficient in enumerate(a):
        w = w + coefficient * cos(k * fac)
    return _truncate(w, truncate)


def _general_hamming(M, alpha, sym=True, dtype="float64"):
    return _general_cosine(M, [alpha, 1.0 - alpha], sym, dtype=dtype)


def _hamming(M, sym=True, dtype="float64"):
    return _general_hamming(M, 0.54, sym, dtype=dtype)


def _hann(M, sym=True, dtype="float64"):
    return _general_hamming(M, 0.5, sym, dtype=dtype)


def _blackman(M, sym=True, dtype="float64"):
    return _general_cosine(M, [0.42, 0.5, 0.08], sym, dtype=dtype)


def _general_gaussian(M, p, sig, sym=True, dtype="float64"):
    """exp(-|n / sig|^(2p) / 2), n measured from the centre."""
    if _trivial(M):
        return ones((M,), dtype=dtype)
    M, truncate = _extend(M, sym)
    n = arange(0, M, dtype=dtype) - (M - 1.0) / 2.0
    return _truncate(exp(-0.5 * tensor_abs(n / sig) ** (2 * p)), truncate)


def _gaussian(M, std, sym=True, dtype="float64"):
    if _trivial(M):
        return ones((M,), dtype=dtype)
    M, truncate = _extend(M, sym)
    n = arange(0, M, dtype=dtype) - (M - 1.0) / 2.0
    return _truncate(exp(-(n**2) / (2 * std * std)), truncate)


def _exponential(M, center=None, tau=1.0, sym=True, dtype="float64"):
    """exp(-|n - center| / tau); `center` only for periodic windows."""
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    if _trivial(M):
        return ones((M,), dtype=dtype)
    M, truncate = _extend(M, sym)
    center = (M - 1) / 2 if center is None else center
    n = arange(0, M, dtype=dtype)
    return _truncate(exp(-tensor_abs(n - center) / tau), truncate)


def _tukey(M, alpha=0.5, sym=True, dtype="float64"):
    """Flat in the middle, cosine tapers over a fraction `alpha` of the window (0: rectangular, 1: Hann)."""
    if _trivial(M) or alpha <= 0:
        return ones((M,), dtype=dtype)
    if alpha >= 1.0:
        return _hann(M, sym=sym, dtype=dtype)
    M, truncate = _extend(M, sym)
    n = arange(0, M, dtype=dtype)
    width = int(alpha * (M - 1) / 2.0)
    n1, n3 = n[0 : width + 1], n[M - width - 1 :]
    w1 = 0.5 * (1 + cos(math.pi * (-1 + 2.0 * n1 / alpha / (M - 1))))
    w2 = ones((M - 2 * width - 2,), dtype=dtype)
    w3 = 0.5 * (1 + cos(math.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (M - 1))))
    return _truncate(concat([w1, w2, w3]), truncate)


def _triang(M, sym=True, dtype="float64"):
    if _trivial(M):
        return ones((M,), dtype=dtype)
    M, truncate = _extend(M, sym)
    n = arange(1, (M + 1) // 2 + 1, dtype=dtype)
    if M % 2 == 0:
        w = (2 * n - 1.0) / M
        w = concat([w, flip(w, 0)])
    else:
        w = 2 * n / (M + 1.0)
        w = concat([w, flip(w[:-1], 0)])
    return _truncate(w, truncate)


def _bohman(M, sym=True, dtype="float64"):
    if _trivial(M):
        return ones((M,), dtype=dtype)
    M, truncate = _extend(M, sym)
    fac = tensor_abs(linspace(-1, 1, M, dtype=dtype)[1:-1])
    w = (1 - fac) * cos(math.pi * fac) + 1.0 / math.pi * sin(math.pi * fac)
    edge = zeros((1,), dtype=dtype)
    return _truncate(concat([edge, w, edge]), truncate)


def _cosine(M, sym=True, dtype="float64"):
    if _trivial(M):
        return ones((M,), dtype=dtype)
    M, truncate = _extend(M, sym)
    return _truncate(sin(math.pi / M * (arange(0, M, dtype=dtype) + 0.5)), truncate)


def _taylor(M, nbar=4, sll=30, norm=True, sym=True, dtype="float64"):
    """Taylor's window: nbar - 1 cosine terms giving side lobes `sll` dB below the main lobe."""
    if _trivial(M):
        return ones((M,), dtype=dtype)
    M, truncate = _extend(M, sym)
    B = 10 ** (sll / 20)
    A = math.log(B + math.sqrt(B**2 - 1)) / math.pi  # acosh(B) / pi
    s2 = nbar**2 / (A**2 + (nbar - 0.5) ** 2)
    ma = arange(1, nbar, dtype=dtype)  # [nbar - 1]
    m2 = ma * ma
    signs = 1 - 2 * (arange(0, nbar - 1, dtype=dtype) % 2)  # +1, -1, +1, ...
    numer = signs * prod(1 - m2.unsqueeze(1) / s2 / (A**2 + (ma - 0.5) ** 2), axis=1)
    # denominator: 2 * prod over j != m of (1 - m2[m] / m2[j]); the j == m factor is made 1
    ratio = 1 - m2.unsqueeze(1) / m2.unsqueeze(0)
    eye = (arange(0, nbar - 1).unsqueeze(1) == arange(0, nbar - 1).unsqueeze(0)).astype(dtype)
    denom = 2 * prod(ratio + eye, axis=1)
    Fm = numer / denom

    def W(n):
        phase = 2 * math.pi * ma.unsqueeze(1) * (n - M / 2.0 + 0.5) / M
        return 1 + 2 * matmul(Fm.unsqueeze(0), cos(phase))

    w = W(arange(0, M, dtype=dtype))
    if norm:
        w = w * (1.0 / W((M - 1) / 2))
    return _truncate(w.squeeze(), truncate)


_WINDOWS = {
    "general_gaussian": _general_gaussian, "general_cosine": _general_cosine, "general_hamming": _general_hamming,
    "hamming": _hamming, "hann": _hann, "blackman": _blackman, "taylor": _taylor, "tukey": _tukey,
    "gaussian": _gaussian, "exponential": _exponential, "triang": _triang, "bohman": _bohman, "cosine": _cosine,
}  # fmt: skip


def get_window(window, win_length, fftbins=True, dtype="float64"):
    """A window of `win_length` samples, by name, as scipy.signal.get_window.

    Args:
        window (str|tuple): the window's name ('hamming', 'hann', 'blackman', 'triang', 'bohman', 'cosine',
            'taylor', 'tukey'), or a tuple of the name and its parameters: ('gaussian', std),
            ('exponential', center, tau), ('general_gaussian', p, sig), ('tukey', alpha), ('taylor', nbar, sll, norm),
            ('general_cosine', coefficients), ('general_hamming', alpha).
        win_length (int): the number of samples, >= 0.
        fftbins (bool, optional): True (default) for a periodic window (for spectral analysis), False for a
            symmetric one (for filter design).
        dtype (str, optional): the window's dtype. Default: 'float64'.

    Returns:
        Tensor: the window, shape [win_length].

    Examples:
        >>> paddle.audio.functional.get_window('hann', 4)            # [0, 0.5, 1, 0.5], float64
        >>> paddle.audio.functional.get_window(('gaussian', 2.0), 5, fftbins=False)
    """
    args = ()
    if isinstance(window, tuple):
        name, args = window[0], window[1:]
    elif isinstance(window, str):
        if window in ("gaussian", "exponential"):
            raise ValueError(f"The '{window}' window needs one or more parameters -- pass a tuple.")
        name = window
    else:
        raise ValueError(f"{type(window)} as window type is not supported.")
    if name not in _WINDOWS:
        raise ValueError(f"Unknown window type: {name!r}; expected one of {sorted(_WINDOWS)}.")
    return _WINDOWS[name](win_length, *args, sym=not fftbins, dtype=dtype)
