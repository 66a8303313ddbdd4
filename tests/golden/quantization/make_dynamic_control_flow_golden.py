"""Record paddle 2.6.2's dynamic QAT and PTQ (paddle.quantization) of a Layer whose forward branches on a
tensor, under paddle.jit.to_static (run with /work/paddle-venv/bin/python from the repository root).

    /work/paddle-venv/bin/python tests/golden/quantization/make_dynamic_control_flow_golden.py

The `if paddle.mean(h) > 0:` becomes a cond: the quanters of the Linear layers in each branch run inside its
blocks. QAT: FakeQuanterWithAbsMaxObserver for weights and activations, STEPS SGD steps under to_static (the
losses), then eval outputs on both branches, convert and jit.save. PTQ: AbsmaxObserver, calibration on the
data under to_static, convert, jit.save. Paddle 2.6.2's to_static must be given full_graph=True here: its
default (SOT) translates to PIR, which has no fake_quantize_dequantize_moving_average_abs_max_ and aborts the
process. Writes dynamic_control_flow.json (the saved Programs' op types per block), dynamic_control_flow.npz
(start weights, data, losses, outputs: before convert, of the saved files in paddle's runtime, and of the converted
model called: paddle 2.6.2 calls the Program it traced before convert, with the weights convert made integer
levels, so those are garbage, e.g. 5414.7 for 0.236) and the saved files under dynamic_control_flow/
({qat,ptq}.pdmodel / .pdiparams), which minipaddle loads.
"""

import json
import os

import numpy as np
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.quantization import PTQ, QAT, QuantConfig
from paddle.quantization.observers import AbsmaxObserver
from paddle.quantization.quanters import FakeQuanterWithAbsMaxObserver

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 4


class Net(paddle.nn.Layer):
    """The Layer tests/quantization/test_dynamic_control_flow.py builds in minipaddle."""

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


def load_and_run(prefix, xs):
    """(the saved Program's op types per block, its outputs on each of xs) in paddle's static runtime."""
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        outs = [exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)[0] for x in xs]
        return [[op.type for op in b.ops] for b in program.blocks], outs
    finally:
        paddle.disable_static()


def main():
    rng = np.random.default_rng(30)
    arrays = {"xs": rng.normal(size=(STEPS, 2, 4)).astype("float32")}
    arrays["xs"][1::2] = -np.abs(arrays["xs"][1::2]) * 3  # (every other batch takes the other branch)
    arrays["x_pos"], arrays["x_neg"] = np.abs(arrays["xs"][0]) + 1, -np.abs(arrays["xs"][0]) * 3 - 1
    net = Net()
    for p in net.parameters():
        arrays[f"param/{p.name}"] = rng.normal(size=p.shape).astype("float32") * 0.5
    names = [p.name for p in net.parameters()]
    text = {"params": names}
    os.makedirs(os.path.join(HERE, "dynamic_control_flow"), exist_ok=True)
    for kind in ("qat", "ptq"):
        net = Net()
        for p, n in zip(net.parameters(), names):
            p.set_value(arrays[f"param/{n}"])
        if kind == "qat":
            q = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
            algo = QAT(QuantConfig(activation=q, weight=q))
            model = paddle.jit.to_static(algo.quantize(net, inplace=True), input_spec=spec(), full_graph=True)
            opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
            losses = []
            for s in range(STEPS):
                loss = paddle.mean(model(paddle.to_tensor(arrays["xs"][s])) ** 2)
                loss.backward()
                opt.step()
                opt.clear_grad()
                losses.append(float(loss))
            arrays["qat/losses"] = np.array(losses)
            model.eval()
        else:
            net.eval()
            algo = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=AbsmaxObserver()))
            model = paddle.jit.to_static(algo.quantize(net, inplace=True), input_spec=spec(), full_graph=True)
            for s in range(STEPS):
                model(paddle.to_tensor(arrays["xs"][s]))
        for sign in ("pos", "neg"):
            arrays[f"{kind}/{sign}"] = model(paddle.to_tensor(arrays[f"x_{sign}"])).numpy()
        converted = algo.convert(model, inplace=True)
        prefix = os.path.join(HERE, "dynamic_control_flow", kind)
        paddle.jit.save(converted, prefix, input_spec=spec())
        os.remove(prefix + ".pdiparams.info")
        text[kind], outs = load_and_run(prefix, [arrays["x_pos"], arrays["x_neg"]])
        for sign, out in zip(("pos", "neg"), outs):
            arrays[f"{kind}/saved/{sign}"] = out
            arrays[f"{kind}/converted/{sign}"] = converted(paddle.to_tensor(arrays[f"x_{sign}"])).numpy()
    with open(os.path.join(HERE, "dynamic_control_flow.json"), "w") as fh:
        json.dump(text, fh, indent=1, sort_keys=True)
    np.savez_compressed(os.path.join(HERE, "dynamic_control_flow.npz"), **arrays)
    print(len(arrays), "arrays;", {k: [len(b) for b in v] for k, v in text.items() if k != "params"})


if __name__ == "__main__":
    main()
