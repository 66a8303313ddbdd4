"""Record paddle 2.6.2's static quant_aware / convert on Programs with control flow (run with
/work/paddle-venv/bin/python from the repository root).

    /work/paddle-venv/bin/python tests/golden/quantization/make_control_flow_golden.py

quant_aware applies each pass to every block's sub-graph (IrGraph.all_sub_graphs), so the fc layers inside
paddle.static.nn.cond branches and a while_loop body get their quantize / dequantize ops and observers in their
own blocks. Programs (PROGRAMS): "cond" (an fc, then a cond whose branches are an fc and relu + fc) and "while"
(the same, then a while_loop applying an fc twice). Per Program and format (onnx_format True / False) writes
control_flow.json (the ops of every block, with their block index: the test Program from quant_aware(for_test=
True) and convert's Program) and control_flow.npz (the start weights; the test Program's outputs on two
batches, one taking each branch, after every scale variable is set to SCALE).
"""

import json
import os

import numpy as np
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.static.quantization import convert, quant_aware

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = ("cond", "while")
FORMATS = {"onnx": None, "legacy": {"onnx_format": False}}
ATTRS = ("bit_length", "quant_axis", "is_test", "moving_rate", "max_range", "quant_bits", "quantization_type",
         "only_observer")  # fmt: skip
SCALE = 2.0


def network(kind):
    """The networks tests/quantization/test_control_flow.py builds in minipaddle."""
    x = paddle.static.data("x", [-1, 4], "float32")
    h = paddle.static.nn.fc(x, 4)
    out = paddle.static.nn.cond(
        paddle.mean(h) > 0,
        lambda: paddle.static.nn.fc(h, 3),
        lambda: paddle.static.nn.fc(paddle.nn.functional.relu(h), 3),
    )
    if kind == "while":
        i = paddle.full([1], 0, "int64")
        _, out = paddle.static.nn.while_loop(
            lambda i, o: i < 2, lambda i, o: [i + 1, paddle.static.nn.fc(o, 3)], [i, out]
        )
    return out


def rows(program):
    out = []
    for block in program.blocks:
        for op in block.ops:
            attrs = {}
            for k in list(ATTRS) + [k for k in op.attr_names if k.endswith("_threshold")]:
                if op.has_attr(k):
                    v = op.attr(k)
                    attrs[k] = list(v) if isinstance(v, (list, tuple)) else v
            out.append({"block": block.idx, "type": op.type, "attrs": attrs,
                        "inputs": {k: op.input(k) for k in op.input_names if op.input(k)},
                        "outputs": {k: op.output(k) for k in op.output_names if op.output(k)}})  # fmt: skip
    return out


def main():
    paddle.enable_static()
    place = paddle.CPUPlace()
    exe = paddle.static.Executor(place)
    rng = np.random.default_rng(29)
    text, arrays = {}, {"x": rng.normal(size=(2, 4)).astype("float32")}
    arrays["x_neg"] = -np.abs(arrays["x"]) - 1.0
    arrays["x_pos"] = np.abs(arrays["x"]) + 1.0
    for kind in PROGRAMS:
        for fmt, config in FORMATS.items():
            main_p, startup = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main_p, startup), paddle.utils.unique_name.guard():
                out = network(kind)
            test = main_p.clone(for_test=True)
            scope = paddle.static.Scope()
            exe.run(startup, scope=scope)
            params = [p.name for p in main_p.all_parameters()]
            if f"{kind}/params" not in text:
                text[f"{kind}/params"] = params
                for p in params:
                    arrays[f"{kind}/param/{p}"] = np.array(scope.find_var(p).get_tensor())
            for p in params:
                scope.find_var(p).get_tensor().set(arrays[f"{kind}/param/{p}"], place)
            q = quant_aware(test, place, config, scope=scope, for_test=True)
            key = f"{kind}/{fmt}"
            text[f"{key}/test"] = rows(q)
            for v in q.list_vars():
                if v.persistable and v.name.endswith("@scale"):
                    t = scope.find_var(v.name).get_tensor()
                    t.set(np.full(np.array(t).shape, SCALE, "float32"), place)
            for sign in ("neg", "pos"):
                (arrays[f"{key}/{sign}"],) = exe.run(q, feed={"x": arrays[f"x_{sign}"]}, fetch_list=[out], scope=scope)
            text[f"{key}/converted"] = rows(convert(q, place, config, scope=scope))
    with open(os.path.join(HERE, "control_flow.json"), "w") as fh:
        json.dump(text, fh, indent=1, sort_keys=True)
    np.savez_compressed(os.path.join(HERE, "control_flow.npz"), **arrays)
    print(len(arrays), "arrays;", {k: len(v) for k, v in text.items() if not k.endswith("params")})


if __name__ == "__main__":
    main()
