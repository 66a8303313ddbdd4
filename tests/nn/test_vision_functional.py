"""affine_grid and grid_sample: argument checks and the places where minipaddle chose differently from Paddle.

Values and gradients are checked in the op table (tests/op_table/grid.py) and against paddle 2.6
(tests/nn/test_grid_golden.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F

IDENTITY = [[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]


def test_identity_transform_samples_the_image_itself():
    x = paddle.rand([2, 3, 5, 4])
    theta = paddle.to_tensor(IDENTITY * 2)
    for corners in (True, False):
        grid = F.affine_grid(theta, x.shape, align_corners=corners)
        out = F.grid_sample(x, grid, align_corners=corners)
        assert grid.shape == [2, 5, 4, 2] and out.dtype == paddle.float32
        np.testing.assert_allclose(out.numpy(), x.numpy(), atol=1e-6)


def test_out_shape_may_be_a_tensor_and_n_comes_from_theta():
    grid = F.affine_grid(paddle.to_tensor(IDENTITY), paddle.to_tensor([5, 1, 2, 3]))
    assert grid.shape == [1, 2, 3, 2]  # Paddle ignores out_shape's N too


def test_a_one_pixel_axis_sits_at_the_centre():
    # Paddle 2.6 gives NaN here (it divides by size - 1); the centre, 0, is what the formula means
    grid = F.affine_grid(paddle.to_tensor(IDENTITY), [1, 1, 1, 3]).numpy()
    np.testing.assert_array_equal(grid[0, 0, :, 1], [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(grid[0, 0, :, 0], [-1.0, 0.0, 1.0])


def test_nearest_rounds_first_then_checks_the_bounds_in_3d_too():
    # a point 0.3 pixel before the first pixel rounds to pixel 0 (Paddle's 3-D kernel alone reads 0 there)
    x = paddle.arange(1, 5, dtype="float64").reshape([1, 1, 1, 2, 2])
    grid = paddle.to_tensor([[[[[-1.6, -1.0, -1.0]]]]], dtype="float64")  # x = (g + 1) / 2 * (2 - 1) = -0.3
    assert F.grid_sample(x, grid, mode="nearest").item() == 1.0
    x2 = x.reshape([1, 1, 2, 2])
    assert F.grid_sample(x2, grid[..., :2].reshape([1, 1, 1, 2]), mode="nearest").item() == 1.0


def test_nearest_gradient_is_zero_for_the_grid():
    x = paddle.rand([1, 1, 3, 3], dtype="float64")
    grid = paddle.to_tensor(np.random.default_rng(0).uniform(-1, 1, (1, 2, 2, 2)), stop_gradient=False)
    x.stop_gradient = False
    dx, dgrid = paddle.grad(F.grid_sample(x, grid, mode="nearest").sum(), [x, grid])
    assert dx.numpy().sum() == 4.0 and not dgrid.numpy().any()


def test_no_second_derivative_through_grid_sample_as_in_paddle():
    x = paddle.rand([1, 1, 3, 3], dtype="float64")
    grid = paddle.to_tensor(np.random.default_rng(1).uniform(-1, 1, (1, 2, 2, 2)), stop_gradient=False)
    (dgrid,) = paddle.grad(F.grid_sample(x, grid).sum(), grid, create_graph=True)
    with pytest.raises(RuntimeError, match="op 'grid_sample_grad' has no gradient rule"):
        paddle.grad(dgrid.sum(), grid)


def test_affine_grid_has_a_second_derivative():
    theta = paddle.to_tensor(IDENTITY, dtype="float64", stop_gradient=False)
    (g,) = paddle.grad((F.affine_grid(theta, [1, 1, 2, 2]) ** 2).sum(), theta, create_graph=True)
    (h,) = paddle.grad(g.sum(), theta)
    assert h.shape == [1, 2, 3]


X = paddle.rand([1, 2, 3, 3])
GRID = paddle.zeros([1, 2, 2, 2])


@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda: F.affine_grid(np.ones((1, 2, 3)), [1, 1, 2, 2]), TypeError, "affine_grid: theta must be a Tensor"),
        (lambda: F.affine_grid(paddle.ones([1, 2, 3], "int32"), [1, 1, 2, 2]), TypeError, "'theta'.*int32"),
        (lambda: F.affine_grid(paddle.ones([1, 2, 3]), [1, 1, 2]), ValueError, r"\[N, C, H, W\] or \[N, C, D, H, W\]"),
        (lambda: F.affine_grid(paddle.ones([1, 3, 3]), [1, 1, 2, 2]), ValueError, r"theta of shape \[N, 2, 3\]"),
        (lambda: F.affine_grid(paddle.ones([1, 2, 3]), [1, 1, 2, 2, 2]), ValueError, r"\[N, 3, 4\]"),
        (lambda: F.affine_grid(paddle.ones([1, 2, 3]), [1, 1, 0, 2]), ValueError, "must be >= 1"),
        (lambda: F.affine_grid(paddle.ones([1, 2, 3]), [1, 1, 2, 2], align_corners=1), TypeError, "must be a bool"),
        (lambda: F.grid_sample(X, GRID, mode="bicubic"), ValueError, "mode must be one of bilinear, nearest"),
        (lambda: F.grid_sample(X, GRID, padding_mode="reflect"), ValueError, "zeros, reflection, border"),
        (lambda: F.grid_sample(X, GRID, align_corners=1), TypeError, "align_corners must be a bool"),
        (lambda: F.grid_sample(X[0], GRID), ValueError, "4-D .* or 5-D"),
        (lambda: F.grid_sample(X, GRID[..., :1]), ValueError, "last axis holds 2 coordinates"),
        (lambda: F.grid_sample(X, paddle.concat([GRID, GRID])), ValueError, "same batch size, got 1 and 2"),
        (lambda: F.grid_sample(X, GRID.astype("float64")), TypeError, r"grid must have x's dtype \(float32\)"),
        (lambda: F.grid_sample(X.astype("int32"), GRID), TypeError, "grid_sample: the data type of 'x'"),
        (lambda: F.grid_sample(X, [[0.0, 0.0]]), TypeError, "grid must be a Tensor"),
    ],
)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
