"""Record the training Programs paddle 2.6.2 writes for gradient clipping of float16 and bfloat16 gradients, for
tests/static/test_paddle_training_low_clip.py (which then needs no Paddle).

The net (NET below, which the test runs in minipaddle from ops.json): y = (x @ w + b) cast to float32 times a
float32 parameter v, loss = mean(y), with w and b float16 or bfloat16 and SGD(multi_precision=True), for each clip
in CLIPS. Paddle 2.6.2 has no float16/bfloat16 CPU kernels for these clips (squared_l2_norm, clip_by_norm, clip),
so the Programs are built, not run.

It writes, into low_precision_clip/:
- <dtype>_<clip>.pdmodel: paddle's main Program (program.desc.serialize_to_string(), what static.save writes),
  with the op_callstack attributes and the op version map cleared to keep it small (minipaddle's reader reads
  neither);
- ops.json: the net's source, the clips, and for each case the optimize-role ops as [type, {slot: [[dtype,
  shape]]} of inputs, of outputs, attributes without op_callstack/op_namescope/op_device/with_quant_attr, with
  op_role_var's parameter only] (variable names are left out: they are numbered by paddle's name counters).

Run with the paddle 2.6 venv from the repository root:
/work/paddle-venv/bin/python tests/golden/paddle_models/make_low_precision_clip.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.base.proto import framework_pb2

NET = """
x = paddle.static.data("x", [4, 2], dtype)
init = paddle.nn.initializer.Constant(0.5)
w = paddle.create_parameter([2, 3], dtype, name="w", default_initializer=init)
b = paddle.create_parameter([3], dtype, name="b", default_initializer=init)
v = paddle.create_parameter([3], "float32", name="v", default_initializer=init)
loss = paddle.mean((paddle.matmul(x, w) + b).astype("float32") * v)
paddle.optimizer.SGD(0.1, multi_precision=True, grad_clip=clip).minimize(loss)
"""
CLIPS = {
    "global": "paddle.nn.ClipGradByGlobalNorm(0.1)",
    "norm": "paddle.nn.ClipGradByNorm(0.1)",
    "value": "paddle.nn.ClipGradByValue(0.01)",
}
SKIPPED = ("op_callstack", "op_namescope", "op_device", "with_quant_attr")


def comparable_ops(main) -> list:
    gb = main.global_block()

    def slots(names_of, slot_names):
        return {s: [[str(gb.var(n).dtype).split(".")[-1], list(gb.var(n).shape)] for n in names_of(s)]
                for s in slot_names if names_of(s)}  # fmt: skip

    out = []
    for op in gb.ops:
        if op.attr("op_role") != 2:
            continue
        attrs = {k: op.attr(k) for k in sorted(op.attr_names) if k not in SKIPPED}
        attrs["op_role_var"] = attrs["op_role_var"][:1]
        out.append([op.type, slots(op.input, op.input_names), slots(op.output, op.output_names), attrs])
    return out


def small_desc(main) -> bytes:
    desc = framework_pb2.ProgramDesc.FromString(main.desc.serialize_to_string())
    desc.ClearField("op_version_map")
    for block in desc.blocks:
        for op in block.ops:
            kept = [a for a in op.attrs if a.name != "op_callstack"]
            del op.attrs[:]
            op.attrs.extend(kept)
    return desc.SerializeToString()


def record() -> None:
    here = Path(__file__).resolve().parent / "low_precision_clip"
    here.mkdir(exist_ok=True)
    paddle.enable_static()
    cases = {}
    for dtype in ("float16", "bfloat16"):
        for kind, clip in CLIPS.items():
            main, start = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
                exec(NET, {"paddle": paddle, "dtype": dtype, "clip": eval(clip, {"paddle": paddle})})
            cases[f"{dtype}_{kind}"] = comparable_ops(main)
            (here / f"{dtype}_{kind}.pdmodel").write_bytes(small_desc(main))
    paddle.disable_static()
    doc = {"net": NET, "clips": CLIPS, "ops": cases}
    (here / "ops.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    record()
