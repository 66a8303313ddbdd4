"""paddle.utils.dlpack against paddle 2.6 (tests/golden/fidelity/dlpack_cases.py, recorded by make_dlpack_golden.py
into dlpack.json): round trips of every dtype and of a 0-d tensor, and the refusals."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.utils.dlpack import from_dlpack, to_dlpack
from tests.golden_files import GOLDEN_ROOT, load_cases, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "dlpack.json")


OURS = load_cases("fidelity", "dlpack_cases.py").run_all(paddle)


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_dlpack_answers_as_paddle(case):
    assert OURS[case] == GOLDEN[case]


def test_a_round_trip_shares_memory_and_keeps_strided_values():
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = from_dlpack(to_dlpack(x))
    y.numpy()[0] = 9.0  # the same memory, as DLPack promises (no copy on the way)
    assert x.numpy()[0] == 9.0
    t = paddle.to_tensor(np.arange(6.0).reshape(2, 3)).t()  # paddle 2.6 loses the strides here; minipaddle copies
    assert from_dlpack(to_dlpack(t)).numpy().tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
