"""conv2d_fusion's im2col, a chunk of the batch at a time (ops/fused_conv.py): copied from x one slice per kernel
position (the border zeroed once), or each chunk padded into an array of its own and read through its windows.
Checked against the conv2d kernel over paddings (asymmetric, wider than the kernel), strides, dilations and chunk
sizes (one image, two of three, all)."""

import itertools

import numpy as np
import pytest

from minipaddle.core.op import OPS
from minipaddle.ops import fused_conv
from minipaddle.ops.fused_conv import conv2d_fusion_into

KERNELS = [(3, 3), (1, 3), (3, 1), (2, 2), (1, 1)]
GEOMETRY = list(itertools.product([(1, 1), (2, 1), (2, 3)], [(1, 1), (2, 1), (1, 3)]))
PADDINGS = [((0, 0), (0, 0)), ((1, 1), (1, 1)), ((2, 0), (0, 3)), ((4, 4), (5, 5)), ((0, 1), (1, 0))]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("paddings", PADDINGS)
@pytest.mark.parametrize("chunk", [1, 2, None])  # images per chunk (None: as many as the budget allows)
@pytest.mark.parametrize("unpadded_min", [0, 10**9])  # slices per kernel position from x; a padded copy of each chunk
def test_chunked_im2col_equals_conv2d(kernel, paddings, chunk, unpadded_min, monkeypatch):
    monkeypatch.setattr(fused_conv, "_UNPADDED_MIN", unpadded_min)
    if chunk is not None:
        monkeypatch.setattr(fused_conv, "_images_per_chunk", lambda n, bytes_per_image: min(n, chunk))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 3, 7, 6)).astype("float32")
    w = rng.standard_normal((4, 3, *kernel)).astype("float32")
    b = rng.standard_normal((1, 4, 1, 1)).astype("float32")
    for strides, dilations in GEOMETRY:
        spans = [d + sum(p) - dl * (k - 1) for d, p, dl, k in zip(x.shape[2:], paddings, dilations, kernel)]
        if min(spans) < 1:  # no output pixel at all: the reference kernel refuses it
            continue
        want = np.maximum(OPS["conv2d"].kernel(x, w, strides, paddings, dilations, 1) + b, 0)
        got = conv2d_fusion_into(x, w, b, strides, paddings, dilations, 1, "relu")
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
