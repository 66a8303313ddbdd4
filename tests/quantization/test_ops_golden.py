"""Every fake-quant op against what paddle 2.6.2 computed on the same inputs (tests/golden/quantization/ops.npz,
recorded by make_golden.py): bit for bit, ties and clipping included, in dynamic and static mode."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import ops
from tests.golden_files import GOLDEN_ROOT, read_arrays, read_json

HERE = GOLDEN_ROOT / "quantization"
META = read_json(HERE / "text.json")["ops"]
ARRAYS = read_arrays(HERE / "ops.npz")


def _run(name: str, static: bool) -> tuple:
    meta = META[name]
    inputs = [ARRAYS[f"{name}.in.{slot}"] for slot in meta["inputs"]]
    fn = getattr(ops, meta["type"])
    if not static:
        out = fn(*[paddle.to_tensor(a) for a in inputs], **meta["attrs"])
        return tuple(o.numpy() for o in (out if isinstance(out, tuple) else (out,)))
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            names = [f"in{i}" for i in range(len(inputs))]
            data = [paddle.static.data(n, list(a.shape), str(a.dtype)) for n, a in zip(names, inputs)]
            out = fn(*data, **meta["attrs"])
            outs = list(out) if isinstance(out, tuple) else [out]
        values = paddle.static.Executor().run(main, feed=dict(zip(names, inputs)), fetch_list=outs)
    finally:
        paddle.disable_static()
    return tuple(values)


@pytest.mark.parametrize("static", [False, True], ids=["dynamic", "static"])
@pytest.mark.parametrize("name", sorted(META))
def test_op_equals_paddle(name, static):
    meta = META[name]
    got = _run(name, static)
    for slot, value in zip(meta["outputs"], got):  # (the outputs Paddle wrote: not the statistics in test mode)
        want = ARRAYS[f"{name}.out.{slot}"]
        assert value.shape == want.shape, f"{name} {slot}: shape {value.shape} vs paddle {want.shape}"
        np.testing.assert_array_equal(value, want, err_msg=f"{name} {slot}")


def test_rounding_ties_as_paddle():
    """Ties away from zero in the fake ops (round_type 1), ties to even in quantize_linear (round_type 0)."""
    ties = ARRAYS["abs_max_ties_r1.in.X"]
    np.testing.assert_array_equal(ARRAYS["quantize_linear_ties_r0.out.Y"][:4], [0, 2, 2, -2])
    got = ops.quantize_linear(paddle.to_tensor(ties), paddle.to_tensor([127.0]), paddle.zeros([1]))
    np.testing.assert_array_equal(got.numpy()[:7], [0, 2, 2, -2, -4, 126, -128])
    np.testing.assert_array_equal(ARRAYS["quantize_linear_ties_r1.out.Y"][:4], [1, 2, 3, -3])
