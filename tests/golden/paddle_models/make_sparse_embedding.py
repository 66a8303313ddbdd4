"""Record training Programs paddle 2.6.2 writes for nn.Embedding(sparse=True) (lookup_table_v2 is_sparse, the
table's gradient a SELECTED_ROWS variable), for tests/static/test_paddle_sparse_embedding.py (which then needs no
Paddle).

For each optimizer of OPTIMIZERS, paddle builds NET (the source the test also runs in minipaddle), trains a step on
`feed(0)`, static.saves, and trains 3 more on feed(1), feed(2), feed(3): the ids change, so rows the gradient does
not hold have moments (what paddle's SelectedRows Adam treats otherwise, lazy_mode or not). It writes, into
sparse_embedding/: <opt>.pdmodel (op_callstack attributes and the op version map cleared to keep it small),
<opt>.pdparams, <opt>.pdopt (but for BUILT_ONLY), and expected.json: {"expected": {opt: {"loss": its name,
"losses": the 3 losses after the save}}, "dynamic": ...}.

"dynamic": the same in paddle's dynamic mode for the optimizers of DYNAMIC: an Embedding(10, 4, sparse=True) and
a Linear(4, 1) start from the recorded values, and each of 4 steps (feed(0..3)) runs backward, step and
clear_grad; recorded are the table after each step and the table gradient's rows after the first backward
(paddle's SelectedRows).

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
# (`params` is None in static mode, the Layers' parameters in dynamic mode)
OPTIMIZERS = {
    "sgd": "paddle.optimizer.SGD(0.1, parameters=params)",
    "momentum": "paddle.optimizer.Momentum(0.1, 0.9, parameters=params)",
    "adam": "paddle.optimizer.Adam(0.1, parameters=params)",
    "adam_lazy": "paddle.optimizer.Adam(0.1, lazy_mode=True, parameters=params)",
    # clipping a SELECTED_ROWS gradient (merge_selected_rows first): SGD shows the clipped values, Adam that the
    # clipped gradient is still SelectedRows
    "sgd_global_norm": "paddle.optimizer.SGD(0.5, parameters=params, grad_clip=paddle.nn.ClipGradByGlobalNorm(0.05))",
    "sgd_norm": "paddle.optimizer.SGD(0.5, parameters=params, grad_clip=paddle.nn.ClipGradByNorm(0.02))",
    "sgd_value": "paddle.optimizer.SGD(0.5, parameters=params, grad_clip=paddle.nn.ClipGradByValue(0.003))",
    "adam_global_norm": "paddle.optimizer.Adam(0.1, parameters=params, grad_clip=paddle.nn.ClipGradByGlobalNorm(0.05))",
    "adam_norm": "paddle.optimizer.Adam(0.1, parameters=params, grad_clip=paddle.nn.ClipGradByNorm(0.02))",
    "adam_value": "paddle.optimizer.Adam(0.1, parameters=params, grad_clip=paddle.nn.ClipGradByValue(0.003))",
}
# paddle 2.6.2 aborts on a clip by value of a SelectedRows gradient, in static mode (its clip output is declared a
# LOD_TENSOR, and the dense kernel reads the SelectedRows) as in dynamic mode: those Programs are built, not run
# (their .pdmodel only, "losses" None), and left out of the dynamic runs
BUILT_ONLY = ("sgd_value", "adam_value")
DYNAMIC = ("adam", "adam_lazy", "adam_global_norm", "adam_norm", "sgd_global_norm", "sgd_norm")
IDS = [[[1, 2, 2], [5, 1, 0]], [[3, 3, 7], [1, 9, 3]], [[2, 2, 2], [2, 2, 2]], [[0, 4, 6], [8, 5, 1]]]


def feed(step: int) -> dict:
    return {"ids": np.array(IDS[step % len(IDS)], "int64")}


def record_dynamic() -> dict:
    """Paddle's dynamic Embedding(10, 4, sparse=True) and Linear(4, 1) trained by each Adam, from fixed values."""
    rng = np.random.default_rng(5)
    table, weight, bias = (rng.standard_normal(s).astype("float32") for s in ((10, 4), (4, 1), (1,)))
    out = {"table": table.tolist(), "weight": weight.tolist(), "bias": bias.tolist(), "runs": {}}
    for kind in DYNAMIC:
        emb, lin = paddle.nn.Embedding(10, 4, sparse=True), paddle.nn.Linear(4, 1)
        for p, v in ((emb.weight, table), (lin.weight, weight), (lin.bias, bias)):
            p.set_value(v)
        opt = eval(OPTIMIZERS[kind], {"paddle": paddle, "params": emb.parameters() + lin.parameters()})
        tables, rows = [], None
        for step in range(4):
            loss = paddle.mean(lin(emb(paddle.to_tensor(feed(step)["ids"]))) ** 2)
            loss.backward()
            rows = emb.weight.grad.rows() if rows is None else rows
            opt.step()
            opt.clear_grad()
            tables.append(emb.weight.numpy().tolist())
        out["runs"][kind] = {"tables": tables, "rows": rows}
    return out


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
            eval(make, {**scope, "params": None}).minimize(scope["loss"])
        if kind in BUILT_ONLY:
            (here / f"{kind}.pdmodel").write_bytes(small_desc(main.desc.serialize_to_string()))
            expected[kind] = {"loss": scope["loss"].name, "losses": None}
            continue
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        exe.run(main, feed=feed(0), fetch_list=[scope["loss"]])
        paddle.static.save(main, str(here / kind))
        (here / f"{kind}.pdmodel").write_bytes(small_desc((here / f"{kind}.pdmodel").read_bytes()))
        losses = [float(exe.run(main, feed=feed(step), fetch_list=[scope["loss"]])[0]) for step in (1, 2, 3)]
        expected[kind] = {"loss": scope["loss"].name, "losses": losses}
    paddle.disable_static()
    doc = {"net": NET, "optimizers": OPTIMIZERS, "ids": IDS, "expected": expected, "dynamic": record_dynamic()}
    (here / "expected.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    record()
