"""Behaviour of paddle 2.6's cumulative, NaN-ignoring, quantile, search and random-like functions beyond the op
table: the values, dtypes, gradients and errors measured on paddle 2.6.2 (pinned here as literals), the Tensor
methods, the in-place random fills, and paddle.finfo / paddle.iinfo."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle

T = paddle.to_tensor
NAN = float("nan")


def grad_of(fn, values, **kwargs):
    x = T(values, stop_gradient=False)
    out = fn(x, **kwargs)
    (out[0] if isinstance(out, tuple) else out).sum().backward()
    return x.grad.numpy()


# ---- running products and extrema -------------------------------------------------------------------------------


def test_cumprod_gradient_is_exact_with_zeros():
    np.testing.assert_allclose(grad_of(lambda x: paddle.cumprod(x, 0), [2.0, 0.0, 3.0, 0.0, 5.0]), [1, 8, 0, 0, 0])
    np.testing.assert_allclose(grad_of(lambda x: paddle.cumprod(x, 0), [2.0, 0.0, 3.0, 4.0]), [1, 32, 0, 0])
    np.testing.assert_allclose(grad_of(lambda x: paddle.cumprod(x, 1), [[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]]),
                               [[3, 0, 0], [1, 4, 0]])  # fmt: skip


def test_cumprod_dtypes_and_errors():
    assert paddle.cumprod(T([1, 2, 3], dtype="int32"), 0).dtype == paddle.int32
    out = paddle.cumprod(T([1, 2, 3]), 0, dtype="float64")
    assert out.dtype == paddle.float64 and out.tolist() == [1.0, 2.0, 6.0]
    assert paddle.cumprod(T(3.0), 0).shape == []
    with pytest.raises(ValueError, match="cumprod: dim must be an int"):
        paddle.cumprod(T([1.0, 2.0]))  # paddle 2.6 requires dim
    with pytest.raises(TypeError, match="cumprod: .*bool"):
        paddle.cumprod(T([True, False]), 0)
    with pytest.raises(ValueError, match="cumprod: axis 5 is out of range"):
        paddle.cumprod(T([[1.0]]), 5)


def test_cumprod_method_and_inplace_method():
    x = T([1.0, 2.0, 3.0])
    assert x.cumprod(0).tolist() == [1.0, 2.0, 6.0]
    assert x.cumprod_(0) is x and x.tolist() == [1.0, 2.0, 6.0]


def test_cummax_cummin_ties_take_the_later_position_and_nan_sticks():
    values, indices = paddle.cummax(T([1.0, 3.0, 3.0, 2.0, 3.0]), 0)
    assert values.tolist() == [1, 3, 3, 3, 3] and indices.tolist() == [0, 1, 2, 2, 4]
    assert paddle.cummin(T([3.0, 1.0, 1.0, 2.0, 1.0]), 0)[1].tolist() == [0, 1, 2, 2, 4]
    for fn in (paddle.cummax, paddle.cummin):
        values, indices = fn(T([1.0, NAN, 3.0, 0.0]), 0)
        assert np.isnan(values.numpy()[1:]).all() and indices.tolist() == [0, 1, 1, 1]


def test_cummax_shapes_dtypes_and_gradient():
    values, indices = paddle.cummax(T([[1.0, 3.0], [2.0, 0.0]]))  # axis None: flattened
    assert values.shape == [4] and indices.tolist() == [0, 1, 1, 1]
    values, indices = paddle.cummax(T(3.0), 0)
    assert values.shape == [] and indices.shape == []
    assert paddle.cummax(T([3.0, 1.0]), 0, dtype="int32")[1].dtype == paddle.int32
    np.testing.assert_allclose(grad_of(lambda x: paddle.cummax(x, 0), [1.0, 3.0, 3.0, 0.0, 5.0]), [1, 1, 2, 0, 1])
    np.testing.assert_allclose(grad_of(lambda x: paddle.cummin(x, 0), [1.0, 3.0, 1.0, 0.0, 0.0]), [2, 0, 1, 1, 1])
    with pytest.raises(ValueError, match="cummax: dtype of the indices must be int32 or int64, got float32"):
        paddle.cummax(T([1.0]), 0, dtype="float32")


def test_logcumsumexp_values_shapes_and_errors():
    out = paddle.logcumsumexp(T([-np.inf, -np.inf, 1.0]), axis=0)  # paddle's kernel gives the lowest float
    assert out.tolist() == [float(np.finfo(np.float32).min)] * 2 + [1.0]
    assert paddle.logcumsumexp(T(2.0)).shape == [1] and paddle.logcumsumexp(T(2.0), axis=0).shape == []
    assert paddle.logcumsumexp(T([1, 2]), dtype="float64").dtype == paddle.float64
    with pytest.raises(TypeError, match="logcumsumexp: x must be a float tensor, got int64"):
        paddle.logcumsumexp(T([1, 2]))


def test_logcumsumexp_gradient_does_not_overflow():
    x = T([-1000.0, -999.0, 1000.0, 1001.0], dtype="float64", stop_gradient=False)
    out = paddle.logcumsumexp(x, axis=0)
    (out * T([1.0, -2.0, 0.5, 3.0], dtype="float64")).sum().backward()
    exponent = np.array([-1000.0, -999.0, 1000.0, 1001.0]) - out.numpy()[:, None]  # d out_i / d x_j = exp(.)
    e = np.exp(np.where(np.tri(4, dtype=bool), exponent, -np.inf))  # for j <= i; 0 above
    expected = (e * np.array([1.0, -2.0, 0.5, 3.0])[:, None]).sum(0)
    assert np.isfinite(x.grad.numpy()).all()
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-10)


# ---- NaN-ignoring reductions -------------------------------------------------------------------------------------


def test_count_nonzero_counts_nan_and_gives_int64():
    assert paddle.count_nonzero(T([NAN, 0.0, 2.0])).item() == 2
    out = paddle.count_nonzero(T([[1.0, 2.0, 0.0], [3.0, -1.0, 2.0]]), 1, keepdim=True)
    assert out.dtype == paddle.int64 and out.tolist() == [[2], [3]]


def test_nansum_and_nanmean_dtypes_and_gradients():
    assert paddle.nansum(T([1, 2], dtype="int32")).dtype == paddle.int64
    assert paddle.nansum(T([1.0, NAN]), dtype="float64").dtype == paddle.float64
    assert paddle.nanmean(T([-1, -2])).tolist() == -1  # integer mean, truncated (paddle 2.6)
    assert np.isnan(paddle.nanmean(T([NAN])).item())
    np.testing.assert_allclose(grad_of(paddle.nansum, [1.0, NAN, 2.0]), [1, 0, 1])
    np.testing.assert_allclose(grad_of(paddle.nanmean, [[1.0, NAN, 2.0], [3.0, 4.0, NAN]], axis=1),
                               [[0.5, 0, 0.5], [0.5, 0.5, 0]])  # fmt: skip


def test_nanmedian_values_dtypes_and_gradient():
    assert paddle.nanmedian(T([1.0, 4.0, 2.0, NAN, 3.0])).item() == 2.5
    out = paddle.nanmedian(T([[NAN, NAN], [1.0, 2.0]]), 1)
    assert np.isnan(out.numpy()[0]) and out.numpy()[1] == 1.5
    assert paddle.nanmedian(T([-3, -2])).tolist() == -2  # C++ division truncates toward zero
    assert paddle.nanmedian(T([1, 2], dtype="int32")).dtype == paddle.int32
    assert paddle.nanmedian(T([[1.0, 2.0]]), (0, 1), keepdim=True).shape == [1, 1]
    assert paddle.nanmedian(T(2.0)).shape == []
    np.testing.assert_allclose(grad_of(paddle.nanmedian, [1.0, 4.0, 2.0, NAN, 3.0]), [0, 0, 0.5, 0, 0.5])
    np.testing.assert_allclose(grad_of(paddle.nanmedian, [1.0, 4.0, 2.0, NAN]), [0, 0, 1, 0])
    np.testing.assert_allclose(grad_of(paddle.nanmedian, [[NAN, NAN], [1.0, 2.0]], axis=1), [[0, 0], [0.5, 0.5]])


def test_nanmedian_errors():
    with pytest.raises(ValueError, match="nanmedian: x is empty"):
        paddle.nanmedian(T(np.zeros(0, "float32")))
    with pytest.raises(ValueError, match="nanmedian: axis must not be an empty list"):
        paddle.nanmedian(T([1.0]), [])
    with pytest.raises(TypeError, match="nanmedian: x must be int32, int64 or float, got bool"):
        paddle.nanmedian(T([True]))


# ---- quantiles and kthvalue --------------------------------------------------------------------------------------


def test_quantile_is_float64_with_stacked_q():
    x = T([[1.0, 2.0, 3.0, 4.0], [5.0, 0.0, 7.0, 2.0]])
    out = paddle.quantile(x, 0.3, axis=1)
    assert out.dtype == paddle.float64
    np.testing.assert_allclose(out.numpy(), [1.9, 1.8])
    both = paddle.quantile(x, [0.25, 0.5], axis=1, keepdim=True)
    assert both.shape == [2, 2, 1]
    np.testing.assert_allclose(both.numpy()[:, :, 0], [[1.75, 1.5], [2.5, 3.5]])
    assert paddle.quantile(x, (0.5,), axis=1).shape == [2]  # one q in a list: not stacked
    assert paddle.quantile(x, 0.5, axis=[0, 1], keepdim=True).shape == [1, 1]
    assert paddle.quantile(T([1, 2, 3]), 0.5).dtype == paddle.float64


def test_quantile_gradient_follows_the_interpolation_weights():
    np.testing.assert_allclose(grad_of(lambda x: paddle.quantile(x, 0.3), [3.0, 1.0, 2.0, 5.0]), [0, 0.1, 0.9, 0],
                               rtol=1e-6)  # fmt: skip
    np.testing.assert_allclose(grad_of(lambda x: paddle.quantile(x, 0.5), [2.0, 2.0, 2.0, 1.0]), [0.5, 0.5, 0, 0])
    np.testing.assert_allclose(grad_of(lambda x: paddle.quantile(x, 0.4), [1.0, NAN, 3.0, 4.0]), [0, 1, 0, 0])


def test_nanquantile_skips_nan():
    out = paddle.nanquantile(T([[1.0, NAN, 3.0, 4.0], [NAN] * 4]), 0.5, axis=1)
    assert out.numpy()[0] == 3.0 and np.isnan(out.numpy()[1])
    assert np.isnan(paddle.quantile(T([1.0, NAN, 3.0]), 0.5).item())


def test_quantile_errors():
    x = T([1.0, 2.0])
    with pytest.raises(TypeError, match="quantile: q must be an int, float, list or tuple, got Tensor"):
        paddle.quantile(x, T(0.5))
    with pytest.raises(ValueError, match=r"quantile: every q must be a number in \[0, 1\], got 1.5"):
        paddle.quantile(x, 1.5)
    with pytest.raises(ValueError, match="quantile: q must not be empty"):
        paddle.quantile(x, [])
    with pytest.raises(ValueError, match="quantile: a 0-d x has no axis"):
        paddle.quantile(T(2.0), 0.5, axis=0)
    with pytest.raises(ValueError, match="nanquantile: axis 3 is out of range"):
        paddle.nanquantile(x, 0.5, axis=3)


def test_kthvalue_values_indices_and_errors():
    values, indices = paddle.kthvalue(T([[3.0, 1.0, 2.0, 1.0], [5.0, 0.0, 7.0, 2.0]]), 2)
    assert values.tolist() == [1.0, 2.0] and indices.tolist() == [3, 3]
    values, indices = paddle.kthvalue(T([1.0, NAN, 0.0]), 3)  # NaN counts as the largest
    assert np.isnan(values.item()) and indices.item() == 1
    values, indices = paddle.kthvalue(T(3.0), 1)
    assert values.shape == [] and indices.item() == 0
    assert paddle.kthvalue(T([[3.0, 1.0], [0.0, 2.0]]), 1, axis=0, keepdim=True)[1].tolist() == [[1, 0]]
    np.testing.assert_allclose(grad_of(lambda x: paddle.kthvalue(x, 2), [3.0, 1.0, 2.0]), [0, 0, 1])
    with pytest.raises(ValueError, match="kthvalue: k must be between 1 and x.shape"):
        paddle.kthvalue(T([1.0, 2.0]), 3)
    with pytest.raises(TypeError, match="kthvalue: k must be an int, got float"):
        paddle.kthvalue(T([1.0, 2.0]), 1.0)


# ---- differences and integrals -----------------------------------------------------------------------------------


def test_diff_dtypes_and_edges():
    assert paddle.diff(T([1, 4, 9, 16]), n=2).tolist() == [2, 2]
    assert paddle.diff(T([1, 2], dtype="int32")).dtype == paddle.int32
    assert paddle.diff(T([True, False, False, True])).tolist() == [True, False, True]
    assert paddle.diff(T([1.0, 2.0]), n=3).shape == [0]
    np.testing.assert_allclose(grad_of(lambda x: paddle.diff(x, n=2), [1.0, 4.0, 9.0, 16.0]), [1, -1, -1, 1])


def test_diff_errors():
    x = T([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError, match="diff: n must be >= 1, got 0"):
        paddle.diff(x, n=0)
    with pytest.raises(ValueError, match="diff: x must have at least 1 dimension"):
        paddle.diff(T(1.0))
    with pytest.raises(ValueError, match="diff: prepend must have x's shape"):
        paddle.diff(x, prepend=T([1.0, 2.0]))
    with pytest.raises(TypeError, match="diff: append must have x's dtype float32, got int64"):
        paddle.diff(x, append=T([[1], [2]]))


def test_trapezoid_spacings_gradients_and_errors():
    y = T([[1.0, 2.0, 3.0], [4.0, 5.0, 9.0]])
    assert paddle.trapezoid(y).tolist() == [4.0, 11.5]
    assert paddle.trapezoid(y, dx=T(2.0)).tolist() == [8.0, 23.0]
    assert paddle.trapezoid(y, x=T([[0.0, 1.0, 3.0], [0.0, 2.0, 3.0]])).tolist() == [6.5, 16.0]
    assert paddle.trapezoid(y, x=T([0.0, 1.0, 3.0], dtype="float64")).dtype == paddle.float64
    assert paddle.cumulative_trapezoid(y, x=T([0.0, 1.0, 3.0])).tolist() == [[1.5, 6.5], [4.5, 18.5]]
    assert paddle.cumulative_trapezoid(y, dx=2.0, axis=0).tolist() == [[5.0, 7.0, 12.0]]
    x = T([0.0, 1.0, 3.0], stop_gradient=False)
    paddle.trapezoid(T([1.0, 2.0, 3.0]), x=x).backward()
    np.testing.assert_allclose(x.grad.numpy(), [-1.5, -1.0, 2.5])
    with pytest.raises(ValueError, match="trapezoid: give x or dx, not both"):
        paddle.trapezoid(y, x=T([0.0, 1.0, 3.0]), dx=1.0)
    with pytest.raises(TypeError, match="cumulative_trapezoid: y must be a float tensor, got int64"):
        paddle.cumulative_trapezoid(T([1, 2, 3]))
    with pytest.raises(ValueError, match="trapezoid: y needs at least 2 values"):
        paddle.trapezoid(T([1.0]))


# ---- counting and searching --------------------------------------------------------------------------------------


def test_bincount_dtypes_and_paddles_empty_rule():
    assert paddle.bincount(T([1, 2, 1, 4], dtype="int32")).tolist() == [0, 2, 1, 0, 1]
    assert paddle.bincount(T([1, 2]), minlength=5).tolist() == [0, 1, 1, 0, 0]
    assert paddle.bincount(T([1, 2, 1]), weights=T([0.5, 1.0, 2.0])).dtype == paddle.float32
    assert paddle.bincount(T([1, 2, 1]), weights=T([5, 1, 2])).dtype == paddle.float64
    assert paddle.bincount(T(np.zeros(0, "int64")), minlength=3).shape == [0]  # as paddle 2.6
    with pytest.raises(ValueError, match="bincount: the elements of x must be non-negative, got -2"):
        paddle.bincount(T([1, -2]))
    with pytest.raises(TypeError, match="bincount: x must hold integers, got float32"):
        paddle.bincount(T([1.0]))
    with pytest.raises(ValueError, match="bincount: weights must have x's shape"):
        paddle.bincount(T([1, 2]), weights=T([1.0]))


def test_searchsorted_and_bucketize():
    seq = T([[1, 3, 5], [2, 4, 6]])
    assert paddle.searchsorted(seq, T([[3, 6], [1, 7]])).tolist() == [[1, 3], [0, 3]]
    assert paddle.searchsorted(seq, T([[3, 6], [1, 7]]), right=True).tolist() == [[2, 3], [0, 3]]
    assert paddle.searchsorted(T([1.0, 3.0, 5.0]), T([NAN, 3.0])).tolist() == [3, 1]
    assert paddle.searchsorted(T([1, 3, 5]), T(4)).shape == []
    assert paddle.bucketize(T([3.5]), T([1.0, 3.0, 5.0]), out_int32=True).dtype == paddle.int32
    assert paddle.bucketize(T([[0, 3], [9, 10]]), T([1, 3, 5, 7, 9]), right=True).tolist() == [[0, 2], [5, 5]]
    with pytest.raises(ValueError, match="searchsorted: an N-D sorted_sequence"):
        paddle.searchsorted(seq, T([[3, 6]]))
    with pytest.raises(TypeError, match="searchsorted: sorted_sequence must be an int or float tensor, got bool"):
        paddle.searchsorted(T([False, True]), T([True]))
    with pytest.raises(ValueError, match="bucketize: sorted_sequence must be 1-D"):
        paddle.bucketize(T([3]), seq)


def test_logspace_follows_paddles_kernel():
    assert paddle.logspace(0, 1.5, 4, dtype="int32").tolist() == [1, 2, 4, 10]  # stop truncated to 1 first
    assert paddle.logspace(0.5, 3.7, 4, base=2.5, dtype="int64").tolist() == [1, 2, 4, 8]
    assert paddle.logspace(0, 2, 3, base=-2).tolist() == [1.0, -2.0, 4.0]
    assert paddle.logspace(1, 2, 1).tolist() == [10.0]
    assert paddle.logspace(0, 2, 3.0).dtype == paddle.float32
    with pytest.raises(ValueError, match="logspace: num must be > 0, got 0"):
        paddle.logspace(1, 2, 0)
    with pytest.raises(TypeError, match="logspace: dtype must be int32, int64, float32 or float64, got bool"):
        paddle.logspace(0, 2, 3, dtype="bool")


def test_which_functions_are_tensor_methods():
    x = T([[1.0, 2.0], [3.0, 4.0]])
    assert x.quantile(0.5).item() == 2.5 and x.nanmedian().item() == 2.5 and x.diff().tolist() == [[1.0], [1.0]]
    for name in ("cummax", "cummin", "logcumsumexp", "count_nonzero", "nansum", "nanmean", "nanquantile",
                 "kthvalue", "trapezoid", "cumulative_trapezoid", "bincount", "bucketize"):  # fmt: skip
        assert callable(getattr(paddle.Tensor, name))
    for name in ("searchsorted", "logspace", "randint_like", "poisson"):
        assert not hasattr(paddle.Tensor, name)


# ---- random functions ----------------------------------------------------------------------------------------------


def test_randint_like_range_dtype_and_no_gradient():
    x = paddle.zeros([50, 4])
    x.stop_gradient = False
    out = paddle.randint_like(x, 2, 5)
    assert out.dtype == paddle.float32 and out.stop_gradient
    assert set(np.unique(out.numpy())) <= {2.0, 3.0, 4.0}
    assert paddle.randint_like(x, 5, dtype="int64").dtype == paddle.int64
    with pytest.raises(ValueError, match="randint_like: low must be less than high, got low=5 and high=5"):
        paddle.randint_like(x, 5, 5)
    with pytest.raises(ValueError, match="randint_like: with high=None, low must be > 0"):
        paddle.randint_like(x, 0)


def test_poisson_is_seeded_and_has_a_zero_gradient():
    rates = T(np.full([200], 3.0, "float32"), stop_gradient=False)
    paddle.seed(7)
    a = paddle.poisson(rates)
    paddle.seed(7)
    b = paddle.poisson(rates)
    assert np.array_equal(a.numpy(), b.numpy()) and a.dtype == paddle.float32
    assert np.all(a.numpy() == np.round(a.numpy())) and 2.0 < a.numpy().mean() < 4.0
    assert paddle.poisson(T([-2.0])).tolist() == [0.0]
    a.sum().backward()
    assert rates.grad.tolist() == [0.0] * 200
    with pytest.raises(TypeError, match="poisson: x must be float32 or float64, got int64"):
        paddle.poisson(T([1]))


@pytest.mark.parametrize(
    "fill, args, check",
    [
        ("uniform_", (2.0, 3.0), lambda v: (v >= 2).all() and (v < 3).all()),
        ("normal_", (10.0, 0.1), lambda v: abs(v.mean() - 10) < 0.1),
        ("exponential_", (2.0,), lambda v: (v >= 0).all() and abs(v.mean() - 0.5) < 0.15),
        ("cauchy_", (1.0, 0.01), lambda v: abs(np.median(v) - 1) < 0.05),
        ("geometric_", (0.3,), lambda v: (v >= 0).all() and abs(v.mean() + 1 / np.log(0.7)) < 0.7),
    ],
)
def test_inplace_fills_are_seeded_and_keep_the_tensor(fill, args, check):
    x = paddle.zeros([400])
    paddle.seed(3)
    assert getattr(x, fill)(*args) is x
    first = x.numpy().copy()
    assert check(first)
    paddle.seed(3)
    assert np.array_equal(getattr(paddle.zeros([400]), fill)(*args).numpy(), first)


def test_fills_write_through_views_and_give_zero_gradients():
    x = paddle.zeros([4])
    x[1:3].uniform_()
    assert x.numpy()[0] == 0 and x.numpy()[3] == 0 and np.all(x.numpy()[1:3] != 0)
    leaf = paddle.zeros([3])
    leaf.stop_gradient = False
    y = leaf * 2
    y.normal_().sum().backward()
    assert leaf.grad.tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(RuntimeError, match="cauchy_: a leaf Tensor that requires grad"):
        leaf.cauchy_()
    with paddle.no_grad():  # initializers fill parameters this way
        leaf.uniform_()


def test_fill_arguments_and_top_level_names():
    assert np.array_equal(paddle.zeros([3]).uniform_(seed=3).numpy(), paddle.zeros([3]).uniform_(seed=3).numpy())
    probs = T([0.2, 0.9])
    assert paddle.geometric_(paddle.zeros([2]), probs).shape == [2]
    assert paddle.normal_(paddle.zeros([2])).shape == [2] and paddle.cauchy_(paddle.zeros([2])).shape == [2]
    assert not hasattr(paddle, "uniform_") and not hasattr(paddle, "exponential_")
    with pytest.raises(ValueError, match="uniform_: min must be less than max, got min=3.0 and max=2.0"):
        paddle.zeros([2]).uniform_(3, 2)
    with pytest.raises(TypeError, match="exponential_: x must be float32 or float64, got int64"):
        paddle.zeros([2], "int64").exponential_()
    with pytest.raises(TypeError, match="normal_: mean must be a number, got a Tensor of shape"):
        paddle.zeros([2]).normal_(T([1.0, 2.0]))


# ---- finfo and iinfo -----------------------------------------------------------------------------------------------


def test_finfo_matches_paddle():
    f = paddle.finfo(paddle.float32)
    assert (f.bits, f.eps, f.min, f.max, f.tiny, f.smallest_normal, f.resolution, f.dtype) == (
        32, 1.1920928955078125e-07, -3.4028234663852886e38, 3.4028234663852886e38, 1.1754943508222875e-38,
        1.1754943508222875e-38, 1e-06, "float32",
    )  # fmt: skip
    assert repr(f) == (
        "paddle.finfo(min=-3.40282e+38, max=3.40282e+38, eps=1.19209e-07, resolution=1e-06, "
        "smallest_normal=1.17549e-38, tiny=1.17549e-38, bits=32, dtype=float32)"
    )
    assert (paddle.finfo("float16").max, paddle.finfo(paddle.float16).resolution) == (65504.0, 0.001)
    b = paddle.finfo(paddle.bfloat16)
    assert (b.bits, b.eps, b.max, b.resolution, b.dtype) == (16, 0.0078125, 3.3895313892515355e38, 0.01, "bfloat16")
    assert paddle.finfo(paddle.complex128).dtype == "float64" and paddle.finfo(paddle.float64).resolution == 1e-15
    with pytest.raises(ValueError, match="finfo: dtype must be float16, .* got int32"):
        paddle.finfo(paddle.int32)


def test_iinfo_matches_paddle():
    i = paddle.iinfo(paddle.int64)
    assert (i.bits, i.min, i.max, i.dtype) == (64, -9223372036854775808, 9223372036854775807, "int64")
    assert repr(paddle.iinfo("uint8")) == "paddle.iinfo(min=0, max=255, bits=8, dtype=uint8)"
    with pytest.raises(ValueError, match="iinfo: dtype must be uint8, int8, int16, int32 or int64, got bool"):
        paddle.iinfo(paddle.bool)
    with pytest.raises(TypeError, match="iinfo: dtype must be a paddle dtype"):
        paddle.iinfo("not a dtype")
