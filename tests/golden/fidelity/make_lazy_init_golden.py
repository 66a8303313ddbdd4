"""Run lazy_init_cases.py with paddle 2.6 and write lazy_init.json, for tests/nn/test_lazy_init.py.

cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_lazy_init_golden.py
"""

import importlib.util
import json
import os

import numpy.random  # noqa: F401  (before paddle, as its import needs)
import paddle
import paddle.nn.initializer.lazy_init  # noqa: F401  (paddle.nn.initializer does not import it by name)

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("lazy_init_cases", os.path.join(HERE, "lazy_init_cases.py"))
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)
out = cases.run_all(paddle)
with open(os.path.join(HERE, "lazy_init.json"), "w") as f:
    json.dump(out, f, indent=0)
print(out)
