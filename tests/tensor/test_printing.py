"""Tensor printing matches Paddle 2.6 exactly.

The expected strings in tests/golden/printing/cases.json were printed by real Paddle 2.6.2
(regenerate with tests/golden/printing/make_golden.py); this test needs only numpy.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from minipaddle.core.state import STATE
from minipaddle.tensor.to_string import format_parameter, format_tensor, set_printoptions

CASES = json.loads((Path(__file__).parents[1] / "golden" / "printing" / "cases.json").read_text())


@pytest.fixture(autouse=True)
def restore_print_options():
    saved = dict(STATE.print_options)
    yield
    STATE.print_options.clear()
    STATE.print_options.update(saved)


def rebuild(case) -> np.ndarray:
    """The array from its JSON form: nested lists, complex as [real, imag] pairs, bfloat16 stored as float32."""
    dtype = "float32" if case["dtype"] == "bfloat16" else case["dtype"]
    shape = tuple(case["shape"])
    if dtype.startswith("complex"):
        pairs = np.array(case["data"], dtype="float64").reshape(shape + (2,))
        array = np.empty(shape, dtype=dtype)
        array.real, array.imag = pairs[..., 0], pairs[..., 1]  # set parts directly: keeps -0.0 and NaN exact
        return array
    return np.array(case["data"], dtype=dtype).reshape(shape)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_paddle(case):
    set_printoptions(**case["options"])
    data = rebuild(case)
    if case["kind"] == "parameter":
        got = format_parameter(data, dtype_name=case["dtype"], stop_gradient=case["stop_gradient"])
    else:
        got = format_tensor(data, dtype_name=case["dtype"], stop_gradient=case["stop_gradient"])
    assert got == case["expected"]


def test_golden_file_covers_enough():
    assert len(CASES) >= 40
    dtypes = "bool uint8 int8 int16 int32 int64 float16 float32 float64 complex64 complex128 bfloat16".split()
    assert {c["dtype"] for c in CASES} >= set(dtypes)


def test_set_printoptions_stores_in_state():
    set_printoptions(precision=4, threshold=10, edgeitems=2, sci_mode=True, linewidth=100)
    assert STATE.print_options == {"precision": 4, "threshold": 10, "edgeitems": 2, "sci_mode": True, "linewidth": 100}
    set_printoptions(precision=6)  # None leaves the others as they are
    assert STATE.print_options["precision"] == 6 and STATE.print_options["threshold"] == 10


def test_options_are_restored_between_tests():
    defaults = {"precision": 8, "threshold": 1000, "edgeitems": 3, "sci_mode": False, "linewidth": 80}
    assert STATE.print_options == defaults


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(precision=1.5),
        dict(precision=True),
        dict(threshold="10"),
        dict(edgeitems=2.0),
        dict(linewidth=None, sci_mode=1),
        dict(sci_mode="yes"),
    ],
)
def test_set_printoptions_rejects_wrong_types(kwargs):
    before = dict(STATE.print_options)
    with pytest.raises(TypeError, match="set_printoptions"):
        set_printoptions(**kwargs)
    assert STATE.print_options == before


@pytest.mark.parametrize("kwargs", [dict(precision=-1), dict(threshold=-5), dict(edgeitems=0), dict(linewidth=0)])
def test_set_printoptions_rejects_bad_values(kwargs):
    before = dict(STATE.print_options)
    with pytest.raises(ValueError, match="set_printoptions"):
        set_printoptions(sci_mode=True, **kwargs)
    assert STATE.print_options == before  # a failed call changes nothing, not even its valid arguments


def test_set_printoptions_positional_order_is_paddles():
    set_printoptions(4, 100, 3)  # precision, threshold, edgeitems, as in Paddle's docstring
    assert (STATE.print_options["precision"], STATE.print_options["threshold"]) == (4, 100)


def test_uninitialized():
    assert format_tensor(None, dtype_name="float32", stop_gradient=True) == "Tensor(Not initialized)"
