"""Autograd at the edges against paddle 2.6 (tests/golden/fidelity/autograd_edges_cases.py, recorded by
make_autograd_edges_golden.py into autograd_edges.json): sign and the rounding ops pass a zero gradient, argmax none;
backward from a tensor that stops gradients does nothing, and paddle.grad gives None for what it cannot reach."""

from __future__ import annotations

import importlib.util

import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "autograd_edges.json")


def _ours() -> dict:
    spec = importlib.util.spec_from_file_location(
        "autograd_edges_cases", GOLDEN_ROOT / "fidelity" / "autograd_edges_cases.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run_all(paddle)


OURS = _ours()


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_autograd_edges_as_paddle(case):
    assert OURS[case] == GOLDEN[case]
