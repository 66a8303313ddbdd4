"""Invalid arguments that paddle 2.6 refuses are refused here too, and valid ones run (verdicts recorded from
paddle by tests/golden/fidelity/make_invalid_golden.py): softmax's axis out of range, argmax's dtype, histogram's
min > max, index_select with a float index, allclose of two dtypes, nll_loss's [N, 1] label, ..."""

from __future__ import annotations

import importlib.util

import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "invalid.json")
# where minipaddle's verdict differs from paddle's on purpose
ON_PURPOSE = {
    "slice bad": "paddle.slice ignores an axis out of range (axes=[3] on a 2-D tensor); minipaddle says so instead",
    "scale str": "paddle.scale(x, scale='a') silently gives zeros; minipaddle refuses a scale that is not a number",
    "take_along_axis float index": "paddle gives zeros for a float index (whatever its values); minipaddle refuses "
    "it, as paddle refuses float indices in gather, index_select, index_sample and take_along_axis's siblings",
}


@pytest.fixture(scope="module")
def ours():
    spec = importlib.util.spec_from_file_location("invalid_cases", GOLDEN_ROOT / "fidelity" / "invalid_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run_all(paddle)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_verdict_as_paddle(ours, name):
    if name in ON_PURPOSE:
        assert ours[name] != GOLDEN[name], f"{name} now agrees with paddle: drop it from ON_PURPOSE"
    else:
        assert ours[name] == GOLDEN[name]
