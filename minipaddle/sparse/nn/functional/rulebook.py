"""The rulebook of a sparse convolution or pooling: which stored input point meets which kernel offset to make which
output point, as paddle 2.6's CPU kernels build it (phi's ProductRuleBook).

An input point at spatial position p, through kernel offset k, reaches the output position o where
    o * stride = p + padding - k * dilation
when that divides exactly and o lies inside the output. A regular convolution's outputs are every position some
input reaches, sorted (batch first, then each spatial dimension, as paddle orders them); a submanifold
convolution's outputs are exactly its inputs' positions (sorted the same way), each looking at its neighbours
p = o + (k - kernel // 2) * dilation, so the pattern never grows.

The rulebook is built from the integer indices in numpy: it decides which values meet, never their values, so the
values' arithmetic (conv.py, pooling.py) stays in minipaddle ops and gradients reach the values and the weight.
"""

from __future__ import annotations

import itertools

import numpy as np

__all__ = ["Rulebook", "conv_rulebook", "out_spatial"]


class Rulebook:
    """out_indices: int64 [1 + dims, n_out]; pairs: per kernel offset (in row-major order of the kernel), the
    (input rows, output rows) that meet through it (each output row at most once per offset)."""

    def __init__(self, out_indices: np.ndarray, pairs: list[tuple[np.ndarray, np.ndarray]]) -> None:
        self.out_indices = out_indices
        self.pairs = pairs

    @property
    def n_out(self) -> int:
        return int(self.out_indices.shape[1])


def out_spatial(spatial, kernel, stride, padding, dilation) -> list[int]:
    """The output's spatial sizes: (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1 each."""
    return [
        (s + 2 * p - d * (k - 1) - 1) // st + 1 for s, k, st, p, d in zip(spatial, kernel, stride, padding, dilation)
    ]


def _linear(positions: np.ndarray, sizes) -> np.ndarray:
    # one int64 key per (batch, spatial...) column, ordered as the columns sort lexicographically
    return np.ravel_multi_index(tuple(positions), tuple(sizes))


def conv_rulebook(indices: np.ndarray, batch: int, spatial, kernel, stride, padding, dilation, subm: bool) -> Rulebook:
    """The rulebook for input `indices` [1 + dims, nnz] (batch, then spatial positions) of a [batch, *spatial, C]
    tensor. subm keeps the input's positions (stride and padding do not apply, as in paddle)."""
    dims = len(kernel)
    where = indices[1:].astype(np.int64)
    if subm:
        out_sizes = [batch, *spatial]
        keys = np.unique(_linear(indices, out_sizes))
        out_indices = np.stack(np.unravel_index(keys, out_sizes)).astype(np.int64)
        pairs = []
        for offset in itertools.product(*(range(k) for k in kernel)):
            # the output at o reads the input at o + (k - center) * dilation: so input p feeds o = p - (that shift)
            shift = np.array([(k - kern // 2) * d for k, kern, d in zip(offset, kernel, dilation)])[:, None]
            o = where - shift
            inside = np.all((o >= 0) & (o < np.array(spatial)[:, None]), axis=0)
            cols = np.flatnonzero(inside)
            cand = _linear(np.concatenate([indices[:1, cols], o[:, cols]]), out_sizes)
            row = np.minimum(np.searchsorted(keys, cand), len(keys) - 1)
            hit = keys[row] == cand
            pairs.append((cols[hit], row[hit]))
        return Rulebook(out_indices, pairs)
    out_sp = out_spatial(spatial, kernel, stride, padding, dilation)
    out_sizes = [batch, *out_sp]
    found = []
    for offset in itertools.product(*(range(k) for k in kernel)):
        num = where + np.array(padding)[:, None] - np.array(offset)[:, None] * np.array(dilation)[:, None]
        st = np.array(stride)[:, None]
        o = num // st
        ok = np.all((num % st == 0) & (o >= 0) & (o < np.array(out_sp)[:, None]), axis=0)
        rows = np.flatnonzero(ok)
        found.append((rows, _linear(np.concatenate([indices[:1, rows], o[:, rows]]), out_sizes)))
    all_keys = np.concatenate([k for _, k in found]) if found else np.zeros(0, np.int64)
    keys = np.unique(all_keys)
    out_indices = np.stack(np.unravel_index(keys, out_sizes)).astype(np.int64).reshape(dims + 1, -1)
    pairs = [(rows, np.searchsorted(keys, k)) for rows, k in found]
    return Rulebook(out_indices, pairs)
