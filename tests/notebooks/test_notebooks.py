"""Every notebook runs top to bottom (with its parameters cell shrunk); the exercises are real exercises."""

from __future__ import annotations

import nbformat
import pytest

from .running import EXERCISES, NAMES, SHRINK, executed, outputs, run, source


def test_the_course_is_all_there():
    assert NAMES == [
        "00_quick_start", "01_tensors", "02_autograd", "03_layers", "04_training_loops", "05_static_mode",
        "06_to_static", "07_mixed_precision", "08_quantization", "09_deployment", "10_distributed",
        "11_profiler", "exercises/01_grad_rule", "exercises/02_match_summary",
    ]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_top_to_bottom(name):
    nb = executed(name)
    assert outputs(nb, "error") == []
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code), f"{name}: not every cell ran"


@pytest.mark.parametrize("name", NAMES)
def test_notebooks_are_committed_without_outputs(name):
    nb = nbformat.read(source(name), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{name}: strip the outputs before committing"
    assert "widgets" not in nb.metadata


@pytest.mark.parametrize("name", sorted(SHRINK))
def test_long_notebooks_are_shrunk_by_their_parameters_cell(name):
    nb = executed(name)
    tags = [c.metadata.get("tags", []) for c in nb.cells]
    at = tags.index(["parameters"])
    assert tags[at + 1] == ["injected-parameters"]


@pytest.mark.parametrize("name", EXERCISES)
def test_an_exercise_as_shipped_fails_its_check_kindly(name):
    """Without the reference answer the stub is not enough: the check cell stops with a friendly message."""
    nb = run(name, solutions=False, allow_errors=True)
    errors = outputs(nb, "error")
    assert len(errors) >= 1
    assert errors[0]["ename"] == "AssertionError" and errors[0]["evalue"].startswith("Not yet:")
