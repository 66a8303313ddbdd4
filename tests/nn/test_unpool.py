"""max_unpool1d/2d/3d and MaxUnPool1D/2D/3D: against numbers recorded from Paddle 2.6, the layers, output_size,
the gradient and the errors.

tests/golden/nn_unpool/make_golden.py ran each case under Paddle 2.6 (max pooling with its mask, then unpooling;
unpooling of given indices; calls Paddle refuses) and stored the results; no Paddle is needed here. Values, shapes
and gradients are checked in the op table too (tests/op_table/unpool.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F
from tests.golden_files import GOLDEN_ROOT, read_arrays, read_json

GOLDEN = GOLDEN_ROOT / "nn_unpool"
CASES = read_json(GOLDEN / "cases.json")["cases"]


def _names(kind: str) -> list[str]:
    return sorted(name for name, case in CASES.items() if case["kind"] == kind)


@pytest.fixture(scope="module")
def arrays():
    return read_arrays(GOLDEN / "arrays.npz")


def _pool_and_mask(shape=(1, 2, 6, 6), kernel_size=2, seed=0):
    """A max pooling of distinct random values: (input, pooled values, mask)."""
    n = int(np.prod(shape))
    x = paddle.to_tensor(np.random.default_rng(seed).permutation(n).reshape(shape) / n)
    pool = getattr(F, f"max_pool{len(shape) - 2}d")
    pooled, mask = pool(x, kernel_size, return_mask=True)
    return x, pooled, mask


# ---- against Paddle 2.6 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", _names("pooled"))
def test_pool_then_unpool_matches_paddle(name, arrays):
    case = CASES[name]
    pool, unpool = getattr(F, f"max_pool{case['nd']}d"), getattr(F, f"max_unpool{case['nd']}d")
    x = paddle.to_tensor(arrays[f"{name}.x"], stop_gradient=False)
    pooled, mask = pool(x, return_mask=True, **case["pool_kwargs"])
    np.testing.assert_array_equal(mask.numpy(), arrays[f"{name}.mask"])
    out = unpool(pooled, mask, **case["kwargs"])
    np.testing.assert_array_equal(out.numpy(), arrays[f"{name}.out"])
    loss = (out * paddle.to_tensor(arrays[f"{name}.cot"])).sum()
    grad_x, grad_pooled = paddle.grad([loss], [x, pooled])
    np.testing.assert_allclose(grad_pooled.numpy(), arrays[f"{name}.grad_pooled"], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(grad_x.numpy(), arrays[f"{name}.grad_x"], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", _names("given"))
def test_given_indices_match_paddle(name, arrays):
    """Including repeated indices: the later write wins, yet every input gets the gradient at its index."""
    case = CASES[name]
    x = paddle.to_tensor(np.array(case["x"]), stop_gradient=False)
    indices = paddle.to_tensor(np.array(case["indices"], dtype="int32"))
    out = getattr(F, case["fn"])(x, indices, **case["kwargs"])
    np.testing.assert_array_equal(out.numpy(), arrays[f"{name}.out"])
    (grad,) = paddle.grad([(out * paddle.to_tensor(arrays[f"{name}.cot"])).sum()], [x])
    np.testing.assert_allclose(grad.numpy(), arrays[f"{name}.grad_x"], rtol=1e-12, atol=1e-12)


# Where minipaddle raises another type than Paddle 2.6, on purpose: a wrong type or dtype is a TypeError here
# (Paddle: an assert, or a ValueError from its C++ dtype check); a padding or kernel list that is not one int per
# axis is the TypeError of every window argument in minipaddle (Paddle: ValueError).
OWN_ERROR = {"output_size_int": "TypeError", "indices_int64": "TypeError", "kernel_length": "TypeError",
             "padding_same_2d": "TypeError"}  # fmt: skip


@pytest.mark.parametrize("name", _names("error"))
def test_errors_match_paddle(name):
    case = CASES[name]
    _, pooled, mask = _pool_and_mask(tuple(case["x_shape"]))
    if case["indices"] is not None:
        dtype, shape, fill = case["indices"]
        mask = mask.astype(dtype) if fill is None else paddle.full(shape or mask.shape, fill, dtype)
    expected = OWN_ERROR.get(name, case["error"])
    with pytest.raises((TypeError, ValueError)) as info:
        getattr(F, case["fn"])(pooled, mask, **case["kwargs"])
    assert type(info.value).__name__ == expected, f"{name}: {info.value}"
    # named by the public function, or by the op for an index found out of range while scattering
    assert str(info.value).startswith((f"{case['fn']}: ", "max_unpool: ")), str(info.value)


# ---- the layers ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_layer_equals_functional(nd):
    shape = {1: (2, 3, 8), 2: (1, 2, 6, 6), 3: (1, 2, 4, 4, 6)}[nd]
    _, pooled, mask = _pool_and_mask(shape)
    size = [s + 1 for s in shape[2:]]
    layer = getattr(paddle.nn, f"MaxUnPool{nd}D")(kernel_size=2, output_size=size)
    out = layer(pooled, mask)
    assert out.shape == [*shape[:2], *size]
    expected = getattr(F, f"max_unpool{nd}d")(pooled, mask, 2, output_size=size)
    np.testing.assert_array_equal(out.numpy(), expected.numpy())
    assert repr(layer) == f"MaxUnPool{nd}D(output_size={size})"
    assert layer.parameters() == []


def test_layer_keeps_paddles_attributes():
    layer = paddle.nn.MaxUnPool2D(3, stride=2, padding=1, output_size=[7, 7], name="up")
    assert (layer.ksize, layer.stride, layer.padding) == (3, 2, 1)
    assert (layer.data_format, layer.output_size, layer.name) == ("NCHW", [7, 7], "up")
    assert paddle.nn.MaxUnPool1D(2).data_format == "NCL" and paddle.nn.MaxUnPool3D(2).data_format == "NCDHW"


def test_layer_refuses_channels_last():
    _, pooled, mask = _pool_and_mask()
    with pytest.raises(ValueError, match="max_unpool2d: data_format must be 'NCHW'.*'NHWC'"):
        paddle.nn.MaxUnPool2D(2, data_format="NHWC")(pooled, mask)


# ---- what unpooling does -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(2, 3, 8), (2, 3, 6, 6), (1, 2, 4, 4, 6)])
def test_unpool_puts_each_maximum_back_in_place(shape):
    x, pooled, mask = _pool_and_mask(shape)
    out = getattr(F, f"max_unpool{len(shape) - 2}d")(pooled, mask, 2).numpy()
    kept = out != 0
    assert kept.sum() == pooled.size  # one place per maximum, zeros elsewhere
    np.testing.assert_array_equal(out[kept], x.numpy()[kept])


def test_output_size_changes_the_plane_the_indices_count_in():
    """An index is a flat position in the output plane: with a wider output the same index lands elsewhere."""
    x = paddle.to_tensor([[[[1.0, 2.0]]]])
    indices = paddle.to_tensor([[[[2, 5]]]], dtype="int32")
    out = F.max_unpool2d(x, indices, kernel_size=2, output_size=[2, 3]).numpy()[0, 0]
    np.testing.assert_array_equal(out, [[0, 0, 1], [0, 0, 2]])
    out = F.max_unpool2d(x, indices, kernel_size=2, output_size=[2, 4]).numpy()[0, 0]
    np.testing.assert_array_equal(out, [[0, 0, 1, 0], [0, 2, 0, 0]])


@pytest.mark.parametrize(
    "output_size",
    [[7, 7], (7, 7), [1, 2, 7, 7], [paddle.to_tensor(7), 7], [5, 7]],
    ids=["list", "tuple", "with N and C", "tensor element", "low end"],
)
def test_output_size_forms(output_size):
    _, pooled, mask = _pool_and_mask((1, 2, 6, 6))
    out = F.max_unpool2d(pooled, mask, kernel_size=2, output_size=output_size)
    expected = [int(s) for s in output_size[-2:]]
    assert out.shape == [1, 2, *expected]


@pytest.mark.parametrize("output_size", [[9], [1, 9], [2, 3, 9], [2, 3, 1, 9]])
def test_output_size_1d_forms(output_size):
    """[L] and [N, C, L], and Paddle 2.6's own 1-D forms [1, L] and [N, C, 1, L]."""
    _, pooled, mask = _pool_and_mask((2, 3, 8))
    assert F.max_unpool1d(pooled, mask, 2, output_size=output_size).shape == [2, 3, 9]


def test_default_size_rule():
    """(in - 1) * stride - 2 * padding + kernel_size per axis; 1-D counts only a symmetric padding, as Paddle 2.6."""
    x = paddle.zeros([1, 1, 3, 4])
    indices = paddle.zeros([1, 1, 3, 4], dtype="int32")
    assert F.max_unpool2d(x, indices, kernel_size=3, stride=2, padding=[1, 0]).shape == [1, 1, 5, 9]
    x1, i1 = paddle.zeros([1, 1, 4]), paddle.zeros([1, 1, 4], dtype="int32")
    assert F.max_unpool1d(x1, i1, 3, stride=2, padding=1).shape == [1, 1, 7]
    assert F.max_unpool1d(x1, i1, 3, stride=2, padding=[1, 1]).shape == [1, 1, 7]
    assert F.max_unpool1d(x1, i1, 3, stride=2, padding=[0, 1]).shape == [1, 1, 9]
    assert F.max_unpool1d(x1, i1, 3, stride=2, padding="same").shape == [1, 1, 9]


def test_gradient_gathers_and_indices_get_none():
    _, pooled, mask = _pool_and_mask()
    pooled.stop_gradient = False
    out = F.max_unpool2d(pooled, mask, 2)
    cot = np.random.default_rng(1).standard_normal(out.shape)
    (grad,) = paddle.grad([(out * paddle.to_tensor(cot)).sum()], [pooled])
    expected = np.take_along_axis(cot.reshape(1, 2, -1), mask.numpy().reshape(1, 2, -1).astype(int), -1)
    np.testing.assert_array_equal(grad.numpy(), expected.reshape(pooled.shape))
    assert mask.stop_gradient and mask.grad is None


def test_double_backward():
    """unpool's gradient is a gather whose own gradient scatters back: d/dv <grad_x(v), w> = unpool(w)."""
    _, pooled, mask = _pool_and_mask()
    pooled.stop_gradient = False
    v = paddle.to_tensor(np.random.default_rng(2).standard_normal([1, 2, 6, 6]), stop_gradient=False)
    (g,) = paddle.grad([(F.max_unpool2d(pooled, mask, 2) * v).sum()], [pooled], create_graph=True)
    w = np.random.default_rng(3).standard_normal(g.shape)
    (gv,) = paddle.grad([(g * paddle.to_tensor(w)).sum()], [v])
    np.testing.assert_allclose(gv.numpy(), F.max_unpool2d(paddle.to_tensor(w), mask, 2).numpy())


def test_static_mode_shape_with_unknown_batch():
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [None, 2, 3, 3], "float32")
            indices = paddle.static.data("i", [None, 2, 3, 3], "int32")
            assert list(F.max_unpool2d(x, indices, 2).shape) == [-1, 2, 6, 6]
            assert list(F.max_unpool2d(x, indices, 2, output_size=[7, 7]).shape) == [-1, 2, 7, 7]
    finally:
        paddle.disable_static()


# ---- bad input: the function, what was expected and what came ------------------------------------------------------


def _bad_calls():
    _, pooled, mask = _pool_and_mask()
    f = F.max_unpool2d
    return [
        (lambda: f(pooled.numpy(), mask, 2), TypeError, r"max_unpool2d: x must be a Tensor, got ndarray"),
        (lambda: f(pooled, mask.numpy(), 2), TypeError, r"max_unpool2d: indices must be a Tensor, got ndarray"),
        (lambda: f(pooled, mask.astype("int64"), 2), TypeError, r"indices must be an int32 Tensor .* got int64"),
        (lambda: f(pooled.astype("int32"), mask, 2), TypeError, r"x must be a float tensor, got int32"),
        (lambda: f(pooled[0], mask[0], 2), ValueError, r"x must be a 4-D tensor .* got shape \[2, 3, 3\]"),
        (lambda: f(pooled, mask[:, :1], 2), ValueError, r"indices must have the shape of x \[1, 2, 3, 3\], got \[1, 1"),
        (lambda: f(pooled, mask, 2, data_format="NHWC"), ValueError, r"data_format must be 'NCHW'.* got 'NHWC'"),
        (lambda: f(pooled, mask, 0), ValueError, r"every kernel_size must be >= 1, got \[0, 0\]"),
        (lambda: f(pooled, mask, 2.0), TypeError, r"kernel_size must be an int or a list of 2 ints, got 2.0"),
        (lambda: f(pooled, mask, 2, padding=-1), ValueError, r"every padding must be >= 0, got \[-1, -1\]"),
        (lambda: f(pooled, mask, 2, output_size=7), TypeError, r"output_size must be None or a list/tuple.* got 7"),
        (lambda: f(pooled, mask, 2, output_size=[7.0, 7]), TypeError, r"output_size must hold ints, got \[7.0, 7\]"),
        (lambda: f(pooled, mask, 2, output_size=[7, 7, 7]), ValueError, r"must have 2 or 4 elements, got 3"),
        (lambda: f(pooled, mask, 2, output_size=[8, 7]), ValueError, r"size 0 must be between 4 and 8 \(exclusive\)"),
        (lambda: f(pooled, mask, 2, output_size=[5, 5]), ValueError, r"every index must be in \[0, 25\).* \[5, 5\]"),
        (lambda: f(pooled, mask * 0 - 1, 2), ValueError, r"every index must be in \[0, 36\).* got indices in \[-1"),
    ]


@pytest.mark.parametrize("case", range(len(_bad_calls())))
def test_bad_input_is_explained(case):
    call, error, message = _bad_calls()[case]
    with pytest.raises(error, match=message):
        call()
