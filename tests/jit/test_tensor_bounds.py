"""Slice bounds given as Tensors, at run-time values -1, 0, past the end and before the start, with negative steps
(tests/golden/jit/tensor_bounds.py), against paddle 2.6.2's outcomes (tensor_bounds.json, from
make_tensor_bounds.py). Going backward, a bound given as a Tensor is read as paddle 2.6.2's kernels read it (a
stop of -1 is "through index 0"), in converted code and in dynamic mode alike, since that is what a saved Program
means to paddle; an int bound keeps Python's reading (tests/jit/test_runtime_shapes.py's python_readings).

Where minipaddle does not follow paddle (NOT_FOLLOWED): paddle's converted slice reads outside x for a stop past
the end going backward (its dynamic mode and its set_value refuse it, and so does minipaddle); a write going
backward to a stop before the axis raises, because paddle's slice and set_value read that stop two ways. Paddle's
dynamic mode also differs from its own to_static going forward (x[0:-7] gives a row; NOT_FOLLOWED_DYNAMIC):
minipaddle follows to_static (and Python) there. A negative Tensor step with open bounds (x[::t]) runs in dynamic
mode and is refused in converted code, in both paddle and minipaddle (paddle writes the open bounds as a positive
step's)."""

import importlib.util
import json
import os
import subprocess

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static import InputSpec

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden", "jit")
_spec = importlib.util.spec_from_file_location("tensor_bounds", os.path.join(GOLDEN, "tensor_bounds.py"))
BOUNDS = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(BOUNDS)
with open(os.path.join(GOLDEN, "tensor_bounds.json")) as f:
    RECORDED = json.load(f)["functions"]

NOT_FOLLOWED = {("to_t_back", 4): "ValueError", ("to_t_back", 7): "ValueError",
                ("write_to_t_back", -7): "ValueError"}  # fmt: skip
NOT_FOLLOWED_DYNAMIC = {
    ("head", -7),
    ("write_head", -7),
}  # paddle's dynamic mode alone; Python agrees with its to_static
CASES = [(fn, v) for fn in BOUNDS.FUNCTIONS for v in BOUNDS.VALUES]


def _x() -> paddle.Tensor:
    return paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3))


def _t(v: int) -> paddle.Tensor:
    return paddle.to_tensor([v], dtype="int64")


def _outcome(run, v):
    try:
        return run(_x(), _t(v)).numpy()
    except ValueError:
        return "ValueError"


def _assert_outcome(got, want) -> None:
    if isinstance(want, str):
        assert got == want
        return
    assert not isinstance(got, str), f"raised, paddle gives {want}"
    assert list(got.shape) == want["shape"]
    np.testing.assert_array_equal(got, np.asarray(want["values"], dtype="float32").reshape(want["shape"]))


def _converted(fn, rows):
    return paddle.jit.to_static(fn, input_spec=[InputSpec([rows, 3], "float32"), InputSpec([1], "int64")])


@pytest.mark.parametrize("fn, v", CASES, ids=[f"{fn.__name__}[{v}]" for fn, v in CASES])
def test_a_tensor_bound_under_to_static_is_read_as_paddle_reads_it(fn, v):
    for rows in (4, None):
        want = NOT_FOLLOWED.get((fn.__name__, v), RECORDED[fn.__name__][f"static_{rows}"][str(v)])
        _assert_outcome(_outcome(_converted(fn, rows), v), want)


@pytest.mark.parametrize("fn, v", CASES, ids=[f"{fn.__name__}[{v}]" for fn, v in CASES])
def test_a_tensor_bound_in_dynamic_mode_is_read_as_the_converted_code_reads_it(fn, v):
    got = _outcome(fn, v)
    _assert_outcome(got, RECORDED[fn.__name__]["static_None"][str(v)] if (fn.__name__, v) in NOT_FOLLOWED_DYNAMIC
                    else NOT_FOLLOWED.get((fn.__name__, v), RECORDED[fn.__name__]["dynamic"][str(v)]))  # fmt: skip
    if RECORDED[fn.__name__]["dynamic"][str(v)] != RECORDED[fn.__name__]["static_None"][str(v)]:
        return  # paddle's two modes part (x[::t] with t < 0 runs only in dynamic mode), and so do minipaddle's
    converted = _outcome(_converted(fn, None), v)
    if isinstance(got, str) or isinstance(converted, str):
        assert got == converted
    else:
        np.testing.assert_array_equal(got, converted)


def test_only_the_recorded_cases_part_from_paddle():
    """The cases minipaddle does not follow are ones where paddle's outcome is the one listed (not a typo)."""
    for name, v in NOT_FOLLOWED:
        assert not isinstance(RECORDED[name]["static_None"][str(v)], str), "paddle's converted code gives values"
    for name, v in NOT_FOLLOWED_DYNAMIC:
        assert RECORDED[name]["dynamic"][str(v)] != RECORDED[name]["static_None"][str(v)]


def test_an_int_stop_of_minus_one_going_backward_keeps_pythons_reading():
    x = _x()
    assert x[:-1:-1].shape == [0, 3]  # Python's: empty
    np.testing.assert_array_equal(x[: _t(-1) : -1].numpy(), x.numpy()[::-1])  # paddle's: through index 0


PADDLE_PYTHON = "/work/paddle-venv/bin/python"

_PADDLE_SIDE = """
import json, sys
import numpy.random, numpy as np, paddle
paddle.enable_static()
exe = paddle.static.Executor()
x = np.arange(12, dtype="float32").reshape(4, 3)
for name, values in json.loads(sys.argv[1]).items():
    prog, feeds, fetches = paddle.static.load_inference_model(name, exe)
    for v in values:
        out, = exe.run(prog, feed={feeds[0]: x, feeds[1]: np.array([v], "int64")}, fetch_list=fetches)
        np.testing.assert_array_equal(out, np.load(f"{name}_{v}.npy"), err_msg=f"{name} at {v}")
print("ok")
"""


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(PADDLE_PYTHON), reason="real Paddle 2.6 is not installed here")
def test_paddle_runs_the_saved_programs_with_minipaddles_outputs(tmp_path):
    """jit.save writes each Tensor bound into Paddle's TensorList slots: paddle's load_inference_model then gives
    minipaddle's outputs at every value minipaddle runs (the refused ones are left out)."""
    runs = {}
    for fn in BOUNDS.FUNCTIONS:
        converted = paddle.jit.to_static(fn, input_spec=[InputSpec([None, 3], "float32", "x"),
                                                         InputSpec([1], "int64", "t")])  # fmt: skip
        paddle.jit.save(converted, str(tmp_path / fn.__name__))
        runs[fn.__name__] = []
        for v in BOUNDS.VALUES:
            out = _outcome(converted, v)
            if not isinstance(out, str):
                np.save(tmp_path / f"{fn.__name__}_{v}.npy", out)
                runs[fn.__name__].append(v)
    result = subprocess.run([PADDLE_PYTHON, "-c", _PADDLE_SIDE, json.dumps(runs)], cwd=tmp_path, capture_output=True,
                            text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines()[-1] == "ok"
