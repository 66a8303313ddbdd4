"""paddle.Model, the callbacks, summary and flops against real Paddle 2.6 (tests/golden/hapi/make_golden.py):
the same code runs under minipaddle and must print the same lines (times masked), raise the same warnings and
return the same values."""

from __future__ import annotations

import pytest

from tests.hapi.golden import CASES, comparable, run_snippet, same_text


@pytest.mark.parametrize("name", sorted(CASES))
def test_prints_like_paddle(name):
    got = run_snippet(CASES[name]["source"])
    expected = CASES[name]
    assert same_text(got["stdout"], expected["stdout"]), (
        f"printed:\n{comparable(got['stdout'])}\nPaddle printed:\n{comparable(expected['stdout'])}"
    )
    assert got["warnings"] == expected["warnings"]
    assert got["result"] == expected["result"]


def test_comparison_is_not_blind():
    """same_text tolerates only masked times and the 4th decimal: a changed word, step count or value fails."""
    line = "step 2/5 - loss: 1.3837 - acc: 0.3750 - 12ms/step\n"
    assert same_text(line.replace("12ms", "3us"), line)
    assert same_text(line.replace("1.3837", "1.3838"), line)
    assert not same_text(line.replace("1.3837", "1.3850"), line)
    assert not same_text(line.replace("2/5", "3/5"), line)
    assert not same_text(line.replace("acc", "accuracy"), line)
    assert not same_text(line + line, line)
