"""paddle.profiler.statistic_helper's range arithmetic gives paddle 2.6's answers (tests/golden/fidelity/
ranges_cases.py on random range lists, recorded by make_ranges_golden.py into ranges.json)."""

from __future__ import annotations

import importlib.util
import json

import minipaddle as paddle
import minipaddle.profiler.statistic_helper as helper
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "ranges.json")


def test_as_paddle():
    spec = importlib.util.spec_from_file_location("ranges_cases", GOLDEN_ROOT / "fidelity" / "ranges_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ours = json.loads(json.dumps(module.run_all(paddle)))  # tuples as JSON lists, as recorded
    assert len(ours) == len(GOLDEN)
    for got, want in zip(ours, GOLDEN):
        assert got == want, f"ranges {want['a']} and {want['b']}"


def test_the_input_list_is_left_as_it_was():
    ranges = [(5, 8), (1, 3), (2, 6)]
    assert helper.merge_self_ranges(ranges) == [(1, 8)]
    assert ranges == [(5, 8), (1, 3), (2, 6)]
