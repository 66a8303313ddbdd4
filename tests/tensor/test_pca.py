"""paddle.linalg.pca_lowrank: against Paddle 2.6 on matrices of exact low rank (golden singular values from
tests/golden/pca/make_golden.py), against numpy's SVD, its randomness, gradients and argument errors."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.testing import gradcheck
from tests.golden_files import GOLDEN_ROOT, read_arrays

G = read_arrays(GOLDEN_ROOT / "pca" / "arrays.npz")
CASES = {"tall": (3, True, 2), "wide": (4, False, 1), "batched": (2, False, 0), "default_q": (None, False, 2)}


def _shapes(u, s, v):
    return [u.ndim, *u.shape, s.ndim, *s.shape, v.ndim, *v.shape]


@pytest.mark.parametrize("name", list(CASES))
def test_matches_paddle_on_low_rank(name):
    q, center, niter = CASES[name]
    x = G[name + "_x"]
    paddle.seed(1)
    u, s, v = paddle.linalg.pca_lowrank(paddle.to_tensor(x), q=q, center=center, niter=niter)
    assert _shapes(u, s, v) == G[name + "_shapes"].tolist()
    np.testing.assert_allclose(s.numpy(), G[name + "_s"], atol=1e-9)
    xc = x - x.mean(-2, keepdims=True) if center else x
    rebuilt = u.numpy() @ (s.numpy()[..., None] * np.swapaxes(v.numpy(), -1, -2))
    np.testing.assert_allclose(rebuilt, xc, atol=1e-9)  # the rank is covered: the factors rebuild x
    gram = np.swapaxes(u.numpy(), -1, -2) @ u.numpy()  # U has orthonormal columns
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(u.shape[-1]), gram.shape), atol=1e-12)


def test_top_singular_values_of_a_full_rank_matrix():
    rng = np.random.default_rng(0)
    scales = np.array([50.0, 20.0, 10.0, 0.01, 0.01, 0.01])  # fast decay: q = 3 finds the top three closely
    x = rng.normal(size=(30, 6)) @ np.diag(scales) @ np.linalg.qr(rng.normal(size=(6, 6)))[0]
    _, s, _ = paddle.linalg.pca_lowrank(paddle.to_tensor(x), q=3, center=False)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(x, compute_uv=False)[:3], rtol=1e-4)


def test_draws_follow_paddle_seed_and_method_binds():
    x = paddle.to_tensor(np.random.default_rng(1).normal(size=(8, 7)))
    paddle.seed(5)
    u1 = x.pca_lowrank(q=2, niter=0)[0].numpy()
    paddle.seed(5)
    u2 = paddle.linalg.pca_lowrank(x, q=2, niter=0)[0].numpy()
    u3 = paddle.linalg.pca_lowrank(x, q=2, niter=0)[0].numpy()
    np.testing.assert_array_equal(u1, u2)
    assert not np.allclose(np.abs(u2), np.abs(u3))  # a new draw, a different approximate basis
    assert not hasattr(paddle, "pca_lowrank")  # as Paddle: paddle.linalg.pca_lowrank and Tensor.pca_lowrank


def test_dtype_and_default_q():
    u, s, v = paddle.linalg.pca_lowrank(paddle.randn([3, 4, 5]))
    assert (u.shape, s.shape, v.shape, s.dtype.name) == ([3, 4, 4], [3, 4], [3, 5, 4], "float32")


def test_gradient_of_singular_values():
    x = paddle.to_tensor(G["tall_x"], stop_gradient=False)

    def top_values(t):
        paddle.seed(3)  # the same draw for every evaluation
        return paddle.linalg.pca_lowrank(t, q=3)[1]

    assert gradcheck(top_values, [x])


@pytest.mark.parametrize(
    "x, kwargs, error, message",
    [
        (np.zeros((3, 4)), {}, ValueError, "must be a Tensor"),
        (paddle.ones([4]), {}, ValueError, "matrix"),
        (paddle.ones([3, 4], "int32"), {}, TypeError, "float"),
        (paddle.ones([3, 4]), {"q": 4}, ValueError, r"q\(=4\) must be non-negative integer"),
        (paddle.ones([3, 4]), {"q": -1}, ValueError, "not greater than min"),
        (paddle.ones([3, 4]), {"q": 1.5}, TypeError, "q must be an int"),
        (paddle.ones([3, 4]), {"niter": -1}, ValueError, r"niter\(=-1\)"),
    ],
)
def test_argument_errors(x, kwargs, error, message):
    with pytest.raises(error, match=message):
        paddle.linalg.pca_lowrank(x, **kwargs)
