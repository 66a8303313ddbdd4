"""Op-table section: fused ops made by the static passes (fc, from fuse_fc), the inference passes' fused ops
(conv2d_fusion, fusion_repeated_fc_relu) and max_pool_infer (inference_op_replace_pass)."""

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


def _conv2d_ref(x, w, strides, paddings, dilations=(1, 1), groups=1):
    """A loop over output pixels and groups (each output pixel a tensordot of its dilated patch)."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    dh, dw = dilations
    xp = np.pad(x, ((0, 0), (0, 0), tuple(paddings[0]), tuple(paddings[1])))
    oh = (xp.shape[2] - dh * (kh - 1) - 1) // strides[0] + 1
    ow = (xp.shape[3] - dw * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, o, oh, ow), dtype=x.dtype)
    og = o // groups
    for i in range(oh):
        for j in range(ow):
            r, s = i * strides[0], j * strides[1]
            patch = xp[:, :, r : r + dh * (kh - 1) + 1 : dh, s : s + dw * (kw - 1) + 1 : dw]
            for k in range(groups):
                out[:, k * og : (k + 1) * og, i, j] = np.tensordot(
                    patch[:, k * cg : (k + 1) * cg], w[k * og : (k + 1) * og], axes=([1, 2, 3], [1, 2, 3])
                )
    return out


def conv2d_fusion_ref(x, w, b, strides, paddings, dilations, groups=1, activation=None):
    out = _conv2d_ref(x, w, strides, paddings, dilations, groups)
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
        Sample(
            (r(rng, 2, 2, 7, 6), r(rng, 3, 2, 2, 3), r(rng, 1, 3, 1, 1), (2, 1), ((1, 0), (0, 2)), (2, 1), 1),
            {"activation": "sigmoid"},
            "dilation 2, uneven padding, sigmoid",
        ),  # fmt: skip
        Sample(
            (r(rng, 2, 3, 9, 8), r(rng, 2, 3, 4, 3), r(rng, 2, 1, 1), (2, 1), ((1, 1), (0, 0)), (1, 2), 1),
            {"activation": "relu"},
            "4x3 kernel (one windows copy), dilation 2",
        ),  # fmt: skip
        Sample(
            (r(rng, 2, 4, 5, 5), r(rng, 6, 2, 3, 3), r(rng, 1, 6, 1, 1), *geo[:3], 2),
            {"activation": "relu"},
            "groups 2",
        ),  # fmt: skip
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


def max_pool_infer_ref(x, kernel_size, strides, paddings, ceil_mode=False, activation=None):
    """A loop over output pixels: the largest value of each window inside x (padding never wins); an activation
    is applied before the pool, where the unswapped Program had it (act_pool_swap_pass moves it after)."""
    x = _ACT[activation](x)
    sizes = x.shape[2:]
    outs = []
    for d, k, s, (b, a) in zip(sizes, kernel_size, strides, paddings):
        span = d + b + a - k
        outs.append((span + s - 1) // s + 1 if ceil_mode else span // s + 1)
    out = np.empty(x.shape[:2] + tuple(outs), x.dtype)
    for idx in np.ndindex(*outs):
        box = tuple(slice(max(0, o * s - b), min(d, o * s - b + k))
                    for o, s, (b, _), k, d in zip(idx, strides, paddings, kernel_size, sizes))  # fmt: skip
        out[(..., *idx)] = x[(..., *box)].reshape(*x.shape[:2], -1).max(-1)
    return out


def max_pool_infer_samples(rng):
    return [
        Sample((r(rng, 2, 3, 6, 6), (2, 2), (2, 2), ((0, 0), (0, 0))), {}, "2x2 stride 2 (LeNet's)"),
        Sample((r(rng, 1, 2, 5, 7), (3, 3), (2, 2), ((1, 1), (1, 0))), {}, "3x3 stride 2, padded"),
        Sample((r(rng, 1, 2, 5, 5), (2, 2), (2, 2), ((0, 0), (0, 0))), {"ceil_mode": True}, "ceil_mode"),
        Sample((r(rng, 2, 2, 7), (3,), (1,), ((1, 1),)), {}, "1-d"),
        Sample((r(rng, 2, 3, 6, 6), (2, 2), (2, 2), ((0, 0), (0, 0))), {"activation": "relu"}, "relu after"),
        Sample((r(rng, 1, 2, 5, 7), (3, 3), (2, 2), ((1, 1), (1, 0))), {"activation": "relu"}, "relu, padded"),
        Sample((r(rng, 1, 2, 6, 6), (2, 2), (2, 2), ((0, 0), (0, 0))), {"activation": "sigmoid"}, "sigmoid after"),
        Sample((r(rng, 1, 2, 6, 6), (3, 3), (1, 1), ((0, 0), (0, 0))), {"activation": "tanh"}, "tanh after"),
    ]


ENTRIES += [
    OpInfo("max_pool_infer", ops.max_pool_infer, max_pool_infer_ref, max_pool_infer_samples),
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
