"""Run loss_cases.py with paddle 2.6 and write losses.json, for tests/nn/test_loss_fidelity.py.

cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_loss_golden.py
"""

import importlib.util
import json
import os

import numpy.random  # noqa: F401  (before paddle, as its import needs)
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("loss_cases", os.path.join(HERE, "loss_cases.py"))
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)
out = cases.run_all(paddle)
with open(os.path.join(HERE, "losses.json"), "w") as f:
    json.dump(out, f, indent=1)
print(out["textbook_mlp"], out["label_gradients"].keys())
