"""Record paddle 2.6.2's QAT training of Programs with control flow (run with /work/paddle-venv/bin/python from the
repository root).

    /work/paddle-venv/bin/python tests/golden/quantization/make_control_flow_train_golden.py

make_control_flow_golden.py's networks ("cond": an fc, then a cond whose branches are an fc and relu + fc;
"while": the same, then a while_loop applying an fc twice) with loss = mean(out * out) and SGD(0.1) minimized, from
its start weights (control_flow.npz); quant_aware(main, for_test=False) in both formats, then FEEDS steps on the
batches that take the true and the false branch in turn. Paddle's transform pass points the grad ops of block 0 at
the dequantized variables, but each sub-block's grad block is a sub-graph of its own whose mul_grad still reads the
un-quantized input and weight: recorded as `as_run`; and with every mul_grad pointed at the inputs its forward mul
reads (`fixed`, what minipaddle's grad rules give). Writes control_flow_train.json: per network, format and run,
the losses and the trained weights.
"""

import json
import os
import sys

import numpy as np
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.static.quantization import quant_aware

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_control_flow_golden import network  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FEEDS = ("pos", "neg", "pos", "neg")
FORMATS = {"onnx": True, "legacy": False}


def grad_ops_read_forward_inputs(program) -> list:
    """Point each mul_grad, in any block, at the inputs its forward mul reads: the (block, old, new) renamed."""
    forward = {op.output("Out")[0]: op for b in program.blocks for op in b.ops if op.type == "mul"}
    changed = []
    for b in program.blocks:
        for op in b.ops:
            if op.type == "mul_grad":
                fwd = forward[op.input("Out@GRAD")[0][: -len("@GRAD")]]
                for slot in ("X", "Y"):
                    old, new = op.input(slot)[0], fwd.input(slot)[0]
                    if old != new:
                        op._rename_input(old, new)
                        changed.append([b.idx, old, new])
    return changed


def run(kind: str, onnx_format: bool, fix: bool, start: dict) -> dict:
    place = paddle.CPUPlace()
    exe = paddle.static.Executor(place)
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, startup), paddle.utils.unique_name.guard():
        out = network(kind)
        loss = paddle.mean(out * out)
        paddle.optimizer.SGD(0.1).minimize(loss)
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    for p in main_p.all_parameters():
        scope.find_var(p.name).get_tensor().set(start[f"{kind}/param/{p.name}"], place)
    with paddle.static.scope_guard(scope):
        q = quant_aware(main_p, place, {"onnx_format": onnx_format}, for_test=False, return_program=True)
        renamed = grad_ops_read_forward_inputs(q) if fix else []
        losses = [float(exe.run(q, feed={"x": start[f"x_{s}"]}, fetch_list=[loss])[0]) for s in FEEDS]
    weights = {p.name: np.array(scope.find_var(p.name).get_tensor()).tolist() for p in main_p.all_parameters()}
    return {"losses": losses, "weights": weights, "renamed": renamed}


def main():
    paddle.enable_static()
    start = np.load(os.path.join(HERE, "control_flow.npz"))
    out = {f"{kind}/{fmt}/{how}": run(kind, onnx_format, how == "fixed", start) for kind in ("cond", "while")
           for fmt, onnx_format in FORMATS.items() for how in ("as_run", "fixed")}  # fmt: skip
    out["feeds"] = list(FEEDS)
    with open(os.path.join(HERE, "control_flow_train.json"), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
    print({k: v["losses"] for k, v in out.items() if k != "feeds"})


if __name__ == "__main__":
    main()
