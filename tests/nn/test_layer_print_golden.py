"""Layer printing and naming against real Paddle 2.6 (tests/golden/nn/make_layer_golden.py): the same model code
runs under minipaddle and must print the same hierarchy, give the same state_dict keys, parameter names,
trainable flags, sublayer and buffer names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import minipaddle as paddle
from minipaddle.core.state import name_guard

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "nn" / "layers.json"
CASES = json.loads(GOLDEN.read_text())["cases"]


def _build(source: str):
    scope = {"paddle": paddle}
    with name_guard():
        exec(source, scope)  # noqa: S102 (the recorded snippet)
    return scope["m"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_repr_matches_paddle(name):
    assert repr(_build(CASES[name]["source"])) == CASES[name]["repr"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_names_match_paddle(name):
    case = CASES[name]
    m = _build(case["source"])
    assert list(m.state_dict()) == case["state_dict"]
    got = [[n, p.name, bool(p.trainable), list(p.shape)] for n, p in m.named_parameters()]
    assert got == case["parameters"]
    assert [n for n, _ in m.named_sublayers()] == case["sublayers"]
    assert [n for n, _ in m.named_buffers()] == case["buffers"]
    assert m.full_name() == case["full_name"]
