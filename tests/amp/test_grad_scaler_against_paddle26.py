"""GradScaler against paddle 2.6.2's own GradScaler: tests/golden/amp/grad_scaler.json holds, for scripted series
of finite and Inf/NaN gradients, what paddle's scaler did at each step (recorded by make_golden.py there, which
drives paddle's Python scaler on a CPU with the state its GPU branch makes): the scale and the good/bad step
counters after update(), whether the step left the weight and the optimizer's accumulators unchanged (skipped),
and the line it printed. minipaddle's GradScaler runs the same script here and must agree step by step."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "amp" / "grad_scaler.json")


def _state(optimizer) -> list:
    return [acc.numpy().copy() for name in sorted(optimizer._accumulators)
            for _, acc in sorted(optimizer._accumulators[name].items())]  # fmt: skip


def _replay(kw: dict, opt: str, api: str, bad: list) -> list:
    with paddle.amp.auto_cast():  # scale() wants float16 as the last auto_cast's dtype, as paddle's does
        pass
    lin = paddle.nn.Linear(2, 1)
    lin.weight.set_value(np.array([[0.5], [-0.25]], np.float32))
    lin.bias.set_value(np.array([0.1], np.float32))
    optimizer = getattr(paddle.optimizer, opt)(0.1, parameters=lin.parameters())
    scaler = paddle.amp.GradScaler(**kw)
    steps = []
    for b in bad:
        first = {0: 1.0, 1: float("inf"), "nan": float("nan")}[b]
        loss = lin(paddle.to_tensor([[first, 2.0]])).mean()
        before = [lin.weight.numpy().copy()] + _state(optimizer)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            scaled = scaler.scale(loss)
            scaled.backward()
            if api == "minimize":
                scaler.minimize(optimizer, scaled)
            else:
                scaler.step(optimizer)
                scaler.update()
            optimizer.clear_grad()
        after = [lin.weight.numpy()] + _state(optimizer)
        unchanged = len(before) == len(after) and all(np.array_equal(x, y) for x, y in zip(before, after))
        steps.append({"scale": float(scaler._scale), "incr_count": scaler._incr_count,
                      "decr_count": scaler._decr_count, "unchanged": bool(unchanged),
                      "printed": printed.getvalue()})  # fmt: skip
    state = {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in scaler.state_dict().items()}
    steps.append({"state_dict": state})
    return steps


@pytest.mark.parametrize("name", sorted(GOLDEN["runs"]))
def test_grad_scaler_follows_paddles_steps(name):
    got = _replay(**GOLDEN["runs"][name])
    want = GOLDEN["steps"][name]
    for i, (g, w) in enumerate(zip(got[:-1], want[:-1])):
        assert g == w, f"{name}, step {i} (bad={GOLDEN['runs'][name]['bad'][i]}): minipaddle {g}, paddle {w}"
    assert got[-1] == want[-1]
    assert len(got) == len(want)
