"""Record what paddle 2.6's paddle.profiler does, for tests/profiler/test_profiler_golden.py.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_profiler_golden.py

Writes profiler.json next to this file: the enums' members, the states of make_scheduler and of the (start, end)
scheduler step by step, which ProfileStep events each recording holds (the state machine), the step_info strings'
shape, the chrome trace's keys, and the skeleton of summary()'s tables (title, header and rule lines).
"""

import contextlib
import gc
import glob
import io
import json
import os
import re
import tempfile
import warnings

import numpy.random  # noqa: F401  (before paddle, as its import needs)
import paddle
import paddle.profiler as P

HERE = os.path.dirname(os.path.abspath(__file__))
warnings.filterwarnings("ignore")
out = {}

out["enums"] = {
    name: {m.name: m.value for m in getattr(P, name)}
    for name in ("ProfilerState", "ProfilerTarget", "SortedKeys", "SummaryView")
}
out["enums"]["TracerEventType"] = {k: int(v) for k, v in P.TracerEventType.__members__.items()}

SCHEDULES = [
    {"closed": 1, "ready": 1, "record": 2, "repeat": 1},
    {"closed": 1, "ready": 1, "record": 4, "skip_first": 1},
    {"closed": 0, "ready": 0, "record": 1},
    {"closed": 2, "ready": 0, "record": 3, "repeat": 2, "skip_first": 3},
]
out["make_scheduler"] = [
    {"kwargs": kw, "states": [P.make_scheduler(**kw)(i).name for i in range(16)]} for kw in SCHEDULES
]


def range_states(rg):
    prof = P.Profiler(scheduler=rg, on_trace_ready=lambda p: None)
    states = [prof.scheduler(i).name for i in range(10)]
    del prof
    gc.collect()  # paddle keeps one native profiler at a time: free it before the next Profiler is made
    return states


out["range_scheduler"] = [{"range": list(rg), "states": range_states(rg)} for rg in [(0, 3), (1, 3), (2, 5), (3, 4)]]


def net_step(net, opt):
    x = paddle.randn([4, 3])
    loss = net(x).mean()
    loss.backward()
    opt.step()
    opt.clear_grad()


def recordings(kwargs, steps):
    """For each on_trace_ready call: the step it came at and the ProfileStep numbers in its trace."""
    paddle.seed(0)
    net = paddle.nn.Linear(3, 2)
    opt = paddle.optimizer.SGD(parameters=net.parameters())
    calls = []
    with tempfile.TemporaryDirectory() as tmp:

        def ready(prof):
            path = os.path.join(tmp, f"t{len(calls)}.json")
            prof.export(path)
            with open(path) as f:
                events = json.load(f)["traceEvents"]
            numbers = sorted(
                int(re.match(r"ProfileStep#(\d+)", e["name"]).group(1)) for e in events if e.get("cat") == "ProfileStep"
            )
            calls.append({"at_step": prof.step_num, "profile_steps": numbers})

        prof = P.Profiler(on_trace_ready=ready, **kwargs)
        prof.start()
        for _ in range(steps):
            net_step(net, opt)
            prof.step()
        prof.stop()
    del prof
    gc.collect()
    return calls


out["recordings"] = [
    {"kwargs": {"scheduler": list(s)}, "steps": n, "calls": recordings({"scheduler": tuple(s)}, n)}
    for s, n in [((1, 3), 5), ((0, 2), 4), ((2, 4), 3)]
] + [
    {"kwargs": {"make_scheduler": kw}, "steps": 10, "calls": recordings({"scheduler": P.make_scheduler(**kw)}, 10)}
    for kw in [{"closed": 1, "ready": 1, "record": 2, "repeat": 2}, {"closed": 0, "ready": 1, "record": 1}]
]

# step_info: the words of the string with and without num_samples, and with a unit.
prof = P.Profiler(timer_only=True)
prof.start()
prof.step(num_samples=8)
with_samples = prof.step_info()
prof.step(num_samples=8)
with_unit = prof.step_info(unit="images")
prof.step()
steps_only = prof.step_info()
prof.stop()
del prof
gc.collect()
NUMBER = re.compile(r"[0-9]+\.[0-9]+")
out["step_info"] = {
    k: NUMBER.sub("#", v) for k, v in [("samples", with_samples), ("unit", with_unit), ("steps", steps_only)]
}

# The chrome trace and the summary tables of a small training run.
paddle.seed(0)
net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU())
opt = paddle.optimizer.SGD(parameters=net.parameters())
with tempfile.TemporaryDirectory() as tmp:
    prof = P.Profiler(scheduler=(1, 3), on_trace_ready=P.export_chrome_tracing(tmp, worker_name="worker"))
    prof.start()
    for _ in range(4):
        with P.RecordEvent("forward"):
            net_step(net, opt)
        prof.step()
    prof.stop()
    files = sorted(glob.glob(os.path.join(tmp, "*")))
    out["trace_file_pattern"] = re.sub(r"\d", "#", os.path.basename(files[0]))
    with open(files[0]) as f:
        trace = json.load(f)
out["trace_keys"] = sorted(trace)
complete = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
out["trace_event_keys"] = sorted(set.intersection(*(set(e) for e in complete)))
out["trace_categories"] = sorted({e["cat"] for e in complete})

buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    prof.summary()
text = buf.getvalue()
skeleton = []
for line in text.splitlines():
    if re.fullmatch(r"-+[A-Za-z ():]+-+", line) or re.fullmatch(r"[- ]+", line) and line.strip():
        skeleton.append(line)
    elif line.startswith(("Name ", "Event Type", "Device ", "Time unit")):
        skeleton.append(line)
out["summary_skeleton"] = skeleton

with open(os.path.join(HERE, "profiler.json"), "w") as f:
    json.dump(out, f, indent=1)
print("wrote profiler.json:", {k: len(v) for k, v in out.items()})
