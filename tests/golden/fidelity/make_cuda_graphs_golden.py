"""Run cuda_graphs_cases.py with paddle 2.6 (CPU build) and write cuda_graphs.json, for
tests/device/test_cuda_graphs.py.

cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_cuda_graphs_golden.py
"""

import importlib.util
import json
import os

import numpy.random  # noqa: F401  (before paddle, as its import needs)
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("cuda_graphs_cases", os.path.join(HERE, "cuda_graphs_cases.py"))
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)
out = cases.run_all(paddle)
with open(os.path.join(HERE, "cuda_graphs.json"), "w") as f:
    json.dump(out, f, indent=0)
print(out)
