"""Run invalid_cases.py with paddle 2.6 and write invalid.json, for tests/tensor/test_invalid_arguments.py.

cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_invalid_golden.py
"""

import importlib.util
import json
import os
import warnings

import numpy.random  # noqa: F401  (before paddle, as its import needs)
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
warnings.filterwarnings("ignore")
spec = importlib.util.spec_from_file_location("invalid_cases", os.path.join(HERE, "invalid_cases.py"))
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)
out = cases.run_all(paddle)
with open(os.path.join(HERE, "invalid.json"), "w") as f:
    json.dump(out, f, indent=0, sort_keys=True)
print(sum(v == "refused" for v in out.values()), "refused of", len(out))
