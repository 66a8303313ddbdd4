"""Optimizer state under multi_precision is named as paddle 2.6.2 names it (tests/golden/amp/state_names.json,
recorded by make_state_names.py there): Adam, AdamW and Momentum put their accumulators on the float32 master
weight, so moments are `<param>_fp32_master_0_moment1_0`, dynamic (decorate O2) and static alike, and a .pdopt
saved from O2 training loads back under those keys."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "amp" / "state_names.json")
OPTIMIZERS = sorted(GOLDEN)


def _o2_step(cls_name: str):
    """A float32 Linear(2, 3) decorated O2 with the optimizer, after one step (fresh name counters)."""
    lin = paddle.nn.Linear(2, 3)
    opt = getattr(paddle.optimizer, cls_name)(parameters=lin.parameters())
    lin, opt = paddle.amp.decorate(lin, opt, level="O2")
    with paddle.amp.auto_cast(level="O2"):
        loss = lin(paddle.ones([4, 2])).mean()
    loss.backward()
    opt.step()
    opt.clear_grad()
    return lin, opt


@pytest.mark.parametrize("cls_name", OPTIMIZERS)
def test_dynamic_o2_state_dict_keys_are_paddles(cls_name):
    with paddle.utils.unique_name.guard():
        _, opt = _o2_step(cls_name)
    state = opt.state_dict()
    masters = {k: v.name for k, v in state.pop("master_weights").items()}
    assert sorted(state) == GOLDEN[cls_name]["dynamic"]["accumulators"]
    assert masters == GOLDEN[cls_name]["dynamic"]["master_weights"]


@pytest.mark.parametrize("cls_name", OPTIMIZERS)
def test_static_multi_precision_persistables_are_paddles(cls_name):
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
            x = paddle.static.data("x", [4, 2], "float16")
            w = paddle.create_parameter([2, 3], "float16", name="w")
            getattr(paddle.optimizer, cls_name)(multi_precision=True).minimize(paddle.mean(paddle.matmul(x, w)))
        assert sorted(v.name for v in main.list_vars() if v.persistable) == GOLDEN[cls_name]["static"]
    finally:
        paddle.disable_static()


def _step(lin, opt) -> None:
    with paddle.amp.auto_cast(level="O2"):
        loss = lin(paddle.ones([4, 2])).mean()
    loss.backward()
    opt.step()
    opt.clear_grad()


@pytest.mark.parametrize("cls_name", OPTIMIZERS)
def test_o2_pdopt_round_trip_continues_training(cls_name, tmp_path):
    with paddle.utils.unique_name.guard():
        lin, opt = _o2_step(cls_name)
    paddle.save(lin.state_dict(), str(tmp_path / "o2.pdparams"))
    paddle.save(opt.state_dict(), str(tmp_path / "o2.pdopt"))
    loaded = paddle.load(str(tmp_path / "o2.pdopt"))
    assert sorted(loaded) == sorted(opt.state_dict())
    with paddle.utils.unique_name.guard():  # a new run: the same names, fresh accumulators
        lin2 = paddle.nn.Linear(2, 3)
        opt2 = getattr(paddle.optimizer, cls_name)(parameters=lin2.parameters())
        lin2, opt2 = paddle.amp.decorate(lin2, opt2, level="O2")
        lin2.set_state_dict(paddle.load(str(tmp_path / "o2.pdparams")))
        opt2.set_state_dict(loaded)
        _step(lin2, opt2)  # the accumulators are made now and take the loaded values first
    _step(lin, opt)
    got, want = opt2.state_dict(), opt.state_dict()
    for key in GOLDEN[cls_name]["dynamic"]["accumulators"]:
        np.testing.assert_array_equal(got[key].numpy(), want[key].numpy(), err_msg=key)
    for pname, master in want["master_weights"].items():
        np.testing.assert_array_equal(got["master_weights"][pname].numpy(), master.numpy(), err_msg=pname)
    for a, b in zip(lin2.parameters(), lin.parameters()):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_o2_state_loads_into_a_second_optimizer_in_the_same_process():
    # The second optimizer's master is `..._fp32_master_1`: its moments still find the saved `..._fp32_master_0_...`.
    with paddle.utils.unique_name.guard():
        lin, opt = _o2_step("Adam")
    saved = {k: v.numpy() for k, v in opt.state_dict().items() if k != "master_weights"}
    saved["master_weights"] = {k: v.numpy() for k, v in opt.state_dict()["master_weights"].items()}
    with paddle.utils.unique_name.guard():
        lin2 = paddle.nn.Linear(2, 3)
        for p in lin2.parameters():  # as if an earlier optimizer in this process had made its masters
            paddle.utils.unique_name.generate(f"{p.name}_fp32_master")
        lin2, opt2 = paddle.amp.decorate(lin2, paddle.optimizer.Adam(parameters=lin2.parameters()), level="O2")
        lin2.set_state_dict(lin.state_dict())
        opt2.set_state_dict(saved)
        _step(lin2, opt2)
    state = opt2.state_dict()
    assert "linear_0.w_0_fp32_master_0_moment1_0" not in state
    moment = state["linear_0.w_0_fp32_master_1_moment1_0"]
    want = 0.9 * saved["linear_0.w_0_fp32_master_0_moment1_0"] + 0.1 / 3  # d mean / d w = 4 rows of ones / 12
    np.testing.assert_allclose(moment.numpy(), want, atol=1e-4)
