"""Record paddle 2.6.2's static quantization passes on a small static LeNet (run with /work/paddle-venv/bin/python).

    /work/paddle-venv/bin/python tests/golden/quantization/make_static_golden.py

Writes static_passes.json (the op lists Paddle's passes produce, forward part) and static_passes.npz (the start
weights, the data, and after each of 4 SGD steps the loss and every scale / state / accum, keyed by the variable
it measures; then the frozen weights and the frozen and int8 programs' outputs). Scales are keyed by what they
measure, not by their generated names (Paddle numbers `state_N` in the order of a set of graph nodes).
"""

import json
import os

import numpy as np  # noqa: E402
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle  # noqa: E402
from paddle.base.framework import IrGraph  # noqa: E402
from paddle.framework import core  # noqa: E402
from paddle.static.quantization import (  # noqa: E402
    AddQuantDequantPass,
    ConvertToInt8Pass,
    OutScaleForInferencePass,
    OutScaleForTrainingPass,
    QuantizationFreezePass,
    QuantizationTransformPass,
)

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS, BATCH = 4, 8
QUANT_OPS = ["conv2d", "mul", "matmul_v2"]


def network():
    """The same network as tests/quantization/test_static_passes.py builds in minipaddle."""
    x = paddle.static.data("image", [-1, 1, 16, 16], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    c = paddle.static.nn.conv2d(x, 4, 5, act="relu")
    p = paddle.nn.functional.max_pool2d(c, 2, 2)
    c2 = paddle.static.nn.conv2d(p, 8, 3, act="relu")
    p2 = paddle.nn.functional.max_pool2d(c2, 2, 2)
    f = paddle.static.nn.fc(paddle.flatten(p2, 1), 10)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(f, label))
    return f, loss


def op_rows(program, forward_only=True):
    rows = []
    for op in program.global_block().ops:
        if forward_only and op.attr("op_role") not in (0, 256):  # (forward, and the loss op)
            continue
        attrs = {}
        for k in (
            "bit_length",
            "quant_axis",
            "moving_rate",
            "is_test",
            "max_range",
            "quant_bits",
            "x_num_col_dims",
            "quantization_type",
            "out_threshold",
            "with_quant_attr",
        ):
            if op.has_attr(k):
                v = op.attr(k)
                attrs[k] = list(v) if isinstance(v, (list, tuple)) else v
        for k in op.attr_names:
            if k.endswith("_threshold"):
                v = op.attr(k)
                attrs[k] = list(v) if isinstance(v, (list, tuple)) else v
        rows.append(
            {
                "type": op.type,
                "inputs": {k: op.input(k) for k in op.input_names if op.input(k)},
                "outputs": {k: op.output(k) for k in op.output_names if op.output(k)},
                "attrs": attrs,
            }
        )
    return rows


def scales(program, scope):
    """{what it measures: value} for every quantization statistic of `program`."""
    out = {}
    for op in program.global_block().ops:
        if op.type in (
            "fake_quantize_moving_average_abs_max",
            "fake_quantize_dequantize_moving_average_abs_max",
            "moving_average_abs_max_scale",
            "fake_channel_wise_quantize_abs_max",
        ):
            x = op.input("X")[0]
            for slot in ("OutScale", "OutState", "OutAccum"):
                if slot in op.output_names and op.output(slot):
                    out[f"{op.type}/{x}/{slot}"] = np.array(scope.find_var(op.output(slot)[0]).get_tensor())
    return out


def main():
    paddle.enable_static()
    paddle.seed(3)
    rng = np.random.default_rng(14)
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, startup):
        logits, loss = network()
        test_p = main_p.clone(for_test=True)
        paddle.optimizer.SGD(0.1).minimize(loss)
    place, scope = paddle.CPUPlace(), paddle.static.global_scope()
    exe = paddle.static.Executor(place)
    exe.run(startup)
    params = {p.name: np.array(scope.find_var(p.name).get_tensor()) for p in main_p.all_parameters()}

    graph = IrGraph(core.Graph(main_p.desc), for_test=False)
    test_graph = IrGraph(core.Graph(test_p.desc), for_test=True)
    for g in (graph, test_graph):  # one pass object per graph: each takes is_test from its graph
        QuantizationTransformPass(
            scope,
            place,
            activation_quantize_type="moving_average_abs_max",
            weight_quantize_type="channel_wise_abs_max",
            quantizable_op_type=QUANT_OPS,
        ).apply(g)
        AddQuantDequantPass(scope, place, quantizable_op_type=["pool2d"]).apply(g)
        OutScaleForTrainingPass(scope, place).apply(g)
    train_prog = graph.to_program()
    test_prog = test_graph.to_program()
    text = {"train_forward": op_rows(train_prog), "test": op_rows(test_prog), "params": list(params)}

    arrays = {f"param/{k}": v for k, v in params.items()}
    images = rng.normal(size=(STEPS + 1, BATCH, 1, 16, 16)).astype("float32")
    labels = rng.integers(0, 10, size=(STEPS + 1, BATCH, 1)).astype("int64")
    arrays["images"], arrays["labels"] = images, labels
    for step in range(STEPS):
        (lv,) = exe.run(train_prog, feed={"image": images[step], "label": labels[step]}, fetch_list=[loss.name])
        arrays[f"step{step}/loss"] = np.array(lv)
        for k, v in scales(train_prog, scope).items():
            arrays[f"step{step}/{k}"] = v
    for p in params:
        arrays[f"trained/{p}"] = np.array(scope.find_var(p).get_tensor())
    (out,) = exe.run(test_prog, feed={"image": images[STEPS], "label": labels[STEPS]}, fetch_list=[logits.name])
    arrays["test/logits"] = out
    for k, v in scales(test_prog, scope).items():
        arrays[f"test/{k}"] = v

    QuantizationFreezePass(scope, place, weight_quantize_type="channel_wise_abs_max").apply(test_graph)
    OutScaleForInferencePass(scope).apply(test_graph)
    frozen = test_graph.to_program()
    text["frozen"] = op_rows(frozen)
    for p in params:
        arrays[f"frozen/{p}"] = np.array(scope.find_var(p).get_tensor())
    for op in frozen.global_block().ops:
        if op.type == "fake_channel_wise_dequantize_max_abs":
            arrays[f"frozen/channel_scale/{op.input('X')[0]}"] = np.array(
                scope.find_var(op.input("Scales")[0]).get_tensor()
            )
    (out,) = exe.run(frozen, feed={"image": images[STEPS], "label": labels[STEPS]}, fetch_list=[logits.name])
    arrays["frozen/logits"] = out

    ConvertToInt8Pass(scope, place).apply(test_graph)
    int8 = test_graph.to_program()
    text["int8"] = op_rows(int8)
    for name in [v.name for v in int8.list_vars() if v.name.endswith(".int8")]:
        arrays[f"int8/{name}"] = np.array(scope.find_var(name).get_tensor())
    with open(os.path.join(HERE, "static_passes.json"), "w") as fh:
        json.dump(text, fh, indent=1, sort_keys=True)
    np.savez_compressed(os.path.join(HERE, "static_passes.npz"), **arrays)
    print(len(arrays), "arrays;", {k: len(v) for k, v in text.items()}, "ops")


if __name__ == "__main__":
    main()
