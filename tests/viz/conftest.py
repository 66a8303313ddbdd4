"""The golden-file fixture of the viz tests (the sample computations they draw are in models.py).

Golden files live in tests/golden/viz/<name>.dot (.txt for tables). When a drawing changes on purpose,
regenerate them with

    VIZ_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/viz

and read the diff of the .dot files before keeping it: a golden file is only ever rewritten deliberately.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "viz"
UPDATE = os.environ.get("VIZ_UPDATE_GOLDEN") == "1"


@pytest.fixture
def golden():
    """golden(name, text): compare `text` with tests/golden/viz/<name>.dot (rewrite it under VIZ_UPDATE_GOLDEN=1);
    `suffix=".txt"` for text that is not DOT (summary tables)."""

    def check(name: str, text: str, suffix: str = ".dot") -> None:
        path = GOLDEN / f"{name}{suffix}"
        if UPDATE:
            path.write_text(text, encoding="utf-8")
        assert path.exists(), f"no golden file {path}; create it with VIZ_UPDATE_GOLDEN=1"
        assert text == path.read_text(encoding="utf-8"), f"{name}: the text differs from {path}"

    return check
