"""split with Tensor sections and a Tensor axis, both ways: paddle 2.6.2's training Programs (SectionsTensorList of
int32 fill_constants, an AxisTensor; recorded by tests/golden/paddle_models/make_split_sections.py with their
parameters) train here with paddle's losses; minipaddle's split reads the constant Tensors when the Program is
built, so its saved split holds the sizes in `sections` and `axis`, which paddle trains on with minipaddle's losses.
A section the Program computes (known only when it runs) is refused by name."""

from __future__ import annotations

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
    assert {v.parameter: list(v.arguments) for v in op.inputs}["SectionsTensorList"] == []
    if case == "both":
        assert attrs["axis"] == 1 and attrs["sections"] == [2, 1, 3]
    else:  # three equal parts: paddle's num
        assert attrs["axis"] == 1 and attrs["num"] == 3 and attrs["sections"] == []


def test_a_section_the_program_computes_is_refused_by_name(static_mode, tmp_path):
    desc = ProgramDesc.FromString((GOLDEN / "sections.pdmodel").read_bytes())
    (op,) = [op for op in desc.blocks[0].ops if op.type == "split"]
    (sections,) = [v for v in op.inputs if v.parameter == "SectionsTensorList"]
    sections.arguments[1] = "x"  # the data variable: a value only a run gives (the dtype does not matter here)
    (tmp_path / "computed.pdmodel").write_bytes(desc.SerializeToString())
    with pytest.raises(NotImplementedError, match="a section in SectionsTensorList 'x' known only when the Program"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            paddle.load(str(tmp_path / "computed.pdmodel"))


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
