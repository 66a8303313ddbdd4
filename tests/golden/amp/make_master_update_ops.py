"""Record the optimizer ops paddle 2.6.2 writes for a float16 parameter under multi_precision into
master_update_ops.json: for sgd, momentum, adam and adamw, the update op's input and output slots (Param and ParamOut
the float16 parameter, MasterParam and MasterParamOut its float32 master, Grad the float16 gradient), its
multi_precision and op_role_var attributes, and the op types of the whole Program (no cast of the master back).

The Program, which tests/amp/test_master_update.py builds alike: mean(x @ w) with a float16 data x [4, 2] and a
float16 parameter w [2, 3], minimized by the optimizer with multi_precision=True (paddle has no float16 CPU kernels,
so it is built, not run).

Run with the paddle 2.6 venv from the repository root:
/work/paddle-venv/bin/python tests/golden/amp/make_master_update_ops.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle

OPTIMIZERS = {
    "sgd": lambda: paddle.optimizer.SGD(0.1, multi_precision=True),
    "momentum": lambda: paddle.optimizer.Momentum(0.1, multi_precision=True),
    "adam": lambda: paddle.optimizer.Adam(0.1, multi_precision=True),
    "adamw": lambda: paddle.optimizer.AdamW(0.1, multi_precision=True),
}


def update_ops() -> dict:
    paddle.enable_static()
    out = {}
    try:
        for kind, make in OPTIMIZERS.items():
            main, start = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
                x = paddle.static.data("x", [4, 2], "float16")
                w = paddle.create_parameter([2, 3], "float16", name="w")
                make().minimize(paddle.mean(paddle.matmul(x, w)))
            ops = main.global_block().ops
            (op,) = [op for op in ops if op.type == kind]
            out[kind] = {
                "types": [o.type for o in ops],
                "inputs": {s: op.input(s) for s in sorted(op.input_names)},
                "outputs": {s: op.output(s) for s in sorted(op.output_names)},
                "multi_precision": op.attr("multi_precision"),
                "op_role_var": op.attr("op_role_var"),
            }
    finally:
        paddle.disable_static()
    return out


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    (here / "master_update_ops.json").write_text(json.dumps(update_ops(), indent=1) + "\n")
