"""Paddle's mapping table (static/quantization/mapping_table.py) against paddle 2.6.2
(tests/golden/quantization/make_mapping_table_golden.py): quant_aware with a preprocess function in the legacy
format writes ./mapping_table_for_saving_inference_model as paddle's (JSON of {function output: the variable it
read}); convert reads it (JSON only: nothing in it runs) and freezes the Program with it, where paddle 2.6.2's
convert fails (its sub-graphs never see the table): the frozen Program computes what the test Program did."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.quantization import convert, quant_aware
from minipaddle.static.quantization.mapping_table import VARS_MAPPING_TABLE, load_dict
from tests.golden_files import GOLDEN_ROOT as GOLDEN
from tests.quantization.test_user_functions import ALPHA, network, pact

T = json.loads((GOLDEN / "quantization" / "mapping_table.json").read_text())
LEGACY = {"onnx_format": False}
HOOKS = {"weight_preprocess_func": "weight", "act_preprocess_func": "act"}
PADDLE_NAMES = {"reshape_1.tmp_0": "flatten_0.tmp_0"}  # (the fc's input: minipaddle's flatten is a reshape)


def flow(hook: str, config=LEGACY, for_test_too: bool = True) -> dict:
    """quant_aware for training and for test with `hook`, 3 steps, then convert: the Programs and logits."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
            logits, loss = network()
            test = main.clone(for_test=True)
            paddle.optimizer.SGD(0.1).minimize(loss)
        scope, exe = paddle.static.Scope(), paddle.static.Executor()
        exe.run(startup, scope=scope)
        kw = dict(scope=scope, optimizer_func=lambda: paddle.optimizer.Momentum(0.05, 0.9), executor=exe,
                  **{hook: pact(ALPHA[HOOKS[hook]])})  # fmt: skip
        out = {"train": quant_aware(main, None, config, return_program=True, **kw)}
        if not for_test_too:
            return out
        out["test"] = quant_aware(test, None, config, for_test=True, **kw)
        rng = np.random.default_rng(0)
        feed = {"image": rng.standard_normal((4, 1, 6, 6)).astype("float32"), "label": np.zeros((4, 1), "int64")}
        for _ in range(3):
            exe.run(out["train"], feed=feed, fetch_list=[loss.name], scope=scope)
        (out["test_logits"],) = exe.run(out["test"], feed=feed, fetch_list=[logits.name], scope=scope)
        out["frozen"] = convert(out["test"], None, LEGACY, scope=scope)
        (out["frozen_logits"],) = exe.run(out["frozen"], feed=feed, fetch_list=[logits.name], scope=scope)
        return out
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_quant_aware_writes_paddles_table(hook, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    train = flow(hook, for_test_too=False)["train"]
    text = (tmp_path / VARS_MAPPING_TABLE).read_text()
    mine, theirs = json.loads(text), json.loads(T[hook]["table"])
    assert text == json.dumps(mine) and T[hook]["table"] == json.dumps(theirs)  # (json.dumps, as paddle's save_dict)
    assert sorted(PADDLE_NAMES.get(v, v) for v in mine.values()) == sorted(theirs.values())
    # the keys: what the fake quantize op of each variable reads, the function's output, named under "{variable}_"
    # as paddle's (paddle's own names, e.g. conv2d_0.w_0_elementwise_add_0, are its op names: minipaddle's add_0)
    read = {op.inputs["x"][0] for op in train.global_block().ops if op.type.startswith("fake_") and "x" in op.inputs}
    for out, source in mine.items():
        assert out in read and out.startswith(source + "_") and out != source


@pytest.mark.parametrize("case", ["for_test", "onnx_format", "no_function"])
def test_no_table_where_paddle_writes_none(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if case == "for_test":
        flow("act_preprocess_func")  # (writes one for training; removed, then only the test Program is made)
        (tmp_path / VARS_MAPPING_TABLE).unlink()
        paddle.enable_static()
        try:
            main, startup = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, startup):
                network()
            scope, exe = paddle.static.Scope(), paddle.static.Executor()
            exe.run(startup, scope=scope)
            quant_aware(main.clone(for_test=True), None, LEGACY, scope=scope, for_test=True, executor=exe,
                        act_preprocess_func=pact(1.0))  # fmt: skip
        finally:
            paddle.disable_static()
    elif case == "onnx_format":
        flow("act_preprocess_func", config={"onnx_format": True}, for_test_too=False)
    else:
        paddle.enable_static()
        try:
            main, startup = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, startup):
                network()
            quant_aware(main, None, LEGACY, scope=paddle.static.Scope(), return_program=True)
        finally:
            paddle.disable_static()
    assert not (tmp_path / VARS_MAPPING_TABLE).exists()


@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_convert_freezes_with_the_table(hook, tmp_path, monkeypatch):
    """paddle 2.6.2 fails here (recorded); minipaddle's frozen Program gives the test Program's logits: a weight
    function's value is folded into the weight before it is quantized, an activation's scale is found under the
    name the function read."""
    assert T[hook]["convert_error"].startswith("KeyError")
    monkeypatch.chdir(tmp_path)
    out = flow(hook)
    np.testing.assert_allclose(out["frozen_logits"], out["test_logits"], rtol=1e-5, atol=1e-6)
    products = [op for op in out["frozen"].global_block().ops if op.type in ("conv2d", "matmul")]
    assert [op.inputs.get("w", op.inputs.get("y")) for op in products] == [["conv2d_0.w_0"], ["fc_0.w_0"]]


def test_convert_without_the_table_fails_as_paddle_does(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    original = load_dict
    monkeypatch.setattr("minipaddle.static.quantization.quanter.load_dict", lambda: None)
    with pytest.raises(ValueError, match="scale was not found"):
        flow("act_preprocess_func")
    assert original() is not None  # (the file was there: only convert did not read it)


def test_the_table_is_read_as_json_only(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_dict() is None
    (tmp_path / VARS_MAPPING_TABLE).write_bytes(pickle.dumps({"a": "b"}))  # never unpickled
    with pytest.raises(ValueError, match="not JSON"):
        load_dict()
    for bad in ('["a", "b"]', '{"a": 1}'):
        (tmp_path / VARS_MAPPING_TABLE).write_text(bad)
        with pytest.raises(ValueError, match="JSON object of variable names"):
            load_dict()
    (tmp_path / VARS_MAPPING_TABLE).write_text('{"w_add_0.tmp_0": "w"}')
    assert load_dict() == {"w_add_0.tmp_0": "w"}
