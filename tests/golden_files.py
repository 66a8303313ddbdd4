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
