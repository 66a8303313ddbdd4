"""Export the bad-input sweep's calls (tests/reliability/sweep.py) as JSON lines, for make_golden.py to run on
paddle 2.6 (run from the repository root with minipaddle's venv):

    .venv/bin/python tests/golden/reliability/export_calls.py /tmp/reliability_calls.jsonl

One line per target: {"id", "kind", "path", "n_ctor", "receiver", "args", "kwargs", "calls": [...]}, its valid
call's arguments encoded as JSON (a Tensor as its values, dtype and shape); each call is {"key": "arg=bad",
"where": index or keyword, "value": the bad value encoded, "minipaddle": minipaddle's verdict now ("accepted",
"clean", ...)}; a Layer argument built by sweep._layer as {"layer": name, "args"}. A target whose arguments cannot
be written as JSON (another Python object, a callable) is left out and counted.
"""

import json
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, ROOT)

from minipaddle.core.tensor import Tensor  # noqa: E402
from tests.reliability import sweep  # noqa: E402


class Unencodable(TypeError):
    pass


def encode(v):
    if hasattr(v, "_sweep_recipe"):  # a Layer given to a Layer (RNN's cell): how to build it (sweep._layer)
        name, args = v._sweep_recipe
        return {"layer": name, "args": [encode(a) for a in args]}
    if isinstance(v, Tensor):
        a = v.numpy()
        if a.dtype.kind == "c":
            flat = [[float(z.real), float(z.imag)] for z in a.reshape(-1)]
        elif a.dtype.kind == "f" or str(a.dtype) == "bfloat16":
            flat = [float(z) for z in a.astype("float64").reshape(-1)]
        else:
            flat = a.reshape(-1).tolist()
        return {"tensor": flat, "dtype": v.dtype.name, "shape": list(a.shape)}
    if isinstance(v, (list, tuple)):
        return {type(v).__name__: [encode(e) for e in v]}
    if isinstance(v, dict):
        return {"dict": {str(k): encode(e) for k, e in v.items()}}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, np.generic):
        return v.item()
    raise Unencodable(type(v).__name__)


def main(out_path: str) -> None:
    targets = sweep.all_targets()
    written = skipped = calls_total = 0
    with open(out_path, "w") as out:
        for target in targets:
            try:
                head = {"id": target.id, "kind": target.kind, "path": target.path, "n_ctor": target.n_ctor,
                        "receiver": encode(target.receiver), "args": [encode(a) for a in target.args],
                        "kwargs": {k: encode(v) for k, v in target.kwargs.items()}}  # fmt: skip
                nan_before = sweep.prepare(target)
                calls = []
                for arg, bad, where, make in sweep.bad_calls(target):
                    verdict, _ = sweep.judge(target, where, bad, make, nan_before)
                    calls.append({"key": f"{arg}={bad}", "where": where, "value": encode(make()),
                                  "minipaddle": verdict})  # fmt: skip
            except Unencodable as e:
                print(f"left out {target.id}: an argument is a {e}", file=sys.stderr)
                skipped += 1
                continue
            head["calls"] = calls
            out.write(json.dumps(head) + "\n")
            written += 1
            calls_total += len(calls)
    print(f"{written} targets ({calls_total} bad calls) written, {skipped} left out")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/reliability_calls.jsonl")
