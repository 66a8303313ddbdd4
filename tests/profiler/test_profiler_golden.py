"""paddle.profiler against what paddle 2.6 does (tests/golden/fidelity/profiler.json, from
make_profiler_golden.py): the enums, the schedulers, which steps each recording holds and when it is handed to
on_trace_ready, the step_info strings, the chrome trace's fields and the summary tables' skeleton."""

from __future__ import annotations

import contextlib
import io
import json
import re
import warnings

import pytest

import minipaddle as paddle
import minipaddle.profiler as P
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "profiler.json")


@pytest.mark.parametrize("name", ["ProfilerState", "ProfilerTarget", "SortedKeys", "TracerEventType"])
def test_enums_as_paddle(name):
    assert {m.name: m.value for m in getattr(P, name)} == GOLDEN["enums"][name]


def test_summary_views_include_paddles():
    ours = {m.name: m.value for m in P.SummaryView}
    assert {k: ours[k] for k in GOLDEN["enums"]["SummaryView"]} == GOLDEN["enums"]["SummaryView"]


@pytest.mark.parametrize("case", GOLDEN["make_scheduler"], ids=lambda c: str(c["kwargs"]))
def test_make_scheduler_states(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sched = P.make_scheduler(**case["kwargs"])
    assert [sched(i).name for i in range(16)] == case["states"]


@pytest.mark.parametrize("case", GOLDEN["range_scheduler"], ids=lambda c: str(c["range"]))
def test_range_scheduler_states(case):
    prof = P.Profiler(scheduler=tuple(case["range"]), on_trace_ready=lambda p: None)
    assert [prof.scheduler(i).name for i in range(10)] == case["states"]


def _train_step(net, opt):
    loss = net(paddle.randn([4, 3])).mean()
    loss.backward()
    opt.step()
    opt.clear_grad()


@pytest.mark.parametrize("case", GOLDEN["recordings"], ids=lambda c: str(c["kwargs"]))
def test_recordings_hold_the_steps_paddle_records(case, tmp_path):
    net = paddle.nn.Linear(3, 2)
    opt = paddle.optimizer.SGD(parameters=net.parameters())
    calls = []

    def ready(prof):
        path = tmp_path / f"t{len(calls)}.json"
        prof.export(str(path))
        events = json.loads(path.read_text())["traceEvents"]
        steps = sorted(int(e["name"].split("#")[1]) for e in events if e.get("cat") == "ProfileStep")
        calls.append({"at_step": prof.step_num, "profile_steps": steps})

    kwargs = case["kwargs"]
    sched = tuple(kwargs["scheduler"]) if "scheduler" in kwargs else P.make_scheduler(**kwargs["make_scheduler"])
    prof = P.Profiler(scheduler=sched, on_trace_ready=ready)
    prof.start()
    for _ in range(case["steps"]):
        _train_step(net, opt)
        prof.step()
    prof.stop()
    assert calls == case["calls"]


def test_step_info_strings():
    number = re.compile(r"[0-9]+\.[0-9]+")
    prof = P.Profiler(timer_only=True)
    prof.start()
    prof.step(num_samples=8)
    got = {"samples": prof.step_info()}
    prof.step(num_samples=8)
    got["unit"] = prof.step_info(unit="images")
    prof.step()
    got["steps"] = prof.step_info()
    prof.stop()
    assert {k: number.sub("#", v) for k, v in got.items()} == GOLDEN["step_info"]


def _recorded_run(tmp_path):
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU())
    opt = paddle.optimizer.SGD(parameters=net.parameters())
    prof = P.Profiler(scheduler=(1, 3), on_trace_ready=P.export_chrome_tracing(str(tmp_path), worker_name="worker"))
    prof.start()
    for _ in range(4):
        with P.RecordEvent("forward"):
            _train_step(net, opt)
        prof.step()
    prof.stop()
    return prof


def test_chrome_trace_has_paddles_fields(tmp_path):
    _recorded_run(tmp_path)
    (path,) = tmp_path.iterdir()
    assert re.sub(r"\d", "#", path.name) == GOLDEN["trace_file_pattern"]
    trace = json.loads(path.read_text())
    assert sorted(trace) == GOLDEN["trace_keys"]
    complete = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
    assert sorted(set.intersection(*(set(e) for e in complete))) == GOLDEN["trace_event_keys"]
    # paddle's C++ events (OperatorInner: infer_meta, compute; UserDefined: pybind calls) have no counterpart here
    cats = {e["cat"] for e in complete}
    assert cats == set(GOLDEN["trace_categories"]) - {"OperatorInner", "UserDefined"}
    for e in complete:  # what a trace viewer needs: numbers, and an end after the start
        assert isinstance(e["ts"], float) and e["dur"] >= 0


def test_summary_skeleton_as_paddle(tmp_path):
    prof = _recorded_run(tmp_path)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        prof.summary(views=[v for v in P.SummaryView if v is not P.SummaryView.LayerView])
    skeleton = []
    for line in buf.getvalue().splitlines():
        if re.fullmatch(r"-+[A-Za-z ():]+-+", line) or re.fullmatch(r"[- ]+", line) and line.strip():
            skeleton.append(line)
        elif line.startswith(("Name ", "Event Type", "Device ", "Time unit")):
            skeleton.append(line)
    assert skeleton == GOLDEN["summary_skeleton"]
