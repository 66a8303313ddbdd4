"""Record what real Paddle 2.6 computes for the static-mode cases in cases.py (paddle.static.ctr_metric_bundle's
sums over three Executor runs) into arrays.npz, for tests/static/test_ctr_metric_bundle.py (which needs no Paddle).

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/ctr_metric_bundle/make_golden.py
"""

import importlib.util
import os
import warnings

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))


def load_cases():
    spec = importlib.util.spec_from_file_location("ctr_metric_bundle_cases", os.path.join(HERE, "cases.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    warnings.filterwarnings("ignore")
    arrays = load_cases().run_all(paddle)
    np.savez(os.path.join(HERE, "arrays.npz"), **arrays)
    print(f"wrote {len(arrays)} arrays")
