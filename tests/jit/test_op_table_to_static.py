"""The op table's to_static check (DESIGN.md, Testing): every op, called from a function converted by
paddle.jit.to_static (so it runs inside one run_program op), gives dynamic mode's values and gradients."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from tests.ops.test_op_table import STATIC_CASES, _flat_tensors, _float_inputs, _sample


def _swap(args, mapping):
    def swap(a):
        if isinstance(a, list):
            return [swap(e) for e in a]
        return mapping.get(id(a), a) if isinstance(a, paddle.Tensor) else a

    return [swap(a) for a in args]


@pytest.mark.parametrize("info,i", STATIC_CASES)
def test_to_static_matches_dynamic(info, i):
    kwargs = _sample(info, i).kwargs
    args = _float_inputs(info, i)
    tensors = _flat_tensors(args)
    fn = info.fn

    def run(*xs):  # the op with its Tensor arguments as the converted function's inputs
        return fn(*_swap(args, {id(t): x for t, x in zip(tensors, xs)}), **kwargs)

    converted = paddle.jit.to_static(run)
    dynamic_out = fn(*args, **kwargs)
    static_out = converted(*tensors)
    assert isinstance(static_out, paddle.Tensor)
    np.testing.assert_allclose(static_out.numpy(), dynamic_out.numpy(), rtol=1e-10, atol=1e-12)
    leaves = [t for t in tensors if not t.stop_gradient]
    if info.grad and leaves and not dynamic_out.stop_gradient:
        assert not static_out.stop_gradient
        want = paddle.grad([dynamic_out], leaves, allow_unused=True)
        got = paddle.grad([static_out], leaves, allow_unused=True)
        for w, g in zip(want, got):
            if w is None:
                assert g is None or not g.numpy().any()
                continue
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-10, atol=1e-12)
