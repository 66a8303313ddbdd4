"""Run static_cases.py with paddle 2.6 and write static.json, for tests/static/test_user_code_golden.py.

cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_static_golden.py
"""

import importlib.util
import json
import os
import warnings

import numpy.random  # noqa: F401  (before paddle, as its import needs)
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
warnings.filterwarnings("ignore")
spec = importlib.util.spec_from_file_location("static_cases", os.path.join(HERE, "static_cases.py"))
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)
out = cases.run_all(paddle)
with open(os.path.join(HERE, "static.json"), "w") as f:
    json.dump(out, f, indent=1)
print(json.dumps(out)[:3000])
