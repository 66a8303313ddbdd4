"""Record paddle 2.6.2's onnx_format passes (QuantizationTransformPassV2, AddQuantDequantPassV2) on the static
LeNet of make_static_golden.py (run with /work/paddle-venv/bin/python from the repository root).

    /work/paddle-venv/bin/python tests/golden/quantization/make_v2_golden.py

Writes v2_passes.json (the forward op lists of the test and training graphs, and of the test graph after
QuantWeightPass) and v2_passes.npz (after each of 4 SGD steps the loss and every quantize_linear statistic, keyed
by the variable it measures; the trained float weights; the test Program's logits; after QuantWeightPass the int8
weights and the logits).
Start weights and data are make_static_golden's (static_passes.npz), so both files share them.
"""

import json
import os
import sys

import numpy as np  # noqa: E402
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle  # noqa: E402
from paddle.base.framework import IrGraph  # noqa: E402
from paddle.framework import core  # noqa: E402
from paddle.static.quantization import (  # noqa: E402
    AddQuantDequantPassV2,
    QuantizationTransformPassV2,
    QuantWeightPass,
)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_static_golden import QUANT_OPS, STEPS, network  # noqa: E402

ATTRS = ("bit_length", "quant_axis", "moving_rate", "is_test", "round_type", "only_observer", "quantization_type",
         "with_quant_attr")  # fmt: skip


def op_rows(program):
    rows = []
    for op in program.global_block().ops:
        if op.attr("op_role") not in (0, 256):  # (forward, and the loss op)
            continue
        attrs = {k: op.attr(k) for k in ATTRS if op.has_attr(k)}
        rows.append(
            {
                "type": op.type,
                "inputs": {k: op.input(k) for k in op.input_names if op.input(k)},
                "outputs": {k: op.output(k) for k in op.output_names if op.output(k)},
                "attrs": attrs,
            }
        )
    return rows


def statistics(program, scope):
    out = {}
    for op in program.global_block().ops:
        if op.type == "quantize_linear":
            x = op.input("X")[0]
            for slot in ("OutScale", "OutState", "OutAccum"):
                if slot in op.output_names and op.output(slot):
                    out[f"{x}/{slot}"] = np.array(scope.find_var(op.output(slot)[0]).get_tensor())
    return out


def main():
    paddle.enable_static()
    g = np.load(os.path.join(HERE, "static_passes.npz"))
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, startup):
        logits, loss = network()
        test_p = main_p.clone(for_test=True)
        paddle.optimizer.SGD(0.1).minimize(loss)
    place, scope = paddle.CPUPlace(), paddle.static.global_scope()
    exe = paddle.static.Executor(place)
    exe.run(startup)
    for p in main_p.all_parameters():
        scope.find_var(p.name).get_tensor().set(g[f"param/{p.name}"], place)
    graph = IrGraph(core.Graph(main_p.desc), for_test=False)
    test_graph = IrGraph(core.Graph(test_p.desc), for_test=True)
    for gr in (graph, test_graph):
        QuantizationTransformPassV2(scope, place, activation_quantize_type="moving_average_abs_max",
                                    weight_quantize_type="channel_wise_abs_max",
                                    quantizable_op_type=QUANT_OPS).apply(gr)  # fmt: skip
        AddQuantDequantPassV2(scope, place, quantizable_op_type=["pool2d"]).apply(gr)
    train_prog, test_prog = graph.to_program(), test_graph.to_program()
    text = {"train_forward": op_rows(train_prog), "test": op_rows(test_prog)}
    arrays = {}
    for step in range(STEPS):
        feed = {"image": g["images"][step], "label": g["labels"][step]}
        (lv,) = exe.run(train_prog, feed=feed, fetch_list=[loss.name])
        arrays[f"step{step}/loss"] = np.array(lv)
        for k, v in statistics(train_prog, scope).items():
            arrays[f"step{step}/{k}"] = v
    for p in main_p.all_parameters():  # (the trained float weights: the tests quantize these, not their own)
        arrays[f"trained/{p.name}"] = np.array(scope.find_var(p.name).get_tensor())
    feed = {"image": g["images"][STEPS], "label": g["labels"][STEPS]}
    (arrays["test/logits"],) = exe.run(test_prog, feed=feed, fetch_list=[logits.name])
    QuantWeightPass(scope, place).apply(test_graph)  # (convert(onnx_format=True)'s first step)
    weighted = test_graph.to_program()
    text["quant_weight"] = op_rows(weighted)
    for p in main_p.all_parameters():
        arrays[f"quant_weight/{p.name}"] = np.array(scope.find_var(p.name).get_tensor())
    (arrays["quant_weight/logits"],) = exe.run(weighted, feed=feed, fetch_list=[logits.name])
    with open(os.path.join(HERE, "v2_passes.json"), "w") as f:
        json.dump(text, f, indent=1)
    np.savez(os.path.join(HERE, "v2_passes.npz"), **arrays)


if __name__ == "__main__":
    main()
