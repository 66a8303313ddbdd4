"""paddle.tensor.math beyond the op table: the Paddle 2.6 behaviours measured on the real thing (rounding,
Python's division rules, gradients at ties and bounds, dtypes), and the Tensor operators that reach them."""

import math

import numpy as np
import pytest

import minipaddle as paddle


def grad_of(fn, values):
    x = paddle.to_tensor(values, stop_gradient=False)
    out = fn(x)
    return paddle.grad(out.sum(), [x])[0].numpy()


def test_round_goes_half_away_from_zero():
    x = paddle.to_tensor([0.5, 1.5, 2.5, -0.5, -2.5, 0.49])
    np.testing.assert_array_equal(paddle.round(x).numpy(), [1.0, 2.0, 3.0, -1.0, -3.0, 0.0])


def test_floor_division_and_remainder_follow_python():
    a, b = paddle.to_tensor([-3, 3, 7, -7]), paddle.to_tensor([2, -2, 3, 3])
    np.testing.assert_array_equal(paddle.floor_divide(a, b).numpy(), [-2, -2, 2, -3])
    np.testing.assert_array_equal(paddle.remainder(a, b).numpy(), [1, -1, 1, 2])
    np.testing.assert_array_equal((a // b).numpy(), [-2, -2, 2, -3])
    np.testing.assert_array_equal((a % b).numpy(), [1, -1, 1, 2])
    assert paddle.mod is not paddle.remainder and paddle.floor_mod(a, b).numpy().tolist() == [1, -1, 1, 2]
    f = paddle.to_tensor([0.5, -1.5, 2.5])
    np.testing.assert_allclose(paddle.remainder(f, paddle.full([3], 2.0)).numpy(), [0.5, 0.5, 0.5])
    assert paddle.floor_divide(f, paddle.full([3], 2.0)).stop_gradient  # no gradient, as Paddle


def test_integer_division_by_zero_raises():
    with pytest.raises(ValueError, match="floor_divide: integer division by zero"):  # paddle: InvalidArgumentError
        paddle.floor_divide(paddle.to_tensor([1, 2]), paddle.to_tensor([0, 1]))
    with pytest.raises(ValueError, match="remainder"):
        paddle.to_tensor([1, 2]) % 0
    assert np.isinf(paddle.floor_divide(paddle.to_tensor([1.0]), paddle.to_tensor([0.0])).numpy()).all()


def test_rounding_ops_pass_zero_gradients():
    for fn in (paddle.floor, paddle.ceil, paddle.round, paddle.trunc):
        np.testing.assert_array_equal(grad_of(fn, [1.2, -0.5, 2.7]), [0.0, 0.0, 0.0])
    with pytest.raises(TypeError, match="floor: the data type of 'x'"):  # paddle 2.6: float only
        paddle.floor(paddle.to_tensor([3, -2]))
    assert paddle.trunc(paddle.to_tensor([3, -2])).dtype == paddle.int64  # trunc takes ints, unchanged


def test_clip_gradient_is_zero_at_and_beyond_the_bounds():
    np.testing.assert_array_equal(grad_of(lambda x: paddle.clip(x, 1.0, 3.0), [1.0, 3.0, 3.0, 2.0, 0.0, 5.0]),
                                  [0, 0, 0, 1, 0, 0])  # fmt: skip
    np.testing.assert_array_equal(paddle.clip(paddle.to_tensor([1, 2, 3]), 1.5, 2.5).numpy(), [1, 2, 2])
    lo, hi = paddle.to_tensor(0.0), paddle.to_tensor(1.0)
    np.testing.assert_array_equal(paddle.clip(paddle.to_tensor([-1.0, 0.5, 2.0]), lo, hi).numpy(), [0, 0.5, 1])


def test_max_gives_ties_the_whole_gradient_and_amax_splits_it():
    np.testing.assert_array_equal(grad_of(paddle.max, [1.0, 3.0, 3.0, 2.0]), [0, 1, 1, 0])
    np.testing.assert_array_equal(grad_of(paddle.amax, [1.0, 3.0, 3.0, 2.0]), [0, 0.5, 0.5, 0])
    np.testing.assert_array_equal(grad_of(paddle.amin, [[1.0, 1.0], [0.0, 2.0]]), [[0, 0], [1, 0]])
    g = grad_of(lambda x: paddle.amin(x, axis=1), [[1.0, 1.0, 4.0], [0.0, 2.0, 0.0]])
    np.testing.assert_array_equal(g, [[0.5, 0.5, 0], [0.5, 0, 0.5]])


def test_prod_gradient_is_out_over_x_as_paddle():
    np.testing.assert_allclose(grad_of(paddle.prod, [2.0, 3.0, 4.0]), [12.0, 8.0, 6.0])
    assert paddle.prod(paddle.to_tensor([1, 2, 3], dtype="int32")).dtype == paddle.int32
    assert paddle.prod(paddle.to_tensor([1, 2]), dtype="float32").dtype == paddle.float32


def test_cumsum_dtypes_and_flattening():
    assert paddle.cumsum(paddle.to_tensor([1, 2], dtype="int32")).dtype == paddle.int32
    with pytest.raises(TypeError, match="cumsum: the data type of 'x'"):  # paddle 2.6 has no bool cumsum
        paddle.cumsum(paddle.to_tensor([True, True]))
    out = paddle.cumsum(paddle.ones([2, 3]), axis=1, dtype="float64")
    assert out.dtype == paddle.float64 and out.numpy().tolist() == [[1, 2, 3], [1, 2, 3]]
    assert paddle.cumsum(paddle.ones([2, 3])).shape == [6]


def test_logsumexp_is_stable():
    x = paddle.to_tensor([1000.0, 1000.0])
    np.testing.assert_allclose(paddle.logsumexp(x).numpy(), 1000.0 + math.log(2.0))
    assert paddle.logsumexp(paddle.to_tensor([-np.inf, -np.inf])).numpy() == -np.inf
    out = paddle.logsumexp(paddle.to_tensor([[0.0, 1.0], [2.0, 3.0]]), axis=[0, 1], keepdim=True)
    assert out.shape == [1, 1]


def test_float_functions_compute_integers_in_the_default_float():
    for fn in (paddle.log2, paddle.exp):  # paddle 2.6 takes ints here
        assert fn(paddle.to_tensor([1, 2])).dtype == paddle.float32
    with pytest.raises(TypeError, match="erf: paddle 2.6 has no kernel for a int64 'x' in dynamic mode"):
        paddle.erf(paddle.to_tensor([1, 2]))  # its static mode builds erf of ints (tensor/dtype_support.py)
    assert paddle.square(paddle.to_tensor([2, 3])).dtype == paddle.int64
    for fn in (paddle.sin, paddle.rsqrt, paddle.logsumexp, paddle.stanh):  # and refuses them here
        with pytest.raises(TypeError, match=f"{fn.__name__}: the data type of 'x' must be one of"):
            fn(paddle.to_tensor([1, 2]))


def test_erf_matches_math_erf_to_double_precision():
    values = np.linspace(-6, 6, 1001)
    expected = np.array([math.erf(v) for v in values])
    np.testing.assert_allclose(paddle.erf(paddle.to_tensor(values)).numpy(), expected, rtol=1e-14, atol=1e-15)


def test_increment_changes_x_in_place():
    i = paddle.zeros([1], dtype="int64")
    out = paddle.increment(i, 3)
    assert out is i and i.numpy().tolist() == [3]
    assert i.inplace_version == 1


def test_all_any_and_reductions_on_any_dtype():
    x = paddle.to_tensor([[1, 0], [2, 3]])
    assert not paddle.all(x).item() and paddle.any(x).item()
    np.testing.assert_array_equal(paddle.all(x, axis=1).numpy(), [False, True])
    with pytest.raises(ValueError, match="any: x must not be empty"):  # as paddle 2.6 refuses
        paddle.any(paddle.zeros([2, 0]))


def test_add_n_addmm_kron_trace_multiplex():
    xs = [paddle.full([2], float(k)) for k in range(4)]
    np.testing.assert_array_equal(paddle.add_n(xs).numpy(), [6.0, 6.0])
    out = paddle.addmm(paddle.ones([2]), paddle.ones([2, 3]), paddle.ones([3, 2]), beta=0.5, alpha=2.0)
    np.testing.assert_array_equal(out.numpy(), [[6.5, 6.5], [6.5, 6.5]])
    assert paddle.kron(paddle.to_tensor([1, 2]), paddle.to_tensor([[1, 2], [3, 4]])).numpy().tolist() == [
        [1, 2, 2, 4],
        [3, 4, 6, 8],
    ]
    assert paddle.trace(paddle.to_tensor([[1, 2], [3, 4]])).item() == 5
    picked = paddle.multiplex([paddle.ones([2, 2]), paddle.zeros([2, 2])], paddle.to_tensor([[1], [0]]))
    np.testing.assert_array_equal(picked.numpy(), [[0, 0], [1, 1]])


def test_bitwise_operators():
    a, b = paddle.to_tensor([12, 10]), paddle.to_tensor([10, 6])
    assert (a & b).numpy().tolist() == [8, 2] and (a | b).numpy().tolist() == [14, 14]
    assert (a ^ b).numpy().tolist() == [6, 12] and (~a).numpy().tolist() == [-13, -11]
    m1, m2 = paddle.to_tensor([True, False]), paddle.to_tensor([True, True])
    assert (m1 & m2).numpy().tolist() == [True, False] and (~m1).dtype == paddle.bool
    with pytest.raises(TypeError, match="bitwise_and: x must be an integer or bool tensor"):
        paddle.ones([2]) & paddle.ones([2])


def test_broadcast_shape():
    assert paddle.broadcast_shape([2, 1, 3], [4, 1]) == [2, 4, 3]
    with pytest.raises(ValueError, match="broadcast_shape: shapes \\[2, 3\\] and \\[4\\] cannot be broadcast"):
        paddle.broadcast_shape([2, 3], [4])


def test_trig_double_backward_through_the_grad_rule():
    x = paddle.to_tensor([0.3, -1.2], dtype="float64", stop_gradient=False)
    (g,) = paddle.grad(paddle.sin(x).sum(), [x], create_graph=True)
    (gg,) = paddle.grad(g.sum(), [x])
    np.testing.assert_allclose(gg.numpy(), -np.sin([0.3, -1.2]))


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: paddle.sin([1.0]), TypeError, "sin: x must be a Tensor, got list"),
        (lambda: paddle.clip(paddle.ones([2]), 2.0, 1.0), ValueError, "clip: max must be greater than or equal"),
        (lambda: paddle.clip(paddle.ones([2]), "a"), TypeError, "clip: min must be a number"),
        (lambda: paddle.increment(paddle.ones([2])), ValueError, "increment: x must have exactly one element"),
        (lambda: paddle.floor_divide(paddle.ones([2]), "x"), TypeError, "floor_divide: y must be a Tensor or"),
        (lambda: paddle.kron([1], paddle.ones([2])), TypeError, "kron: x must be a Tensor"),
        (lambda: paddle.addmm(paddle.ones([2]), paddle.ones([2, 3]), paddle.ones([2, 2])), ValueError,
         "addmm: x has shape \\[2, 3\\] and y has shape \\[2, 2\\]"),
        (lambda: paddle.addmm(paddle.ones([3]), paddle.ones([2, 3]), paddle.ones([3, 2])), ValueError,
         "addmm: input of shape \\[3\\] does not broadcast"),
        (lambda: paddle.addmm(paddle.ones([2]), paddle.ones([3]), paddle.ones([3, 2])), ValueError,
         "addmm: x and y must be matrices"),
        (lambda: paddle.add_n([paddle.ones([2]), paddle.ones([3])]), ValueError, "add_n: every input must have"),
        (lambda: paddle.add_n([]), TypeError, "add_n: inputs must be a Tensor or a non-empty list"),
        (lambda: paddle.add_n([paddle.ones([2]), 1.0]), TypeError, "add_n: inputs\\[1\\] must be a Tensor"),
        (lambda: paddle.multiplex([paddle.ones([2, 2])], paddle.to_tensor([[0], [0]])), ValueError,
         "multiplex: inputs must be a list of at least 2"),
        (lambda: paddle.multiplex([paddle.ones([2, 2]), paddle.ones([2, 2])], paddle.to_tensor([0, 1])),
         ValueError, "multiplex: index must be an int32/int64 tensor of shape \\[2, 1\\]"),
        (lambda: paddle.trace(paddle.ones([3])), ValueError, "trace: x needs at least 2 dimensions"),
        (lambda: paddle.trace(paddle.ones([2, 2]), axis1=0, axis2=-2), ValueError, "trace: axis1 and axis2"),
        (lambda: paddle.trace(paddle.ones([2, 2]), axis1=3), ValueError, "trace: axis 3 is out of range"),
        (lambda: paddle.cumsum(paddle.ones([2]), axis=1), ValueError, "cumsum: axis 1 is out of range"),
        (lambda: paddle.cumsum(paddle.ones([2]), axis=0.5), TypeError, "cumsum: axis must be an int"),
        (lambda: paddle.prod(paddle.ones([2]), axis=[0, 0]), ValueError, "prod: axis \\[0, 0\\] names the same"),
        (lambda: paddle.logsumexp(paddle.ones([2]), keepdim=1), TypeError, "logsumexp: keepdim must be a bool"),
        (lambda: paddle.all(paddle.ones([2, 2]), axis=2), ValueError, "all: axis 2 is out of range"),
        (lambda: paddle.remainder(paddle.ones([2]), paddle.ones([3])), ValueError,
         "remainder: shapes \\[2\\] and \\[3\\] cannot be broadcast"),
    ],
)  # fmt: skip
def test_bad_arguments_raise_clear_errors(call, error, words):
    with pytest.raises(error, match=words):
        call()
