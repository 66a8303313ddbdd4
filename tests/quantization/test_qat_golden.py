"""QAT and PTQ on LeNet against paddle 2.6.2 (tests/golden/quantization/cases.py, run by both libraries): the
same weights and data give the same losses, scales, states, accums, weights and outputs."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, load_cases, read_arrays, read_json
from tests.quantization.training_tolerance import assert_losses_follow, assert_trained_value_follows

CASES = load_cases("quantization")
GOLD = read_arrays(GOLDEN_ROOT / "quantization" / "arrays.npz")
TEXT = read_json(GOLDEN_ROOT / "quantization" / "text.json")["text"]


@functools.cache
def _run(case: str) -> dict:
    if case.startswith("qat20_"):
        return CASES.qat20_cases(paddle, case.removeprefix("qat20_"))
    return {"qat26": CASES.qat26_cases, "ptq26": CASES.ptq26_cases}[case](paddle)


def _same_keys(out: dict, prefix: str) -> None:
    want = {k for k in GOLD if k.split(".")[0].startswith(prefix)}
    only_here, only_paddle = sorted(set(out) - want)[:5], sorted(want - set(out))[:5]
    assert set(out) == want, f"keys only here: {only_here}, only in paddle's: {only_paddle}"


@pytest.mark.parametrize("weight_type", ["channel_wise_abs_max", "abs_max"])
def test_imperative_quant_aware_10_steps_equal_paddle(weight_type):
    """ImperativeQuantAware (2.0 API): 10 SGD steps; every state_dict entry (weights, weight scales, input
    scale/state/accum, output scales) and the outputs follow paddle's (training_tolerance.py: the first losses to
    float32 rounding, the rest within what a level flip explains)."""
    case = f"qat20_{weight_type}"
    out = _run(case)
    _same_keys(out, case)
    for k, v in out.items():
        if k.endswith("losses"):
            assert_losses_follow(v, GOLD[k], k)
        elif "history" in k:  # the moving-average counters do not depend on the data
            np.testing.assert_allclose(v, GOLD[k], rtol=1e-5, err_msg=k)
        else:
            assert_trained_value_follows(v, GOLD[k], k)
    history = out[f"{case}.history_state"]
    np.testing.assert_allclose(history[:3], [1.9, 2.71, 3.439], rtol=1e-6)  # state = 0.9 * state + 1 from 1


def test_qat26_10_steps_and_convert_equal_paddle():
    """paddle.quantization.QAT with FakeQuanterWithAbsMaxObserver on weights and activations. The activation
    statistics are exact; the weights' moving-average scales make the grid follow the weights, so a value that
    float32 puts on the other side of a rounding boundary in one of the two libraries (one element at step 9 here)
    changes a level: losses then agree to 1e-3, converted integer weights in all but a few elements."""
    out = _run("qat26")
    _same_keys(out, "qat26")
    for k, v in out.items():
        want = GOLD[k]
        if "history" in k or k.endswith(("._state", "._accum")):
            np.testing.assert_allclose(v, want, rtol=1e-5, err_msg=k)
        elif k.startswith("qat26_converted.state.") and k.endswith(".weight"):  # integer levels
            assert np.all(v == np.round(v)), k
            assert np.abs(v - want).max() <= 1 and np.mean(v != want) < 0.01, k
        elif k.endswith("losses"):
            assert_losses_follow(v, want, k)
        else:
            assert_trained_value_follows(v, want, k)


def test_ptq26_calibration_and_convert_equal_paddle():
    out = _run("ptq26")
    _same_keys(out, "ptq26")
    for k, v in out.items():
        np.testing.assert_allclose(v, GOLD[k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_printed_forms_equal_paddle():
    """QuantConfig's print and the quantized LeNet's Layer tree, as paddle prints them."""
    Q = paddle.quantization
    quanter = Q.quanters.FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    assert str(Q.QuantConfig(activation=quanter, weight=quanter)) == TEXT["quant_config"]
    model = Q.QAT(Q.QuantConfig(activation=quanter, weight=quanter)).quantize(paddle.vision.models.LeNet())
    assert str(model) == TEXT["qat26_lenet"]
    net = paddle.vision.models.LeNet()
    Q.ImperativeQuantAware(weight_quantize_type="channel_wise_abs_max").quantize(net)
    assert str(net) == TEXT["qat20_lenet"]
