"""Record why paddle 2.6 refuses each dtype it refuses in the dtype sweep (the "error" answers of dtype_sweep.json):
the exception type and the end of its message, into dtype_refusals.json. minipaddle/tensor/dtype_support.py's lists
were read from these messages (paddle's `check_variable_and_dtype` names the function, the argument and the list);
tests/ops/test_dtype_sweep.py uses the file to say why a combination where minipaddle computes stays.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_dtype_refusals.py

Some refusals end paddle's process (a C++ check aborts), so the calls run in a worker that writes each result as it
goes; when a worker dies, the call it was on is recorded as a "crash" and a new worker goes on.
"""

import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PARTIAL = os.path.join(HERE, "dtype_refusals.partial.jsonl")


def refused() -> list:
    """[case id, mode, dtype] for every combination paddle answered with "error"."""
    sweep = json.load(open(os.path.join(HERE, "dtype_sweep.json")))
    todo = []
    for cid, answer in sorted(sweep.items()):
        if isinstance(answer, dict):
            for mode in ("dynamic", "static"):
                todo += [[cid, mode, dtype] for dtype, got in sorted(answer[mode].items()) if got == "error"]
    return todo


def worker(start: int) -> None:
    import warnings

    import numpy.random  # noqa: F401  (before paddle, as its import needs)
    import paddle

    spec = importlib.util.spec_from_file_location("dtype_sweep", os.path.join(HERE, "dtype_sweep.py"))
    sweep = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sweep)
    cases = {c["id"]: c for c in json.load(open(os.path.join(HERE, "dtype_cases.json")))}
    todo = refused()
    with open(PARTIAL, "a") as out:
        for i, (cid, mode, dtype) in enumerate(todo[start:], start):
            out.write(json.dumps({"i": i, "started": True}) + "\n")
            out.flush()
            call = sweep.dynamic_call if mode == "dynamic" else sweep.static_call
            if mode == "static":
                paddle.enable_static()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = {"ran": call(paddle, cases[cid], dtype)}  # (it ran this time: recorded as such)
            except Exception as e:  # noqa: BLE001
                lines = [ln for ln in str(e).strip().splitlines() if ln.strip()]
                result = {"type": type(e).__name__, "message": (lines[-1] if lines else "")[-300:]}
            finally:
                if mode == "static":
                    paddle.disable_static()
            out.write(json.dumps({"i": i, "key": f"{cid}|{mode} {dtype}", "result": result}) + "\n")
            out.flush()


def main() -> None:
    todo = refused()
    if os.path.exists(PARTIAL):
        os.remove(PARTIAL)
    results: dict = {}
    while len(results) < len(todo):
        subprocess.run([sys.executable, __file__, "--worker", str(len(results))], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=3600)  # fmt: skip
        started = None
        for line in open(PARTIAL):
            rec = json.loads(line)
            if "result" in rec:
                results[rec["key"]] = rec["result"]
                started = None
            else:
                started = rec["i"]
        if started is not None and started >= len(results):  # the worker died on this call
            cid, mode, dtype = todo[started]
            key = f"{cid}|{mode} {dtype}"
            results[key] = {"type": "crash", "message": ""}
            with open(PARTIAL, "a") as out:
                out.write(json.dumps({"i": started, "key": key, "result": results[key]}) + "\n")
        print(f"{len(results)}/{len(todo)}", flush=True)
    os.remove(PARTIAL)
    with open(os.path.join(HERE, "dtype_refusals.json"), "w") as f:
        json.dump(results, f, indent=0, sort_keys=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]))
    else:
        main()
