"""Op-table section: max unpooling (max_unpool1d/2d/3d).

The numpy reference writes one value at a time into each (n, c) plane, independently of the vectorized scatter in
minipaddle/ops/unpool.py. The indices come from a real max pooling (tests/op_table/nn_conv.py's loop reference for
the mask) with windows that do not overlap, or from a random choice of places: never repeated within a plane,
where unpooling would not be differentiable (a later write hides an earlier one).
"""

from __future__ import annotations

import itertools

import numpy as np

import minipaddle.nn.functional as F
from tests.op_table.common import OpInfo, Sample, distinct, r
from tests.op_table.nn_conv import max_pool_mask_ref


def _tup(v, nd):
    return (v,) * nd if isinstance(v, int) else tuple(v)


def unpool_ref(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    nd = x.ndim - 2
    k = _tup(kernel_size, nd)
    s = k if stride is None else _tup(stride, nd)
    p = _tup(padding, nd)
    if output_size is None:
        sizes = [(x.shape[2 + i] - 1) * s[i] + k[i] - 2 * p[i] for i in range(nd)]
    else:
        sizes = list(output_size)[-nd:]
    out = np.zeros((*x.shape[:2], int(np.prod(sizes))), dtype=x.dtype)
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for value, index in zip(x[n, c].ravel(), indices[n, c].ravel()):
            out[n, c, index] = value
    return out.reshape(*x.shape[:2], *sizes)


def _pooled(rng, shape, **pool_kwargs):
    """(values, mask): random values shaped like the pooling's output, and the mask of a max pooling of a random
    input of `shape`."""
    mask = max_pool_mask_ref(distinct(rng, *shape), **pool_kwargs)
    return r(rng, *mask.shape), mask


def _scattered(rng, n, c, plane, count):
    """int32 indices [n, c, count]: `count` different places out of `plane` in each (n, c) plane."""
    picks = [rng.choice(plane, size=count, replace=False) for _ in range(n * c)]
    return np.array(picks, dtype=np.int32).reshape(n, c, count)


def unpool_samples(nd):
    def samples(rng):
        if nd == 1:
            x3, mask3 = _pooled(rng, (2, 2, 8), kernel_size=3, stride=3, padding=1)
            return [
                Sample(_pooled(rng, (2, 2, 8), kernel_size=2), {"kernel_size": 2}, "k2"),
                Sample((x3, mask3), {"kernel_size": 3, "stride": 3, "padding": 1, "output_size": [8]}, "pad, size"),
                Sample((r(rng, 1, 2, 3), _scattered(rng, 1, 2, 9, 3)), {"kernel_size": 3}, "scattered"),
            ]
        if nd == 2:
            return [
                Sample(_pooled(rng, (1, 2, 6, 6), kernel_size=2), {"kernel_size": 2}, "k2"),
                Sample(
                    _pooled(rng, (2, 1, 5, 6), kernel_size=2),
                    {"kernel_size": 2, "output_size": [5, 6]},
                    "output_size",
                ),
                Sample(
                    _pooled(rng, (1, 2, 4, 9), kernel_size=[2, 3], stride=[2, 3]),
                    {"kernel_size": [2, 3], "stride": [2, 3], "output_size": [1, 2, 4, 9]},
                    "rectangular, NCHW size",
                ),
                Sample(
                    (r(rng, 1, 2, 2, 2), _scattered(rng, 1, 2, 16, 4).reshape(1, 2, 2, 2)),
                    {"kernel_size": 3, "stride": 2, "padding": 1, "output_size": [4, 4]},
                    "scattered",
                ),
            ]
        return [
            Sample(_pooled(rng, (1, 2, 4, 4, 6), kernel_size=2), {"kernel_size": 2}, "k2"),
            Sample(
                _pooled(rng, (1, 1, 4, 5, 4), kernel_size=2),
                {"kernel_size": 2, "output_size": [4, 5, 4]},
                "output_size",
            ),
        ]

    return samples


ENTRIES = [
    OpInfo("max_unpool1d", F.max_unpool1d, unpool_ref, unpool_samples(1)),
    OpInfo("max_unpool2d", F.max_unpool2d, unpool_ref, unpool_samples(2)),
    OpInfo("max_unpool3d", F.max_unpool3d, unpool_ref, unpool_samples(3)),
]
