"""paddle.autograd.saved_tensors_hooks (core/saved_hooks.py) against paddle 2.6: which tensors each op packs (shape,
dtype, values), how often backward unpacks, and the gradients (tests/golden/fidelity/saved_hooks_cases.py, recorded
by make_saved_hooks_golden.py into saved_hooks.json)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "saved_hooks.json")


def _cases():
    path = GOLDEN_ROOT / "fidelity" / "saved_hooks_cases.py"
    spec = importlib.util.spec_from_file_location("saved_hooks_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


OURS = _cases().run_all(paddle)


@pytest.mark.parametrize("name", sorted(k for k, v in GOLDEN.items() if isinstance(v, dict) and "pack" in v))
def test_an_op_packs_and_unpacks_what_paddle_does(name):
    ours, want = OURS[name], GOLDEN[name]
    assert [p[:3] for p in ours["pack"]] == [p[:3] for p in want["pack"]]  # which tensors: shape and dtype, in order
    for got, expected in zip(ours["pack"], want["pack"]):
        np.testing.assert_allclose(got[3], expected[3], rtol=1e-4)
    assert ours["unpack"] == want["unpack"]
    for g in ("grad_a", "grad_b"):
        assert (ours[g] is None) == (want[g] is None)
        if want[g] is not None:
            np.testing.assert_allclose(ours[g], want[g], rtol=1e-5, atol=1e-6)  # float32 rounding


def test_the_gradient_is_computed_from_the_unpacked_values():
    assert OURS["unpack_scaled"] == GOLDEN["unpack_scaled"]


def test_nothing_is_packed_outside_the_block_or_without_a_gradient():
    assert OURS["packs_outside_or_without_grad"] == GOLDEN["packs_outside_or_without_grad"] == 0


def test_blocks_nest_and_restore_the_outer_pair():
    seen = []
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(lambda x: seen.append("outer") or x, lambda x: x):
        with paddle.autograd.saved_tensors_hooks(lambda x: seen.append("inner") or x, lambda x: x):
            paddle.tanh(a)
        paddle.tanh(a)
    paddle.tanh(a)
    assert seen == ["inner", "outer"]


def test_unpack_must_give_back_a_tensor_of_the_saved_shape_and_dtype():
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(lambda x: x.numpy(), lambda x: x):
        y = paddle.tanh(a)
    with pytest.raises(TypeError, match="unpack_hook for output 0 of op 'tanh' must return a Tensor, got ndarray"):
        y.sum().backward()
    with paddle.autograd.saved_tensors_hooks(lambda x: x, lambda x: x.astype("float64")):
        y = paddle.tanh(a)
    with pytest.raises(ValueError, match=r"shape and dtype \(\[2\], float32\), got \[2\], float64"):
        y.sum().backward()
    with pytest.raises(TypeError, match="pack_hook must be callable"):
        paddle.autograd.saved_tensors_hooks(None, lambda x: x)


def test_in_place_changes_are_still_caught():
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(lambda x: x, lambda x: x):
        b = a * 1.0
        y = paddle.multiply(b, b)
    b.add_(paddle.to_tensor([1.0, 1.0]))
    with pytest.raises(RuntimeError, match="modified by an in-place operation after the op used it"):
        y.sum().backward()
