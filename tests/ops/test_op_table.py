"""Every check that applies to all ops, run over the op table (tests/op_table.py)."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.core.dispatch import tracing
from minipaddle.core.op import OPS
from tests.op_table import OP_TABLE

CASES = [
    pytest.param(info, i, id=f"{info.name}-{sample.label or i}")
    for info in OP_TABLE
    for i, sample in enumerate(info.samples(np.random.default_rng(0)))
]


def _sample(info, i, seed=0):
    return info.samples(np.random.default_rng(seed))[i]


def _to_tensors(args, dtype, stop_gradient=True):
    def convert(a):
        if isinstance(a, np.ndarray) and a.dtype != object and a.dtype.kind != "b" and a.dtype.kind in "fiu":
            return paddle.to_tensor(a.astype(dtype) if a.dtype.kind == "f" else a, stop_gradient=stop_gradient)
        if isinstance(a, np.ndarray) and a.dtype.kind in "bc":
            return paddle.to_tensor(a)
        if isinstance(a, list) and all(isinstance(e, np.ndarray) for e in a):
            return [convert(e) for e in a]
        return a

    return [convert(a) for a in args]


def _flat_tensors(args):
    out = []
    for a in args:
        if isinstance(a, list):
            out.extend(t for t in a if isinstance(t, paddle.Tensor))
        elif isinstance(a, paddle.Tensor):
            out.append(a)
    return out


def _cast_args(args, dtype):
    def cast(a):
        if isinstance(a, np.ndarray) and a.dtype.kind == "f" and np.dtype(dtype).kind == "f":
            return a.astype(dtype)
        if isinstance(a, list):
            return [cast(e) for e in a]
        return a

    return [cast(a) for a in args]


@pytest.mark.parametrize("info,i", CASES)
def test_forward_matches_numpy(info, i):
    sample = _sample(info, i)
    for dtype in info.dtypes:
        args = _to_tensors(sample.args, dtype)
        out = info.fn(*args, **sample.kwargs)
        expected = np.asarray(info.ref(*_cast_args(sample.args, dtype), **sample.kwargs))
        assert isinstance(out, paddle.Tensor)
        assert out.shape == list(expected.shape), f"{info.name}: shape {out.shape} vs numpy {list(expected.shape)}"
        if expected.dtype.kind in "fc":
            tol = dict(atol=1e-6, rtol=1e-5) if dtype == "float32" else dict(atol=info.atol, rtol=info.rtol)
            np.testing.assert_allclose(out.numpy(), expected, **tol)
            assert out.dtype.name == expected.dtype.name, f"{info.name}: {dtype} input gave {out.dtype.name}"
        else:
            np.testing.assert_array_equal(out.numpy(), expected)


def _float_inputs(info, i):
    """float64 leaf tensors for the sample's float arrays; other args pass through."""
    args = _to_tensors(_sample(info, i).args, "float64", stop_gradient=False)
    for t in _flat_tensors(args):
        if t.dtype.name != "float64":
            t.stop_gradient = True
    for k in info.no_grad_args:  # inputs paddle gives no gradient (labels): not leaves of the gradcheck
        if isinstance(args[k], paddle.Tensor):
            args[k].stop_gradient = True
    return args


def _func_of_leaves(info, i, args):
    """A function of the differentiable leaves only, for gradcheck."""
    leaves = [t for t in _flat_tensors(args) if not t.stop_gradient]
    kwargs = _sample(info, i).kwargs

    def rebuild(*new_leaves):
        mapping = {id(old): new for old, new in zip(leaves, new_leaves)}

        def swap(a):
            if isinstance(a, list):
                return [swap(e) for e in a]
            return mapping.get(id(a), a) if isinstance(a, paddle.Tensor) else a

        return info.fn(*[swap(a) for a in args], **kwargs)

    return rebuild, leaves


GRAD_CASES = [c for c in CASES if c.values[0].grad]
DOUBLE_CASES = [c for c in CASES if c.values[0].double_grad]


@pytest.mark.parametrize("info,i", GRAD_CASES)
def test_gradcheck(info, i):
    fn, leaves = _func_of_leaves(info, i, _float_inputs(info, i))
    assert paddle.testing.gradcheck(fn, leaves, eps=info.grad_eps)


@pytest.mark.parametrize("info,i", DOUBLE_CASES)
def test_double_backward(info, i):
    fn, leaves = _func_of_leaves(info, i, _float_inputs(info, i))
    assert paddle.testing.gradgradcheck(fn, leaves, atol=1e-4, rtol=1e-3)


def test_every_registered_op_is_exercised_by_the_table():
    """An op nobody calls in the table is an op nobody tests: run the table (forward and backward, dynamic and
    static) and collect every op that went through the door."""
    seen = set()
    with tracing(lambda op, inputs, attrs, outputs: seen.add(op.name)):
        for info in OP_TABLE:
            for i, _ in enumerate(info.samples(np.random.default_rng(0))):
                args = _float_inputs(info, i)
                out = info.fn(*args, **_sample(info, i).kwargs)
                if info.grad and not out.stop_gradient:
                    paddle.grad([out], [t for t in _flat_tensors(args) if not t.stop_gradient],
                                create_graph=info.double_grad, allow_unused=True)  # fmt: skip
                if info.static:  # static mode adds ops of its own (assign_value for constants)
                    _static_run(info, i, info.grad)
    missing = sorted(set(OPS) - seen)
    assert not missing, f"ops never exercised by the op table: {missing}"


# ---- static mode: the same op, appended to a Program and run by the Executor, gives the same values --------------

STATIC_CASES = [c for c in CASES if c.values[0].static]


def _static_run(info, i, with_grads: bool):
    """Build the sample as a Program (one data variable per array argument), run it, return (out, grads)."""
    sample = _sample(info, i)
    args = _to_tensors(sample.args, "float64", stop_gradient=False)
    main, startup = paddle.static.Program(), paddle.static.Program()
    feed, leaves, names = {}, [], iter(f"in{k}" for k in range(100))

    def declare(a, differentiable=True):
        if isinstance(a, list):
            return [declare(e, differentiable) for e in a]
        if not isinstance(a, paddle.Tensor):
            return a
        v = paddle.static.data(next(names), a.shape, a.dtype)
        feed[v.name] = a.numpy()
        if a.dtype.name == "float64" and differentiable:
            v.stop_gradient = False
            leaves.append(v)
        return v

    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            out = info.fn(*[declare(a, k not in info.no_grad_args) for k, a in enumerate(args)], **sample.kwargs)
            grads = paddle.static.gradients([out], leaves) if with_grads and leaves else []
        fetch = [out] + [g for g in grads if g is not None]
        values = paddle.static.Executor().run(main, feed=feed, fetch_list=fetch)
    finally:
        paddle.disable_static()
    return values[0], values[1:], [g is not None for g in grads]


@pytest.mark.parametrize("info,i", STATIC_CASES)
def test_static_matches_dynamic(info, i):
    sample = _sample(info, i)
    want_grads = info.grad
    static_out, static_grads, has_grad = _static_run(info, i, want_grads)
    args = _float_inputs(info, i)
    dynamic_out = info.fn(*args, **sample.kwargs)
    np.testing.assert_allclose(static_out, dynamic_out.numpy(), rtol=1e-10, atol=1e-12)
    if want_grads and not dynamic_out.stop_gradient:
        leaves = [t for t in _flat_tensors(args) if not t.stop_gradient]
        dynamic_grads = paddle.grad([dynamic_out], leaves, allow_unused=True)
        expected = [g.numpy() for g, h in zip(dynamic_grads, has_grad) if h]
        assert len(expected) == len(static_grads)
        for s, d in zip(static_grads, expected):
            np.testing.assert_allclose(s, d, rtol=1e-10, atol=1e-12)
