"""Static mode as user code drives it, compared with paddle 2.6 (tests/golden/fidelity/static_cases.py, recorded
into static.json by make_static_golden.py): Executor.run's feed and fetch_list forms, float64 layers, gradient clips
inside minimize, gradients of composite functions, create_parameter's names."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "static.json")


def _cases():
    spec = importlib.util.spec_from_file_location("static_cases", GOLDEN_ROOT / "fidelity" / "static_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def ours():
    return _cases().run_all(paddle)


def _numeric(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) or isinstance(x, list) and all(map(_numeric, x))


def _same(got, want, path="") -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), path
        for k in want:
            _same(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), path
        if _numeric(want) and _numeric(got) and np.asarray(want, dtype=object).dtype != object:
            np.testing.assert_allclose(
                np.asarray(got, float), np.asarray(want, float), rtol=1e-5, atol=1e-6, err_msg=path
            )
        else:
            for i, (g, w) in enumerate(zip(got, want)):
                _same(g, w, f"{path}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-5, abs=1e-6), path
    else:
        assert got == want, path


@pytest.mark.parametrize("section", sorted(GOLDEN))
def test_as_paddle(ours, section):
    _same(ours[section], GOLDEN[section], section)
