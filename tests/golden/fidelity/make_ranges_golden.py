"""Run ranges_cases.py with paddle 2.6 and write ranges.json, for tests/profiler/test_statistic_helper.py.

cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_ranges_golden.py
"""

import importlib.util
import json
import os

import numpy.random  # noqa: F401  (before paddle, as its import needs)
import paddle
import paddle.profiler.statistic_helper  # noqa: F401  (not imported by paddle.profiler itself)

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("ranges_cases", os.path.join(HERE, "ranges_cases.py"))
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)
out = cases.run_all(paddle)
with open(os.path.join(HERE, "ranges.json"), "w") as f:
    json.dump(out, f)
print(len(out))
