"""Record what paddle 2.6 does with each of the bad-input sweep's calls, into paddle_verdicts.json (read by
tests/reliability/test_paddle_verdicts.py). Two steps, from the repository root:

    .venv/bin/python tests/golden/reliability/export_calls.py /tmp/reliability_calls.jsonl
    cd /tmp && /work/paddle-venv/bin/python <repo>/tests/golden/reliability/make_golden.py /tmp/reliability_calls.jsonl

Per call the verdict is "ok" (paddle returned) or the name of the exception it raised; "hang" when it ran past
HANG_SECONDS, "crash" when it ended paddle's process (a C++ abort). The calls run in a worker process that writes
each result as it goes; the parent restarts a worker past a case that hung or crashed. A target whose valid call
paddle refuses, or which paddle does not have, is recorded as such with no calls. The file keeps, per target, only
the calls paddle refuses (with, for each, whether minipaddle accepted it when the calls were exported) and counts.

With --add, the targets of the calls file are added to (or replace theirs in) the existing paddle_verdicts.json and
their counts added to its counts: for targets new to the sweep, exported alone, without running the 14,000 calls
of the others again.
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PARTIAL = "/tmp/reliability_verdicts.partial.jsonl"  # the worker's results as they come; __main__ puts it by the calls
HANG_SECONDS = 20.0
FAMILIES = ("TypeError", "ValueError", "IndexError", "RuntimeError")


def decode(paddle, v):
    import numpy as np

    if isinstance(v, dict):
        if "tensor" in v:
            dtype, flat = v["dtype"], v["tensor"]
            if dtype.startswith("complex"):
                a = np.array([complex(re, im) for re, im in flat], dtype=dtype).reshape(v["shape"])
            elif dtype == "bfloat16":
                a = np.array(flat, dtype="float32").reshape(v["shape"])
            else:
                a = np.array(flat, dtype=dtype).reshape(v["shape"])
            t = paddle.to_tensor(a)
            return t.astype("bfloat16") if dtype == "bfloat16" else t
        if "list" in v:
            return [decode(paddle, e) for e in v["list"]]
        if "tuple" in v:
            return tuple(decode(paddle, e) for e in v["tuple"])
        if "dict" in v:
            return {k: decode(paddle, e) for k, e in v["dict"].items()}
        if "layer" in v:  # a Layer argument (export_calls.encode): paddle's own, built the same way
            return getattr(paddle.nn, v["layer"])(*[decode(paddle, e) for e in v["args"]])
    return v


def callable_of(paddle, target):
    """(args, kwargs) -> result, as sweep.Target.invoke, on paddle; AttributeError when paddle has no such API."""
    if target["kind"] == "function":
        fn = paddle
        for part in target["path"].split("."):
            fn = getattr(fn, part)
        return lambda a, k: fn(*a, **k)
    if target["kind"] == "method":
        receiver = decode(paddle, target["receiver"])
        getattr(receiver, target["path"])
        return lambda a, k: getattr(receiver, target["path"])(*a, **k)
    cls = getattr(paddle.nn, target["path"])
    n = target["n_ctor"]
    return lambda a, k: cls(*a[:n], **k)(*a[n:])


def outcome(fn):
    import signal
    import warnings

    def on_alarm(signum, frame):
        raise TimeoutError("alarm")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS / 2)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn()
        return "ok"
    except TimeoutError as e:
        return "hang" if str(e) == "alarm" else type(e).__name__
    except BaseException as e:  # noqa: BLE001 (recorded)
        return type(e).__name__
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def done_so_far() -> tuple:
    """From PARTIAL: {target index: its head verdict}, {(target index, key)} with a verdict, and what was started
    last without finishing: (target index, key or None for the valid call) or None."""
    heads, calls, pending = {}, set(), None
    if os.path.exists(PARTIAL):
        for line in open(PARTIAL):
            rec = json.loads(line)
            if "ready" in rec or "finished" in rec:
                continue
            if "started" in rec:
                pending = (rec["i"], rec.get("key"))
            elif "target" in rec:
                heads[rec["i"]] = rec["target"]
                pending = None
            else:
                calls.add((rec["i"], rec["key"]))
                pending = None
    return heads, calls, pending


def worker(calls_path: str, start: int) -> None:
    import resource

    import numpy.random  # noqa: F401  (before paddle, as its import needs)
    import paddle

    resource.setrlimit(resource.RLIMIT_AS, (8 * 2**30, resource.RLIM_INFINITY))  # a huge size fails, not swaps
    paddle.seed(0)
    heads, done, _ = done_so_far()
    with open(calls_path) as f, open(PARTIAL, "a") as out:

        def record(rec):
            out.write(json.dumps(rec) + "\n")
            out.flush()

        record({"ready": True})  # paddle is imported: the parent's hang watch starts here

        for i, line in enumerate(f):
            if i < start or heads.get(i, "ok") != "ok":
                continue
            target = json.loads(line)
            head = {"i": i, "id": target["id"]}
            if i not in heads:
                record({**head, "started": True})
            try:
                fn = callable_of(paddle, target)
            except AttributeError:
                record({**head, "target": "missing"})
                continue
            args = [decode(paddle, a) for a in target["args"]]
            kwargs = {k: decode(paddle, v) for k, v in target["kwargs"].items()}
            valid = outcome(lambda fn=fn, args=args, kwargs=kwargs: fn(list(args), dict(kwargs)))
            if i not in heads:
                record({**head, "target": "ok" if valid == "ok" else f"valid call refused: {valid}"})
            if valid != "ok":
                continue
            for call in target["calls"]:
                if (i, call["key"]) in done:
                    continue
                record({**head, "key": call["key"], "started": True})
                a, k = list(args), dict(kwargs)
                value = decode(paddle, call["value"])
                if isinstance(call["where"], int):
                    a[call["where"]] = value
                else:
                    k[call["where"]] = value
                record({**head, "key": call["key"], "verdict": outcome(lambda fn=fn, a=a, k=k: fn(a, k))})
        record({"finished": True})  # (LAPACK's error handler ends a process with status 0: eigvals of NaN)


def finished() -> bool:
    return os.path.exists(PARTIAL) and any("finished" in json.loads(line) for line in open(PARTIAL))


def main(calls_path: str, resume: bool, add: bool = False) -> None:
    targets = [json.loads(line) for line in open(calls_path)]
    if os.path.exists(PARTIAL) and not resume:
        os.remove(PARTIAL)
    pending = done_so_far()[2]
    start = pending[0] if pending else 0
    while not finished():
        proc = subprocess.Popen([sys.executable, __file__, "--worker", calls_path, str(start)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        last, last_size, hung = time.time(), -1, False
        ready_size = os.path.getsize(PARTIAL) if os.path.exists(PARTIAL) else 0
        while proc.poll() is None:
            time.sleep(1.0)
            size = os.path.getsize(PARTIAL) if os.path.exists(PARTIAL) else 0
            if size == ready_size:  # still importing paddle
                last = time.time()
            elif size != last_size:
                last, last_size = time.time(), size
            elif time.time() - last > HANG_SECONDS:
                proc.kill()
                proc.wait()
                hung = True
        if finished():
            break
        _, _, pending = done_so_far()
        if pending is None:
            raise RuntimeError(f"the worker ended ({proc.returncode}) with nothing pending")
        i, key = pending  # (a target's valid call runs again after a restart, but without its own record)
        verdict = "hang" if hung else "crash"
        with open(PARTIAL, "a") as out:
            rec = {"i": i, "id": targets[i]["id"]}
            rec.update({"key": key, "verdict": verdict} if key else {"target": f"valid call: {verdict}"})
            out.write(json.dumps(rec) + "\n")
        print(f"{targets[i]['id']} ({key or 'valid call'}): {verdict}", flush=True)
        start = i
    records = [json.loads(line) for line in open(PARTIAL)]
    write(targets, [r for r in records if not {"started", "ready", "finished"} & set(r)], add)


def write(targets, records, add: bool = False) -> None:
    exported = {t["id"]: {c["key"]: c["minipaddle"] for c in t["calls"]} for t in targets}
    out = {"targets": {}, "counts": {}}
    counts: dict = {}
    if add:  # keep what was recorded for the other targets, and their counts
        with open(os.path.join(HERE, "paddle_verdicts.json")) as f:
            old = json.load(f)
        out["targets"] = {t: v for t, v in old["targets"].items() if t not in exported}
        counts = dict(old["counts"])
    for rec in records:
        tid = rec["id"]
        entry = out["targets"].setdefault(tid, {"target": None, "refused": {}})
        if "target" in rec:
            entry["target"] = rec["target"]
        elif "verdict" in rec:
            counts[rec["verdict"]] = counts.get(rec["verdict"], 0) + 1
            if rec["verdict"] != "ok":
                accepted = exported.get(tid, {}).get(rec["key"]) == "accepted"
                entry["refused"][rec["key"]] = [rec["verdict"], accepted]
    out["counts"] = dict(sorted(counts.items(), key=lambda kv: -kv[1]))
    with open(os.path.join(HERE, "paddle_verdicts.json"), "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
    print(json.dumps(out["counts"]))


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[1] == "--worker":
        PARTIAL = sys.argv[2] + ".partial"
        worker(sys.argv[2], int(sys.argv[3]))
    else:
        PARTIAL = sys.argv[1] + ".partial"  # two calls files (a full run, an --add) never share one
        main(sys.argv[1], resume="--resume" in sys.argv, add="--add" in sys.argv)  # --resume: go on from PARTIAL
