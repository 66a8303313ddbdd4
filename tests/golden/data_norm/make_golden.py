"""Record what real Paddle 2.6 computes for the static-mode cases in cases.py (data_norm) into
arrays.npz, for tests/static/test_data_norm.py (which needs no Paddle).

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/data_norm/make_golden.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository, for tests.golden_files

from tests.golden_files import record_cases  # noqa: E402

if __name__ == "__main__":
    record_cases("data_norm")
