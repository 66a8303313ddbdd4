"""paddle.incubate.identity_loss, softmax_mask_fuse and softmax_mask_fuse_upper_triangle: values against numpy (the
values and errors of paddle 2.6.2's CPU build were measured; its upper-triangle op has no CPU kernel), gradients by
float64 gradcheck."""

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.testing import gradcheck

X = np.arange(6, dtype="float32").reshape(2, 3)


def _softmax(a):
    e = np.exp(a - a.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@pytest.mark.parametrize(
    "reduction, expected",
    [("sum", 15.0), (0, 15.0), ("mean", 2.5), (1, 2.5), ("MEAN", 2.5), ("none", X), (2, X)],
)
def test_identity_loss_values(reduction, expected):
    out = paddle.incubate.identity_loss(paddle.to_tensor(X), reduction)
    assert out.shape == list(np.shape(expected)) and out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), expected)


def test_identity_loss_gradient_and_errors():
    x = paddle.to_tensor(X, stop_gradient=False)
    paddle.incubate.identity_loss(x, 1).backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full((2, 3), 1 / 6), rtol=1e-6)
    x64 = paddle.to_tensor(X.astype("float64"), stop_gradient=False)
    assert gradcheck(lambda t: paddle.incubate.identity_loss(t, "sum"), (x64,))
    with pytest.raises(ValueError, match="reduction"):
        paddle.incubate.identity_loss(x, "bad")
    with pytest.raises(ValueError, match="reduction"):
        paddle.incubate.identity_loss(x, 3)
    with pytest.raises(TypeError, match="reduction"):
        paddle.incubate.identity_loss(x, None)
    with pytest.raises(TypeError, match="float32 or float64"):
        paddle.incubate.identity_loss(paddle.to_tensor([1, 2]), 0)
    with pytest.raises(ValueError, match="empty"):
        paddle.incubate.identity_loss(paddle.ones([0, 2]), 0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_softmax_mask_fuse_values(dtype):
    rng = np.random.default_rng(0)
    x, mask = rng.standard_normal((2, 3, 4, 8)).astype(dtype), rng.standard_normal((2, 1, 4, 8)).astype(dtype)
    out = paddle.incubate.softmax_mask_fuse(paddle.to_tensor(x), paddle.to_tensor(mask))
    assert out.dtype.name == dtype
    np.testing.assert_allclose(out.numpy(), _softmax(x + mask), rtol=1e-5)


def test_softmax_mask_fuse_gradient_and_errors():
    rng = np.random.default_rng(1)
    x = paddle.to_tensor(rng.standard_normal((1, 2, 3, 4)), stop_gradient=False)
    mask = paddle.to_tensor(rng.standard_normal((1, 1, 3, 4)))
    assert gradcheck(lambda t: paddle.incubate.softmax_mask_fuse(t, mask), (x,))
    x32 = paddle.rand([2, 3, 4, 8])
    with pytest.raises(ValueError, match="second dimension must be 1"):
        paddle.incubate.softmax_mask_fuse(x32, paddle.rand([2, 3, 4, 8]))
    with pytest.raises(ValueError, match="dimension 0"):
        paddle.incubate.softmax_mask_fuse(x32, paddle.rand([1, 1, 4, 8]))
    with pytest.raises(ValueError, match="4-D"):
        paddle.incubate.softmax_mask_fuse(paddle.rand([3, 4, 8]), paddle.rand([3, 1, 8]))
    with pytest.raises(TypeError, match="dtype"):
        paddle.incubate.softmax_mask_fuse(x32, paddle.rand([2, 1, 4, 8], "float64"))


def test_softmax_mask_fuse_upper_triangle():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 2, 5, 5))
    out = paddle.incubate.softmax_mask_fuse_upper_triangle(paddle.to_tensor(x)).numpy()
    expected = _softmax(np.where(np.tril(np.ones((5, 5), bool)), x, -np.inf))
    np.testing.assert_allclose(out, expected, rtol=1e-7, atol=1e-20)  # masked: exp(-64), softmax's floor (paddle)
    assert out[0, 0, 0, 0] == 1.0 and np.all(out[..., 0, 1:] < 1e-20)
    t = paddle.to_tensor(x, stop_gradient=False)
    assert gradcheck(paddle.incubate.softmax_mask_fuse_upper_triangle, (t,))
    with pytest.raises(ValueError, match="last two dimensions"):
        paddle.incubate.softmax_mask_fuse_upper_triangle(paddle.rand([1, 1, 4, 5]))
