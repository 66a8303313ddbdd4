"""Run autograd_edges_cases.py with paddle 2.6 and write autograd_edges.json, for
tests/autograd/test_autograd_edges.py.

cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_autograd_edges_golden.py
"""

import importlib.util
import json
import os

import numpy.random  # noqa: F401  (before paddle, as its import needs)
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("autograd_edges_cases", os.path.join(HERE, "autograd_edges_cases.py"))
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)
out = cases.run_all(paddle)
with open(os.path.join(HERE, "autograd_edges.json"), "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
    f.write("\n")
print(json.dumps(out, indent=1))
