"""Reading the golden files under tests/golden/: numbers and text recorded from real Paddle 2.6 by the
make_golden.py scripts beside them, so that the tests need no Paddle."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

GOLDEN_ROOT = Path(__file__).resolve().parent / "golden"


def read_json(path: Path) -> dict:
    return json.loads(path.read_text())


def read_arrays(path: Path) -> dict[str, np.ndarray]:
    """Every array of an .npz file, by name (never unpickled)."""
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def load_cases(folder: str, file: str = "cases.py"):
    """tests/golden/<folder>/<file> as a module: cases written once, run with either library (the generator runs
    them on paddle, the test on minipaddle)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"{folder}_{Path(file).stem}", GOLDEN_ROOT / folder / file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def record_cases(folder: str) -> None:
    """Run tests/golden/<folder>/cases.py's run_all on real Paddle and write its arrays to arrays.npz there (the
    make_golden.py scripts of the static cases call this from the paddle 2.6 venv)."""
    import warnings

    import paddle

    warnings.filterwarnings("ignore")
    arrays = load_cases(folder).run_all(paddle)
    np.savez(GOLDEN_ROOT / folder / "arrays.npz", **arrays)
    print(f"wrote {len(arrays)} arrays")
