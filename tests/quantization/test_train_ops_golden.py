"""The training modes of the quantization ops against paddle 2.6.2 (tests/golden/quantization/train_ops.npz,
recorded by make_train_ops_golden.py), bit for bit, dynamic and static: quantize_linear's moving-average update
(is_test False with InAccum / InState), only_observer, and fake_quantize_range_abs_max over a sequence of batches
with its window."""

from __future__ import annotations

import json

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import ops
from tests.golden_files import GOLDEN_ROOT, read_arrays

ARRAYS = read_arrays(GOLDEN_ROOT / "quantization" / "train_ops.npz")
LINEAR = sorted(k[: -len(".attrs")] for k in ARRAYS if k.startswith("linear_") and k.endswith(".attrs"))
RANGES = sorted(k[: -len(".attrs")] for k in ARRAYS if k.startswith("range_w") and k.endswith(".attrs"))
SLOTS = {"X": "x", "Scale": "scale", "ZeroPoint": "zero_point", "InAccum": "in_accum", "InState": "in_state"}
LINEAR_OUTS = ("Y", "OutState", "OutAccum", "OutScale")


def _attrs(case: str) -> dict:
    return json.loads(str(ARRAYS[f"{case}.attrs"]))


def _call(fn, arrays: dict, attrs: dict, static: bool) -> tuple:
    """fn(**arrays as Tensors or data Variables, **attrs) run now or as a one-op Program: its outputs."""
    if not static:
        out = fn(**{k: paddle.to_tensor(v) for k, v in arrays.items()}, **attrs)
        return tuple(o.numpy() for o in (out if isinstance(out, tuple) else (out,)))
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            data = {k: paddle.static.data(k, list(v.shape), str(v.dtype)) for k, v in arrays.items()}
            out = fn(**data, **attrs)
            outs = list(out) if isinstance(out, tuple) else [out]
        return tuple(paddle.static.Executor().run(main, feed=arrays, fetch_list=outs))
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("static", [False, True], ids=["dynamic", "static"])
@pytest.mark.parametrize("case", LINEAR)
def test_quantize_linear_training_equals_paddle(case, static):
    inputs = {SLOTS[k.split(".")[-1]]: v for k, v in ARRAYS.items() if k.startswith(f"{case}.in.")}
    got = _call(ops.quantize_linear, inputs, _attrs(case), static)
    want = [ARRAYS[f"{case}.out.{slot}"] for slot in LINEAR_OUTS if f"{case}.out.{slot}" in ARRAYS]
    assert len(got) == len(want)
    for slot, value, expected in zip(LINEAR_OUTS, got, want):
        assert value.shape == expected.shape, f"{case} {slot}"
        np.testing.assert_array_equal(value, expected, err_msg=f"{case} {slot}")


def test_quantize_linear_updates_only_when_training_per_tensor():
    x, one = paddle.to_tensor([[1.0, -4.0]]), paddle.to_tensor([1.0])
    assert isinstance(ops.quantize_linear(x, one, paddle.zeros([1]), -1, 8, 0, one, one, is_test=True), paddle.Tensor)
    y, scale = ops.quantize_linear(x, paddle.to_tensor([9.0, 9.0]), paddle.zeros([2]), 1, 8, 0, one, one,
                                   is_test=False)  # fmt: skip
    np.testing.assert_array_equal(scale.numpy(), [1, 4])  # per channel: x's abs-max, not the scales given
    np.testing.assert_array_equal(y.numpy(), [[127, -127]])
    y, state, accum, scale = ops.quantize_linear(x, one, paddle.zeros([1]), -1, 8, 0, one, one, is_test=False)
    np.testing.assert_allclose([state.item(), accum.item(), scale.item()], [1.9, 4.9, 4.9 / 1.9], rtol=1e-6)


@pytest.mark.parametrize("static", [False, True], ids=["dynamic", "static"])
@pytest.mark.parametrize("case", RANGES)
def test_range_abs_max_sequence_equals_paddle(case, static):
    attrs = _attrs(case)
    window = attrs["window_size"]
    scale, scales = np.array([0.001], "float32"), np.zeros(window, "float32")  # Paddle's initial values
    step = 0
    while f"{case}.step{step}.in.X" in ARRAYS:
        inputs = {"x": ARRAYS[f"{case}.step{step}.in.X"], "in_scale": scale, "iter": np.array([step], "int64"),
                  "in_scales": scales}  # fmt: skip
        out, scale, scales = _call(ops.fake_quantize_range_abs_max, inputs, attrs, static)
        for slot, value in (("Out", out), ("OutScale", scale), ("OutScales", scales)):
            np.testing.assert_array_equal(value, ARRAYS[f"{case}.step{step}.out.{slot}"], err_msg=f"step {step} {slot}")
        step += 1
    assert step == 8


def test_range_abs_max_in_test_mode_uses_the_stored_scale():
    x, in_scale, it = (ARRAYS[f"range_test.in.{k}"] for k in ("X", "InScale", "Iter"))
    out, scale, _ = ops.fake_quantize_range_abs_max(paddle.to_tensor(x), paddle.to_tensor(in_scale),
                                                    paddle.to_tensor(it), None, **_attrs("range_test"))  # fmt: skip
    np.testing.assert_array_equal(out.numpy(), ARRAYS["range_test.out.Out"])
    np.testing.assert_array_equal(scale.numpy(), in_scale)
    with pytest.raises(ValueError, match="window_size"):
        ops.fake_quantize_range_abs_max(paddle.to_tensor(x), paddle.to_tensor(in_scale), paddle.to_tensor(it),
                                        window_size=0)  # fmt: skip
