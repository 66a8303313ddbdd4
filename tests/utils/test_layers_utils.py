"""paddle.utils' nested-structure helpers (utils/layers_utils.py) against paddle 2.6
(tests/golden/fidelity/layers_utils_cases.py, recorded by make_layers_utils_golden.py into layers_utils.json)."""

from __future__ import annotations

import importlib.util

import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "layers_utils.json")


def _ours() -> dict:
    path = GOLDEN_ROOT / "fidelity" / "layers_utils_cases.py"
    spec = importlib.util.spec_from_file_location("layers_utils_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run_all(paddle)


OURS = _ours()


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_nest_helpers_answer_as_paddles(case):
    assert OURS[case] == GOLDEN[case]


def test_messages_name_what_differs():
    with pytest.raises(ValueError, match="Structure had 2 elements, but flat_sequence had 1"):
        paddle.utils.pack_sequence_as([1, [2]], [1])
    with pytest.raises(ValueError, match="The stride's length must be 3"):
        paddle.utils.convert_to_list((1, 2), 3, "stride")
