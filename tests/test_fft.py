"""paddle.fft (minipaddle/fft.py, ops in minipaddle/ops/fft_ops.py): values, dtypes and gradients against golden
cases recorded from real Paddle 2.6 (tests/golden/fft), then signatures, dtypes, argument checks, complex
gradchecks and static mode. The op table (tests/op_table/fft.py) checks every function against numpy.fft."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_arrays, read_json

F = paddle.fft
GOLDEN = read_json(GOLDEN_ROOT / "fft" / "cases.json")
ARRAYS = read_arrays(GOLDEN_ROOT / "fft" / "arrays.npz")
CASES = GOLDEN["cases"]

# ---- against Paddle 2.6 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_dtypes_and_gradients_match_paddle(name):
    case = CASES[name]
    x = ARRAYS[f"{name}/x"]
    differentiable = f"{name}/w" in ARRAYS
    t = paddle.to_tensor(x, stop_gradient=not differentiable)
    out = getattr(F, case["fn"])(t, **case["kwargs"])
    expected = ARRAYS[f"{name}/out"]
    assert out.dtype.name == case["out_dtype"]
    single = expected.dtype in (np.float32, np.complex64)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5 if single else 1e-11, atol=1e-5 if single else 1e-12)
    if differentiable:  # the gradient of sum(real(out * w)), in Paddle's convention for complex x
        w = ARRAYS[f"{name}/w"]
        loss = out * paddle.to_tensor(w)
        loss = paddle.real(loss) if np.iscomplexobj(w) else loss
        (grad,) = paddle.grad([loss.sum()], [t])
        np.testing.assert_allclose(grad.numpy(), ARRAYS[f"{name}/grad"], rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("name", GOLDEN["freqs"])
def test_frequencies_match_paddle(name):
    fn, n, *d = name.split("_")
    out = getattr(F, fn)(int(n), *[float(v) for v in d])
    assert out.dtype == paddle.float32
    np.testing.assert_array_equal(out.numpy(), ARRAYS[f"{name}/out"])


# Paddle 2.6's signatures, from inspect.signature(paddle.fft.X)
ONE_D = "(x, n=None, axis=-1, norm='backward', name=None)"
TWO_D = "(x, s=None, axes=(-2, -1), norm='backward', name=None)"
N_D = "(x, s=None, axes=None, norm='backward', name=None)"
SIGNATURES = {name: ONE_D for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")}
SIGNATURES.update({f"{name}2": TWO_D for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")})
SIGNATURES.update({f"{name}n": N_D for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")})
SIGNATURES.update({"fftfreq": "(n, d=1.0, dtype=None, name=None)", "rfftfreq": "(n, d=1.0, dtype=None, name=None)"})
SIGNATURES.update({"fftshift": "(x, axes=None, name=None)", "ifftshift": "(x, axes=None, name=None)"})


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signatures_are_paddles(name):
    sig = inspect.signature(getattr(F, name)).replace(return_annotation=inspect.Signature.empty)
    assert str(sig) == SIGNATURES[name]


def test_module_lists_paddles_names():
    assert sorted(F.__all__) == sorted(SIGNATURES)
    assert paddle.fft is F and not hasattr(paddle.Tensor, "fft")


# ---- dtypes ------------------------------------------------------------------------------------------------------

REAL_TO_COMPLEX = [("float32", "complex64"), ("float64", "complex128"), ("int64", "complex64"), ("int32", "complex64")]


@pytest.mark.parametrize("fn", ["fft", "ifft", "rfft", "ihfft", "fft2", "rfftn", "ihfftn", "ifftn"])
@pytest.mark.parametrize("dtype,expected", REAL_TO_COMPLEX)
def test_real_and_integer_input_give_complex(fn, dtype, expected):
    x = paddle.to_tensor(np.arange(12).reshape(3, 4).astype(dtype))
    out = getattr(F, fn)(x)
    assert out.dtype.name == expected
    np.testing.assert_allclose(out.numpy(), getattr(F, fn)(paddle.cast(x, "float64")).numpy(), atol=1e-4)


def test_integer_input_follows_the_default_dtype():
    paddle.set_default_dtype("float64")
    try:
        assert F.fft(paddle.to_tensor([1, 2, 3])).dtype == paddle.complex128
        assert F.fftfreq(4).dtype == paddle.float64
    finally:
        paddle.set_default_dtype("float32")


@pytest.mark.parametrize("fn", ["irfft", "hfft", "irfft2", "hfftn"])
@pytest.mark.parametrize("dtype,expected", [("complex64", "float32"), ("complex128", "float64"),
                                            ("float32", "float32"), ("float64", "float64")])  # fmt: skip
def test_half_spectrum_input_gives_real(fn, dtype, expected):
    x = paddle.to_tensor((np.arange(6) + 1j).reshape(2, 3).astype(dtype) if "complex" in dtype
                         else np.arange(6.0).reshape(2, 3).astype(dtype))  # fmt: skip
    out = getattr(F, fn)(x)
    assert out.dtype.name == expected and out.shape == [2, 4]


def test_complex_input_keeps_its_precision():
    z = paddle.to_tensor([1 + 2j, 3 - 1j, 0.5j], dtype="complex64")
    assert F.fft(z).dtype == paddle.complex64 and F.ifftn(z).dtype == paddle.complex64
    assert F.fftshift(z).dtype == paddle.complex64


@pytest.mark.parametrize("fn", ["fft", "rfft", "irfft", "hfftn", "ihfft2"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "bool"])
def test_dtypes_without_a_kernel_raise(fn, dtype):
    x = paddle.ones([2, 4], dtype=dtype)
    with pytest.raises(TypeError, match=f"{fn}: x must be .* got {dtype}"):
        getattr(F, fn)(x)


@pytest.mark.parametrize("fn", ["rfft", "ihfft", "rfftn"])
def test_onesided_transforms_refuse_complex_input(fn):
    with pytest.raises(TypeError, match=f"{fn}: x must be a float32, float64 or integer tensor, got complex64"):
        getattr(F, fn)(paddle.to_tensor([1j, 2.0], dtype="complex64"))


@pytest.mark.parametrize("fn", ["irfft", "hfft", "irfftn"])
def test_half_spectrum_transforms_refuse_integer_input_as_paddle_does(fn):
    with pytest.raises(TypeError, match=f"{fn}: x must be a complex64, complex128, float32 or float64 tensor"):
        getattr(F, fn)(paddle.to_tensor([1, 2, 3]))


# ---- values ------------------------------------------------------------------------------------------------------


def test_round_trips():
    rng = np.random.default_rng(1)
    x = paddle.to_tensor(rng.standard_normal((3, 5)))
    for norm in ("backward", "forward", "ortho"):
        np.testing.assert_allclose(F.irfft(F.rfft(x, norm=norm), n=5, norm=norm).numpy(), x.numpy(), atol=1e-12)
        np.testing.assert_allclose(F.hfft(F.ihfft(x, norm=norm), n=5, norm=norm).numpy(), x.numpy(), atol=1e-12)
        np.testing.assert_allclose(F.ifftn(F.fftn(x, norm=norm), norm=norm).numpy(), x.numpy(), atol=1e-12)
        np.testing.assert_allclose(F.irfft2(F.rfft2(x, norm=norm), s=[3, 5], norm=norm).numpy(), x.numpy(),
                                   atol=1e-12)  # fmt: skip


def test_norms_scale_the_forward_or_the_inverse_transform():
    x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_allclose(F.fft(x).numpy(), [10, -2 + 2j, -2, -2 - 2j])
    np.testing.assert_allclose(F.fft(x, norm="forward").numpy(), np.array([10, -2 + 2j, -2, -2 - 2j]) / 4)
    np.testing.assert_allclose(F.fft(x, norm="ortho").numpy(), np.array([10, -2 + 2j, -2, -2 - 2j]) / 2)
    np.testing.assert_allclose(F.ifft(x, norm="forward").numpy(), [10, -2 - 2j, -2, -2 + 2j])


def test_half_spectrum_ignores_the_imaginary_parts_symmetry_makes_zero():
    """irfft reads the first entry (and the last, for an even length) as real, as Paddle's kernel does."""
    z = paddle.to_tensor([1 + 5j, 2 - 1j, 3 + 7j])
    np.testing.assert_allclose(F.irfft(z).numpy(), F.irfft(paddle.to_tensor([1, 2 - 1j, 3])).numpy())
    odd = F.irfft(z, n=5).numpy()  # length 5: the last entry has a partner, so its imaginary part counts
    assert not np.allclose(odd, F.irfft(paddle.to_tensor([1, 2 - 1j, 3]), n=5).numpy())


def test_fftshift_and_ifftshift():
    x = paddle.arange(6).reshape([2, 3])
    np.testing.assert_array_equal(F.fftshift(x).numpy(), [[5, 3, 4], [2, 0, 1]])
    np.testing.assert_array_equal(F.ifftshift(x).numpy(), [[4, 5, 3], [1, 2, 0]])
    np.testing.assert_array_equal(F.fftshift(x, axes=1).numpy(), [[2, 0, 1], [5, 3, 4]])
    np.testing.assert_array_equal(F.ifftshift(x, axes=-1).numpy(), [[1, 2, 0], [4, 5, 3]])
    np.testing.assert_array_equal(F.fftshift(x, axes=[-1]).numpy(), [[2, 0, 1], [5, 3, 4]])  # Paddle 2.6 fails
    np.testing.assert_array_equal(F.fftshift(x, axes=[1, 1]).numpy(), [[1, 2, 0], [4, 5, 3]])  # rolled twice
    with pytest.raises(TypeError, match="roll: the data type of 'x'"):  # paddle 2.6's roll has no bool kernel
        F.fftshift(paddle.to_tensor([True, False, False]))


def test_fftfreq_ignores_dtype_as_paddle_26_does():
    assert F.fftfreq(4, dtype="float64").dtype == paddle.float32
    assert F.rfftfreq(4, dtype="int64").dtype == paddle.float32
    np.testing.assert_allclose(F.fftfreq(4, paddle.to_tensor(0.5)).numpy(), [0, 0.5, -1, -0.5])
    np.testing.assert_allclose(F.fftfreq(4, -2.0).numpy(), [0, -0.125, 0.25, 0.125])
    np.testing.assert_allclose(F.rfftfreq(1).numpy(), [0.0])


# ---- argument checks -----------------------------------------------------------------------------------------------

X = paddle.ones([2, 3, 4])
Z = paddle.ones([2, 3, 4], dtype="complex128")

ERRORS = [
    (lambda: F.fft([1.0, 2.0]), TypeError, "fft: x must be a Tensor, got list"),
    (lambda: F.fftn(np.ones(3)), TypeError, "fftn: x must be a Tensor, got ndarray"),
    (lambda: F.fft(X, norm="bad"), ValueError, "fft: norm must be 'backward', 'forward' or 'ortho', got 'bad'"),
    (lambda: F.rfftn(X, norm=None), ValueError, "rfftn: norm must be .* got None"),
    (lambda: F.fft(X, n=0), ValueError, r"fft: n must be a positive int, got 0"),
    (lambda: F.irfft(Z, n=-2), ValueError, r"irfft: n must be a positive int, got -2"),
    (lambda: F.rfft(X, n=2.0), ValueError, r"rfft: n must be a positive int, got 2.0"),
    (lambda: F.fft(X, n=True), ValueError, r"fft: n must be a positive int, got True"),
    (lambda: F.fft(X, axis=3), ValueError, r"fft: axis must be an int in \[-3, 3\) .* got 3"),
    (lambda: F.ihfft(X, axis=1.0), ValueError, r"ihfft: axis must be an int .* got 1.0"),
    (lambda: F.fft(paddle.to_tensor(1.0)), ValueError, r"fft: axis must be an int in \[-0, 0\)"),
    (lambda: F.irfft(paddle.ones([3, 1], "complex64")), ValueError, "irfft: x has 1 entry along axis 1"),
    (lambda: F.fftn(X, s=3), ValueError, "fftn: s must be a sequence of positive ints, got 3"),
    (lambda: F.fftn(X, s=[3, 5, 2, 2]), ValueError, r"fftn: s must name 1 to 3 sizes"),
    (lambda: F.fftn(X, s=[]), ValueError, r"fftn: s must name 1 to 3 sizes"),  # Paddle 2.6 crashes
    (lambda: F.rfftn(X, s=[0, 2]), ValueError, r"rfftn: s must hold positive ints, got \[0, 2\]"),
    (lambda: F.irfftn(Z, s=[2.0, 2]), ValueError, r"irfftn: s must hold positive ints"),
    (lambda: F.fftn(X, axes=0), ValueError, "fftn: axes must be a sequence of ints, got 0"),
    (lambda: F.fftn(X, axes=[]), ValueError, "fftn: axes must name 1 to 3 axes"),
    (lambda: F.ifftn(X, axes=(0, 3)), ValueError, r"ifftn: axes \[0, 3\] holds 3"),
    (lambda: F.hfftn(Z, axes=(0, -3)), ValueError, r"hfftn: axes \[0, -3\] names the same axis twice"),
    (lambda: F.fftn(X, s=[3, 5], axes=[0]), ValueError, r"fftn: s \[3, 5\] and axes \[0\] must have the same length"),
    (lambda: F.fftn(paddle.to_tensor(2.0)), ValueError, "fftn: x is 0-d"),  # Paddle 2.6 crashes
    (lambda: F.fft2(paddle.ones([4])), ValueError, "fft2: x must have at least 2 dimensions, got 1"),
    (lambda: F.rfft2(X, s=[3]), ValueError, r"rfft2: s must be a sequence of 2 ints, got \[3\]"),
    (lambda: F.ihfft2(X, axes=[0]), ValueError, r"ihfft2: axes must be a sequence of 2 ints, got \[0\]"),
    (lambda: F.irfft2(Z, axes=0), ValueError, r"irfft2: axes must be a sequence of 2 ints, got 0"),
    (lambda: F.hfft2(Z, axes=(0, 0)), ValueError, "hfft2: axes .* names the same axis twice"),
    (lambda: F.fftfreq(0), ValueError, "fftfreq: n must be a positive int and d must not be 0"),
    (lambda: F.rfftfreq(4, 0), ValueError, "rfftfreq: n must be a positive int and d must not be 0"),
    (lambda: F.fftfreq(-3), ValueError, "fftfreq: n must be a positive int"),
    (lambda: F.fftfreq(2.5), TypeError, "fftfreq: n must be a positive int, got float"),
    (lambda: F.rfftfreq(None), TypeError, "rfftfreq: n must be a positive int, got NoneType"),
    (lambda: F.fftfreq(10**20), RuntimeError, "fftfreq: n=100000000000000000000 is more than"),  # paddle's family
    (lambda: F.fftfreq(4, "a"), TypeError, "fftfreq: d must be a number, got str"),
    (lambda: F.fftshift(X, axes=3), ValueError, r"fftshift: axes \[3\] holds 3"),
    (lambda: F.ifftshift(X, axes=[]), ValueError, "ifftshift: axes must be an int or a non-empty sequence"),
    (lambda: F.fftshift(X, axes=1.0), TypeError, "fftshift: axes must be an int or a non-empty sequence"),
    (lambda: F.ifftshift(X, axes="01"), TypeError, "ifftshift: axes must be an int or .*, got str"),
    (lambda: F.fftshift(X, axes=[0.5]), TypeError, r"fftshift: axes \[0.5\] holds 0.5"),
    (lambda: F.fftshift(paddle.to_tensor(1.0)), ValueError, "fftshift: x is 0-d"),
    (lambda: F.ifftshift(np.arange(3)), TypeError, "ifftshift: x must be a Tensor, got ndarray"),
]


@pytest.mark.parametrize("call,error,message", ERRORS, ids=[m.split(":")[0] + str(i) for i, (_, _, m) in
                                                             enumerate(ERRORS)])  # fmt: skip
def test_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ---- gradients with complex128 leaves ------------------------------------------------------------------------------


def _complex_leaf(rng, *shape):
    return paddle.to_tensor(rng.standard_normal(shape) + 1j * rng.standard_normal(shape), stop_gradient=False)


@pytest.mark.parametrize(
    "fn",
    [
        lambda z: F.fft(z, norm="ortho"),
        lambda z: F.ifftn(z, s=[3, 5]),
        lambda z: F.irfft(z),  # the first and last entries' imaginary parts get no gradient
        lambda z: F.irfft(z, n=7, norm="forward"),
        lambda z: F.hfft2(z, s=[4, 5]),
        lambda z: F.irfftn(z, axes=[1, 0]),
        lambda z: F.fftshift(F.fft2(z)),
    ],
    ids=["fft", "ifftn_s", "irfft", "irfft_odd", "hfft2_s", "irfftn_axes", "fftshift"],
)
def test_gradcheck_complex128(fn):
    z = _complex_leaf(np.random.default_rng(3), 3, 4)
    assert paddle.testing.gradcheck(fn, [z])


@pytest.mark.parametrize(
    "fn",
    [lambda z: F.irfft(z, n=5) * F.irfft(z, n=5), lambda z: F.fftn(z) * F.fftn(z)],
    ids=["irfft_squared", "fftn_squared"],
)
def test_double_backward_complex128(fn):
    z = _complex_leaf(np.random.default_rng(4), 2, 3)
    assert paddle.testing.gradgradcheck(fn, [z], atol=1e-4, rtol=1e-3)


def test_gradient_of_real_input_through_the_full_spectrum():
    """fft of a real x: the gradient is the real part of the adjoint transform (Paddle's fft_r2c_grad)."""
    x = paddle.to_tensor(np.random.default_rng(5).standard_normal((2, 5)), stop_gradient=False)
    assert paddle.testing.gradcheck(lambda x: F.ifft2(x, s=[3, 4]), [x])
    assert paddle.testing.gradcheck(lambda x: F.hfft(x, n=6), [x])  # float read as complex: real part of grad


# ---- static mode ---------------------------------------------------------------------------------------------------

STATIC_CALLS = {
    "rfft_irfft": lambda x: F.irfft(F.rfft(x) * F.rfft(x), n=6),
    "fft_axis0": lambda x: paddle.abs(F.fft(x, axis=1, n=8)),
    "hfft_ihfft": lambda x: F.hfft(F.ihfft(x, norm="ortho"), n=6, norm="ortho"),
    "fftn_last": lambda x: paddle.real(F.fftn(x, axes=[1])),
    "shift": lambda x: F.fftshift(x, axes=1),
}


def test_static_programs_with_an_unknown_batch_match_dynamic_mode():
    data = np.random.default_rng(6).standard_normal((3, 6))
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [-1, 6], "float64")
            outs = {name: fn(x) for name, fn in STATIC_CALLS.items()}
            shapes = {name: list(out.shape) for name, out in outs.items()}
        fetched = paddle.static.Executor().run(main, feed={"x": data}, fetch_list=list(outs.values()))
    finally:
        paddle.disable_static()
    assert shapes == {"rfft_irfft": [-1, 6], "fft_axis0": [-1, 8], "hfft_ihfft": [-1, 6], "fftn_last": [-1, 6],
                      "shift": [-1, 6]}  # fmt: skip
    for (name, fn), value in zip(STATIC_CALLS.items(), fetched):
        np.testing.assert_allclose(value, fn(paddle.to_tensor(data)).numpy(), rtol=1e-12, atol=1e-12, err_msg=name)


def test_static_mode_refuses_to_resize_an_axis_of_unknown_size():
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [-1, 6], "float64")
            with pytest.raises(ValueError, match="fft: axis 0 of x has an unknown size"):
                F.fft(x, n=4, axis=0)
    finally:
        paddle.disable_static()
