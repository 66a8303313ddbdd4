"""quant_aware(test, config={'quant_post_first': True}, for_test=True, calib_config=...) against paddle 2.6.2
(tests/golden/quantization/make_quant_post_first_golden.py, same weights and data): the test Program calibrated
by PostTrainingQuantizationProgram (algos abs_max and KL), quantized with the legacy fake ops and not frozen,
and output-scale observers that start from the calibrated scales: ops, the returned scale_dict, every scale
variable and the logits."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.quantization import PostTrainingQuantizationProgram, quant_aware
from tests.golden_files import GOLDEN_ROOT as GOLDEN
from tests.quantization.test_quant_aware import assert_rows_equal, clean_golden_rows, rows
from tests.quantization.test_static_passes import NameMap

G = np.load(GOLDEN / "quantization" / "quant_post_first.npz")
T = json.loads((GOLDEN / "quantization" / "quant_post_first.json").read_text())
ALGOS = [a for a in T if a != "params"]


def network():
    x = paddle.static.data("image", [-1, 1, 6, 6], "float32")
    c = paddle.static.nn.conv2d(x, 2, 3, act="relu")
    return paddle.static.nn.fc(paddle.flatten(c, 1), 3)


@functools.cache
def calibrated(algo: str) -> dict:
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            logits = network()
        test = main.clone(for_test=True)
        scope, exe = paddle.static.Scope(), paddle.static.Executor()
        exe.run(startup, scope=scope)
        names = [p.name for p in main.all_parameters()]
        for mine, theirs in zip(names, T["params"]):
            scope.vars[mine] = G[f"param/{theirs}"].copy()
        calib = {"feed_list": ["image"], "fetch_list": [logits], "algo": algo,
                 "data_loader": lambda: ({"image": d} for d in G["data"])}  # fmt: skip
        program, scale_dict, _, _ = quant_aware(test, None, {"quant_post_first": True}, scope=scope, for_test=True,
                                                calib_config=calib, return_scale_dict=True)  # fmt: skip
        (out,) = exe.run(program, feed={"image": G["data"][0]}, fetch_list=[logits.name], scope=scope)
        return {"params": names, "program": program, "scale_dict": scale_dict, "scope": scope, "logits": out}
    finally:
        paddle.disable_static()


def name_map(flow) -> NameMap:
    names = NameMap.__new__(NameMap)
    names.to_paddle = dict(zip(flow["params"], T["params"]))
    names.seen = set(T["params"])
    return names


@pytest.mark.parametrize("algo", ALGOS)
def test_ops_match_paddle(algo):
    """The fake quant ops of the PTQ test graph (range_abs_max activations, channel-wise weights, is_test), and
    a moving_average_abs_max_scale (is_test) after every op of paddle's teller set."""
    flow = calibrated(algo)
    assert_rows_equal(rows(flow["program"]), clean_golden_rows(T[algo]["ops"]), name_map(flow))


@pytest.mark.parametrize("algo", ALGOS)
def test_scales_match_paddle(algo):
    """The returned scale_dict (weights per channel) and every scale variable, the observers' included (they
    start from the calibrated value, not 1), and the logits of the returned Program."""
    flow = calibrated(algo)
    names = name_map(flow)
    assert_rows_equal(rows(flow["program"]), clean_golden_rows(T[algo]["ops"]), names)  # (learns the names)
    mine = {names.to_paddle[k]: v for k, v in flow["scale_dict"].items() if k in names.to_paddle}
    assert sorted(mine) == sorted(T[algo]["scale_dict"])
    for k, v in T[algo]["scale_dict"].items():
        np.testing.assert_allclose(np.asarray(mine[k], np.float64), v, rtol=1e-5, err_msg=k)
    scales = {n for n in flow["program"].global_block().vars if n.endswith("@scale")}
    theirs = {k[len(algo) + 1 :] for k in G.files if k.startswith(f"{algo}/") and k.endswith("@scale")}
    assert sorted(names.to_paddle[n[: -len("@scale")]] + "@scale" for n in scales) == sorted(theirs)
    for n in scales:
        want = G[f"{algo}/{names.to_paddle[n[: -len('@scale')]]}@scale"]
        np.testing.assert_allclose(np.ravel(flow["scope"].vars[n]), np.ravel(want), rtol=1e-5, err_msg=n)
    np.testing.assert_allclose(flow["logits"], G[f"{algo}/logits"], rtol=1e-5, atol=1e-6)


def test_quant_post_first_needs_its_arguments():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            network()
    finally:
        paddle.disable_static()
    exe = paddle.static.Executor()
    with pytest.raises(ValueError, match="feed_list and fetch_list must be given"):
        PostTrainingQuantizationProgram(exe, main, data_loader=lambda: iter(()))
    with pytest.raises(TypeError, match="calib_config must not set"):
        quant_aware(main, None, {"quant_post_first": True}, for_test=True, calib_config={"batch_nums": 3})
