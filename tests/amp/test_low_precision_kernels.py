"""float16 element-wise kernels computed in float32 and rounded once (ops/low_precision.py `in_float32`) give the
very bits numpy's own float16 loops give: every float16 value against a set of partners, for +, -, * and relu's
gradient; and scale keeps its factor in float32 (paddle's kernel), so a factor below float16's range still works."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import ops
from minipaddle.core.op import get_op
from minipaddle.ops.low_precision import in_float32

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
ALL_F16 = np.arange(65536, dtype=np.uint16).view(np.float16)  # every float16: +-0, subnormals, normals, Inf, NaN


def _partners() -> np.ndarray:
    special = [0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 65504.0, -65504.0, 6.1035e-05, 5.96e-08, -5.96e-08, 1.0009765625,
               0.333251953125, 2048.0, 2049.0, 1e-3, np.inf, -np.inf, np.nan]  # fmt: skip
    rng = np.random.default_rng(0)
    rand = rng.integers(0, 65536, 45, dtype=np.uint16).view(np.float16)
    return np.concatenate([np.array(special, np.float16), rand])


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit for bit, except that any NaN equals any NaN."""
    nan = np.isnan(a)
    return bool(np.array_equal(nan, np.isnan(b)) and np.array_equal(a.view(np.uint16)[~nan], b.view(np.uint16)[~nan]))


@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply])
def test_float32_loops_equal_numpys_float16_loops_for_every_float16(ufunc):
    x = np.broadcast_to(ALL_F16[:, None], (65536, 64))
    y = np.broadcast_to(_partners()[None, :], (65536, 64))
    with np.errstate(all="ignore"):
        want = ufunc(x, y)
    got = in_float32(ufunc, x, y)
    assert got.dtype == np.float16 and _same(got, want)
    out = np.empty_like(want)
    assert in_float32(ufunc, x, y, out) is out and _same(out, want)


@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply])
def test_float32_loops_equal_ml_dtypes_bfloat16_loops_for_every_bfloat16(ufunc):
    """ml_dtypes computes bfloat16 arithmetic in float32 and rounds: the whole-array form gives its bits. Where
    both operands are NaN the result is a NaN either way, its sign the first operand's here and not always in
    ml_dtypes' compiled loop (IEEE leaves it open): _same counts any NaN equal to any NaN."""
    every = np.arange(65536, dtype=np.uint16).view(BFLOAT16)
    special = [0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 3e38, -3e38, 1e-38, 9.2e-41, np.inf, -np.inf, np.nan]
    random_codes = np.random.default_rng(0).integers(0, 65536, 35, dtype=np.uint16).view(BFLOAT16)
    partners = np.concatenate([np.array(special, np.float32).astype(BFLOAT16), random_codes])
    x = np.broadcast_to(every[:, None], (65536, partners.size))
    y = np.broadcast_to(partners[None, :], (65536, partners.size))
    with np.errstate(all="ignore"):
        want = ufunc(x, y)
    got = in_float32(ufunc, x, y)
    assert got.dtype == BFLOAT16 and _same(got, want)
    one_nan = np.isnan(x.astype(np.float32)) != np.isnan(y.astype(np.float32))  # exact bits, NaNs' too
    np.testing.assert_array_equal(got.view(np.uint16)[one_nan], want.view(np.uint16)[one_nan])
    mask = np.broadcast_to((np.arange(partners.size) % 2 == 0)[None, :], x.shape)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(in_float32(np.multiply, x, mask).view(np.uint16), (x * mask).view(np.uint16))


def test_bfloat16_ops_take_the_float32_path_with_the_same_results():
    a = np.arange(65536, dtype=np.uint16).view(BFLOAT16)[::16].reshape(64, 64)
    b = np.arange(65536, dtype=np.uint16).view(BFLOAT16)[7::16].reshape(64, 64)
    ta, tb = paddle.to_tensor(a), paddle.to_tensor(b)
    with np.errstate(all="ignore"):
        for got, want in [(ta + tb, a + b), (ta - tb, a - b), (ta * tb, a * b), (ops.relu_grad(tb, ta), b * (a > 0))]:
            np.testing.assert_array_equal(got.numpy().view(np.uint16), want.view(np.uint16))
        acc = paddle.to_tensor(a.copy())
        acc.add_(tb)  # kernel_into: gradient accumulation's path
        np.testing.assert_array_equal(acc.numpy().view(np.uint16), (a + b).view(np.uint16))


def test_ops_take_the_float32_path_with_the_same_results():
    a, b = ALL_F16[:4096].reshape(64, 64), ALL_F16[30000:34096].reshape(64, 64)
    ta, tb = paddle.to_tensor(a), paddle.to_tensor(b)
    with np.errstate(all="ignore"):
        assert _same((ta + tb).numpy(), a + b) and _same((ta - tb).numpy(), a - b)
        assert _same((ta * tb).numpy(), a * b)
        assert _same(ops.relu_grad(tb, ta).numpy(), b * (a > 0))
        acc = paddle.to_tensor(a.copy())
        acc.add_(tb)  # kernel_into: gradient accumulation's path
        assert _same(acc.numpy(), a + b)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_scale_keeps_its_factor_in_float32(dtype):
    x = paddle.to_tensor([3.0, -2.0, 1.5]).astype(dtype)
    y = paddle.scale(x, 2.0**-26)  # below float16's smallest subnormal, but the product is 2**-25 .. 2**-24 range
    low = np.float16 if dtype == "float16" else ml_dtypes.bfloat16
    want = (x.numpy().astype(np.float32) * np.float32(2.0**-26)).astype(low)
    np.testing.assert_array_equal(y.numpy(), want)
    z = paddle.scale(x, 0.1, bias=0.3)  # one rounding: scale * x + bias in float32, as paddle's kernel
    want = (x.numpy().astype(np.float32) * np.float32(0.1) + np.float32(0.3)).astype(low)
    np.testing.assert_array_equal(z.numpy(), want)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_relu_and_its_mask_on_the_integer_view_equal_numpys_loops_for_every_value(dtype):
    from minipaddle.ops.low_precision import positive, relu_low

    every = np.arange(65536, dtype=np.uint16).view(dtype)  # +-0, subnormals, normals, +-Inf, NaNs of both signs
    with np.errstate(invalid="ignore"):
        want, mask = np.maximum(every, dtype(0)), every > 0
    got = relu_low(every)
    assert got.dtype == every.dtype
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))  # NaN payloads and -0 too
    np.testing.assert_array_equal(positive(every), mask)
    x = paddle.to_tensor(every[np.isfinite(every.astype(np.float32))][::97].astype(np.float32)).astype(
        np.dtype(dtype).name)  # fmt: skip
    x.stop_gradient = False
    y = paddle.nn.functional.relu(x)
    (dx,) = paddle.grad(y, x, paddle.ones_like(y))
    np.testing.assert_array_equal(dx.numpy().astype(np.float32), (x.numpy() > 0).astype(np.float32))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_conv_input_gradient_is_the_float32_computation_rounded_once(dtype):
    # conv2d_transpose / conv2d's input gradient is a white-list op: cast inputs, compute in float32, cast output
    rng = np.random.default_rng(1)
    dout32 = rng.standard_normal((2, 4, 5, 5)).astype(np.float32)
    w32 = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    low = np.float16 if dtype == "float16" else ml_dtypes.bfloat16
    dout, w = paddle.to_tensor(dout32).astype(dtype), paddle.to_tensor(w32).astype(dtype)
    got = paddle.nn.functional.conv2d_transpose(dout, w, stride=2, padding=1)
    want = paddle.nn.functional.conv2d_transpose(dout.astype("float32"), w.astype("float32"), stride=2, padding=1)
    assert got.dtype == getattr(paddle, dtype)
    np.testing.assert_array_equal(got.numpy(), want.numpy().astype(low))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_conv_and_its_filter_gradient_are_the_float32_computation_rounded_once(dtype):
    # the kernels convert x (not its im2col columns) to float32: the same values, 25x fewer conversions on 5x5
    rng = np.random.default_rng(2)
    x32 = (rng.standard_normal((2, 4, 7, 7)) * 3).astype(np.float32)
    w32 = rng.standard_normal((6, 2, 3, 3)).astype(np.float32)
    low = np.float16 if dtype == "float16" else ml_dtypes.bfloat16
    x, w = paddle.to_tensor(x32).astype(dtype), paddle.to_tensor(w32).astype(dtype)
    x.stop_gradient = w.stop_gradient = False
    args = dict(stride=2, padding=1, groups=2)
    got = paddle.nn.functional.conv2d(x, w, **args)
    x_, w_ = x.astype("float32").detach(), w.astype("float32").detach()
    x_.stop_gradient = w_.stop_gradient = False
    want = paddle.nn.functional.conv2d(x_, w_, **args)
    assert got.dtype == getattr(paddle, dtype)
    np.testing.assert_array_equal(got.numpy(), want.numpy().astype(low))
    g32 = rng.standard_normal(got.shape).astype(np.float32)
    g = paddle.to_tensor(g32).astype(dtype)
    (dw,) = paddle.grad(got, w, g)
    (dw_,) = paddle.grad(want, w_, g.astype("float32"))
    assert dw.dtype == getattr(paddle, dtype)
    np.testing.assert_array_equal(dw.numpy(), dw_.numpy().astype(low))


def test_float16_max_pool_through_float32_picks_the_same_values_and_indices():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 7, 7)).astype(np.float16)
    x[0, 0, :3, :3] = -np.inf  # a window of -inf keeps the start value, float16's lowest
    x[0, 1, 2, 2] = np.nan  # NaN never wins
    x[1, 2, :2, :2] = 1.0  # ties: the first maximum wins
    t16 = paddle.to_tensor(x)
    out, mask = paddle.nn.functional.max_pool2d(t16, 3, stride=2, padding=1, return_mask=True)
    out32, mask32 = paddle.nn.functional.max_pool2d(t16.astype("float32"), 3, stride=2, padding=1, return_mask=True)
    assert out.dtype == paddle.float16
    np.testing.assert_array_equal(mask.numpy(), mask32.numpy())
    want = out32.numpy().astype(np.float16)
    want[out32.numpy() == np.finfo(np.float32).min] = np.finfo(np.float16).min  # float16's own start value
    np.testing.assert_array_equal(out.numpy(), want)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_low_precision_max_pool_on_int16_keys_picks_what_the_values_would(dtype):
    """float16/bfloat16 max pooling scans int16 keys (ops/pool.py _low_keys): on random bit patterns (every kind
    of value: subnormals, -0, +-Inf, quiet and signaling NaNs) each window's value and index are those of the
    first greatest non-NaN value, -0 and +0 tie (the first is kept, with its sign), and a window holding nothing
    above the dtype's lowest value gives that value and index -1 (with padding, kernel 3, stride 2, ceil_mode)."""
    low = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(np.float16)
    rng = np.random.default_rng(5)
    codes = rng.integers(0, 65536, (2, 3, 9, 10)).astype(np.uint16)
    codes[0, 0, :2, :2] = [[0x8000, 0], [0, 0x8000]]  # -0 first: kept
    codes[0, 1, :3, :3] = np.array(-np.inf, low).view(np.uint16)  # nothing beats the lowest value
    x = codes.view(low)
    out, mask = paddle.nn.functional.max_pool2d(paddle.to_tensor(x), 3, stride=2, padding=1, ceil_mode=True,
                                                return_mask=True)  # fmt: skip
    out, mask = out.numpy(), mask.numpy()
    values = x.astype(np.float64)
    lowest = float(ml_dtypes.finfo(low).min)
    for n, c, i, j in np.ndindex(out.shape):
        rows, cols = range(max(2 * i - 1, 0), min(2 * i + 2, 9)), range(max(2 * j - 1, 0), min(2 * j + 2, 10))
        best, where = lowest, -1
        for r in rows:
            for col in cols:
                if values[n, c, r, col] > best:  # strictly greater: NaN never, the first of a tie
                    best, where = values[n, c, r, col], r * 10 + col
        assert mask[n, c, i, j] == where
        expected = x[n, c].reshape(-1)[where] if where >= 0 else np.array(lowest, low)
        assert out[n, c, i, j].view(np.uint16) == np.asarray(expected, low).view(np.uint16)
    assert out[0, 0, 0, 0].view(np.uint16) == 0x8000  # the -0 that came first


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_sum_and_mean_accumulate_in_float32_and_round_once(dtype):
    """paddle's GPU reductions add float16/bfloat16 in float32 (MPType); numpy would add in the low dtype, and 4096
    bfloat16 values of 0.1 would sum to 32."""
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.uniform(0, 0.2, (64, 64)).astype("float32")).astype(dtype)
    xs = x.numpy()
    for axis in (None, 1):
        want_sum = np.add.reduce(xs.astype(np.float32), axis=axis).astype(xs.dtype)
        want_mean = np.mean(xs.astype(np.float32), axis=axis).astype(xs.dtype)
        s, m = paddle.sum(x, axis=axis), paddle.mean(x, axis=axis)
        assert s.dtype.name == dtype and m.dtype.name == dtype
        np.testing.assert_array_equal(s.numpy().astype(np.float32), want_sum.astype(np.float32))
        np.testing.assert_array_equal(m.numpy().astype(np.float32), want_mean.astype(np.float32))
    tenths = paddle.full([4096], 0.1, dtype)
    assert abs(float(paddle.sum(tenths)) - 409.6) < 2.0


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)], ids=str)
@pytest.mark.parametrize(
    "shape, axis", [((128, 256), 0), ((128, 10), (0,)), ((5000, 3), 0), ((4, 6, 5, 7), (0, 2)), ((3, 50000), 1),
                    ((64, 6, 24, 24), (0, 2, 3)), ((16, 16, 8, 8), (0, 2, 3)), ((2, 9, 64, 128), (0, 2, 3)),
                    ((3, 5, 91, 91), (2, 3)), ((40000,), 0), ((8000,), 0), ((9, 4), None), ((7, 24, 24), (1, -1))],
)  # fmt: skip
def test_sum_of_low_precision_equals_numpys_float32_accumulation(dtype, shape, axis):
    """A sum whose order numpy keeps in float32 converts on the bits first (ops/reduce._same_order_in_float32: the
    last axis kept, or a trailing run of reduced axes within one buffer, 8192 values at most); every sum equals
    numpy's float16/bfloat16 sum accumulated with dtype=float32, bit for bit, overflow included, on both sides
    of the buffer's size (a run of 8192 values and of 8281)."""
    rng = np.random.default_rng(1)
    for scale in (1e-6, 1.0, 3e3):
        x = (rng.standard_normal(shape) * scale).astype(dtype)
        with np.errstate(over="ignore"):
            expected = np.add.reduce(x, axis=axis, dtype=np.float32)
            expected = expected.astype(dtype)
        got = ops.sum(paddle.to_tensor(x), axis=axis).numpy()
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.view(np.uint16), np.asarray(expected).view(np.uint16))


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)], ids=str)
@pytest.mark.parametrize("kernel, stride", [(2, 2), (3, 1), (3, 2)])
def test_max_pool_grad_of_low_precision_equals_adding_into_zeros(dtype, kernel, stride):
    """max_pool_grad on float16/bfloat16: with windows that do not overlap (each pixel named once) it writes the
    16-bit codes of 0 + g (ops/pool.py); with overlapping ones it adds in the dtype. Either way the bits of
    np.add.at in that dtype, on gradients holding -0, Inf, signalling and quiet NaNs."""
    rng = np.random.default_rng(2)
    x = paddle.to_tensor(rng.standard_normal((2, 3, 9, 9)).astype(dtype))
    out, mask = get_op("max_pool").kernel(x.numpy(), (kernel, kernel), (stride, stride), ((0, 0), (0, 0)))
    codes = rng.integers(0, 65536, out.size, dtype=np.uint32).astype(np.uint16)  # any bits: NaNs, -0, Inf too
    codes[:4] = [0x8000, 0x7C01 if dtype == np.float16 else 0x7F81, 0xFC00, 0x0001]
    g = codes.view(dtype).reshape(out.shape)
    got = get_op("max_pool_grad").kernel(g, mask, (9, 9))
    rows, pixels = 6, 81
    m = mask.reshape(rows, -1)
    target = (m + (np.arange(rows) * pixels)[:, None]).ravel()
    expected = np.zeros(rows * pixels, dtype)
    with np.errstate(all="ignore"):
        np.add.at(expected, target, g.reshape(-1))
    np.testing.assert_array_equal(got.reshape(-1).view(np.uint16), expected.view(np.uint16))


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)], ids=str)
def test_the_float32_order_rule_holds_in_float32_itself(dtype):
    """Where ops/reduce._same_order_in_float32 says yes, numpy's float32 sum of the converted values has the very
    float32 bits of its dtype=float32 sum of the float16/bfloat16 values (the rounding to the low dtype would
    hide most differences); the cases it refuses do differ, so the rule is not vacuous."""
    from minipaddle.ops.half_casts import to_float32
    from minipaddle.ops.reduce import _same_order_in_float32

    rng = np.random.default_rng(4)
    cases = [((64, 6, 24, 24), (0, 2, 3)), ((2, 9, 64, 128), (0, 2, 3)), ((128, 256), (0,)), ((8000,), None),
             ((3, 5, 91, 91), (2, 3)), ((3, 50000), (1,)), ((200000,), None)]  # fmt: skip
    verdicts = []
    for shape, axis in cases:
        x = (rng.standard_normal(shape) * 30).astype(dtype)
        same = np.array_equal(np.add.reduce(to_float32(x), axis=axis).view(np.uint32),
                              np.add.reduce(x, axis=axis, dtype=np.float32).view(np.uint32))  # fmt: skip
        verdicts.append((_same_order_in_float32(x, axis), same))
    assert all(same for rule, same in verdicts if rule)
    assert [rule for rule, _ in verdicts] == [True] * 4 + [False] * 3 and not any(s for r, s in verdicts if not r)
