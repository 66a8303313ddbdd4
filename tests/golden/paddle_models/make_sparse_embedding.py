"""Record training Programs paddle 2.6.2 writes for nn.Embedding(sparse=True) (lookup_table_v2 is_sparse, the
table's gradient a SELECTED_ROWS variable), for tests/static/test_paddle_sparse_embedding.py (which then needs no
Paddle).

For each optimizer of OPTIMIZERS, paddle builds NET (the source the test also runs in minipaddle), trains a step on
`feed()`, static.saves, and trains 3 more. It writes, into sparse_embedding/: <opt>.pdmodel (op_callstack
attributes and the op version map cleared to keep it small), <opt>.pdparams, <opt>.pdopt, and expected.json:
{opt: {"loss": its name, "losses": the 3 losses after the save}}.

Run with the paddle 2.6 venv from the repository root:
/work/paddle-venv/bin/python tests/golden/paddle_models/make_sparse_embedding.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.base.proto import framework_pb2

NET = """
ids = paddle.static.data("ids", [None, 3], "int64")
h = paddle.nn.Embedding(10, 4, sparse=True)(ids)
loss = paddle.mean(paddle.static.nn.fc(h, 1, num_flatten_dims=2) ** 2)
"""
OPTIMIZERS = {
    "sgd": "paddle.optimizer.SGD(0.1)",
    "momentum": "paddle.optimizer.Momentum(0.1, 0.9)",
    "adam": "paddle.optimizer.Adam(0.1)",
}


def feed() -> dict:
    return {"ids": np.array([[1, 2, 2], [5, 1, 0]], "int64")}


def small_desc(data: bytes) -> bytes:
    desc = framework_pb2.ProgramDesc.FromString(data)
    desc.ClearField("op_version_map")
    for block in desc.blocks:
        for op in block.ops:
            kept = [a for a in op.attrs if a.name != "op_callstack"]
            del op.attrs[:]
            op.attrs.extend(kept)
    return desc.SerializeToString()


def record() -> None:
    here = Path(__file__).resolve().parent / "sparse_embedding"
    here.mkdir(exist_ok=True)
    paddle.enable_static()
    paddle.seed(11)
    expected = {}
    for kind, make in OPTIMIZERS.items():
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
            scope = {"paddle": paddle}
            exec(NET, scope)
            eval(make, scope).minimize(scope["loss"])
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        exe.run(main, feed=feed(), fetch_list=[scope["loss"]])
        paddle.static.save(main, str(here / kind))
        (here / f"{kind}.pdmodel").write_bytes(small_desc((here / f"{kind}.pdmodel").read_bytes()))
        losses = [float(exe.run(main, feed=feed(), fetch_list=[scope["loss"]])[0]) for _ in range(3)]
        expected[kind] = {"loss": scope["loss"].name, "losses": losses}
    paddle.disable_static()
    doc = {"net": NET, "optimizers": OPTIMIZERS, "expected": expected}
    (here / "expected.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    record()
