"""Record what real Paddle 2.6 computes for the static-mode cases in cases.py (static_pylayer, nce) into
arrays.npz, for tests/static/test_pylayer_nce.py (which needs no Paddle).

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/pylayer_nce/make_golden.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository, for tests.golden_files

from tests.golden_files import record_cases  # noqa: E402

if __name__ == "__main__":
    record_cases("pylayer_nce")
