"""split with Tensor sections and a Tensor axis, both ways: paddle 2.6.2's training Programs (SectionsTensorList of
int32 fill_constants, an AxisTensor; recorded by tests/golden/paddle_models/make_split_sections.py with their
parameters) train here with paddle's losses; minipaddle's split reads the constant Tensors when the Program is
built, so its saved split holds the sizes in `sections` and `axis`, which paddle trains on with minipaddle's losses.
A section the Program computes (known only when it runs: `paddle.shape(h)[1] - 3`, or a to_static batch size) is
minipaddle's runtime_split (ops/runtime_split.py), saved as paddle's split with that variable in
SectionsTensorList; paddle's such Program and to_static model (golden) run here with its numbers, and paddle runs
minipaddle's with minipaddle's."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.paddle_proto import ProgramDesc
from minipaddle.static.pdmodel import _attr_value
from tests.static.test_paddle_training_files import PADDLE_PYTHON, STEPS, fresh_scope  # noqa: F401

pytestmark = pytest.mark.usefixtures("fresh_scope")
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "paddle_models" / "split_sections"
RECORDED = json.loads((GOLDEN / "expected.json").read_text())
CASES = sorted(RECORDED["cases"])


def _feed() -> dict:
    return {"x": np.random.default_rng(0).standard_normal((3, 6)).astype("float32")}


def _split_op(path: str):
    (op,) = [op for op in ProgramDesc.FromString(open(path, "rb").read()).blocks[0].ops if op.type == "split"]
    return op


@pytest.mark.parametrize("case", CASES)
def test_paddles_split_with_tensor_sections_trains_here_with_paddles_losses(static_mode, case):
    inputs = {v.parameter: list(v.arguments) for v in _split_op(str(GOLDEN / case) + ".pdmodel").inputs}
    assert inputs["SectionsTensorList"] or inputs["AxisTensor"]  # what the reader has to take
    with pytest.warns(UserWarning, match="rebuilt them as minipaddle's own backward and SGD"):
        program = paddle.load(str(GOLDEN / case) + ".pdmodel")
    exe = paddle.static.Executor()
    paddle.static.load(program, str(GOLDEN / case), exe)
    expected = RECORDED["expected"][case]
    losses = [float(exe.run(program, feed=_feed(), fetch_list=[expected["loss"]])[0]) for _ in range(STEPS)]
    np.testing.assert_allclose(losses, expected["losses"], rtol=1e-6, atol=1e-7)


def _saved(case: str, tmp_path) -> tuple:
    """The case in minipaddle, trained a step, saved as Paddle's files, then STEPS more: (prefix, loss, losses)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        scope = {"paddle": paddle}
        exec(RECORDED["net"].format(split=RECORDED["cases"][case]), scope)
        paddle.optimizer.SGD(0.1).minimize(scope["loss"])
    exe = paddle.static.Executor()
    exe.run(startup)
    exe.run(main, feed=_feed(), fetch_list=[scope["loss"]])
    prefix = str(tmp_path / case)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paddle.static.save(main, prefix)
    return prefix, scope["loss"].name, [float(exe.run(main, feed=_feed(), fetch_list=[scope["loss"]])[0])
                                        for _ in range(STEPS)]  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_minipaddles_split_is_saved_with_the_sizes_it_was_built_with(static_mode, tmp_path, case):
    op = _split_op(_saved(case, tmp_path)[0] + ".pdmodel")
    attrs = {a.name: _attr_value(a) for a in op.attrs}
    listed = {v.parameter: list(v.arguments) for v in op.inputs}["SectionsTensorList"]
    if case == "computed":  # paddle's form: the computed variable, the known sections as int32 fill_constants
        assert len(listed) == 3 and attrs["axis"] == 1 and attrs["sections"] == [-1, 1, -1] and attrs["num"] == 0
        assert _split_op(str(GOLDEN / case) + ".pdmodel").attrs and [
            _attr_value(a) for a in _split_op(str(GOLDEN / case) + ".pdmodel").attrs if a.name == "sections"
        ] == [[-1, 1, -1]]
        return
    assert listed == []
    if case == "both":
        assert attrs["axis"] == 1 and attrs["sections"] == [2, 1, 3]
    else:  # three equal parts: paddle's num
        assert attrs["axis"] == 1 and attrs["num"] == 3 and attrs["sections"] == []


def test_a_section_the_program_computes_is_cut_when_it_runs(static_mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [None, None], "float32")
        first, rest = paddle.split(x, [paddle.shape(x)[1] - 2, -1], axis=1)
        with pytest.raises(ValueError, match="split: sections may hold one -1"):
            paddle.split(x, [paddle.shape(x)[1], -1, -1], axis=1)
    assert first.shape == [-1, -1] and rest.shape == [-1, -1]
    exe = paddle.static.Executor()
    for width in (3, 5):
        value = np.arange(2 * width, dtype="float32").reshape(2, width)
        got = exe.run(main, feed={"x": value}, fetch_list=[first, rest])
        assert [g.tolist() for g in got] == [value[:, : width - 2].tolist(), value[:, width - 2 :].tolist()]
    with pytest.raises(ValueError, match="runtime_split: the sections are \\[-1, -1\\] when the Program runs; one"):
        exe.run(main, feed={"x": np.zeros((2, 1), "float32")}, fetch_list=[first])


def _layer(source: str, tmp_path, lib: str):
    """SplitLayer of the recorded source, imported from a file (to_static reads its source) with `lib` as paddle."""
    path = tmp_path / f"split_layer_{lib}.py"
    path.write_text(f"import {lib} as paddle\n" + source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SplitLayer()


def test_paddles_to_static_split_of_a_batch_size_runs_here_with_its_outputs():
    loaded = paddle.jit.load(str(GOLDEN / "to_static"))
    first, rest = loaded(paddle.to_tensor(_feed()["x"]))
    want = RECORDED["to_static"]["outputs"]
    np.testing.assert_allclose(first.numpy(), want[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rest.numpy(), want[1], rtol=1e-5, atol=1e-6)
    first, rest = loaded(paddle.to_tensor(np.ones((5, 6), "float32")))  # another batch: other sections
    assert first.shape == [1, 6] and rest.shape == [4, 6]
    assert "runtime_split" in {op.type for op in loaded.program().global_block().ops}


PADDLE_RUNS_LAYER = """
import json, sys
import numpy.random
import numpy as np
import paddle
layer = paddle.jit.load(sys.argv[1])
print(json.dumps([[o.numpy().tolist() for o in layer(paddle.to_tensor(np.ones((b, 6), "float32") * b))]
                  for b in (2, 5)]))
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_paddle_runs_minipaddles_to_static_split_of_a_batch_size(tmp_path):
    layer = _layer(RECORDED["to_static"]["layer"], tmp_path, "minipaddle")
    layer.eval()
    spec = [paddle.static.InputSpec([None, 6], "float32", "x")]
    prefix = str(tmp_path / "split_layer")
    paddle.jit.save(paddle.jit.to_static(layer, input_spec=spec), prefix)
    op = _split_op(prefix + ".pdmodel")
    assert len({v.parameter: list(v.arguments) for v in op.inputs}["SectionsTensorList"]) == 2
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_RUNS_LAYER, prefix], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    for b, outs in zip((2, 5), json.loads(result.stdout.strip().splitlines()[-1])):
        mine = layer(paddle.to_tensor(np.ones((b, 6), "float32") * b))
        assert [np.shape(o) for o in outs] == [(1, 6), (b - 1, 6)]
        for got, want in zip(outs, mine):
            np.testing.assert_allclose(got, want.numpy(), rtol=1e-5, atol=1e-6)


PADDLE_TRAINS = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
prefix, loss = sys.argv[1], sys.argv[2]
program = paddle.static.Program.parse_from_string(open(prefix + ".pdmodel", "rb").read())
exe = paddle.static.Executor(paddle.CPUPlace())
paddle.static.load(program, prefix, exe)
feed = {"x": np.random.default_rng(0).standard_normal((3, 6)).astype("float32")}
print(json.dumps([float(exe.run(program, feed=feed, fetch_list=[loss])[0]) for _ in range(3)]))
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.parametrize("case", CASES)
def test_paddle_trains_on_minipaddles_split_with_its_losses(static_mode, tmp_path, case):
    prefix, loss, losses = _saved(case, tmp_path)
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_TRAINS, prefix, loss], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    np.testing.assert_allclose(json.loads(result.stdout.strip().splitlines()[-1]), losses, rtol=1e-6, atol=1e-7)
