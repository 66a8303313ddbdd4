"""Op-table section: complex numbers. Entries take real float inputs and build complex tensors inside, so the
table's float64 gradcheck runs through the complex ops (mul, div, matmul, kron, abs, sum, reshape, real, imag,
angle). tests/tensor/test_complex.py checks the same ops with complex128 leaves."""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from tests.op_table.common import OpInfo, Sample, r


def pair(rng, *shape):
    return (r(rng, *shape), r(rng, *shape))


def cplx(re, im):
    return paddle.complex(re, im)


def c_samples(*shapes):
    def samples(rng):
        args = []
        for s in shapes:
            args += pair(rng, *s)
        return [Sample(tuple(args))]

    return samples


ENTRIES: list[OpInfo] = [
    OpInfo("complex", paddle.complex, lambda re, im: re + 1j * im, c_samples((3, 4)), double_grad=True),
    OpInfo("real_imag", lambda a, b: paddle.real(cplx(a, b) * cplx(b, a)) + paddle.imag(cplx(a, b)),
           lambda a, b: ((a + 1j * b) * (b + 1j * a)).real + b, c_samples((3, 4))),
    OpInfo("complex_mul_abs", lambda a, b, c, d: paddle.abs(cplx(a, b) * cplx(c, d)),
           lambda a, b, c, d: np.abs((a + 1j * b) * (c + 1j * d)), c_samples((3,), (3,))),
    OpInfo("complex_div", lambda a, b, c, d: cplx(a, b) / cplx(c + 2.0, d),
           lambda a, b, c, d: (a + 1j * b) / (c + 2.0 + 1j * d), c_samples((2, 3), (2, 3))),
    OpInfo("complex_matmul", lambda a, b, c, d: paddle.matmul(cplx(a, b), cplx(c, d)),
           lambda a, b, c, d: (a + 1j * b) @ (c + 1j * d), c_samples((2, 3), (3, 2))),
    OpInfo("complex_kron", lambda a, b, c, d: paddle.kron(cplx(a, b), cplx(c, d)),
           lambda a, b, c, d: np.kron(a + 1j * b, c + 1j * d), c_samples((2, 2), (2, 1))),
    OpInfo("complex_sum_reshape", lambda a, b: cplx(a, b).reshape([4, 3]).sum(axis=0),
           lambda a, b: (a + 1j * b).reshape(4, 3).sum(0), c_samples((3, 4))),
    OpInfo("complex_conj", lambda a, b: paddle.conj(cplx(a, b)) * cplx(a, b),
           lambda a, b: np.conj(a + 1j * b) * (a + 1j * b), c_samples((3,))),
    OpInfo("angle", lambda a, b: paddle.angle(cplx(a + 1.5, b)), lambda a, b: np.angle(a + 1.5 + 1j * b),
           c_samples((3, 2))),
    OpInfo("angle_real", paddle.angle, np.angle, lambda rng: [Sample((np.array([-1.5, 0.5, 2.0]),))]),
    OpInfo("as_complex", paddle.as_complex, lambda x: x[..., 0] + 1j * x[..., 1],
           lambda rng: [Sample((r(rng, 3, 2),))]),
    OpInfo("as_real", lambda a, b: paddle.as_real(cplx(a, b)), lambda a, b: np.stack([a, b], -1), c_samples((2, 3))),
    OpInfo("complex_getitem_setitem", lambda a, b: _set_first(cplx(a, b)), lambda a, b: _np_set_first(a + 1j * b),
           c_samples((3, 2)), static=False),  # (static=False: see the setitem entry in indexing.py)
]  # fmt: skip


def _set_first(z):
    z = z * 1
    z[0] = z[1] - z[2]  # (z[1] * z[2] would save views of z that the write changes: backward refuses)
    return z


def _np_set_first(z):
    z = z.copy()
    z[0] = z[1] - z[2]
    return z
