"""Op-table section: fused ops made by the static passes (fc, from fuse_fc)."""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from tests.op_table.common import OpInfo, Sample, r

_ACT = {None: lambda y: y, "relu": lambda y: np.maximum(y, 0), "sigmoid": lambda y: 1 / (1 + np.exp(-y)),
        "tanh": np.tanh}  # fmt: skip


def fc_ref(x, w, b, activation=None):
    out = np.matmul(x, w)
    return _ACT[activation](out if b is None else out + b)


def fc_samples(rng):
    return [
        Sample((r(rng, 3, 4), r(rng, 4, 5), r(rng, 5)), {}, "2-d, no activation"),
        Sample((r(rng, 3, 4), r(rng, 4, 5), r(rng, 5)), {"activation": "relu"}, "relu"),
        Sample((r(rng, 2, 3, 4), r(rng, 4, 2), r(rng, 2)), {"activation": "sigmoid"}, "3-d x, sigmoid"),
        Sample((r(rng, 3, 4), r(rng, 4, 2), None), {"activation": "tanh"}, "no bias, tanh"),
        Sample((r(rng, 4), r(rng, 4, 3), r(rng, 3)), {"activation": "tanh"}, "1-d x"),
        Sample((r(rng, 3, 4), r(rng, 4, 2), r(rng, 3, 1)), {}, "bias broadcast over rows"),
    ]


ENTRIES: list[OpInfo] = [
    OpInfo("fc", ops.fc, fc_ref, fc_samples, double_grad=True, atol=1e-5, rtol=1e-4),
]
