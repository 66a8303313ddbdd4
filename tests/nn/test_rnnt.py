"""paddle.nn.functional.rnnt_loss and paddle.nn.RNNTLoss: values and gradients against Paddle 2.6's CPU kernel
(golden cases recorded by tests/golden/rnnt/make_golden.py), FastEmit, the log_softmax composition, static mode
and argument errors."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F
from minipaddle.testing import gradcheck
from tests.golden_files import GOLDEN_ROOT, read_arrays

G = read_arrays(GOLDEN_ROOT / "rnnt" / "arrays.npz")
CASES = ["basic", "fastemit", "default_lambda", "raw_scores", "blank_last", "float32"]


def _args(name):
    p = name + "_"
    return [paddle.to_tensor(G[p + k]) for k in ("label", "tlen", "ulen")]


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("name", CASES)
def test_matches_paddle_values_and_gradients(name, reduction):
    p = name + "_"
    blank, lam = G[p + "attrs"]
    x = paddle.to_tensor(G[p + "x"], stop_gradient=False)
    y = F.rnnt_loss(x, *_args(name), blank=int(blank), fastemit_lambda=float(lam), reduction=reduction)
    assert y.dtype.name == G[p + "x"].dtype.name and y.shape == list(G[p + reduction].shape)
    tol = dict(rtol=1e-5, atol=1e-5) if name == "float32" else dict(rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(y.numpy(), G[p + reduction], **tol)
    (y * paddle.to_tensor(G[p + reduction + "_cot"])).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), G[p + reduction + "_grad"], **tol)


def test_layer_matches_functional():
    x = paddle.to_tensor(G["fastemit_x"], stop_gradient=False)
    loss = paddle.nn.RNNTLoss(fastemit_lambda=0.5)(x, *_args("fastemit"))
    np.testing.assert_allclose(loss.numpy(), G["fastemit_mean"], rtol=1e-10)
    assert paddle.nn.RNNTLoss().fastemit_lambda == 0.001


def test_paddle_docstring_example():
    acts = np.array([[[[0.1, 0.6, 0.1, 0.1, 0.1], [0.1, 0.1, 0.6, 0.1, 0.1], [0.1, 0.1, 0.2, 0.8, 0.1]],
                      [[0.1, 0.6, 0.1, 0.1, 0.1], [0.1, 0.1, 0.2, 0.1, 0.1], [0.7, 0.1, 0.2, 0.1, 0.1]]]])  # fmt: skip
    i32 = "int32"
    loss = F.rnnt_loss(paddle.to_tensor(acts), paddle.to_tensor([[1, 2]], i32), paddle.to_tensor([2], i32),
                       paddle.to_tensor([2], i32), fastemit_lambda=0.0, reduction="sum")  # fmt: skip
    np.testing.assert_allclose(loss.numpy(), -2.85042444, rtol=1e-8)


def test_fastemit_scales_only_label_gradients():
    x = paddle.to_tensor(G["basic_x"], stop_gradient=False)
    x0 = paddle.to_tensor(G["basic_x"], stop_gradient=False)
    y = F.rnnt_loss(x, *_args("basic"), fastemit_lambda=0.5, reduction="sum")
    y0 = F.rnnt_loss(x0, *_args("basic"), fastemit_lambda=0.0, reduction="sum")
    np.testing.assert_allclose(y.numpy(), y0.numpy())  # the value is the plain RNN-T loss
    y.backward()
    y0.backward()
    g, g0 = x.grad.numpy(), x0.grad.numpy()
    np.testing.assert_allclose(g[..., 0], g0[..., 0])  # blank moves unchanged
    np.testing.assert_allclose(g[..., 1:], 1.5 * g0[..., 1:])  # label moves times 1 + lambda


def test_gradient_through_log_softmax_of_logits():
    rng = np.random.default_rng(0)
    logits = paddle.to_tensor(rng.normal(size=(2, 3, 3, 4)), stop_gradient=False)
    label, t_len, u_len = (paddle.to_tensor(a, "int32") for a in ([[1, 2], [3, 0]], [3, 2], [2, 1]))

    def loss(z):
        return F.rnnt_loss(F.log_softmax(z, -1), label, t_len, u_len, fastemit_lambda=0.0)

    assert gradcheck(loss, [logits])
    loss(logits).backward()  # gradients w.r.t. logits sum to 0 over the classes (softmax's invariance)
    np.testing.assert_allclose(logits.grad.numpy().sum(-1), 0, atol=1e-12)


def test_static_mode_matches_dynamic():
    x = G["basic_x"]
    expected = G["basic_none"]
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            xs = paddle.static.data("x", list(x.shape), "float64")
            ls = paddle.static.data("label", list(G["basic_label"].shape), "int32")
            ts = paddle.static.data("tlen", [x.shape[0]], "int32")
            us = paddle.static.data("ulen", [x.shape[0]], "int32")
            out = F.rnnt_loss(xs, ls, ts, us, fastemit_lambda=0.0, reduction="none")
        exe = paddle.static.Executor()
        (got,) = exe.run(main, feed={"x": x, "label": G["basic_label"], "tlen": G["basic_tlen"],
                                     "ulen": G["basic_ulen"]}, fetch_list=[out])  # fmt: skip
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, expected, rtol=1e-10)


def _call(x=None, label=None, tlen=None, ulen=None, **kwargs):
    x = paddle.to_tensor(G["basic_x"]) if x is None else x
    label = paddle.to_tensor(G["basic_label"]) if label is None else label
    tlen = paddle.to_tensor(G["basic_tlen"]) if tlen is None else tlen
    ulen = paddle.to_tensor(G["basic_ulen"]) if ulen is None else ulen
    return F.rnnt_loss(x, label, tlen, ulen, **kwargs)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(label=paddle.to_tensor(G["basic_label"].astype("int64"))), TypeError, "label must be an int32"),
        (dict(tlen=paddle.to_tensor([5, 3, 4])), TypeError, "input_lengths must be an int32"),
        (dict(x=paddle.to_tensor(G["basic_x"][0])), ValueError, "input must be 4-D"),
        (dict(x=paddle.to_tensor(G["basic_x"]).astype("int32")), TypeError, "input must be a float"),
        (dict(reduction="avg"), ValueError, "reduction should be"),
        (dict(blank=6), ValueError, r"blank must be in \[0, 6\)"),
        (dict(blank=-1), ValueError, "blank must be in"),
        (dict(tlen=paddle.to_tensor([6, 3, 4], "int32")), ValueError, "input_lengths must be in"),
        (dict(tlen=paddle.to_tensor([0, 3, 4], "int32")), ValueError, "input_lengths must be in"),
        (dict(ulen=paddle.to_tensor([4, 1, 2], "int32")), ValueError, "label_lengths must be in"),
        (dict(label=paddle.to_tensor(G["basic_label"][:, :2])), ValueError, "columns"),
        (dict(label=paddle.to_tensor(np.full((3, 3), 9, "int32"))), ValueError, "label values must be in"),
        (dict(ulen=paddle.to_tensor([3, 1], "int32")), ValueError, "batch size"),
    ],
)
def test_argument_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        _call(**kwargs)
