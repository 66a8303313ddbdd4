"""Record what paddle 2.6.2 computes for the quantization ops' training modes into train_ops.npz here:

- quantize_linear with is_test False (InAccum, InState: the moving-average update, OutState/OutAccum/OutScale),
  only_observer, both round types, 8 and 4 bits, a moving rate of 0.5, per channel;
- fake_quantize_range_abs_max over a sequence of batches in one static Program whose InScale, Iter and window
  (OutScales) persist between runs, as Paddle's static passes build it (window 3, so entries are replaced and the
  scale falls back to the window's maximum), and in test mode.

Arrays: `<case>.in.<slot>`, `<case>.out.<slot>` (sequences: `<case>.step<i>.in.X`, `<case>.step<i>.out.<slot>`);
`<case>.attrs` is the attributes as JSON text. tests/quantization/test_train_ops_golden.py compares.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/quantization/make_train_ops_golden.py
"""

import json
import sys
import warnings
from pathlib import Path

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository, for tests.golden_files

import numpy as np  # noqa: E402

from tests.golden_files import GOLDEN_ROOT  # noqa: E402

HERE = GOLDEN_ROOT / "quantization"
LINEAR_OUTS = ["Y", "OutState", "OutAccum", "OutScale"]


def linear_cases():
    """(name, inputs {slot: array}, attrs): quantize_linear in training."""
    rng = np.random.default_rng(21)
    x = (rng.standard_normal((5, 6)) * 3).astype("float32")
    x[0, :3] = [0.5, -1.5, 2.5]
    stats = {"Scale": np.array([2.0], "float32"), "ZeroPoint": np.zeros(1, "float32"),
             "InAccum": np.array([3.0], "float32"), "InState": np.array([2.0], "float32")}  # fmt: skip
    cases = []
    for rt in (0, 1):
        for bits in (8, 4):
            a = {"quant_axis": -1, "bit_length": bits, "round_type": rt, "is_test": False, "only_observer": False}
            cases.append((f"linear_train_b{bits}_r{rt}", {"X": x, **stats}, a))
    base = {"quant_axis": -1, "bit_length": 8, "round_type": 0, "is_test": False}
    cases.append(("linear_train_observer", {"X": x, **stats}, {**base, "only_observer": True}))
    cases.append(("linear_train_rate05", {"X": x, **stats}, {**base, "only_observer": False, "moving_rate": 0.5}))
    ties = np.array([[63.5, -0.5, 1.5, 2.5, 126.5, -127.0]], "float32")  # the scale after the update is about 127
    tie_stats = {**stats, "InAccum": np.array([127.0], "float32"), "InState": np.array([1.0], "float32")}
    cases.append(("linear_train_ties", {"X": ties, **tie_stats}, {**base, "only_observer": False}))
    channel = {"Scale": np.abs(x).max(0) / 2, "ZeroPoint": np.zeros(6, "float32"), "InAccum": stats["InAccum"],
               "InState": stats["InState"]}  # fmt: skip
    cases.append(("linear_train_axis1", {"X": x, **channel}, {**base, "quant_axis": 1, "only_observer": False}))
    cases.append(("linear_test_observer", {"X": x, "Scale": stats["Scale"], "ZeroPoint": stats["ZeroPoint"]},
                  {**base, "is_test": True, "only_observer": True}))  # fmt: skip
    return cases


def run_linear(paddle, inputs, attrs):
    main, startup = paddle.static.Program(), paddle.static.Program()
    training = "InAccum" in inputs and not attrs["is_test"]
    outs = LINEAR_OUTS if training else LINEAR_OUTS[:1]
    with paddle.static.program_guard(main, startup):
        block = main.global_block()
        ins = {k: [paddle.static.data(k, list(v.shape), str(v.dtype))] for k, v in inputs.items()}
        o = {k: [block.create_var(name="out_" + k, dtype="float32")] for k in outs}
        block.append_op(type="quantize_linear", inputs=ins, outputs=o, attrs=dict(attrs))
    values = paddle.static.Executor(paddle.CPUPlace()).run(main, feed=inputs, fetch_list=["out_" + k for k in outs])
    return dict(zip(outs, values))


RANGE_STEPS = [1.0, 3.0, 2.0, 0.5, 0.25, 0.75, 4.0, 0.1]


def run_range(paddle, name, window, round_type, arrays):
    """One static Program: range_abs_max reading and writing persistable InScale and window, then Iter += 1."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    attrs = {"window_size": window, "bit_length": 8, "is_test": False, "round_type": round_type}
    with paddle.static.program_guard(main, startup):
        block = main.global_block()
        x = paddle.static.data("X", [6], "float32")
        scale = paddle.static.create_global_var([1], 0.001, "float32", persistable=True, name="scale")
        it = paddle.static.create_global_var([1], 0, "int64", persistable=True, name="iter")
        scales = paddle.static.create_global_var([window], 0.0, "float32", persistable=True, name="scales")
        out = block.create_var(name="out", dtype="float32")
        outputs = {"Out": [out], "OutScale": [scale], "OutScales": [scales]}  # the state is written in place
        block.append_op(type="fake_quantize_range_abs_max", inputs={"X": [x], "InScale": [scale], "Iter": [it]},
                        outputs=outputs, attrs=dict(attrs))  # fmt: skip
        block.append_op(type="increment", inputs={"X": [it]}, outputs={"Out": [it]}, attrs={"step": 1.0})
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        base = np.array([0.5, -1.0, 0.25, 0.125, 0.3, -0.7], "float32")
        for i, m in enumerate(RANGE_STEPS):
            xv = (base * m).astype("float32")
            out_v, scale_v, scales_v = exe.run(main, feed={"X": xv}, fetch_list=["out", "scale", "scales"])
            arrays[f"{name}.step{i}.in.X"] = xv
            arrays[f"{name}.step{i}.out.Out"] = out_v
            arrays[f"{name}.step{i}.out.OutScale"] = scale_v
            arrays[f"{name}.step{i}.out.OutScales"] = scales_v
    arrays[f"{name}.attrs"] = np.array(json.dumps(attrs))


def run_range_test(paddle, arrays):
    main, startup = paddle.static.Program(), paddle.static.Program()
    attrs = {"window_size": 4, "bit_length": 8, "is_test": True, "round_type": 1}
    x = np.array([0.5, -1.0, 0.25, 3.0, 0.3, -0.7], "float32")
    with paddle.static.program_guard(main, startup):
        block = main.global_block()
        data = paddle.static.data
        ins = {"X": [data("X", [6], "float32")], "InScale": [data("InScale", [1], "float32")],
               "Iter": [data("Iter", [1], "int64")]}  # fmt: skip
        out, out_scale = block.create_var(name="out", dtype="float32"), block.create_var(name="s", dtype="float32")
        block.append_op(type="fake_quantize_range_abs_max", inputs=ins, outputs={"Out": [out], "OutScale": [out_scale]},
                        attrs=dict(attrs))  # fmt: skip
    feed = {"X": x, "InScale": np.array([2.0], "float32"), "Iter": np.array([3], "int64")}
    (got,) = paddle.static.Executor(paddle.CPUPlace()).run(main, feed=feed, fetch_list=["out"])
    for k, v in feed.items():
        arrays[f"range_test.in.{k}"] = v
    arrays["range_test.out.Out"] = got
    arrays["range_test.attrs"] = np.array(json.dumps(attrs))


def main():
    import paddle

    warnings.filterwarnings("ignore")
    paddle.enable_static()
    arrays = {}
    for name, inputs, attrs in linear_cases():
        for k, v in inputs.items():
            arrays[f"{name}.in.{k}"] = v
        for k, v in run_linear(paddle, inputs, attrs).items():
            if v is not None:  # (per channel, Paddle writes no statistics)
                arrays[f"{name}.out.{k}"] = np.asarray(v)
        arrays[f"{name}.attrs"] = np.array(json.dumps(attrs))
    run_range(paddle, "range_w3_r1", 3, 1, arrays)
    run_range(paddle, "range_w3_r0", 3, 0, arrays)
    run_range(paddle, "range_w10", 10, 1, arrays)
    run_range_test(paddle, arrays)
    np.savez(HERE / "train_ops.npz", **arrays)
    print(f"wrote {len(arrays)} arrays")


if __name__ == "__main__":
    main()
