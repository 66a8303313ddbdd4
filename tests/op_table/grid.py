"""Op-table section: affine_grid and grid_sample (spatial transformers).

The numpy references below go point by point with Python loops, written from the formulas in Paddle's
documentation, independently of the vectorized kernels in minipaddle/ops/grid.py. Grid values are random, so no
point sits exactly on a pixel boundary or an edge, where the gradient is not defined.
"""

from __future__ import annotations

import itertools

import numpy as np

import minipaddle.nn.functional as F
from tests.op_table.common import OpInfo, Sample, r


def affine_grid_ref(theta, out_shape, align_corners=True):
    sizes = out_shape[2:]
    d = len(sizes)
    out = np.zeros((theta.shape[0], *sizes, d), theta.dtype)
    for n, pos in itertools.product(range(theta.shape[0]), itertools.product(*(range(s) for s in sizes))):
        normalized = []
        for i, s in zip(pos, sizes):
            edge = 2 * i / (s - 1) - 1  # -1 at the first pixel, 1 at the last
            normalized.append(edge if align_corners else edge * (s - 1) / s)
        point = np.array([*reversed(normalized), 1.0])  # (x, y[, z], 1): x runs along the last axis
        out[(n, *pos)] = theta[n] @ point
    return out


def _source(g, n, padding_mode, align_corners):
    """One normalized coordinate as a pixel coordinate along an axis of n pixels, after padding."""
    i = (g + 1) / 2 * (n - 1) if align_corners else ((g + 1) * n - 1) / 2
    if padding_mode == "reflection":
        lo, hi = (0, n - 1) if align_corners else (-0.5, n - 0.5)
        while not lo <= i <= hi:  # mirror at whichever edge it crossed until it lands inside
            i = 2 * lo - i if i < lo else 2 * hi - i
    if padding_mode in ("border", "reflection"):
        i = min(max(i, 0), n - 1)
    return i


def grid_sample_ref(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True):
    sizes = x.shape[2:]
    out = np.zeros((*x.shape[:2], *grid.shape[1:-1]), x.dtype)
    for n, pos in itertools.product(range(x.shape[0]), itertools.product(*(range(s) for s in grid.shape[1:-1]))):
        point = grid[(n, *pos)][::-1]  # (z,) y, x: in x's axis order
        src = [_source(g, s, padding_mode, align_corners) for g, s in zip(point, sizes)]
        if mode == "nearest":
            corners = [([int(np.floor(c + 0.5)) for c in src], 1.0)]  # (random points never sit exactly on a half)
        else:
            corners = []
            for bits in itertools.product((0, 1), repeat=len(src)):
                idx = [int(np.floor(c)) + b for c, b in zip(src, bits)]
                corners.append((idx, np.prod([1 - abs(c - i) for c, i in zip(src, idx)])))
        for idx, w in corners:
            if all(0 <= i < s for i, s in zip(idx, sizes)):
                out[(n, slice(None), *pos)] += w * x[(n, slice(None), *idx)]
    return out


def affine_grid_samples(rng):
    return [
        Sample((r(rng, 2, 2, 3), [2, 1, 3, 4]), {}, "2-d"),
        Sample((r(rng, 1, 2, 3), [1, 3, 2, 5]), {"align_corners": False}, "2-d edges"),
        Sample((r(rng, 2, 3, 4), [2, 1, 2, 3, 2]), {}, "3-d"),
        Sample((r(rng, 1, 3, 4), (1, 1, 3, 2, 2)), {"align_corners": False}, "3-d edges"),
    ]


def grid_sample_samples(rng):
    x, grid = lambda: r(rng, 2, 2, 3, 4), lambda: r(rng, 2, 3, 2, 2, low=-1.3, high=1.3)
    samples = [Sample((x(), grid()), {}, "default")]
    for mode, padding, corners in itertools.product(("bilinear", "nearest"), ("zeros", "border", "reflection"),
                                                    (True, False)):  # fmt: skip
        kwargs = {"mode": mode, "padding_mode": padding, "align_corners": corners}
        samples.append(Sample((x(), grid()), kwargs, f"{mode} {padding} {'corners' if corners else 'edges'}"))
    far = r(rng, 1, 3, 3, 2, low=-4.0, high=4.0)  # mirrored more than once
    samples.append(Sample((r(rng, 1, 2, 3, 4), far), {"padding_mode": "reflection"}, "reflect far"))
    samples.append(Sample((r(rng, 1, 2, 2, 3, 2), r(rng, 1, 2, 2, 1, 3, low=-1.2, high=1.2)), {}, "3-d"))
    samples.append(Sample((r(rng, 1, 1, 2, 3, 2), r(rng, 1, 1, 2, 2, 3, low=-2.0, high=2.0)),
                          {"padding_mode": "reflection", "align_corners": False}, "3-d reflection"))  # fmt: skip
    return samples


ENTRIES: list[OpInfo] = [
    OpInfo("affine_grid", F.affine_grid, affine_grid_ref, affine_grid_samples, double_grad=True),
    OpInfo("grid_sample", F.grid_sample, grid_sample_ref, grid_sample_samples),
]
