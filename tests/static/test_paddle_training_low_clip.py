"""Gradient clipping of float16 and bfloat16 gradients (SGD multi_precision, the parameters float16/bfloat16 beside
a float32 one) in a training Program saved as Paddle's (static/paddle_clip_ops.py): the saved .pdmodel holds the
optimize-role ops paddle 2.6.2 writes for the same net, dtypes and shapes of every slot and every attribute
(recorded by tests/golden/paddle_models/make_low_precision_clip.py: paddle 2.6.2 has no CPU kernels for these
clips in float16/bfloat16, so its Programs are built there, not run), and minipaddle trains on paddle's own Program
with the losses of its own. ClipGradByGlobalNorm sums the squares as paddle does: per dtype, each float16/bfloat16
gradient's sum of squares rounded to its dtype, then cast to float32."""

from __future__ import annotations

import json
import os
import subprocess
import warnings
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.paddle_ops import dtype_of
from minipaddle.static.paddle_proto import ProgramDesc
from minipaddle.static.pdmodel import _attr_value
from tests.static.test_paddle_training_files import PADDLE_PYTHON, STEPS, _ops, fresh_scope  # noqa: F401

pytestmark = pytest.mark.usefixtures("fresh_scope")
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "paddle_models" / "low_precision_clip"
RECORDED = json.loads((GOLDEN / "ops.json").read_text())
CASES = sorted(RECORDED["ops"])
SKIPPED = ("op_callstack", "op_namescope", "op_device", "with_quant_attr")


def _feed(dtype: str) -> dict:
    x = np.random.default_rng(5).standard_normal((4, 2)).astype("float32")
    return {"x": x.astype(ml_dtypes.bfloat16 if dtype == "bfloat16" else np.float16)}


def _trained(case: str, tmp_path) -> tuple:
    """The recorded net in minipaddle, trained a step, saved as Paddle's files, then STEPS more: (prefix, losses)."""
    dtype, kind = case.split("_")
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        scope = {"paddle": paddle, "dtype": dtype, "clip": eval(RECORDED["clips"][kind], {"paddle": paddle})}
        exec(RECORDED["net"], scope)
    exe = paddle.static.Executor()
    exe.run(startup)
    exe.run(main, feed=_feed(dtype), fetch_list=[scope["loss"]])
    prefix = str(tmp_path / case)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no JSON fallback: the clip is Paddle's ops
        paddle.static.save(main, prefix)
    losses = [float(exe.run(main, feed=_feed(dtype), fetch_list=[scope["loss"]])[0]) for _ in range(STEPS)]
    return prefix, scope["loss"].name, losses


def _comparable(prefix: str) -> list:
    """The saved Program's optimize-role ops as the golden holds paddle's: [type, {slot: [[dtype, shape]]} of
    inputs, of outputs, attributes (op_role_var's parameter only)]."""
    ops = _ops(prefix)
    desc = ProgramDesc.FromString(open(prefix + ".pdmodel", "rb").read())
    declared = {v.name: v.type.lod_tensor.tensor for v in desc.blocks[0].vars}

    def slots(vs) -> dict:
        return {v.parameter: [[dtype_of(declared[n].data_type), list(declared[n].dims)] for n in v.arguments]
                for v in vs if v.arguments}  # fmt: skip

    out = []
    for op in ops:
        attrs = {a.name: _attr_value(a) for a in op.attrs if a.name not in SKIPPED}
        if attrs.get("op_role") != 2:
            continue
        attrs["op_role_var"] = attrs["op_role_var"][:1]
        out.append([op.type, slots(op.inputs), slots(op.outputs), attrs])
    return out


@pytest.mark.parametrize("case", CASES)
def test_the_clip_of_low_precision_gradients_is_written_as_paddle_writes_it(static_mode, tmp_path, case):
    prefix, _, _ = _trained(case, tmp_path)
    assert _comparable(prefix) == RECORDED["ops"][case]


def test_a_global_norm_sums_each_dtype_apart_and_casts_the_factor(static_mode, tmp_path):
    ops = _comparable(_trained("float16_global", tmp_path)[0])
    assert [op[0] for op in ops] == ["squared_l2_norm"] * 3 + ["sum", "cast", "sum", "sum", "sqrt", "fill_constant",
        "elementwise_max", "elementwise_div", "cast", "elementwise_mul", "elementwise_mul", "cast", "elementwise_mul",
        "sgd", "sgd", "sgd"]  # fmt: skip
    half, single = [["float16", [1]]] * 2, [["float32", [1]]]
    assert ops[3][1:3] == [{"X": half}, {"Out": half[:1]}]  # b's and w's squares added in float16
    assert ops[4][1:3] == [{"X": half[:1]}, {"Out": single}]  # then cast to float32
    assert ops[5][1:3] == [{"X": single}, {"Out": single}] and ops[6][1] == {"X": single * 2}  # v's, then both
    for k, param in ((11, "b"), (14, "w")):  # the factor cast to float16 for b and w only
        assert ops[k][0] == "cast" and ops[k][2] == {"Out": half[:1]} and ops[k + 1][3]["op_role_var"] == [param]
    assert ops[13][1]["Y"] == single and ops[13][3]["op_role_var"] == ["v"]


@pytest.mark.parametrize("case", CASES)
def test_minipaddle_trains_on_paddles_program_as_on_its_own(static_mode, tmp_path, case):
    """Paddle's Program (its clip and multi_precision SGD rebuilt) with minipaddle's state after one step gives
    the losses minipaddle's own Program gives; so does minipaddle's file read back."""
    prefix, loss, losses = _trained(case, tmp_path)
    dtype, kind = case.split("_")
    clip = {"global": "ClipGradByGlobalNorm", "norm": "ClipGradByNorm", "value": "ClipGradByValue"}[kind]
    for source in (str(GOLDEN / case) + ".pdmodel", prefix + ".pdmodel"):
        with paddle.static.scope_guard(paddle.static.Scope()):
            with pytest.warns(UserWarning, match=f"rebuilt them as minipaddle's own backward and SGD with {clip}"):
                program = paddle.load(source)
            exe = paddle.static.Executor()
            paddle.static.load(program, prefix, exe)
            again = [float(exe.run(program, feed=_feed(dtype), fetch_list=[loss])[0]) for _ in range(STEPS)]
        assert again == losses, source


def _paddle_global_norm(grads: list) -> np.float32:
    """Paddle 2.6's global norm: squares summed in float32, rounded to a float16 gradient's dtype, those added in
    float16 and cast to float32, plus the float32 gradients' squares added in float32."""
    low = [np.float16(np.sum(np.square(g.astype(np.float32)))) for g in grads if g.dtype == np.float16]
    wide = [np.sum(np.square(g)) for g in grads if g.dtype == np.float32]
    total = np.float16(0)
    for s in low:
        total = np.float16(total + s)
    return np.sqrt(np.float32(total) + np.float32(sum(wide, np.float32(0))))


def test_a_dynamic_global_norm_rounds_each_low_precision_square_as_paddle():
    rng = np.random.default_rng(0)
    shapes = (([7], "float16"), ([3, 5], "float32"), ([9], "float16"))
    grads = [(rng.standard_normal(s) * 3).astype(d) for s, d in shapes]
    pairs = [(paddle.create_parameter(list(g.shape), str(g.dtype)), paddle.to_tensor(g)) for g in grads]
    norm = paddle.nn.ClipGradByGlobalNorm(1.0).global_norm(pairs)
    assert norm.dtype == paddle.float32
    assert norm.numpy() == _paddle_global_norm(grads)


def test_float16_and_bfloat16_gradients_are_not_clipped_together():
    pairs = [(paddle.create_parameter([2], "float16"), paddle.ones([2], "float16")),
             (paddle.create_parameter([2], "float32"), paddle.ones([2], "float32").astype("bfloat16"))]  # fmt: skip
    with pytest.raises(ValueError, match="ClipGradByGlobalNorm: float16 and bfloat16 gradients cannot be clipped"):
        paddle.nn.ClipGradByGlobalNorm(1.0).global_norm(pairs)


PADDLE_READS = """
import json, sys
import numpy.random
import numpy as np
import paddle
paddle.enable_static()
prefix, names = sys.argv[1], sys.argv[2:]
program = paddle.static.Program.parse_from_string(open(prefix + ".pdmodel", "rb").read())
exe = paddle.static.Executor(paddle.CPUPlace())
paddle.static.load(program, prefix, exe)
scope = paddle.static.global_scope()
values = {n: np.array(scope.find_var(n).get_tensor()) for n in names}
gb = program.global_block()
ops = [op.type for op in gb.ops if op.attr("op_role") == 2]
print(json.dumps({"ops": ops, "values": {n: [str(gb.var(n).dtype), v.view(np.uint16 if v.dtype.itemsize == 2 else
      v.dtype).tolist()] for n, v in values.items()}}))
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
@pytest.mark.parametrize("case", ["float16_global", "bfloat16_global"])
def test_paddle_reads_minipaddles_low_precision_files_with_its_values(static_mode, tmp_path, case):
    """paddle 2.6.2 parses the Program and static.load reads the float16/bfloat16 parameters (bfloat16 pickled as
    its uint16 bits, as paddle writes them) and their float32 masters with minipaddle's values."""
    prefix, _, _ = _trained(case, tmp_path)
    names = ["w", "b", "v", "w_fp32_master_0", "b_fp32_master_0"]
    result = subprocess.run([PADDLE_PYTHON, "-c", PADDLE_READS, prefix, *names], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["ops"] == [op[0] for op in RECORDED["ops"][case]]
    saved = paddle.static.load_program_state(prefix)
    for name in names:
        dtype, bits = out["values"][name]
        mine = saved[name]
        assert dtype == f"paddle.{'float32' if mine.dtype == np.float32 else case.split('_')[0]}"
        assert bits == mine.view(np.uint16 if mine.dtype.itemsize == 2 else mine.dtype).tolist(), name
