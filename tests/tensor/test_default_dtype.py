"""Dtypes under paddle.set_default_dtype('float64') against paddle 2.6, in both modes
(tests/golden/fidelity/default_dtype_cases.py, recorded by make_default_dtype_golden.py into default_dtype.json)."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, load_cases, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "default_dtype.json")


OURS = load_cases("fidelity", "default_dtype_cases.py").run_all(paddle)


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_default_dtype_as_paddle(case):
    assert OURS[case] == GOLDEN[case]


def test_assign_says_it_makes_float64_data_float32():
    with pytest.warns(UserWarning, match="convert it to float32"):
        out = paddle.assign(np.array([0.1, 0.2]))
    assert out.dtype == paddle.float32 and np.allclose(out.numpy(), [0.1, 0.2])
