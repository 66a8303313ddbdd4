"""Property tests (hypothesis) for the math API against numpy: broadcasting of binary ops, paddle 2.6's type
promotion (docs/notes/paddle26_facts.md, section 1), and reductions over any axes with keepdim."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minipaddle as paddle

FAST = settings(max_examples=40, deadline=None)

# binary ops, each with numpy's counterpart; all broadcast like numpy
FLOAT_BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "floor_divide": np.floor_divide,
    "remainder": np.remainder,
    "logical_and": np.logical_and,
    "logical_xor": np.logical_xor,
    "equal": np.equal,
    "less_than": np.less,
}
INT_BINARY = {"bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor}


def arrays_for(shapes, dtype, elements):
    return st.tuples(*(hnp.arrays(dtype, s, elements=elements) for s in shapes))


@st.composite
def broadcast_pair(draw, dtype, elements):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=4))
    return draw(arrays_for(shapes.input_shapes, dtype, elements)) + (shapes.result_shape,)


@FAST
@given(st.sampled_from(sorted(FLOAT_BINARY)), broadcast_pair(np.float64, st.floats(-50, 50, width=64)))
def test_binary_ops_broadcast_like_numpy(name, pair):
    a, b, shape = pair
    if name in ("floor_divide", "remainder"):
        b = np.where(np.abs(b) < 0.5, 1.0, b)  # keep away from division by (almost) zero
    out = getattr(paddle, name)(paddle.to_tensor(a), paddle.to_tensor(b))
    expected = FLOAT_BINARY[name](a, b)
    assert out.shape == list(shape)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)


@FAST
@given(st.sampled_from(sorted(INT_BINARY)), broadcast_pair(np.int64, st.integers(-1000, 1000)))
def test_bitwise_ops_broadcast_like_numpy(name, pair):
    a, b, shape = pair
    out = getattr(paddle, name)(paddle.to_tensor(a), paddle.to_tensor(b))
    assert out.shape == list(shape) and out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), INT_BINARY[name](a, b))


@st.composite
def clashing_shapes(draw):
    """Two shapes that do not broadcast: some trailing dimension differs and neither side is 1."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=4))
    k = draw(st.integers(0, len(shape) - 1))
    other = list(shape)
    other[k] = shape[k] + draw(st.integers(1, 3))
    return tuple(shape), tuple(other)


@FAST
@given(st.sampled_from(sorted(FLOAT_BINARY)), clashing_shapes())
def test_shapes_that_do_not_broadcast_raise_a_value_error_naming_the_op(name, shapes):
    a, b = paddle.ones(list(shapes[0])), paddle.ones(list(shapes[1]))
    with pytest.raises(ValueError, match=f"^{name}: shapes .* cannot be broadcast"):
        getattr(paddle, name)(a, b)


# ---- type promotion --------------------------------------------------------------------------------------------

REAL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
FLOATS = {"float16": 2, "float32": 4, "float64": 8}


def paddle26_result(x: str, y: str) -> str:
    """The rule of paddle26_facts.md, section 1, for two real tensors: two floats promote to the wider;
    otherwise y is cast to x's dtype."""
    if x in FLOATS and y in FLOATS:
        return x if FLOATS[x] >= FLOATS[y] else y
    return x


def sample(dtype: str, rng) -> np.ndarray:
    if dtype == "bool":
        return rng.random(3) > 0.5
    if dtype in FLOATS:
        return rng.uniform(1, 5, 3).astype(dtype)
    return rng.integers(1, 5, 3).astype(dtype)


@FAST
@given(st.sampled_from(REAL), st.sampled_from(REAL), st.sampled_from(["add", "multiply", "maximum", "remainder"]))
def test_two_tensors_promote_as_paddle_26(x_dtype, y_dtype, name):
    rng = np.random.default_rng(0)
    a, b = sample(x_dtype, rng), sample(y_dtype, rng)
    if name == "remainder":
        b = np.ones_like(b) if y_dtype == "bool" else b  # no division by zero (False)
    want = paddle26_result(x_dtype, y_dtype)
    if want == "bool" and name in ("add", "maximum", "remainder"):  # paddle 2.6 has no bool kernel for them
        with pytest.raises(TypeError, match=f"{name}: paddle 2.6 has no kernel for a bool"):
            getattr(paddle, name)(paddle.to_tensor(a), paddle.to_tensor(b))
        return
    if name == "remainder" and want in ("uint8", "int8", "int16"):  # paddle 2.6 has no remainder for them
        with pytest.raises(TypeError, match="remainder: the data type of 'x'"):
            paddle.remainder(paddle.to_tensor(a), paddle.to_tensor(b))
        return
    out = getattr(paddle, name)(paddle.to_tensor(a), paddle.to_tensor(b))
    assert out.dtype.name == want
    if want != "bool":
        expected = {"add": np.add, "multiply": np.multiply, "maximum": np.maximum, "remainder": np.remainder}[name](
            a.astype(want), b.astype(want)
        )
        np.testing.assert_allclose(out.numpy().astype(np.float64), expected.astype(np.float64), rtol=1e-3)


@FAST
@given(st.sampled_from(REAL), st.sampled_from(REAL))
def test_comparisons_and_logic_give_bool_for_any_pair(x_dtype, y_dtype):
    rng = np.random.default_rng(1)
    a, b = paddle.to_tensor(sample(x_dtype, rng)), paddle.to_tensor(sample(y_dtype, rng))
    for fn in (paddle.less_than, paddle.equal, paddle.logical_or, paddle.logical_xor):
        assert fn(a, b).dtype == paddle.bool


@FAST
@given(st.sampled_from(REAL), st.one_of(st.integers(-3, 3), st.floats(-3, 3, allow_nan=False)))
def test_a_python_scalar_keeps_the_tensor_dtype_except_float_with_integers(dtype, scalar):
    t = paddle.to_tensor(sample(dtype, np.random.default_rng(2)))
    out = t * scalar
    if isinstance(scalar, float) and dtype not in FLOATS:
        assert out.dtype == paddle.float32  # an int or bool tensor meets a Python float: the default float
    else:
        assert out.dtype.name == dtype


# ---- reductions over any axes ------------------------------------------------------------------------------------

REDUCTIONS = {
    "sum": lambda a, axis, keepdims: np.sum(a, axis=axis, keepdims=keepdims),
    "mean": lambda a, axis, keepdims: np.mean(a, axis=axis, keepdims=keepdims),
    "prod": lambda a, axis, keepdims: np.prod(a, axis=axis, keepdims=keepdims),
    "amax": lambda a, axis, keepdims: np.max(a, axis=axis, keepdims=keepdims),
    "amin": lambda a, axis, keepdims: np.min(a, axis=axis, keepdims=keepdims),
    "logsumexp": lambda a, axis, keepdims: np.log(np.sum(np.exp(a), axis=axis, keepdims=keepdims)),
    "all": lambda a, axis, keepdims: np.all(a > 0, axis=axis, keepdims=keepdims),
    "any": lambda a, axis, keepdims: np.any(a > 0, axis=axis, keepdims=keepdims),
    "var": lambda a, axis, keepdims: np.var(a, axis=axis, keepdims=keepdims, ddof=1),
    "std": lambda a, axis, keepdims: np.std(a, axis=axis, keepdims=keepdims, ddof=1),
}


@st.composite
def array_and_axes(draw):
    a = draw(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=4, min_side=2, max_side=4),
                        elements=st.floats(-2, 2, width=64)))  # fmt: skip
    axes = draw(st.lists(st.integers(-a.ndim, a.ndim - 1), unique_by=lambda k: k % a.ndim, max_size=a.ndim))
    return a, axes, draw(st.booleans())


@FAST
@given(st.sampled_from(sorted(REDUCTIONS)), array_and_axes())
def test_reductions_over_axis_lists_match_numpy(name, case):
    a, axes, keepdim = case
    axis = None if not axes else axes
    x = paddle.to_tensor(a > 0) if name in ("all", "any") else paddle.to_tensor(a)
    out = getattr(paddle, name)(x, axis=axis, keepdim=keepdim)
    expected = REDUCTIONS[name](a, None if axis is None else tuple(axis), keepdim)
    assert out.shape == list(np.shape(expected))
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10, atol=1e-12)


UNARY = {
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
    "asinh": np.arcsinh, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc, "square": np.square,
    "expm1": np.expm1, "log1p": lambda a: np.log1p(np.abs(a)), "reciprocal": lambda a: 1 / (np.abs(a) + 1),
}  # fmt: skip
PREPARE = {"log1p": np.abs, "reciprocal": lambda a: np.abs(a) + 1}


@FAST
@given(st.sampled_from(sorted(UNARY)), hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=3),
                                                  elements=st.floats(-3, 3, width=64)))  # fmt: skip
def test_unary_functions_match_numpy_at_any_shape(name, a):
    x = PREPARE.get(name, lambda v: v)(a)
    out = getattr(paddle, name)(paddle.to_tensor(x))
    assert out.shape == list(a.shape) and out.dtype == paddle.float64
    np.testing.assert_allclose(out.numpy(), UNARY[name](a), rtol=1e-12, atol=1e-12)
