"""Record paddle 2.6.2's AddQuantDequantForInferencePass and ReplaceFakeQuantDequantPass on the static LeNet of
make_static_golden.py, from the state paddle trained (run with /work/paddle-venv/bin/python from the repository
root, after make_static_golden.py and make_v2_golden.py):

    /work/paddle-venv/bin/python tests/golden/quantization/make_v2_infer_golden.py

Three flows on the test graph, each starting from paddle's trained weights and statistics (`trained/<param>`,
`step3/...` of v2_passes.npz and static_passes.npz), so the goldens hold no value trained on this machine:
- convert: quanter.convert(onnx_format=True)'s flow: the V2 passes and OutScaleForTrainingPass (is_test) as
  quant_aware builds the test graph, then QuantWeightPass and AddQuantDequantForInferencePass (defaults). The
  observers' `<out>@scale` are set to max |out| of the test batch (recorded: convert/scale/<var>).
- calibrated: PostTrainingQuantization(onnx_format=True)'s use: the V2 test graph, QuantWeightPass, then
  AddQuantDequantForInferencePass for conv2d / elementwise_add / mul with a calibration_range_dict and
  only_observer False (the outputs are really quantized).
- replace: the legacy test graph (QuantizationTransformPass + AddQuantDequantPass) through
  ReplaceFakeQuantDequantPass (the fake quant-dequant ops of pool2d's inputs become quantize_linear pairs).
Writes v2_infer.json (each flow's op rows, the calibration dict) and v2_infer.npz (each flow's logits).
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
    AddQuantDequantForInferencePass,
    AddQuantDequantPass,
    AddQuantDequantPassV2,
    OutScaleForTrainingPass,
    QuantizationTransformPass,
    QuantizationTransformPassV2,
    QuantWeightPass,
    ReplaceFakeQuantDequantPass,
)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_static_golden import QUANT_OPS, STEPS, network  # noqa: E402
from make_v2_golden import ATTRS  # noqa: E402

LEGACY_OBSERVING = ("fake_quantize_moving_average_abs_max", "fake_quantize_dequantize_moving_average_abs_max",
                    "fake_channel_wise_quantize_abs_max")  # fmt: skip
CALIBRATED_OPS = ["conv2d", "elementwise_add", "mul"]
CALIBRATED = ("conv2d_0.tmp_0", "conv2d_1.tmp_1", "fc_0.tmp_1")  # (fc_0.tmp_0 has none: skipped with a warning)


def op_rows(program):
    """Every op (the test graph has no backward; the passes' new ops carry no op_role)."""
    rows = []
    for op in program.global_block().ops:
        rows.append(
            {
                "type": op.type,
                "inputs": {k: op.input(k) for k in op.input_names if op.input(k)},
                "outputs": {k: op.output(k) for k in op.output_names if op.output(k)},
                "attrs": {k: op.attr(k) for k in ATTRS if op.has_attr(k)},
            }
        )
    return rows


def set_var(scope, name, value, place):
    scope.find_var(name).get_tensor().set(np.asarray(value), place)


def main():
    paddle.enable_static()
    g = np.load(os.path.join(HERE, "static_passes.npz"))
    v2 = np.load(os.path.join(HERE, "v2_passes.npz"))
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, startup):
        logits, _ = network()
        test_p = main_p.clone(for_test=True)
    place, scope = paddle.CPUPlace(), paddle.static.global_scope()
    exe = paddle.static.Executor(place)
    exe.run(startup)
    params = [p.name for p in main_p.all_parameters()]
    feed = {"image": g["images"][STEPS], "label": g["labels"][STEPS]}
    text, arrays = {}, {}

    def v2_test_graph(with_observers):
        graph = IrGraph(core.Graph(test_p.desc), for_test=True)
        QuantizationTransformPassV2(scope, place, activation_quantize_type="moving_average_abs_max",
                                    weight_quantize_type="channel_wise_abs_max",
                                    quantizable_op_type=QUANT_OPS).apply(graph)  # fmt: skip
        AddQuantDequantPassV2(scope, place, quantizable_op_type=["pool2d"]).apply(graph)
        if with_observers:
            OutScaleForTrainingPass(scope, place, is_test=True).apply(graph)
        for p in params:  # (paddle's trained state; the V2 passes just reset the scales)
            set_var(scope, p, v2[f"trained/{p}"], place)
        for op in graph.all_op_nodes():
            if op.name() == "quantize_linear":
                x = op.input("X")[0]
                set_var(scope, op.input("Scale")[0], v2[f"step{STEPS - 1}/{x}/OutScale"], place)
        return graph

    # convert: the observers' scales are max |out| of the test batch, as a trained observer would hold
    graph = v2_test_graph(with_observers=True)
    program = graph.to_program()
    observed = [op.input("X")[0] for op in program.global_block().ops if op.type == "moving_average_abs_max_scale"]
    values = exe.run(program, feed=feed, fetch_list=observed)
    for name, value in zip(observed, values):
        arrays[f"convert/scale/{name}"] = np.array([np.abs(value).max()], np.float32)
        set_var(scope, f"{name}@scale", arrays[f"convert/scale/{name}"], place)
    QuantWeightPass(scope, place).apply(graph)
    AddQuantDequantForInferencePass(scope, place, quant_bits=8).apply(graph)
    program = graph.to_program()
    text["convert"] = op_rows(program)
    (arrays["convert/logits"],) = exe.run(program, feed=feed, fetch_list=[logits.name])

    # calibrated: ranges for three outputs (max |out| of the test batch), the outputs quantized
    graph = v2_test_graph(with_observers=False)
    ranges = dict(zip(CALIBRATED, exe.run(graph.to_program(), feed=feed, fetch_list=list(CALIBRATED))))
    ranges = {k: float(np.abs(v).max()) for k, v in ranges.items()}
    QuantWeightPass(scope, place).apply(graph)
    AddQuantDequantForInferencePass(scope, place, quant_bits=8, quantizable_op_type=CALIBRATED_OPS,
                                    calibration_range_dict=ranges, only_observer=False).apply(graph)  # fmt: skip
    program = graph.to_program()
    text["calibrated"], text["calibration_range_dict"] = op_rows(program), ranges
    (arrays["calibrated/logits"],) = exe.run(program, feed=feed, fetch_list=[logits.name])

    # replace: the legacy test graph, with the legacy flow's trained weights and scales
    graph = IrGraph(core.Graph(test_p.desc), for_test=True)
    QuantizationTransformPass(scope, place, activation_quantize_type="moving_average_abs_max",
                              weight_quantize_type="channel_wise_abs_max",
                              quantizable_op_type=QUANT_OPS).apply(graph)  # fmt: skip
    AddQuantDequantPass(scope, place, quantizable_op_type=["pool2d"]).apply(graph)
    for p in params:
        set_var(scope, p, g[f"trained/{p}"], place)
    for op in graph.all_op_nodes():  # (a test-mode weight quantizer reads the scales it stored: OutScale)
        if op.name() in LEGACY_OBSERVING:
            value = g[f"step{STEPS - 1}/{op.name()}/{op.input('X')[0]}/OutScale"]
            set_var(scope, op.output("OutScale")[0], value, place)
    (arrays["replace/before_logits"],) = exe.run(graph.to_program(), feed=feed, fetch_list=[logits.name])
    ReplaceFakeQuantDequantPass(scope, place, quant_bits=8).apply(graph)
    program = graph.to_program()
    text["replace"] = op_rows(program)
    (arrays["replace/logits"],) = exe.run(program, feed=feed, fetch_list=[logits.name])

    with open(os.path.join(HERE, "v2_infer.json"), "w") as f:
        json.dump(text, f, indent=1)
    np.savez(os.path.join(HERE, "v2_infer.npz"), **arrays)
    print({k: len(v) for k, v in text.items()}, sorted(arrays))


if __name__ == "__main__":
    main()
