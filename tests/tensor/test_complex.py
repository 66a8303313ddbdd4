"""Complex tensors: dtypes, parts, and autograd with complex128 leaves in the conjugate convention of Paddle 2.6
and PyTorch (docs/complex_autograd.md): z.grad = dL/dRe(z) + i dL/dIm(z)."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.testing import GradcheckError, gradcheck

RNG = np.random.default_rng(0)


def cleaf(*shape):
    return paddle.to_tensor(RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape), stop_gradient=False)


@pytest.mark.parametrize(
    "name,fn,shapes",
    [
        ("mul", lambda a, b: a * b, [(3,), (3,)]),
        ("div", lambda a, b: a / b, [(2, 2), (2, 2)]),
        ("matmul", paddle.matmul, [(2, 3), (3, 2)]),
        ("matmul_transposed", lambda a, b: paddle.matmul(a, b, transpose_x=True, transpose_y=True), [(3, 2), (2, 3)]),
        ("kron", paddle.kron, [(2, 2), (1, 2)]),
        ("abs", lambda a, b: paddle.abs(a * b), [(4,), (4,)]),
        ("sum_reshape", lambda a, b: (a * b).reshape([6]).sum(), [(2, 3), (2, 3)]),
        ("real_imag_angle", lambda a, b: paddle.real(a) * paddle.imag(b) + paddle.angle(a), [(3,), (3,)]),
        ("conj", lambda a, b: paddle.conj(a) * b, [(3,), (3,)]),
        ("index", lambda a, b: a[1:] * b[[0, 0]], [(3,), (3,)]),
    ],
)
def test_gradcheck_with_complex128_leaves(name, fn, shapes):
    assert gradcheck(fn, [cleaf(*s) for s in shapes])


def test_gradcheck_catches_a_gradient_in_the_wrong_convention():
    z = cleaf(3)
    w = paddle.to_tensor(RNG.standard_normal(3) + 1j * RNG.standard_normal(3))
    assert gradcheck(lambda a: paddle.real(a * w), [z])
    z.register_hook(lambda g: paddle.conj(g))  # dL/dRe - i dL/dIm: the other convention, so wrong here
    with pytest.raises(GradcheckError):
        gradcheck(lambda a: paddle.real(a * w), [z])


def test_gradients_match_paddle_26():
    # Values measured with paddlepaddle 2.6.2 (z = [1+2j, 3-1j], w = [2-1j, 0.5+1j]).
    w = paddle.to_tensor([2 - 1j, 0.5 + 1j])
    cases = {
        "abs": (lambda z: paddle.abs(z * w), [1 + 2j, 1.0606601 - 0.35355338j]),
        "real": (lambda z: paddle.real(z * w), [2 + 1j, 0.5 - 1j]),
        "imag": (lambda z: paddle.imag(z * w), [-1 + 2j, 1 + 0.5j]),
        "angle": (paddle.angle, [-0.4 + 0.2j, 0.1 + 0.3j]),
        "complex output": (lambda z: z * w, [2 + 1j, 0.5 - 1j]),
    }
    for name, (fn, expected) in cases.items():
        z = paddle.to_tensor([1 + 2j, 3 - 1j], stop_gradient=False)
        fn(z).sum().backward()
        np.testing.assert_allclose(z.grad.numpy(), expected, rtol=1e-6, err_msg=name)


def test_complex_dtypes_parts_and_errors():
    z = paddle.to_tensor([1 + 2j, -3 + 0j])
    assert z.dtype == paddle.complex64 and paddle.is_complex(z) and not paddle.is_floating_point(z)
    assert paddle.real(z).dtype == paddle.float32 and z.imag().numpy().tolist() == [2.0, 0.0]
    np.testing.assert_allclose(paddle.angle(z).numpy(), [np.angle(1 + 2j), np.pi], rtol=1e-6)
    assert paddle.as_real(z).shape == [2, 2] and paddle.as_complex(paddle.as_real(z)).dtype == paddle.complex64
    assert paddle.complex(paddle.ones([2], "float64"), paddle.zeros([2], "float64")).dtype == paddle.complex128
    np.testing.assert_allclose(paddle.abs(z).numpy(), [np.sqrt(5), 3])
    with pytest.raises(TypeError, match="real: x must be complex64 or complex128, got float32"):
        paddle.real(paddle.ones([2]))
    with pytest.raises(ValueError, match="as_complex: x must be float32 or float64 with a last dimension of size 2"):
        paddle.as_complex(paddle.ones([2, 3]))
    with pytest.raises(TypeError, match="complex: real and imag must have the same dtype"):
        paddle.complex(paddle.ones([2]), paddle.ones([2], "float64"))


def test_gradcheck_for_real_inputs_is_unchanged():
    x = paddle.to_tensor(RNG.standard_normal((2, 3)), stop_gradient=False)
    assert gradcheck(lambda t: (t * t).sum(axis=0), [x])
    assert paddle.testing.gradgradcheck(lambda t: (t * t * t).sum(), [x])
