"""Write dtype_known_differences.json: every (case, mode, dtype) of the dtype sweep where minipaddle's answer differs
from paddle 2.6's, each with the reason it stays, for tests/ops/test_dtype_sweep.py. Regenerate it, do not edit it:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_dtype_known_differences.py

(MINIPADDLE_PYTHON names minipaddle's interpreter, /work/main/.venv/bin/python unless set.) It reads paddle's answers
(dtype_sweep.json), runs minipaddle's sweep in minipaddle's interpreter to find where the two differ, and calls paddle
again for each difference to read its whole message: the call itself where paddle refuses it, and the run of the
static Program where paddle builds it (paddle may declare one dtype and compute another, or build what its kernels
then refuse); those outcomes are kept in dtype_differences_paddle.json. Each difference gets its reason
from the first rule below that explains it; one that no rule explains stops the script, so a new difference is fixed
or given a rule here, never written down unexplained. SPECIAL holds the few reasons that are judgments, not readings
of paddle's answers; each must still be a difference.
"""

import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
OUT = os.path.join(HERE, "dtype_known_differences.json")
OUTCOMES = os.path.join(HERE, "dtype_differences_paddle.json")  # paddle's outcome of each differing call, as read

FLOAT16_CPU = (
    "paddle 2.6's CPU build has no float16 kernel for it, but its static mode accepts float16 (and its GPU build "
    "computes it); minipaddle has one device and computes float16 in numpy"
)
SPECIAL = {
    ("divide", "dynamic int32"): "a refusal of the sample's values, not of the dtype: paddle 2.6 raises on an integer "
    "division by zero, minipaddle gives numpy's answer (argument values are the reliability sweep's)",
    ("householder_product", "dynamic int32"): "paddle 2.6's composite runs the reflections in integer arithmetic "
    "(the result is not a Q factor: [1, 0, 0, ...]); minipaddle refuses integer input",
    ("log_loss", "dynamic float64"): "paddle 2.6 has a float32 log_loss kernel only (and checks float32 in static "
    "mode); minipaddle computes float64 too, which the op table's float64 gradient check needs",
    ("margin_cross_entropy", "dynamic float16"): "paddle 2.6 has no CPU kernel for margin_cross_entropy at all (GPU "
    "only); minipaddle computes it on its one device",
    ("npair_loss", "dynamic float64"): "a paddle 2.6 bug: its dynamic float64 run fails inside the kernel on a tensor "
    "of another dtype, while its static mode accepts float64; minipaddle computes it",
    ("poisson_nll_loss", "dynamic float16"): FLOAT16_CPU + " (paddle's static mode refuses this call for its int64 "
    "'label' only)",
    ("poisson_nll_loss", "static float16"): "paddle 2.6's static check refuses the sample's int64 label (its dynamic "
    "mode computes an int64 label with a float32 or float64 input) and its CPU build has no float16 kernel; "
    "minipaddle accepts both",
}
SPECIAL[("divide", "dynamic int64")] = SPECIAL[("divide", "dynamic int32")]
SPECIAL[("householder_product", "dynamic int64")] = SPECIAL[("householder_product", "dynamic int32")]
SPECIAL[("log_loss", "static float64")] = SPECIAL[("log_loss", "dynamic float64")]
for _dtype in ("float32", "float64"):
    SPECIAL[("margin_cross_entropy", f"dynamic {_dtype}")] = SPECIAL[("margin_cross_entropy", "dynamic float16")]

CPU_KERNEL_MISSING = "kernel_key.backend() == Backend::CPU"  # paddle's phi message when no CPU kernel has the dtype
STATIC_CHECK = re.compile(r"The data type of '([^']+)' in (\S+) must be (.+), but received (\w+)\.")
DYNAMIC_ONLY = re.compile(r"We only support '(\w+)\(\)' in dynamic graph mode")
NO_KERNEL = re.compile(r"There are no kernels which are registered in the (\w+) operator")  # its fluid ops' message
WRONG_DTYPE = "Expected dtype() == phi::CppTypeToDataType<T>::Type()"  # a kernel meeting a dtype it did not declare


def load(name):
    with open(os.path.join(HERE, name)) as f:
        return json.load(f)


def minipaddle_answers() -> dict:
    """{case id: minipaddle's sweep answer}, computed in minipaddle's own interpreter."""
    code = (
        "import importlib.util, json, sys\n"
        "import minipaddle\n"
        f"spec = importlib.util.spec_from_file_location('dtype_sweep', {os.path.join(HERE, 'dtype_sweep.py')!r})\n"
        "sweep = importlib.util.module_from_spec(spec); spec.loader.exec_module(sweep)\n"
        f"cases = json.load(open({os.path.join(HERE, 'dtype_cases.json')!r}))\n"
        "json.dump({c['id']: sweep.sweep(minipaddle, c) for c in cases}, sys.stdout)\n"
    )
    python = os.environ.get("MINIPADDLE_PYTHON", "/work/main/.venv/bin/python")
    env = dict(os.environ, PYTHONPATH=ROOT)
    done = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=3600)
    return json.loads(done.stdout)


def differences(paddle_answers: dict, ours: dict) -> list:
    """[(case id, "mode dtype")] where minipaddle's answer is not paddle's (test_dtype_sweep's comparison)."""
    found = []
    for cid, want in sorted(paddle_answers.items()):
        for mode in ("dynamic", "static"):
            for dtype, w in sorted(want[mode].items()):
                g = ours[cid][mode][dtype]
                if (w == "error") != (g == "error") or (w != "error" and g != w):
                    found.append((cid, f"{mode} {dtype}"))
    return found


def message_of(e: Exception) -> str:
    """Paddle's message on one line, without the Python traceback its static mode puts in front ("In user code:",
    then each frame as a 'File ...' line and its source line), which names this machine's paths."""
    lines = str(e).replace("In user code:", "").splitlines()
    frames = {i for i, ln in enumerate(lines) if ln.strip().startswith('File "')}
    kept = [ln for i, ln in enumerate(lines) if i not in frames and i - 1 not in frames]
    return " ".join(" ".join(kept).split())[-1500:]


def run_worker(todo_path: str, out_path: str, start: int) -> None:
    """Paddle's outcome for each [case id, mode, dtype, what] of todo[start:] ("call": the call in that mode, "run": the
    static Program's run), written as it goes (a C++ abort ends the worker)."""
    import warnings

    import numpy.random  # noqa: F401  (before paddle, as its import needs)
    import paddle

    spec = importlib.util.spec_from_file_location("dtype_sweep", os.path.join(HERE, "dtype_sweep.py"))
    sweep = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sweep)
    cases = {c["id"]: c for c in load("dtype_cases.json")}
    todo = json.load(open(todo_path))
    with open(out_path, "a") as out:
        for i, (cid, mode, dtype, what) in enumerate(todo[start:], start):
            out.write(json.dumps({"i": i, "started": True}) + "\n")
            out.flush()
            call = sweep.static_run if what == "run" else sweep.static_call if mode == "static" else sweep.dynamic_call
            if mode == "static":
                paddle.enable_static()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = {"ran": call(paddle, cases[cid], dtype)}
            except Exception as e:  # noqa: BLE001  (the message is what the reason reads)
                result = {"error": message_of(e)}
            finally:
                if mode == "static":
                    paddle.disable_static()
            out.write(json.dumps({"i": i, "result": result}) + "\n")
            out.flush()


def paddle_outcomes(todo: list) -> dict:
    """{"case id|mode dtype": {"ran": dtypes} or {"error": message}} for todo's calls, crash-safe."""
    todo_path, out_path = os.path.join(HERE, "runs.todo.json"), os.path.join(HERE, "runs.partial.jsonl")
    with open(todo_path, "w") as f:
        json.dump(todo, f)
    if os.path.exists(out_path):
        os.remove(out_path)
    results: dict = {}
    while len(results) < len(todo):
        subprocess.run([sys.executable, __file__, "--worker", str(len(results))], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=3600)  # fmt: skip
        started = None
        for line in open(out_path):
            rec = json.loads(line)
            if "result" in rec:
                results[rec["i"]] = rec["result"]
                started = None
            else:
                started = rec["i"]
        if started is not None and started not in results:  # the worker died on this run
            results[started] = {"error": "crash"}
            with open(out_path, "a") as out:
                out.write(json.dumps({"i": started, "result": results[started]}) + "\n")
    os.remove(todo_path)
    os.remove(out_path)
    return {f"{todo[i][0]}|{todo[i][1]} {todo[i][2]}": r for i, r in results.items()}


def _ours(got) -> str:
    return "refuses when the Program is built" if got == "error" else f"builds and runs it, giving {', '.join(got)}"


def reason(cid, combination, want, got, outcome) -> str | None:
    """Why (cid, combination) differs, read from paddle's answers and its outcome now; None when no rule explains it."""
    mode, dtype = combination.split()
    if (cid, combination) in SPECIAL:
        return SPECIAL[(cid, combination)]
    message = outcome.get("error", "")
    if want[mode][dtype] == "error" and got[mode][dtype] != "error":  # paddle refuses, minipaddle computes
        if mode == "dynamic" and dtype == "float16" and (CPU_KERNEL_MISSING in message or NO_KERNEL.search(message)):
            if want["static"][dtype] != "error":
                return FLOAT16_CPU
        if mode == "static" and (m := DYNAMIC_ONLY.search(message)):
            return (
                f"paddle 2.6 runs {m[1]} in dynamic mode only (an AssertionError in static mode, whatever the "
                "dtype); minipaddle builds it in static mode too"
            )
        if mode == "static" and (m := STATIC_CHECK.search(message)) and want["dynamic"][dtype] != "error":
            return (
                f"paddle 2.6's static check of {m[2]}'s '{m[1]}' lists {m[3]}, so it refuses the {m[4]} it gets "
                "here, while its dynamic mode computes the same call; minipaddle accepts it in both modes"
            )
        return None
    if mode != "static" or want[mode][dtype] == "error":
        return None
    declared = ", ".join(want[mode][dtype])
    if m := NO_KERNEL.search(message):  # paddle builds what its run refuses
        return (
            f"paddle 2.6 builds the Program (declaring {declared}) but its run has no {dtype} kernel for {m[1]}: "
            f"a refusal deferred to the run; minipaddle {_ours(got[mode][dtype])}"
        )
    if WRONG_DTYPE in message:
        return (
            f"paddle 2.6 builds the Program (declaring {declared}) but its run fails for {dtype}: a kernel finds a "
            f"tensor of another dtype than it declared: a refusal deferred to the run; minipaddle "
            f"{_ours(got[mode][dtype])}"
        )
    if "ran" in outcome and got[mode][dtype] == outcome["ran"]:  # paddle declares what its run does not give
        ran = ", ".join(outcome["ran"])
        return (
            f"paddle 2.6 declares the static output {declared}, but its kernel computes {ran} and the run returns "
            f"{ran}; minipaddle declares {ran}, the dtype the run gives (as dynamic mode does in both)"
        )
    return None


def classify(want: dict, ours: dict, outcomes: dict) -> tuple:
    """(known, unexplained): the reason of each difference between paddle's answers (want) and minipaddle's (ours),
    read with paddle's outcomes of those calls; tests/ops/test_dtype_sweep.py calls it too, on minipaddle's answers
    of the day and the recorded outcomes, so the file stays what this script writes."""
    known, unexplained = {}, []
    for cid, comb in differences(want, ours):
        mode, dtype = comb.split()
        outcome = outcomes.get(f"{cid}|{comb}")
        why = None if outcome is None else reason(cid, comb, want[cid], ours[cid], outcome)
        if why is None:
            unexplained.append(f"{cid} {comb}: paddle {want[cid][mode][dtype]}, minipaddle {ours[cid][mode][dtype]}; "
                               f"paddle's outcome {outcome}")  # fmt: skip
        else:
            known.setdefault(cid, {})[comb] = why
    return known, unexplained


def main() -> None:
    want = load("dtype_sweep.json")
    ours = minipaddle_answers()
    found = differences(want, ours)
    missing = sorted(set(SPECIAL) - set(found))
    if missing:
        sys.exit(f"SPECIAL lists combinations that no longer differ (remove them): {missing}")
    todo = []
    for cid, comb in found:
        mode, dtype = comb.split()
        todo.append([cid, mode, dtype, "run" if mode == "static" and want[cid][mode][dtype] != "error" else "call"])
    outcomes = paddle_outcomes(todo)
    known, unexplained = classify(want, ours, outcomes)
    if unexplained:
        sys.exit("no rule explains these differences (fix them or add a rule):\n" + "\n".join(unexplained))
    for name, data in ((OUTCOMES, outcomes), (OUT, known)):
        with open(name, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.write("\n")
    print(f"{sum(map(len, known.values()))} differences in {len(known)} cases")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        run_worker(os.path.join(HERE, "runs.todo.json"), os.path.join(HERE, "runs.partial.jsonl"), int(sys.argv[2]))
    else:
        main()
