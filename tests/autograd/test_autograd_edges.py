"""Autograd at the edges against paddle 2.6 (tests/golden/fidelity/autograd_edges_cases.py, recorded by
make_autograd_edges_golden.py into autograd_edges.json): sign and the rounding ops pass a zero gradient, argmax none;
backward from a tensor that stops gradients does nothing, and paddle.grad gives None for what it cannot reach."""

from __future__ import annotations

import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, load_cases, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "autograd_edges.json")


OURS = load_cases("fidelity", "autograd_edges_cases.py").run_all(paddle)


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_autograd_edges_as_paddle(case):
    assert OURS[case] == GOLDEN[case]
