"""Export the dtype sweep's cases from minipaddle's op table into dtype_cases.json (run from the repository root):

    .venv/bin/python tests/golden/fidelity/export_dtype_cases.py

A case is an op-table entry whose function is a public minipaddle function that paddle 2.6 has under the same path
(paddle.X, paddle.nn.functional.X, paddle.linalg.X, ...), with its first sample's arguments as JSON.
"""

import json
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, ROOT)

import minipaddle  # noqa: E402
from tests.op_table import OP_TABLE  # noqa: E402

NAMESPACES = ["", "nn.functional", "linalg", "fft", "signal", "incubate", "geometric", "vision.ops", "sparse"]


def public_path(fn):
    for ns in NAMESPACES:
        mod = minipaddle
        for part in ns.split(".") if ns else []:
            mod = getattr(mod, part, None)
        name = getattr(fn, "__name__", "")
        if mod is not None and name and not name.startswith("_") and getattr(mod, name, None) is fn:
            return f"{ns}.{name}" if ns else name
    return None


def encode(a):
    if isinstance(a, np.ndarray):
        if a.dtype == object:
            raise TypeError
        return {"array": a.tolist(), "dtype": str(a.dtype)}
    if isinstance(a, list) and a and all(isinstance(e, np.ndarray) for e in a):
        return {"list": [encode(e) for e in a]}
    json.dumps(a)
    return a


cases = []
for info in OP_TABLE:
    path = public_path(info.fn)
    if path is None:
        continue
    sample = info.samples(np.random.default_rng(0))[0]
    if not any(isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in sample.args):
        continue
    try:
        args = [encode(a) for a in sample.args]
        json.dumps(sample.kwargs)
    except TypeError:
        continue
    cases.append({"name": info.name, "path": path, "args": args, "kwargs": sample.kwargs})
names = [c["name"] for c in cases]
for c in cases:  # an id per case: the entry's name, with the path when two entries share a name
    c["id"] = c["name"] if names.count(c["name"]) == 1 else f"{c['name']} [{c['path']}]"
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "dtype_cases.json"), "w") as f:
    json.dump(cases, f)
print(f"{len(cases)} cases of {len(OP_TABLE)} entries")
