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


def _conv2d_ref(x, w, strides, paddings):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), tuple(paddings[0]), tuple(paddings[1])))
    oh = (xp.shape[2] - kh) // strides[0] + 1
    ow = (xp.shape[3] - kw) // strides[1] + 1
    out = np.zeros((n, o, oh, ow), dtype=x.dtype)
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i * strides[0] : i * strides[0] + kh, j * strides[1] : j * strides[1] + kw]
            out[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return out


def conv2d_fusion_ref(x, w, b, strides, paddings, dilations, groups=1, activation=None):
    out = _conv2d_ref(x, w, strides, paddings)
    return _ACT[activation](out if b is None else out + b)


def conv2d_fusion_samples(rng):
    geo = ((1, 1), ((1, 1), (1, 1)), (1, 1), 1)
    return [
        Sample((r(rng, 2, 3, 5, 5), r(rng, 4, 3, 3, 3), r(rng, 1, 4, 1, 1), *geo), {"activation": "relu"}, "relu"),
        Sample(
            (r(rng, 1, 2, 4, 4), r(rng, 3, 2, 2, 2), r(rng, 3, 1, 1), (2, 2), ((0, 0), (0, 0)), (1, 1), 1),
            {"activation": "tanh"},
            "stride 2, tanh",
        ),  # fmt: skip
        Sample((r(rng, 1, 2, 4, 4), r(rng, 3, 2, 3, 3), None, *geo), {}, "no bias, no activation"),
    ]


def repeated_fc_relu_ref(x, weights, biases):
    out = x
    for w, b in zip(weights, biases):
        out = np.maximum(out @ w + b, 0)
    return out


def repeated_fc_relu_samples(rng):
    return [
        Sample((r(rng, 3, 4), [r(rng, 4, 5), r(rng, 5, 2)], [r(rng, 5), r(rng, 2)]), {}, "two layers"),
        Sample(
            (r(rng, 2, 3), [r(rng, 3, 3), r(rng, 3, 4), r(rng, 4, 2)], [r(rng, 3), r(rng, 4), r(rng, 2)]),
            {},
            "three layers",
        ),  # fmt: skip
    ]


ENTRIES += [
    OpInfo("conv2d_fusion", ops.conv2d_fusion, conv2d_fusion_ref, conv2d_fusion_samples, atol=1e-5, rtol=1e-4),
    OpInfo(
        "fusion_repeated_fc_relu",
        ops.fusion_repeated_fc_relu,
        repeated_fc_relu_ref,
        repeated_fc_relu_samples,
        atol=1e-5,
        rtol=1e-4,
    ),  # fmt: skip
]
