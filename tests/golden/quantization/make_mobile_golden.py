"""Record paddle 2.6.2's TransformForMobilePass on a frozen legacy-format Program (run with
/work/paddle-venv/bin/python from the repository root).

    /work/paddle-venv/bin/python tests/golden/quantization/make_mobile_golden.py

A conv2d + fc network: quant_aware(test, {'onnx_format': False}, for_test=True), convert (QuantizationFreezePass),
then TransformForMobilePass on IrGraph(frozen): the fake quantize / dequantize ops become paddle-mobile's
quantize / dequantize, keeping their inputs, outputs and attributes. Paddle cannot run the result (its quantize
is oneDNN's: "Operator quantize's input (Input) is not set"), recorded as `paddle_runs`. It saves it, though:
save_inference_model clips each op against paddle's own op of that name (oneDNN's quantize / dequantize), so the
.pdmodel's quantize / dequantize keep their inputs and lose their outputs and attributes, recorded as `saved` (every
op of the .pdmodel read back, with all its slots and attributes but op_callstack). Writes mobile.json (the frozen
and the mobile Programs' ops, and the saved file's).
"""

import json
import os
import sys
import tempfile

import numpy as np
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.base.framework import IrGraph, core
from paddle.static.quantization import TransformForMobilePass, convert, quant_aware

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_quant_aware_golden import op_rows  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = {"onnx_format": False}


def network():
    """The network tests/quantization/test_mobile.py builds in minipaddle."""
    x = paddle.static.data("x", [-1, 1, 6, 6], "float32")
    c = paddle.static.nn.conv2d(x, 2, 3, act="relu")
    return paddle.static.nn.fc(paddle.flatten(c, 1), 3)


def saved_rows(mobile, out_name, exe):
    """Every op of the .pdmodel save_inference_model writes for the mobile Program, read back as it is in the file."""
    block = mobile.global_block()
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "mobile")
        paddle.static.save_inference_model(prefix, [block.var("x")], [block.var(out_name)], exe, program=mobile)
        with open(prefix + ".pdmodel", "rb") as fh:
            saved = paddle.static.Program.parse_from_string(fh.read())
    rows = []
    for op in saved.global_block().ops:
        attrs = {k: (list(v) if isinstance(v, (list, tuple)) else v) for k in op.attr_names if k != "op_callstack"
                 for v in [op.attr(k)]}  # fmt: skip
        rows.append({"type": op.type, "inputs": {k: op.input(k) for k in op.input_names},
                     "outputs": {k: op.output(k) for k in op.output_names}, "attrs": attrs})  # fmt: skip
    return rows


def main():
    paddle.enable_static()
    place = paddle.CPUPlace()
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, startup), paddle.utils.unique_name.guard():
        out = network()
    test = main_p.clone(for_test=True)
    exe = paddle.static.Executor(place)
    exe.run(startup)
    frozen = convert(quant_aware(test, place, CONFIG, for_test=True), place, CONFIG)
    graph = IrGraph(core.Graph(frozen.desc), for_test=True)
    TransformForMobilePass().apply(graph)
    mobile = graph.to_program()
    try:
        exe.run(mobile, feed={"x": np.ones((1, 1, 6, 6), "float32")}, fetch_list=[out.name])
        runs = "ran"
    except RuntimeError as e:
        runs = str(e).splitlines()[0]
    text = {"frozen": op_rows(frozen, forward_only=False), "mobile": op_rows(mobile, forward_only=False),
            "paddle_runs": runs, "saved": saved_rows(mobile, out.name, exe)}  # fmt: skip
    with open(os.path.join(HERE, "mobile.json"), "w") as fh:
        json.dump(text, fh, indent=1, sort_keys=True)
    print({k: len(v) for k, v in text.items()}, runs)


if __name__ == "__main__":
    main()
