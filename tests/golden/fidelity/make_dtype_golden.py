"""Record paddle 2.6's output dtypes for the dtype sweep (dtype_sweep.py over dtype_cases.json) into
dtype_sweep.json, for tests/ops/test_dtype_sweep.py.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_dtype_golden.py

Some dtype combinations end paddle's process (a C++ check aborts), so the cases run in a worker process that writes
each result as it goes; when a worker dies, the case it was on is recorded as "crash" and a new worker goes on.
"""

import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PARTIAL = os.path.join(HERE, "dtype_sweep.partial.jsonl")


def worker(start: int) -> None:
    import numpy.random  # noqa: F401  (before paddle, as its import needs)
    import paddle

    spec = importlib.util.spec_from_file_location("dtype_sweep", os.path.join(HERE, "dtype_sweep.py"))
    sweep = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sweep)
    cases = json.load(open(os.path.join(HERE, "dtype_cases.json")))
    with open(PARTIAL, "a") as out:
        for case in cases[start:]:
            out.write(json.dumps({"id": case["id"], "started": True}) + "\n")
            out.flush()
            try:
                sweep.resolve(paddle, case["path"])
            except AttributeError:
                result = "missing"
            else:
                result = sweep.sweep(paddle, case)
            out.write(json.dumps({"id": case["id"], "result": result}) + "\n")
            out.flush()


def main() -> None:
    cases = json.load(open(os.path.join(HERE, "dtype_cases.json")))
    if os.path.exists(PARTIAL):
        os.remove(PARTIAL)
    results: dict = {}
    while len(results) < len(cases):
        start = len(results)
        subprocess.run([sys.executable, __file__, "--worker", str(start)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=3600)  # fmt: skip
        started = None
        for line in open(PARTIAL):
            rec = json.loads(line)
            if "result" in rec:
                results[rec["id"]] = rec["result"]
                started = None
            else:
                started = rec["id"]
        if started is not None and started not in results:  # the worker died on this case
            results[started] = "crash"
            with open(PARTIAL, "a") as out:
                out.write(json.dumps({"id": started, "result": "crash"}) + "\n")
        print(f"{len(results)}/{len(cases)}", flush=True)
    os.remove(PARTIAL)
    with open(os.path.join(HERE, "dtype_sweep.json"), "w") as f:
        json.dump(results, f, indent=0, sort_keys=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]))
    else:
        main()
