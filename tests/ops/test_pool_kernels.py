"""max_pool's scan and max_pool_grad's scatter, beyond what the op table's distinct-valued samples reach: ties,
NaN, -inf, windows that overlap or lie in the padding (Paddle 2.6.2's results, measured, are written in below)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F

LOWEST = np.finfo(np.float32).min


def scan_ref(x, kernel, stride, pads, ceil_mode=False):
    """Paddle's CPU max-pool loop, one window at a time: start from the lowest value and index -1, take an element
    only when it is strictly greater. Returns (out, mask)."""
    nd = x.ndim - 2
    out_sp = []
    for d, k, s, (b, a) in zip(x.shape[2:], kernel, stride, pads):
        span = d + b + a - k
        out_sp.append((span + s - 1) // s + 1 if ceil_mode else span // s + 1)
    out = np.full((*x.shape[:2], *out_sp), LOWEST, dtype=x.dtype)
    mask = np.full(out.shape, -1, dtype=np.int32)
    for n, c, *pos in itertools.product(*(range(q) for q in out.shape)):
        for kpos in itertools.product(*(range(k) for k in kernel)):
            at = [p * s + kp - b for p, s, kp, (b, _) in zip(pos, stride, kpos, pads)]
            if all(0 <= a < d for a, d in zip(at, x.shape[2:])) and x[(n, c, *at)] > out[(n, c, *pos)]:
                out[(n, c, *pos)] = x[(n, c, *at)]
                mask[(n, c, *pos)] = np.ravel_multi_index(at, x.shape[2:])
    assert len(pos) == nd
    return out, mask


@pytest.mark.parametrize(
    "shape, kernel, stride, pads, ceil_mode",
    [
        ((2, 3, 6, 8), (2, 2), (2, 2), ((0, 0), (0, 0)), False),  # LeNet's pooling
        ((1, 2, 7, 6), (3, 3), (2, 2), ((1, 1), (1, 1)), False),  # overlapping, padded
        ((1, 2, 5, 5), (2, 3), (2, 1), ((0, 1), (1, 0)), True),  # uneven padding, ceil_mode
        ((1, 1, 2, 2), (3, 3), (1, 1), ((1, 1), (1, 1)), False),  # kernel wider than the input
        ((2, 2, 9), (3,), (2,), ((1, 1),), True),  # 1-d
        ((1, 2, 4, 3, 5), (2, 2, 2), (1, 2, 2), ((0, 0), (1, 1), (0, 1)), False),  # 3-d
    ],
)
def test_max_pool_ties_follow_paddles_scan(shape, kernel, stride, pads, ceil_mode):
    # Small integers: most windows hold ties, so the first maximum (row-major) must win.
    x = np.random.default_rng(0).integers(0, 3, size=shape).astype(np.float32)
    out, mask = paddle.ops.max_pool(paddle.to_tensor(x), kernel, stride, pads, ceil_mode)
    ref_out, ref_mask = scan_ref(x, kernel, stride, pads, ceil_mode)
    np.testing.assert_array_equal(out.numpy(), ref_out)
    np.testing.assert_array_equal(mask.numpy(), ref_mask)


def test_max_pool_nan_and_inf_as_paddle():
    nan, inf = np.nan, np.inf
    x = np.array([[[[1, nan], [3, 2]], [[nan, 1], [0, 2]], [[2, 2], [2, 2]], [[0, 5], [5, 1]], [[-inf] * 2] * 2]],
                 dtype=np.float32)  # fmt: skip
    out, mask = F.max_pool2d(paddle.to_tensor(x), 2, return_mask=True)
    # NaN never wins; the first of equal maxima wins; a window of -inf gives the lowest float and no index.
    np.testing.assert_array_equal(out.numpy().ravel(), [3, 2, 2, 5, LOWEST])
    np.testing.assert_array_equal(mask.numpy().ravel(), [2, 3, 0, 1, -1])
    out, mask = F.max_pool2d(paddle.to_tensor(x[:, 1:2]), 2, stride=1, padding=1, return_mask=True)
    np.testing.assert_array_equal(out.numpy()[0, 0], [[LOWEST, 1, 1], [0, 2, 2], [0, 2, 2]])
    np.testing.assert_array_equal(mask.numpy()[0, 0], [[-1, 1, 1], [2, 3, 3], [2, 3, 3]])


def test_max_pool_grad_adds_where_windows_share_a_maximum():
    # One large pixel is the maximum of all 9 overlapping 3x3 windows around it (stride 1, padding 1).
    x = np.zeros((1, 1, 3, 3), dtype=np.float32)
    x[0, 0, 1, 1] = 5.0
    t = paddle.to_tensor(x, stop_gradient=False)
    F.max_pool2d(t, 3, stride=1, padding=1).sum().backward()
    expected = np.zeros_like(x)
    expected[0, 0, 1, 1] = 9.0
    np.testing.assert_array_equal(t.grad.numpy(), expected)
    assert t.grad.numpy().dtype == np.float32


def test_max_pool_grad_skips_windows_without_a_maximum():
    # Windows holding only -inf have mask -1: their gradient goes nowhere.
    x = np.full((1, 1, 2, 4), -np.inf, dtype=np.float32)
    x[0, 0, :, 2:] = [[1.0, 4.0], [3.0, 2.0]]
    t = paddle.to_tensor(x, stop_gradient=False)
    F.max_pool2d(t, 2).sum().backward()
    np.testing.assert_array_equal(t.grad.numpy()[0, 0], [[0, 0, 0, 1], [0, 0, 0, 0]])
