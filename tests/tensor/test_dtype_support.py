"""paddle 2.6's dtype lists (minipaddle/tensor/dtype_support.py): a dtype a function does not accept is a TypeError
naming the function, the argument, the dtype and the accepted ones, in dynamic and static mode alike; and where
paddle's refusal in the dtype sweep is its dtype check (a TypeError), minipaddle's is a TypeError too
(tests/golden/fidelity/dtype_refusals.json, recorded by make_dtype_refusals.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.nn.functional as F
from minipaddle.core import dtype as dtypes
from minipaddle.tensor.dtype_support import ACCEPTED
from tests.golden_files import GOLDEN_ROOT
from tests.ops.test_dtype_sweep import CASES, SWEEP

HERE = GOLDEN_ROOT / "fidelity"
REFUSALS = json.loads((HERE / "dtype_refusals.json").read_text())


def test_an_int_to_a_float_only_function_names_function_argument_dtype_and_list():
    with pytest.raises(TypeError) as e:
        paddle.acos(paddle.to_tensor([1, 2]))
    msg = str(e.value)
    assert msg.startswith("acos: ") and "'x'" in msg and "int64" in msg and "'float32'" in msg and "'complex64'" in msg


def test_the_check_holds_in_static_mode():
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            with pytest.raises(TypeError, match=r"relu: the data type of 'x' must be one of .*int32"):
                F.relu(paddle.static.data("x", [2, 3], "int32"))
            assert F.relu(paddle.static.data("y", [2, 3], "float32")).dtype == paddle.float32
    finally:
        paddle.disable_static()


def test_binary_functions_check_both_operands_after_promotion():
    with pytest.raises(TypeError, match=r"equal: the data type of 'x'.*complex64"):
        paddle.equal(paddle.to_tensor([1j]), paddle.to_tensor([1j]))
    with pytest.raises(TypeError, match=r"where: the data type of 'x'.*bool"):
        paddle.where(paddle.to_tensor([True]), paddle.to_tensor([True]), paddle.to_tensor([False]))
    assert paddle.equal(paddle.to_tensor([1]), 1.5).dtype == paddle.bool  # an int with a float: promoted, accepted
    assert (paddle.to_tensor([1j]) + paddle.to_tensor([2j])).dtype == paddle.complex64  # operators have no list


def test_max_pooling_takes_float32_and_float64_only():
    x = paddle.rand([1, 2, 8]).astype("float16")
    with pytest.raises(TypeError, match=r"max_pool1d: .*'x'.*float16"):
        F.max_pool1d(x, 2)
    assert F.max_pool1d(x.astype("float64"), 2).dtype == paddle.float64


def test_every_listed_dtype_is_a_minipaddle_dtype():
    names = {d.name for d in vars(dtypes).values() if isinstance(d, dtypes.DType)}
    for fn, args in ACCEPTED.items():
        for arg, accepted in args.items():
            assert accepted and set(accepted) <= names, (fn, arg, set(accepted) - names)
            assert len(set(accepted)) == len(accepted), (fn, arg)


def _paddle_dtype_check_refusals():
    ids = {c["id"] for c in CASES}
    out = []
    for key, why in sorted(REFUSALS.items()):
        case_id, combination = key.split("|")
        if case_id in ids and why.get("type") == "TypeError" and why["message"].startswith("The data type of"):
            out.append((case_id, *combination.split()))
    return out


# paddle's static stft reaches frame's dtype check (no complex) before its own onesided check; its dynamic mode, which
# computes a complex frame, refuses as minipaddle does in both modes: onesided must be False for a complex input.
OTHER_REFUSALS = {("stft", "static", "complex64")}


def test_where_paddle_refuses_with_its_dtype_check_minipaddle_refuses_with_a_type_error():
    cases = {c["id"]: c for c in CASES}
    checked, other = 0, []
    for case_id, mode, dtype in _paddle_dtype_check_refusals():
        if (case_id, mode, dtype) in OTHER_REFUSALS:
            continue
        call = SWEEP.dynamic_call if mode == "dynamic" else SWEEP.static_call
        if mode == "static":
            paddle.enable_static()
        try:
            with np.errstate(all="ignore"):
                call(paddle, cases[case_id], dtype)
        except TypeError:
            checked += 1
        except Exception as e:  # noqa: BLE001
            other.append(f"{case_id} {mode} {dtype}: {type(e).__name__}: {e}"[:200])
        else:
            checked += 1  # it computes: dtype_known_differences.json says why (tests/ops/test_dtype_sweep.py)
        finally:
            if mode == "static":
                paddle.disable_static()
    assert checked > 500
    assert not other, "\n".join(other)
