"""Record the ops paddle 2.6.2 writes into a training Program wrapped by paddle.static.amp.decorate (and
bf16.decorate_bf16) into static_decorate_ops.json: for each case, the types of all the Program's ops, and the
loss scaling and optimizer ops themselves (every op with the Optimize or Loss role bit: the scaled loss's
elementwise_mul, the root fill_constant, check_finite_and_unscale, concat/reduce_any of O2's two checks,
update_loss_scaling, memcpy, the update ops) with their slots and attributes (op_callstack, op_namescope and
op_device left out), and the persistable variables; and every cast op in order ([X, Out, in_dtype, out_dtype,
op_role]) with the dtype and stop_gradient of each variable a cast writes, and of the scaled loss (tmp_N).

The net, which tests/static/test_paddle_amp_files.py builds alike: x [None, 8] -> fc(16) -> relu -> fc(4) ->
cross_entropy with an int64 label [None, 1] -> mean. paddle's CPU build drops every white-list op from the float16
lists (it asks the GPU kernels it was not built with), so its float16 Program would have no cast at all; the lists
are made as on a GPU here (the system's unsupported list empty), which is the Program minipaddle's rules describe.
It is built, not run (paddle has no float16/bfloat16 CPU kernels for these ops).

Run with the paddle 2.6 venv from the repository root:
/work/paddle-venv/bin/python tests/golden/amp/make_static_decorate_ops.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.static.amp import fp16_lists

LEFT_OUT = ("op_callstack", "op_namescope", "op_device", "with_quant_attr")
OPTIMIZERS = {"sgd": lambda: paddle.optimizer.SGD(0.1), "adam": lambda: paddle.optimizer.Adam(0.01),
              "momentum": lambda: paddle.optimizer.Momentum(0.1, 0.9)}  # fmt: skip
SCALING = dict(init_loss_scaling=1024.0, incr_every_n_steps=2, decr_every_n_nan_or_inf=1)
# case: (optimizer, how the optimizer is wrapped)
CASES = {
    "o1_fp16_dynamic_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, level="O1", **SCALING)),
    "o1_fp16_static_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, use_dynamic_loss_scaling=False, **SCALING)),
    "o1_fp16_dynamic_adam": ("adam", lambda o: paddle.static.amp.decorate(o, level="O1", **SCALING)),
    "o1_fp16_static_adam": ("adam", lambda o: paddle.static.amp.decorate(o, use_dynamic_loss_scaling=False,
                                                                           **SCALING)),
    "o1_fp16_dynamic_momentum": ("momentum", lambda o: paddle.static.amp.decorate(o, level="O1", **SCALING)),
    "o2_fp16_dynamic_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, level="O2", **SCALING)),
    "o2_fp16_dynamic_adam": ("adam", lambda o: paddle.static.amp.decorate(o, level="O2", **SCALING)),
    "o2_fp16_static_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, level="O2", use_dynamic_loss_scaling=False,
                                                                         **SCALING)),
    "o1_bf16_decorate_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, level="O1", dtype="bfloat16")),
    "o2_bf16_decorate_sgd": ("sgd", lambda o: paddle.static.amp.decorate(o, level="O2", dtype="bfloat16")),
    "o1_bf16_sgd": ("sgd", lambda o: paddle.static.amp.bf16.decorate_bf16(o)),
    "o2_bf16_sgd": ("sgd", lambda o: paddle.static.amp.bf16.decorate_bf16(o, use_pure_bf16=True,
                                                                          use_bf16_guard=False)),
}  # fmt: skip


def _as_on_a_gpu() -> None:
    """The float16/bfloat16 lists as paddle makes them on a GPU: no system-unsupported ops."""
    real = fp16_lists._get_sys_unsupported_list

    def nothing_unsupported(dtype):
        device, _, all_ops = real(dtype)
        return device, set(), all_ops

    fp16_lists._get_sys_unsupported_list = nothing_unsupported


def _op(op) -> dict:
    attrs = {a: op.attr(a) for a in sorted(op.attr_names) if a not in LEFT_OUT}
    return {"type": op.type, "inputs": {s: op.input(s) for s in sorted(op.input_names)},
            "outputs": {s: op.output(s) for s in sorted(op.output_names)}, "attrs": attrs}  # fmt: skip


def program_of(case: str) -> dict:
    kind, wrap = CASES[case]
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
        x = paddle.static.data("x", [None, 8], "float32")
        y = paddle.static.data("y", [None, 1], "int64")
        h = paddle.nn.functional.relu(paddle.static.nn.fc(x, 16))
        loss = paddle.mean(paddle.nn.functional.cross_entropy(paddle.static.nn.fc(h, 4), y))
        wrap(OPTIMIZERS[kind]()).minimize(loss)
    ops = main.global_block().ops
    return {
        "types": [o.type for o in ops],
        "loss_and_optimize": [_op(o) for o in ops if o.attr("op_role") & 0x102],
        "persistable": sorted(v.name for v in main.list_vars() if v.persistable),
        "dtypes": {v.name: str(v.dtype).replace("paddle.", "") for v in main.list_vars() if v.persistable},
        "casts": [[o.input("X")[0], o.output("Out")[0], o.attr("in_dtype"), o.attr("out_dtype"), o.attr("op_role")]
                  for o in ops if o.type == "cast"],
        "cast_vars": {v.name: [str(v.dtype).replace("paddle.", ""), v.stop_gradient] for v in main.list_vars()
                      if ".cast_" in v.name or v.name.split("@")[0].startswith("tmp_")},
    }  # fmt: skip


if __name__ == "__main__":
    _as_on_a_gpu()
    paddle.enable_static()
    here = Path(__file__).resolve().parent
    out = {case: program_of(case) for case in CASES}
    (here / "static_decorate_ops.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
