"""Running the notebooks as the test suite does: top to bottom in a fresh kernel, smaller where training is long.

- A notebook whose training is long has a cell tagged `parameters` (papermill's convention). The suite adds a
  cell right after it, tagged `injected-parameters`, with the smaller numbers in SHRINK.
- The exercises ship with a stub for the student; the suite runs them with MINIPADDLE_SOLUTIONS=1 in the
  kernel's environment, which makes their solution cell import the reference answers (notebooks/exercises/
  solutions/). `run(..., solutions=False)` runs them as a student first sees them.
- `executed(name)` is what the tests use: the notebook executed once per test run and kept in
  build/notebooks/ (the browser test reads the same copy, so no notebook runs twice; a file lock makes the two
  pytest-xdist workers wait for each other instead).
"""

from __future__ import annotations

import fcntl
import os
import uuid
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
BUILD = ROOT / "build" / "notebooks"
NAMES = sorted(str(p.relative_to(NOTEBOOKS).with_suffix("")) for p in NOTEBOOKS.rglob("*.ipynb")
               if ".ipynb_checkpoints" not in p.parts)  # fmt: skip
EXERCISES = [n for n in NAMES if n.startswith("exercises/")]
SHRINK = {
    "00_quick_start": "train_samples = 256\ntest_samples = 64\nepochs = 1",
    "04_training_loops": "epochs = 15\ncompare_steps = 40",
    "06_to_static": "steps = 10",
    "09_deployment": "train_steps = 5\ndownload_pretrained = False",
    "08_quantization": "train_samples = 1500\ntest_samples = 400\nepochs = 1\nqat_steps = 20",
    "07_mixed_precision": "steps = 3",
    "11_profiler": "steps = 8",
}
TIMEOUT = 120  # seconds per cell
# One id per test run, shared by the pytest-xdist workers (they get the same PYTEST_XDIST_TESTRUNUID).
RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex


def source(name: str) -> Path:
    return NOTEBOOKS / f"{name}.ipynb"


def shrink(nb, name: str) -> None:
    """Insert the smaller settings of SHRINK[name] after the notebook's `parameters` cell."""
    if name not in SHRINK:
        return
    tagged = [i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
    if not tagged:
        raise AssertionError(f"{name}: SHRINK has settings for it but it has no cell tagged 'parameters'")
    cell = nbformat.v4.new_code_cell(SHRINK[name], metadata={"tags": ["injected-parameters"]})
    cell.id = "injected-parameters"
    nb.cells.insert(tagged[0] + 1, cell)


def run(name: str, solutions: bool = True, allow_errors: bool = False):
    """Execute notebook `name` in a fresh kernel (in its own folder, as Jupyter would); returns the notebook."""
    from nbclient import NotebookClient

    nb = nbformat.read(source(name), as_version=4)
    shrink(nb, name)
    env = {k: v for k, v in os.environ.items() if k != "MINIPADDLE_SOLUTIONS"}
    if solutions:
        env["MINIPADDLE_SOLUTIONS"] = "1"
    client = NotebookClient(nb, timeout=TIMEOUT, kernel_name="python3", allow_errors=allow_errors,
                            resources={"metadata": {"path": str(source(name).parent)}})  # fmt: skip
    client.execute(env=env)  # widget state is stored in nb.metadata.widgets (nbclient's store_widget_state)
    return nb


def executed(name: str):
    """Notebook `name` executed in this test run (run once, then read from build/notebooks/)."""
    BUILD.mkdir(parents=True, exist_ok=True)
    flat = name.replace("/", "__")
    path = BUILD / f"{flat}.ipynb"
    with open(BUILD / f"{flat}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            nb = nbformat.read(path, as_version=4)
            if nb.metadata.get("minipaddle_test_run") == RUN_ID:
                return nb
        nb = run(name)
        nb.metadata["minipaddle_test_run"] = RUN_ID
        tmp = path.with_suffix(".tmp")
        nbformat.write(nb, tmp)
        os.replace(tmp, path)
        return nb


def outputs(nb, kind: str) -> list:
    """The outputs of one MIME type (e.g. 'image/svg+xml') or output type ('error') in an executed notebook."""
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == kind or kind in out.get("data", {}):
                found.append(out)
    return found
