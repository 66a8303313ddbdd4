"""The update_loss_scaling op (what static decorate appends to the Program) against paddle 2.6.2's own kernel over
scripted runs of finite and inf steps (tests/golden/amp/update_loss_scaling.json, recorded by
make_update_loss_scaling.py there): the scale, both counters and the zeroed gradient after every step."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import ops
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "amp" / "update_loss_scaling.json")


@pytest.mark.parametrize("name", sorted(GOLDEN["runs"]))
def test_update_loss_scaling_steps_are_paddles(name):
    spec = GOLDEN["runs"][name]
    scale = paddle.to_tensor([spec["scale"]], dtype="float32")
    good = paddle.to_tensor([0], dtype="int32")
    bad = paddle.to_tensor([0], dtype="int32")
    got = []
    for is_bad in spec["bad"]:
        grad = paddle.to_tensor([1.0, 2.0], dtype="float32")
        found_inf = paddle.to_tensor([bool(is_bad)])
        grad, scale, good, bad = ops.update_loss_scaling([grad], found_inf, scale, good, bad, **spec["kw"])
        got.append({"scale": float(scale.numpy()[0]), "good": int(good.numpy()[0]), "bad": int(bad.numpy()[0]),
                    "grad_zeroed": bool(np.all(grad.numpy() == 0))})  # fmt: skip
    assert got == GOLDEN["steps"][name]
