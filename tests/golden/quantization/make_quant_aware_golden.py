"""Record paddle 2.6.2's static `quant_aware` / `convert` (paddle/static/quantization/quanter.py) on a small
residual CNN (run with /work/paddle-venv/bin/python from the repository root).

    /work/paddle-venv/bin/python tests/golden/quantization/make_quant_aware_golden.py

Three flows, each from the same start weights and data (quant_aware.npz):
- "onnx": the default config (onnx_format True): quant_aware(train, for_test=False) on the Program that already
  has SGD's backward and updates, quant_aware(test, for_test=True), 4 training steps, convert(test).
- "legacy": config {'onnx_format': False}, the same steps, then convert(test, save_int8=True);
- "full": config {'is_full_quantize': True} (onnx_format): every op type the passes know.
Writes quant_aware.json (per flow: the forward op list of the training Program, the test Program, the converted
Programs; what quant_aware returns by default) and quant_aware.npz (per flow and step: the loss and every scale,
state and accum, keyed by the op type, the variable it measures and the slot; the test and converted Programs'
logits; the converted weights), and which configs paddle's _parse_configs accepts (CONFIG_CASES).
"""

import json
import os

import numpy as np  # noqa: E402
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle  # noqa: E402
from paddle.static.quantization import convert, quant_aware  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS, BATCH = 4, 8
FLOWS = {"onnx": None, "legacy": {"onnx_format": False}, "full": {"is_full_quantize": True}}
ATTRS = ("bit_length", "quant_axis", "moving_rate", "is_test", "max_range", "quant_bits", "quantization_type",
         "with_quant_attr", "only_observer", "out_threshold")  # fmt: skip
OBSERVING = ("quantize_linear", "fake_quantize_moving_average_abs_max", "moving_average_abs_max_scale",
             "fake_channel_wise_quantize_abs_max")  # fmt: skip


# configs given to paddle's _parse_configs (the test gives them to minipaddle's): accepted or refused
CONFIG_CASES = [
    {},
    {"weight_quantize_type": "abs_max", "activation_quantize_type": "abs_max"},
    {"weight_quantize_type": "max"},
    {"activation_quantize_type": "range_abs_max", "for_tensorrt": True},
    {"weight_quantize_type": "abs_max", "for_tensorrt": True},
    {"activation_quantize_type": "abs_max", "for_tensorrt": True},
    {"weight_bits": 4, "activation_bits": 16},
    {"weight_bits": 0},
    {"activation_bits": 17},
    {"weight_bits": 8.0},
    {"moving_rate": 1},
    {"moving_rate": 0.5},
    {"window_size": 10.0},
    {"dtype": "uint8"},
    {"dtype": 8},
    {"not_quant_pattern": "skip"},
    {"not_quant_pattern": None},
    {"quantize_op_types": "conv2d"},
    {"quantize_op_types": ["conv2d", "relu"]},
    {"quantize_op_types": ["conv2d", "lstm"]},
    {"for_tensorrt": 1},
    {"is_full_quantize": True},
]


def config_verdicts():
    from paddle.static.quantization.quanter import _parse_configs

    out = []
    for case in CONFIG_CASES:
        try:
            parsed = _parse_configs(case)
            out.append({"config": case, "accepted": True, "quantize_op_types": parsed["quantize_op_types"]})
        except AssertionError as e:
            out.append({"config": case, "accepted": False, "message": str(e)})
    return out


def network():
    """The same network as tests/quantization/test_quant_aware.py builds in minipaddle: a residual add of two
    activations (AddQuantDequantForResidual's case) between two convolutions and a fully connected layer."""
    x = paddle.static.data("image", [-1, 1, 8, 8], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    c1 = paddle.static.nn.conv2d(x, 4, 3, padding=1, act="relu")
    c2 = paddle.static.nn.conv2d(c1, 4, 3, padding=1)
    r = paddle.nn.functional.relu(c1 + c2)
    p = paddle.nn.functional.max_pool2d(r, 2, 2)
    f = paddle.static.nn.fc(paddle.flatten(p, 1), 10)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(f, label))
    return f, loss


def op_rows(program, forward_only=True):
    rows = []
    for op in program.global_block().ops:
        if forward_only and op.attr("op_role") not in (0, 256):  # (forward, and the loss op)
            continue
        attrs = {}
        for k in list(ATTRS) + [k for k in op.attr_names if k.endswith("_threshold")]:
            if op.has_attr(k):
                v = op.attr(k)
                attrs[k] = list(v) if isinstance(v, (list, tuple)) else v
        inputs = {k: op.input(k) for k in op.input_names if op.input(k)}
        outputs = {k: op.output(k) for k in op.output_names if op.output(k)}
        rows.append({"type": op.type, "inputs": inputs, "outputs": outputs, "attrs": attrs})
    return rows


def statistics(program, scope):
    """{op type/what it measures/slot: value} of every quantization statistic of `program`."""
    out = {}
    for op in program.global_block().ops:
        if op.type in OBSERVING:
            x = op.input("X")[0]
            for slot in ("OutScale", "OutState", "OutAccum"):
                if slot in op.output_names and op.output(slot):
                    out[f"{op.type}/{x}/{slot}"] = np.array(scope.find_var(op.output(slot)[0]).get_tensor())
    return out


def build():
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, startup), paddle.utils.unique_name.guard():  # (same names each flow)
        logits, loss = network()
        test_p = main_p.clone(for_test=True)
        paddle.optimizer.SGD(0.1).minimize(loss)
    return main_p, startup, test_p, logits, loss


def main():
    paddle.enable_static()
    paddle.seed(26)
    rng = np.random.default_rng(26)
    place = paddle.CPUPlace()
    exe = paddle.static.Executor(place)
    text, arrays = {}, {}
    images = rng.normal(size=(STEPS + 1, BATCH, 1, 8, 8)).astype("float32")
    labels = rng.integers(0, 10, size=(STEPS + 1, BATCH, 1)).astype("int64")
    arrays["images"], arrays["labels"] = images, labels
    params = None
    for flow, config in FLOWS.items():
        main_p, startup, test_p, logits, loss = build()
        scope = paddle.static.Scope()
        exe.run(startup, scope=scope)
        if params is None:
            params = {p.name: np.array(scope.find_var(p.name).get_tensor()) for p in main_p.all_parameters()}
            arrays.update({f"param/{k}": v for k, v in params.items()})
            text["params"] = list(params)
        for name, value in params.items():
            scope.find_var(name).get_tensor().set(value, place)
        t = text[flow] = {}
        t["returns"] = type(quant_aware(main_p.clone(), place, config, scope=paddle.static.Scope())).__name__
        train = quant_aware(main_p, place, config, scope=scope, for_test=False, return_program=True)
        test = quant_aware(test_p, place, config, scope=scope, for_test=True)
        t["train_forward"], t["test"] = op_rows(train), op_rows(test)
        for step in range(STEPS):
            feed = {"image": images[step], "label": labels[step]}
            (lv,) = exe.run(train, feed=feed, fetch_list=[loss.name], scope=scope)
            arrays[f"{flow}/step{step}/loss"] = np.array(lv)
            for k, v in statistics(train, scope).items():
                arrays[f"{flow}/step{step}/{k}"] = v
        for p in params:
            arrays[f"{flow}/trained/{p}"] = np.array(scope.find_var(p).get_tensor())
        feed = {"image": images[STEPS], "label": labels[STEPS]}
        (arrays[f"{flow}/test/logits"],) = exe.run(test, feed=feed, fetch_list=[logits.name], scope=scope)
        if config is None or config.get("onnx_format", True):
            converted = convert(test, place, config, scope=scope)
        else:
            converted, int8 = convert(test, place, config, scope=scope, save_int8=True)
            t["int8"] = op_rows(int8)
            for v in int8.list_vars():
                if v.name.endswith(".int8"):
                    arrays[f"{flow}/int8/{v.name}"] = np.array(scope.find_var(v.name).get_tensor())
        t["converted"] = op_rows(converted)
        for p in params:
            arrays[f"{flow}/converted/{p}"] = np.array(scope.find_var(p).get_tensor())
        (arrays[f"{flow}/converted/logits"],) = exe.run(converted, feed=feed, fetch_list=[logits.name], scope=scope)
    text["configs"] = config_verdicts()
    with open(os.path.join(HERE, "quant_aware.json"), "w") as fh:
        json.dump(text, fh, indent=1, sort_keys=True)
    np.savez_compressed(os.path.join(HERE, "quant_aware.npz"), **arrays)
    print(len(arrays), "arrays;", {f: {k: len(v) for k, v in text[f].items() if k != "returns"} for f in FLOWS})


if __name__ == "__main__":
    main()
