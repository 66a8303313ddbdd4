"""The examples in README.md run as written (a new user copies them first)."""

import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_readme_has_its_examples():
    assert len(BLOCKS) >= 2


def test_autograd_example_runs(capsys):
    exec(compile(BLOCKS[0], "README.md (autograd example)", "exec"), {})
    printed = capsys.readouterr().out
    assert "[1., 2., 3.]" in printed and "True" in printed


@pytest.mark.slow
def test_high_level_api_example_trains_above_90_percent():
    namespace: dict = {}
    exec(compile(BLOCKS[1].replace("verbose=1", "verbose=0"), "README.md (high-level API example)", "exec"), namespace)
    result = namespace["model"].evaluate(namespace["test"], batch_size=64, verbose=0)
    assert result["acc"] > 0.9
