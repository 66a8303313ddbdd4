"""benchmarks/instructions.py: callgrind counts exactly the counted steps of a workload (skipped without valgrind)."""

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import _callgrind  # noqa: E402
import instructions  # noqa: E402

pytestmark = pytest.mark.skipif(
    shutil.which("valgrind") is None or shutil.which("cc") is None or not Path("/usr/include/valgrind").exists(),
    reason="needs valgrind with its headers and a C compiler",
)


def test_counts_scale_with_the_steps(tmp_path):
    library = _callgrind.client_library(str(tmp_path))
    checkout = str(Path(__file__).resolve().parents[2])
    one = instructions.count(checkout, "tiny", 4, 2, library, str(tmp_path))
    # the per-step figure does not depend on how many steps are counted (the region holds only the steps)
    two = instructions.count(checkout, "tiny", 8, 2, library, str(tmp_path))
    assert 50_000 < one < 1_000_000
    assert abs(two - one) / one < 0.05, (one, two)
