"""Record training Programs paddle 2.6.2 writes for split with Tensor sections (constant or computed) and a Tensor
axis (SectionsTensorList, AxisTensor), for tests/static/test_paddle_split_sections.py (which then needs no Paddle).

For each case of CASES (the source the test also runs in minipaddle: `h` the input, `n` = paddle.full([1], 2,
"int32"), `ax` = paddle.full([1], 1, "int32")), paddle builds NET around it with SGD, trains a step on the feed of
`feed()`, static.saves, and trains 3 more. It writes, into split_sections/: <case>.pdmodel (op_callstack attributes
and the op version map cleared to keep it small), <case>.pdparams and <case>.pdopt (static.save's), and
expected.json: {case: {"loss": its name, "losses": the 3 losses after the save}}; and LAYER's to_static model
(to_static.pdmodel, .pdiparams) with its outputs ("to_static").

Run with the paddle 2.6 venv from the repository root:
/work/paddle-venv/bin/python tests/golden/paddle_models/make_split_sections.py
"""

from __future__ import annotations

import importlib.util
import json
import tempfile
from pathlib import Path

import numpy as np
import numpy.random  # noqa: F401  (before paddle, as its wheel needs)
import paddle
from paddle.base.proto import framework_pb2

NET = """
x = paddle.static.data("x", [None, 6], "float32")
h = paddle.static.nn.fc(x, 6)
n = paddle.full([1], 2, "int32")
ax = paddle.full([1], 1, "int32")
parts = {split}
loss = paddle.mean(parts[0] * 2.0) + paddle.mean(parts[1] ** 2) + paddle.mean(parts[2])
"""
CASES = {
    "sections": "paddle.split(h, [2, n, -1], axis=1)",
    "axis": "paddle.split(h, 3, axis=ax)",
    "both": "paddle.split(h, [n, 1, 3], axis=ax)",
    # a section the Program computes (a shape's slice, minus 3: paddle's scale), beside a known one and a -1
    "computed": "paddle.split(h, [paddle.shape(h)[1] - 3, 1, -1], axis=1)",
}


# to_static: a Layer whose split section is a batch size (`h.shape[0]` of an InputSpec [None, 6]: a Tensor)
LAYER = """
class SplitLayer(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(6, 6)

    def forward(self, x):
        h = self.fc(x)
        first, rest = paddle.split(h, [1, h.shape[0] - 1], axis=0)
        return first * 2.0, paddle.tanh(rest)
"""


def record_to_static(here: Path) -> dict:
    """LAYER converted by paddle.jit.to_static and saved by paddle.jit.save into to_static.pdmodel/.pdiparams; its
    outputs on feed()'s x."""
    with tempfile.TemporaryDirectory() as tmp:  # (to_static reads the source: a module of its own)
        source = Path(tmp) / "split_layer.py"
        source.write_text("import paddle\n" + LAYER)
        spec_ = importlib.util.spec_from_file_location("split_layer", source)
        module = importlib.util.module_from_spec(spec_)
        spec_.loader.exec_module(module)
        return _save_to_static(module.SplitLayer(), here)


def _save_to_static(layer, here: Path) -> dict:
    layer.eval()
    spec = [paddle.static.InputSpec([None, 6], "float32", "x")]
    paddle.jit.save(paddle.jit.to_static(layer, input_spec=spec, full_graph=True), str(here / "to_static"))
    (here / "to_static.pdmodel").write_bytes(small_desc((here / "to_static.pdmodel").read_bytes()))
    outs = layer(paddle.to_tensor(feed()["x"]))
    return {"layer": LAYER, "outputs": [o.numpy().tolist() for o in outs]}


def feed() -> dict:
    return {"x": np.random.default_rng(0).standard_normal((3, 6)).astype("float32")}


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
    here = Path(__file__).resolve().parent / "split_sections"
    here.mkdir(exist_ok=True)
    paddle.enable_static()
    paddle.seed(5)
    expected = {}
    for case, split in CASES.items():
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
            scope = {"paddle": paddle}
            exec(NET.format(split=split), scope)
            paddle.optimizer.SGD(0.1).minimize(scope["loss"])
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        exe.run(main, feed=feed(), fetch_list=[scope["loss"]])
        prefix = here / case
        paddle.static.save(main, str(prefix))
        (here / f"{case}.pdmodel").write_bytes(small_desc((here / f"{case}.pdmodel").read_bytes()))
        losses = [float(exe.run(main, feed=feed(), fetch_list=[scope["loss"]])[0]) for _ in range(3)]
        expected[case] = {"loss": scope["loss"].name, "losses": losses}
    paddle.disable_static()
    doc = {"net": NET, "cases": CASES, "expected": expected, "to_static": record_to_static(here)}
    (here / "expected.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    record()
