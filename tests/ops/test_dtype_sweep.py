"""The dtype sweep: for every op-table entry that is a public paddle function, its output dtypes for float16/32/64,
int32/64, bool and complex64 inputs, in dynamic and static mode, against paddle 2.6's
(tests/golden/fidelity/dtype_sweep.py; cases from export_dtype_cases.py, answers from make_dtype_golden.py).

Where paddle answers with a dtype, minipaddle must give the same one; where paddle refuses a dtype, minipaddle must
refuse it too (minipaddle/tensor/dtype_support.py holds paddle's lists). The exceptions are the (op, mode, dtype)
combinations listed in dtype_known_differences.json, each with the reason it stays (docs/feature_map.md's "differs on
purpose" list groups them); each must still differ (the test says when one is fixed, so the list only shrinks).
That list is written by make_dtype_known_differences.py (it runs paddle 2.6.2), never by hand: its rules, applied to
minipaddle's answers of the day and paddle's recorded outcomes (dtype_differences_paddle.json), must give the file.
"""

from __future__ import annotations

import functools
import importlib.util
import json

import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT

HERE = GOLDEN_ROOT / "fidelity"
CASES = json.loads((HERE / "dtype_cases.json").read_text())
PADDLE = json.loads((HERE / "dtype_sweep.json").read_text())
KNOWN = json.loads((HERE / "dtype_known_differences.json").read_text())


def _module(name):
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SWEEP = _module("dtype_sweep")
GENERATOR = _module("make_dtype_known_differences")  # stdlib only at import: paddle is imported by its worker


@functools.cache
def _ours(case_id: str) -> dict:
    return SWEEP.sweep(paddle, next(c for c in CASES if c["id"] == case_id))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_output_dtypes_as_paddle(case):
    ours, want = _ours(case["id"]), PADDLE[case["id"]]
    known = set(KNOWN.get(case["id"], ()))
    wrong, fixed = [], []
    for mode in ("dynamic", "static"):
        for dtype in SWEEP.DTYPES:
            w, g = want[mode][dtype], ours[mode][dtype]
            if w == "error":  # paddle refuses: so must minipaddle, or the list says why it computes
                if g != "error" and f"{mode} {dtype}" not in known:
                    wrong.append(f"{mode} {dtype}: paddle refuses, minipaddle gives {g}")
                if g == "error" and f"{mode} {dtype}" in known:
                    fixed.append(f"{mode} {dtype}")
                continue
            if g != w and f"{mode} {dtype}" not in known:
                wrong.append(f"{mode} {dtype}: paddle {w}, minipaddle {g}")
            if g == w and f"{mode} {dtype}" in known:
                fixed.append(f"{mode} {dtype}")
    assert not wrong, f"{case['path']}: " + "; ".join(wrong)
    assert not fixed, f"{case['path']} now matches paddle for {fixed}: remove them from dtype_known_differences.json"


def test_the_sweep_covers_the_op_table():
    assert len(CASES) > 300 and set(PADDLE) == {c["id"] for c in CASES}
    assert set(KNOWN) <= set(PADDLE)


def test_every_known_difference_says_why():
    for case_id, entries in KNOWN.items():
        for combination, reason in entries.items():
            mode, dtype = combination.split()
            assert mode in ("dynamic", "static") and dtype in SWEEP.DTYPES, (case_id, combination)
            assert isinstance(reason, str) and len(reason) > 40, (case_id, combination)


def test_the_known_list_is_what_its_generator_writes():
    """A hand edit of a reason, or a change in minipaddle that alters one (minipaddle now computes what it refused),
    shows here: rerun make_dtype_known_differences.py with paddle 2.6.2."""
    outcomes = json.loads((HERE / "dtype_differences_paddle.json").read_text())
    known, unexplained = GENERATOR.classify(PADDLE, {c["id"]: _ours(c["id"]) for c in CASES}, outcomes)
    assert not unexplained, "differences with no recorded paddle outcome or no rule: rerun the generator"
    assert known == KNOWN
