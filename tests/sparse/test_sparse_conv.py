"""Sparse convolutions and max pooling (sparse/nn/functional/{rulebook,conv,pooling}.py, their Layers) against
paddle 2.6.2's CPU kernels (tests/golden/sparse/conv_cases.py, recorded by make_conv_golden.py into conv.json):
output shape, indices in paddle's order, values and gradients, float64; plus finite-difference gradient checks.

Submanifold convolutions' gradients are checked against finite differences only: paddle 2.6.2's CPU backward of
subm_conv2d/3d disagrees with its own forward (recorded: the forward's values equal ours to 1e-15, its input and
weight gradients differ from those of that forward by O(1); ours pass the finite-difference check below)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.sparse.nn import functional as F
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "sparse" / "conv.json")


def _cases():
    spec = importlib.util.spec_from_file_location("conv_cases", GOLDEN_ROOT / "sparse" / "conv_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES = _cases()
REFUSED_SUBM = {"subm2d_even_kernel", "subm2d_dilated"}  # paddle's shapes there are neither rule (feature map)
CONV = [c for c in CASES.CONV if c[0] not in REFUSED_SUBM]


def _close(ours, theirs, tol=1e-12):
    a, b = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
    assert a.shape == b.shape
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


@pytest.mark.parametrize("seed,case", [(i, c) for i, c in enumerate(CASES.CONV) if c[0] not in REFUSED_SUBM],
                         ids=[c[0] for c in CONV])  # fmt: skip
def test_convolution_equals_paddle(seed, case):
    name, dims, spatial, kernel, kw = case
    ours, theirs = CASES._conv(paddle, dims, spatial, kernel, kw, seed), GOLDEN[name]
    assert ours["shape"] == theirs["shape"]
    assert ours["indices"] == theirs["indices"]
    _close(ours["values"], theirs["values"])
    if kw.get("subm"):
        return  # paddle's subm gradients are not those of its forward: see the module docstring
    for grad in ("x_grad", "w_grad", "b_grad"):
        if grad in theirs:
            _close(ours[grad], theirs[grad])


@pytest.mark.parametrize("seed,case", list(enumerate(CASES.POOL)), ids=[c[0] for c in CASES.POOL])
def test_max_pool3d_equals_paddle(seed, case):
    name, spatial, kw = case
    ours, theirs = CASES._pool(paddle, spatial, kw, 20 + seed), GOLDEN[name]
    assert (ours["shape"], ours["indices"]) == (theirs["shape"], theirs["indices"])
    _close(ours["values"], theirs["values"])
    _close(ours["x_grad"], theirs["x_grad"])


@pytest.mark.parametrize("name", sorted(GOLDEN["layers"]))
def test_layers_equal_paddle(name):
    ours, theirs = CASES._layers(paddle)[name], GOLDEN["layers"][name]
    assert {k: v for k, v in ours.items() if k != "values"} == {k: v for k, v in theirs.items() if k != "values"}
    _close(ours["values"], theirs["values"], tol=1e-5)  # float32


def test_refusals_match_paddles_kinds():
    theirs = GOLDEN["refusals"]
    ours = CASES._refusals(paddle)
    # paddle asserts groups == 1 and the pooling format; minipaddle raises ValueError naming the function there
    assert {k: v for k, v in ours.items()} == {**theirs, "groups": "ValueError", "pool_data_format": "ValueError"}


def _fd_check(fn, x_idx, x_val, shape, weight, bias=None):
    """The analytic gradients of sum(out.values() * g) against central differences, in float64."""
    rng = np.random.default_rng(7)

    def loss(values, w, b):
        x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(x_idx), paddle.to_tensor(values), shape)
        args = {} if b is None else {"bias": paddle.to_tensor(b)}
        out = fn(x, paddle.to_tensor(w), **args).values().numpy()
        return float((out * g).sum())

    x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(x_idx), paddle.to_tensor(x_val), shape)
    x.stop_gradient = False
    w = paddle.to_tensor(weight, stop_gradient=False)
    out = fn(x, w) if bias is None else fn(x, w, bias=paddle.to_tensor(bias))
    g = rng.standard_normal(out.values().shape)
    (out.values() * paddle.to_tensor(g)).sum().backward()
    for arr, analytic in ((x_val, x.grad.values().numpy()), (weight, w.grad.numpy())):
        numeric = np.zeros_like(arr)
        for i in np.ndindex(arr.shape):
            old = arr[i]
            arr[i] = old + 1e-6
            up = loss(x_val, weight, bias)
            arr[i] = old - 1e-6
            down = loss(x_val, weight, bias)
            arr[i] = old
            numeric[i] = (up - down) / 2e-6
        np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(("fn", "dims", "kernel"), [(F.subm_conv2d, 2, [3, 3]), (F.subm_conv3d, 3, [3, 1, 3]),
                                                    (F.conv2d, 2, [2, 3]), (F.conv3d, 3, [2, 2, 2])])  # fmt: skip
def test_gradients_equal_finite_differences(fn, dims, kernel):
    indices, values, shape = CASES._inputs([4, 4, 3][:dims], 2, 6, 90 + dims)
    weight = np.random.default_rng(91).standard_normal((*kernel, 2, 3))
    _fd_check(fn, indices, values, shape, weight)


def test_max_pool3d_gradient_reaches_each_maximum():
    indices, values, shape = CASES._inputs([4, 4, 4], 2, 10, 95)
    x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(indices), paddle.to_tensor(values), shape)
    x.stop_gradient = False
    out = F.max_pool3d(x, 2)
    out.values().sum().backward()
    # each output channel's maximum is one stored input: the gradient counts how many windows each input wins
    assert x.grad.values().numpy().sum() == out.values().shape[0] * out.values().shape[1]


def test_submanifold_keeps_the_pattern_and_regular_grows_it():
    indices, values, shape = CASES._inputs([5, 5, 5], 1, 4, 97)
    x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(indices), paddle.to_tensor(values), shape)
    w = paddle.ones([3, 3, 3, 1, 1], dtype="float64")
    assert F.subm_conv3d(x, w, padding=1).nnz() == 4
    assert F.conv3d(x, w, padding=1).nnz() > 4


def test_bad_arguments_are_named():
    indices, values, shape = CASES._inputs([4, 4], 3, 5, 70)
    x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(indices), paddle.to_tensor(values), shape)
    w = paddle.ones([3, 3, 3, 2], dtype="float64")
    with pytest.raises(TypeError, match="conv2d: x must be a SparseCooTensor"):
        F.conv2d(paddle.ones([2, 4, 4, 3]), w)
    with pytest.raises(ValueError, match=r"conv2d: weight's C_in \(2\) must equal x's channels \(3\)"):
        F.conv2d(x, paddle.ones([3, 3, 2, 2], dtype="float64"))  # paddle 2.6.2 computes on, reading past the rows
    with pytest.raises(TypeError, match="conv2d: stride must be an int or 2 ints"):
        F.conv2d(x, w, stride=[1, 1, 1])
    with pytest.raises(ValueError, match="subm_conv2d: a submanifold convolution needs odd kernel sizes"):
        F.subm_conv2d(x, paddle.ones([2, 2, 3, 2], dtype="float64"))
    with pytest.raises(ValueError, match="max_pool3d: x must be a 5-D COO tensor"):
        F.max_pool3d(x, 2)
    with pytest.raises(ValueError, match="SubmConv3D: only groups=1"):
        paddle.sparse.nn.SubmConv3D(2, 2, 3, groups=2)
    with pytest.raises(ValueError, match="MaxPool3D: return_mask=True is not supported"):
        paddle.sparse.nn.MaxPool3D(2, return_mask=True)


def test_layer_trains_as_a_layer():
    paddle.seed(3)
    layer = paddle.sparse.nn.SubmConv3D(2, 4, 3, padding=1)
    assert layer.weight.shape == [3, 3, 3, 2, 4] and layer.bias.shape == [4]
    std = float(layer.weight.numpy().std())
    assert 0.6 * (2 / 54) ** 0.5 < std < 1.4 * (2 / 54) ** 0.5  # Normal(0, sqrt(2 / fan_in)), as paddle's
    indices, values, shape = CASES._inputs([4, 4, 4], 2, 12, 99)
    x = paddle.sparse.sparse_coo_tensor(paddle.to_tensor(indices), paddle.to_tensor(values, dtype="float32"), shape)
    opt = paddle.optimizer.SGD(0.05, parameters=layer.parameters())
    losses = []
    for _ in range(5):
        loss = (layer(x).values() ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < losses[0]
