"""Record what real Paddle 2.6 computes for quantization into this folder, for tests/quantization (which need
no Paddle):

- arrays.npz: the QAT / PTQ cases of cases.py (LeNet, 10 steps), run by tests.golden_files.record_cases;
- ops.npz: every fake-quant op on fixed inputs (inputs `<case>.in.<slot>`, outputs `<case>.out.<slot>`), run as
  one-op static Programs, with ties and clipping in the inputs;
- text.json: Paddle's printed forms (QuantConfig, a quantized LeNet).

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/quantization/make_golden.py
"""

import json
import sys
import warnings
from pathlib import Path

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository, for tests.golden_files

import numpy as np  # noqa: E402

from tests.golden_files import GOLDEN_ROOT, record_cases  # noqa: E402

HERE = GOLDEN_ROOT / "quantization"


def _inputs(rng):
    x = (rng.standard_normal((6, 5)) * 3).astype("float32")
    x[0, :4] = [0.5, 1.5, 2.5, -2.5]  # ties on the grid of scale 127 (see the scale-127 cases)
    w = (rng.standard_normal((4, 3, 2, 2))).astype("float32")
    return x, w


def op_cases():
    """(name, op type, inputs {slot: array}, outputs [slots], attrs)."""
    rng = np.random.default_rng(14)
    x, w = _inputs(rng)
    ties = np.array([0.5, 1.5, 2.5, -2.5, -3.5, 126.5, -300.0, 127.0], "float32")
    one, zero = np.ones(1, "float32"), np.zeros(1, "float32")
    s127 = np.array([127.0], "float32")
    cases = []
    for rt in (0, 1):
        for bits in (8, 4):
            a = {"bit_length": bits, "round_type": rt}
            cases += [
                (f"abs_max_b{bits}_r{rt}", "fake_quantize_abs_max", {"X": x}, ["Out", "OutScale"], a),
                (f"qdq_abs_max_b{bits}_r{rt}", "fake_quantize_dequantize_abs_max", {"X": x}, ["Out", "OutScale"], a),
            ]
        cases += [(f"abs_max_ties_r{rt}", "fake_quantize_abs_max", {"X": ties}, ["Out", "OutScale"],
                   {"bit_length": 8, "round_type": rt})]  # fmt: skip
        for axis, arr in ((0, w), (1, w), (1, x)):
            a = {"bit_length": 8, "round_type": rt, "quant_axis": axis}
            tag = f"{arr.ndim}d_axis{axis}_r{rt}"
            cases += [
                (f"cw_{tag}", "fake_channel_wise_quantize_abs_max", {"X": arr}, ["Out", "OutScale"], a),
                (f"qdq_cw_{tag}", "fake_channel_wise_quantize_dequantize_abs_max", {"X": arr}, ["Out", "OutScale"], a),
            ]
        for test in (False, True):
            a = {"moving_rate": 0.9, "bit_length": 8, "round_type": rt, "is_test": test}
            ins = {"X": x, "InScale": np.array([2.0], "float32"), "InAccum": one * 3, "InState": one * 2}
            outs = ["Out", "OutScale", "OutState", "OutAccum"]
            cases += [
                (f"ma_t{int(test)}_r{rt}", "fake_quantize_moving_average_abs_max", ins, outs, a),
                (f"qdq_ma_t{int(test)}_r{rt}", "fake_quantize_dequantize_moving_average_abs_max", ins, outs, a),
            ]
        for axis, scale in ((-1, np.array([2.0], "float32")), (1, np.abs(x).max(0) / 2), (0, np.abs(x).max(1))):
            a = {"quant_axis": axis, "bit_length": 8, "round_type": rt}
            zp = np.zeros(scale.shape, "float32")
            ins = {"X": x, "Scale": scale, "ZeroPoint": zp}
            cases += [(f"quantize_linear_axis{axis}_r{rt}", "quantize_linear", ins, ["Y"], a)]
        cases += [(f"quantize_linear_ties_r{rt}", "quantize_linear", {"X": ties, "Scale": s127, "ZeroPoint": zero},
                   ["Y"], {"quant_axis": -1, "bit_length": 8, "round_type": rt})]  # fmt: skip
    q = np.round(x * 10).astype("float32")
    for axis, scale in ((-1, np.array([2.0], "float32")), (1, np.abs(x).max(0))):
        cases += [(f"dequantize_linear_axis{axis}", "dequantize_linear",
                   {"X": q, "Scale": scale, "ZeroPoint": np.zeros(scale.shape, "float32")}, ["Y"],
                   {"quant_axis": axis, "bit_length": 8})]  # fmt: skip
    cases += [("ma_scale", "moving_average_abs_max_scale", {"X": x, "InAccum": one * 3, "InState": one * 2},
               ["Out", "OutScale", "OutState", "OutAccum"], {"moving_rate": 0.9, "is_test": False})]  # fmt: skip
    cases += [("dequantize_max_abs", "fake_dequantize_max_abs", {"X": q, "Scale": np.array([2.0], "float32")}, ["Out"],
               {"max_range": 127.0})]  # fmt: skip
    cases += [("zeros", "fake_quantize_dequantize_abs_max", {"X": np.zeros((2, 3), "float32")}, ["Out", "OutScale"],
               {"bit_length": 8})]  # fmt: skip
    return cases


def run_op(paddle, op_type, inputs, outputs, attrs):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        block = main.global_block()
        ins = {k: [paddle.static.data(k, list(v.shape), str(v.dtype))] for k, v in inputs.items()}
        outs = {k: [block.create_var(name="out_" + k, dtype="float32")] for k in outputs}
        block.append_op(type=op_type, inputs=ins, outputs=outs, attrs=dict(attrs))
    values = paddle.static.Executor(paddle.CPUPlace()).run(main, feed=inputs, fetch_list=["out_" + k for k in outputs])
    return dict(zip(outputs, values))


def record_ops(paddle):
    arrays, meta = {}, {}
    paddle.enable_static()
    try:
        for name, op_type, inputs, outputs, attrs in op_cases():
            result = run_op(paddle, op_type, inputs, outputs, attrs)
            for k, v in inputs.items():
                arrays[f"{name}.in.{k}"] = v
            written = [k for k in outputs if result[k] is not None]  # (test mode leaves the statistics unwritten)
            for k in written:
                arrays[f"{name}.out.{k}"] = np.asarray(result[k])
            meta[name] = {"type": op_type, "attrs": attrs, "inputs": list(inputs), "outputs": written}
    finally:
        paddle.disable_static()
    np.savez(HERE / "ops.npz", **arrays)
    return meta


def record_text(paddle):
    from paddle.quantization import QAT, QuantConfig
    from paddle.quantization.quanters import FakeQuanterWithAbsMaxObserver

    quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    config = QuantConfig(activation=quanter, weight=quanter)
    text = {"quant_config": str(config)}
    model = QAT(QuantConfig(activation=quanter, weight=quanter)).quantize(paddle.vision.models.LeNet())
    text["qat26_lenet"] = str(model)
    net = paddle.vision.models.LeNet()
    paddle.quantization.ImperativeQuantAware(weight_quantize_type="channel_wise_abs_max").quantize(net)
    text["qat20_lenet"] = str(net)
    return text


if __name__ == "__main__":
    import paddle

    warnings.filterwarnings("ignore")
    record_cases("quantization")
    meta = record_ops(paddle)
    text = record_text(paddle)
    (HERE / "text.json").write_text(json.dumps({"ops": meta, "text": text}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(meta)} op cases and {len(text)} texts")
