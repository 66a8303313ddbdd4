"""Dynamic QAT and PTQ (paddle.quantization) of a Layer whose forward branches on a tensor, under to_static,
against paddle 2.6.2 (tests/golden/quantization/make_dynamic_control_flow_golden.py, same weights and data):
the quanters of the Linear layers in each branch run inside the cond's blocks. QAT: the losses of 4 SGD steps
taking both branches; both modes: the eval outputs of both branches, convert, and jit.save's Program block by
block (paddle's own ops, the literal 0 of the comparison aside: minipaddle writes it as assign_value, paddle as
fill_constant) with its outputs; paddle's saved files load and give paddle's outputs.

convert on a model under to_static must trace it again: the Programs traced before hold the quanters convert
replaced, and with the weights now integer levels they would compute garbage (caught here: jit.save wrote the
stale Program). Paddle 2.6.2's jit.save traces again, but its calls do not: its converted model, called, gives
garbage (recorded in the golden); minipaddle's gives what the saved file computes.
"""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.quantization import PTQ, QAT, QuantConfig
from minipaddle.quantization.observers import AbsmaxObserver
from minipaddle.quantization.quanters import FakeQuanterWithAbsMaxObserver
from minipaddle.static import pdmodel
from tests.golden_files import GOLDEN_ROOT as GOLDEN

G = np.load(GOLDEN / "quantization" / "dynamic_control_flow.npz")
T = json.loads((GOLDEN / "quantization" / "dynamic_control_flow.json").read_text())
FILES = GOLDEN / "quantization" / "dynamic_control_flow"
STEPS = 4
SAME = {"assign_value": "fill_constant"}


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(4, 4)
        self.fc2 = paddle.nn.Linear(4, 3)
        self.fc3 = paddle.nn.Linear(4, 3)

    def forward(self, x):
        h = self.fc1(x)
        if paddle.mean(h) > 0:
            y = self.fc2(h)
        else:
            y = self.fc3(paddle.nn.functional.relu(h))
        return y


def spec():
    return [paddle.static.InputSpec([None, 4], "float32", "x")]


@functools.cache
def flow(kind: str, tmp: str) -> dict:
    net = Net()
    for p, n in zip(net.parameters(), T["params"]):
        p.set_value(G[f"param/{n}"])
    out = {}
    if kind == "qat":
        q = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        algo = QAT(QuantConfig(activation=q, weight=q))
        model = paddle.jit.to_static(algo.quantize(net, inplace=True), input_spec=spec())
        opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
        out["losses"] = []
        for s in range(STEPS):
            loss = paddle.mean(model(paddle.to_tensor(G["xs"][s])) ** 2)
            loss.backward()
            opt.step()
            opt.clear_grad()
            out["losses"].append(float(loss))
        model.eval()
    else:
        net.eval()
        algo = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=AbsmaxObserver()))
        model = paddle.jit.to_static(algo.quantize(net, inplace=True), input_spec=spec())
        for s in range(STEPS):
            model(paddle.to_tensor(G["xs"][s]))
    out["outputs"] = {s: model(paddle.to_tensor(G[f"x_{s}"])).numpy() for s in ("pos", "neg")}
    converted = algo.convert(model, inplace=True)
    out["converted"] = {s: converted(paddle.to_tensor(G[f"x_{s}"])).numpy() for s in ("pos", "neg")}
    out["prefix"] = f"{tmp}/{kind}"
    paddle.jit.save(converted, out["prefix"], input_spec=spec())
    return out


@pytest.fixture(scope="module")
def tmp(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("dynamic_control_flow"))


def block_ops(prefix: str) -> list:
    desc = pdmodel.ProgramDesc()
    desc.ParseFromString(open(prefix + ".pdmodel", "rb").read())
    return [[SAME.get(op.type, op.type) for op in block.ops] for block in desc.blocks]


def run_saved(prefix: str, x: np.ndarray) -> np.ndarray:
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            return exe.run(program, feed={feeds[0]: x}, fetch_list=fetches, scope=scope)[0]
    finally:
        paddle.disable_static()


def test_qat_trains_through_both_branches_as_paddle(tmp):
    out = flow("qat", tmp)
    np.testing.assert_allclose(out["losses"], G["qat/losses"], rtol=2e-5)


@pytest.mark.parametrize("kind", ["qat", "ptq"])
def test_outputs_and_saved_program_match_paddle(kind, tmp):
    out = flow(kind, tmp)
    for sign in ("pos", "neg"):
        np.testing.assert_allclose(out["outputs"][sign], G[f"{kind}/{sign}"], rtol=1e-5, atol=1e-6)
        saved = G[f"{kind}/saved/{sign}"]  # (paddle's saved file in paddle's runtime)
        np.testing.assert_allclose(out["converted"][sign], saved, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(run_saved(out["prefix"], G[f"x_{sign}"]), saved, rtol=1e-5, atol=1e-6)
        # paddle's converted model, called, runs its stale Program: not what it saves (module docstring)
        assert np.abs(G[f"{kind}/converted/{sign}"] - saved).max() > 0.1
    assert block_ops(out["prefix"]) == T[kind]
    assert all("quantize_linear" in ops and "dequantize_linear" in ops for ops in T[kind][1:])


@pytest.mark.parametrize("kind", ["qat", "ptq"])
def test_paddles_saved_files_load(kind):
    for sign in ("pos", "neg"):
        got = run_saved(str(FILES / kind), G[f"x_{sign}"])
        np.testing.assert_allclose(got, G[f"{kind}/saved/{sign}"], rtol=1e-5, atol=1e-6)
