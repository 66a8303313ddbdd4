"""Op-table section: the random op behind paddle.distribution's Dirichlet and Beta samples (standard_gamma).

The reference draws the same Gamma(alpha, 1) numbers from numpy's generator seeded as paddle.seed seeds
minipaddle's, then normalizes them as a Dirichlet draw does. No gradient: Paddle 2.6 has none there.
"""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, pos
from tests.op_table.creation import np_rng, seeded


def dirichlet_sample(concentration):
    return paddle.distribution.Dirichlet(concentration).sample()


def dirichlet_ref(concentration):
    gamma = np_rng().standard_gamma(concentration.astype(np.float64)).astype(concentration.dtype)
    return gamma / gamma.sum(-1, keepdims=True)


ENTRIES = [
    OpInfo("dirichlet_sample", seeded(dirichlet_sample), dirichlet_ref,
           lambda rng: [Sample((pos(rng, 4),), {}, "one simplex"), Sample((pos(rng, 3, 5),), {}, "a batch of 3")],
           grad=False, static=False),
]  # fmt: skip
