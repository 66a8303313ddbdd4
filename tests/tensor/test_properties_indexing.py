"""Property tests (hypothesis): x[index] and x[index] = v agree with numpy for random shapes and indices, on
contiguous tensors and on non-contiguous views (transposed, strided), and their gradients match the scatter
numpy implies."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import minipaddle as paddle

SETTINGS = settings(max_examples=60, deadline=None)


@st.composite
def arrays(draw, min_dims=1, max_dims=4):
    shape = draw(st.lists(st.integers(1, 4), min_size=min_dims, max_size=max_dims))
    seed = draw(st.integers(0, 2**16))
    return np.random.default_rng(seed).standard_normal(shape)


@st.composite
def basic_index(draw, shape):
    """A tuple of ints, slices (any step), None and at most one Ellipsis."""
    items, dim = [], 0
    used_ellipsis = False
    while dim < len(shape) and draw(st.booleans()):
        kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis"]))
        n = shape[dim]
        if kind == "int":
            items.append(draw(st.integers(-n, n - 1)))
            dim += 1
        elif kind == "slice":
            start = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
            stop = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
            step = draw(st.sampled_from([None, 1, 2, -1, -2, 3]))
            items.append(slice(start, stop, step))
            dim += 1
        elif kind == "none":
            items.append(None)
        elif not used_ellipsis:
            items.append(Ellipsis)
            used_ellipsis = True
            dim = len(shape)  # (what follows an Ellipsis indexes from the end; keep it simple: stop here)
    return tuple(items)


@st.composite
def advanced_index(draw, shape):
    """A basic index with one axis replaced by an integer list (repeats, negatives) or a boolean mask."""
    index = [slice(None)] * len(shape)
    axis = draw(st.integers(0, len(shape) - 1))
    n = shape[axis]
    if draw(st.booleans()):
        index[axis] = np.array(draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=5)))
    else:
        index[axis] = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    return tuple(index)


def _views(a):
    """The same values as a contiguous tensor, as a transposed view, and as a strided view of a bigger tensor."""
    t = paddle.to_tensor(a)
    yield a, t
    yield a.T, paddle.to_tensor(a).T
    big = np.repeat(a, 2, axis=-1)
    yield big[..., ::2], paddle.to_tensor(big)[..., ::2]


@SETTINGS
@given(st.data(), arrays())
def test_basic_indexing_matches_numpy_on_views(data, a):
    for ref, t in _views(a):
        index = data.draw(basic_index(ref.shape))
        out = t[index]
        np.testing.assert_array_equal(out.numpy(), ref[index])
        assert out.shape == list(ref[index].shape)
        assert np.shares_memory(out.numpy(), t.numpy()) or ref[index].size == 0 or out.ndim == 0


@SETTINGS
@given(st.data(), arrays())
def test_advanced_indexing_and_its_gradient_match_numpy(data, a):
    for ref, t in _views(a):
        index = data.draw(advanced_index(ref.shape))
        x = paddle.to_tensor(np.ascontiguousarray(ref), stop_gradient=False)
        out = x[index]
        np.testing.assert_array_equal(out.numpy(), ref[index])
        _ = t[index]  # also works on the view itself
        if out.size == 0:  # paddle 2.6 refuses to sum an empty tensor; such a selection has no gradient to check
            continue
        weights = np.random.default_rng(0).standard_normal(out.shape)
        (out * paddle.to_tensor(weights)).sum().backward()
        expected = np.zeros_like(ref)
        np.add.at(expected, index, weights)  # repeated positions add up
        np.testing.assert_allclose(x.grad.numpy(), expected)


@SETTINGS
@given(st.data(), arrays())
def test_setitem_matches_numpy_on_views(data, a):
    for ref, t in _views(a):
        ref = ref.copy()
        t = t * 1.0  # a tensor of its own, still with the view's strides where the view had them
        index = data.draw(st.one_of(basic_index(ref.shape), advanced_index(ref.shape)))
        target_shape = ref[index].shape
        value = np.random.default_rng(1).standard_normal(target_shape[-1:] if target_shape else ())
        ref[index] = value
        t[index] = paddle.to_tensor(value)
        np.testing.assert_array_equal(t.numpy(), ref)


@SETTINGS
@given(arrays(min_dims=2))
def test_reshape_transpose_views_write_through(a):
    t = paddle.to_tensor(a)
    flat = t.reshape([-1])
    flat[0] = 100.0
    assert t.numpy().flat[0] == 100.0
    t.T[..., 0] = -1.0
    np.testing.assert_array_equal(t.numpy()[0], -1.0)
