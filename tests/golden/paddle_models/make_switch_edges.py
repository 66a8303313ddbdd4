"""Record what paddle 2.6.2 writes for the train/eval switches minipaddle used to save as JSON, for
tests/static/test_paddle_training_switch_edges.py (which then needs no Paddle): dropout with p=1, dropout along
axes (paddle writes no dropout op there: F.dropout's own uniform_random / greater_equal / elementwise_mul), with p=1
too, and
BatchNorm with weight_attr=False / bias_attr=False (an empty Scale / Bias; paddle's append_backward cannot build its
grad, so that net is recorded without a backward).

It writes, into switch_edges/:
- <net>.pdmodel: paddle's main Program (what static.save writes), op_callstack attributes and the op version map
  cleared to keep it small;
- ops.json: each net's source (NETS, run by the test in minipaddle too), and its ops of the types in KINDS as
  [type, {slot: [[dtype, shape]]} of inputs, of outputs, attributes without op_callstack/op_namescope/op_device/
  with_quant_attr/op_role_var] (names left out: paddle's name counters number them).

Run with the paddle 2.6 venv from the repository root:
/work/paddle-venv/bin/python tests/golden/paddle_models/make_switch_edges.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.base.proto import framework_pb2

# `paddle` and `F` in scope; `loss` the result; `train` whether an SGD minimize follows
NETS = {
    "dropout_p1": (
        """
x = paddle.static.data("x", [None, 4, 3], "float32")
h = paddle.static.nn.fc(x, 3, num_flatten_dims=2)
loss = paddle.mean(F.dropout(h, 1.0) + F.dropout(paddle.tanh(h), 1.0, mode="downscale_in_infer") + h)
""",
        True,
    ),
    "dropout_axes": (
        """
x = paddle.static.data("x", [None, 4, 3], "float32")
h = paddle.static.nn.fc(x, 3, num_flatten_dims=2)
d = F.dropout(h, 0.5, axis=1)
loss = paddle.mean(F.dropout(paddle.tanh(d), 0.3, axis=[0, 2], mode="downscale_in_infer"))
""",
        True,
    ),
    # p=1 along axes: paddle 2.6.2 builds it in downscale_in_infer mode only (upscale_in_train divides by 1 - p =
    # 0 in Python: ZeroDivisionError), as the ops of dropout along axes without the scale
    "dropout_p1_axes": (
        """
x = paddle.static.data("x", [None, 4, 3], "float32")
h = paddle.static.nn.fc(x, 3, num_flatten_dims=2)
loss = paddle.mean(F.dropout(paddle.tanh(h), 1.0, axis=1, mode="downscale_in_infer") + h)
""",
        True,
    ),
    "batch_norm_fixed": (
        """
x = paddle.static.data("x", [None, 3, 4, 4], "float32")
h = paddle.nn.Conv2D(3, 4, 3, padding=1)(x)
h = paddle.nn.BatchNorm2D(4, weight_attr=False, bias_attr=False)(h)
h = paddle.nn.BatchNorm2D(4, momentum=0.5, weight_attr=False)(F.relu(h))
loss = paddle.mean(h * h)
""",
        False,
    ),
}
KINDS = ("dropout", "dropout_grad", "scale", "shape", "slice", "fill_constant", "uniform_random", "greater_equal",
         "cast", "elementwise_mul", "elementwise_mul_grad", "batch_norm")  # fmt: skip
SKIPPED = ("op_callstack", "op_namescope", "op_device", "with_quant_attr", "op_role_var")


def comparable_ops(main) -> list:
    gb = main.global_block()

    def slots(names_of, slot_names):
        return {s: [[str(gb.var(n).dtype).split(".")[-1], list(gb.var(n).shape)] for n in names_of(s)]
                for s in slot_names if names_of(s)}  # fmt: skip

    return [[op.type, slots(op.input, op.input_names), slots(op.output, op.output_names),
             {k: op.attr(k) for k in sorted(op.attr_names) if k not in SKIPPED}]
            for op in gb.ops if op.type in KINDS and op.attr("op_role") in (0, 1)]  # fmt: skip


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
    here = Path(__file__).resolve().parent / "switch_edges"
    here.mkdir(exist_ok=True)
    paddle.enable_static()
    ops = {}
    for name, (source, train) in NETS.items():
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
            scope = {"paddle": paddle, "F": paddle.nn.functional}
            exec(source, scope)
            if train:
                paddle.optimizer.SGD(0.1).minimize(scope["loss"])
        ops[name] = comparable_ops(main)
        (here / f"{name}.pdmodel").write_bytes(small_desc(main))
    paddle.disable_static()
    doc = {"nets": {name: {"source": source, "train": train} for name, (source, train) in NETS.items()}, "ops": ops}
    (here / "ops.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    record()
