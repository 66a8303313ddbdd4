"""Run norm_cases.py with paddle 2.6 and write norm.json, for
tests/sparse/test_sparse_norm.py.

cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/sparse/make_norm_golden.py
"""

import importlib.util
import json
import os

import numpy.random  # noqa: F401  (before paddle, as its import needs)
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("norm_cases", os.path.join(HERE, "norm_cases.py"))
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)
out = cases.run_all(paddle)
with open(os.path.join(HERE, "norm.json"), "w") as f:
    json.dump(out, f, indent=0)
print(sorted(out))
