"""paddle.profiler's own behaviour: what is recorded (ops, Layers, phases, RecordEvent), in which mode, and that it
stays off the op door when not recording."""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pytest

import minipaddle as paddle
import minipaddle.profiler as P
from minipaddle.core.state import STATE
from minipaddle.profiler import statistics as st


def _noop(prof):
    pass


def _mlp():
    paddle.seed(0)
    return paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 2))


def _record(fn, **kwargs):
    prof = P.Profiler(on_trace_ready=_noop, **kwargs)
    with prof:
        fn()
    return prof.profiler_result


def test_ops_layers_and_phases_are_recorded():
    net = _mlp()
    opt = paddle.optimizer.SGD(parameters=net.parameters())

    def step():
        loss = net(paddle.randn([5, 3])).mean()
        loss.backward()
        opt.step()

    result = _record(step)
    ops = st.op_items(result.events)
    assert ops["matmul"].calls >= 2 + 2  # two forward matmuls, and the matmuls of their gradients
    assert {"matmul forward", "matmul backward"} <= set(ops["matmul"].detail)
    assert ops["sgd"].calls == 4 and set(ops["sgd"].detail) == {"sgd optimization"}
    layers = st.layer_items(result.events)
    assert [item.name for item in layers.values()] == ["Sequential", "0 (Linear)", "1 (ReLU)", "2 (Linear)"]
    assert all(item.calls == 1 for item in layers.values())
    assert layers[("", "Sequential")].total >= layers[("0", "Linear")].total
    assert layers[("1", "ReLU")].self_ops > 0  # relu ran directly in the ReLU layer
    phases = st.phase_items(result.events)
    assert set(phases) == {"ProfileStep", "Forward", "Backward", "Optimization"}
    assert phases["Forward"].calls == 1  # only the outermost Layer call counts as the phase


def test_ops_in_static_mode_are_timed_by_the_executor():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3], "float32")
            y = paddle.nn.functional.relu(x) * 2
        exe = paddle.static.Executor()
        exe.run(startup)
        feed = {"x": np.ones([2, 3], "float32")}
        result = _record(lambda: exe.run(main, feed=feed, fetch_list=[y]))
    finally:
        paddle.disable_static()
    names = {e.name for e in result.events if e.type is P.TracerEventType.Operator}
    assert {"relu", "scale"} <= names or {"relu", "multiply"} <= names


def test_record_event_as_context_manager_decorator_and_begin_end():
    @P.RecordEvent("square")
    def square(x):
        return x * x

    def body():
        with P.RecordEvent("make"):
            x = paddle.ones([2])
        square(x)
        square(x)
        ev = P.RecordEvent("manual")
        ev.begin()
        ev.end()

    users = st.user_items(_record(body).events)
    assert {k: v.calls for k, v in users.items()} == {"make": 1, "square": 2, "manual": 1}


def test_nothing_is_recorded_or_hooked_outside_a_recording():
    prof = P.Profiler(scheduler=P.make_scheduler(closed=1, ready=1, record=1, repeat=1), on_trace_ready=_noop)
    prof.start()
    assert STATE.hooks == ()  # CLOSED: the door has no hook
    prof.step()
    assert STATE.hooks == ()  # READY
    prof.step()
    assert len(STATE.hooks) == 1  # RECORD_AND_RETURN
    paddle.ones([1]) + 1
    prof.step()
    assert STATE.hooks == ()
    prof.stop()
    assert any(e.name == "add" for e in prof.profiler_result.events)
    with P.RecordEvent("outside"):  # records nothing, fails nothing
        paddle.ones([1])


def test_summary_prints_tables_and_sorts(capsys):
    net = _mlp()
    result = _record(lambda: net(paddle.randn([2, 3])).sum().backward())
    prof = P.Profiler(on_trace_ready=_noop)
    prof.profiler_result = result
    prof.summary(sorted_by=P.SortedKeys.CPUMin, time_unit="us", op_detail=False)
    text = capsys.readouterr().out
    for title in ("Device Summary", "Overview Summary", "Model Summary", "Layer Summary", "Operator Summary"):
        assert title in text
    assert "Time unit: us" in text
    op_section = text.split("Operator Summary")[1]
    rows = [line.split() for line in op_section.splitlines()[6:] if line and not line.startswith("-")]
    mins = [float(r[8]) for r in rows if len(r) > 8 and r[0] != "Name"]
    assert mins == sorted(mins) and mins  # CPUMin sorts ascending, as paddle
    with pytest.raises(ValueError, match="time_unit"):
        prof.summary(time_unit="hours")
    with pytest.raises(TypeError, match="sorted_by"):
        prof.summary(sorted_by="CPUTotal")


def test_export_and_load_profiler_result(tmp_path):
    net = _mlp()
    prof = P.Profiler(on_trace_ready=P.export_chrome_tracing(str(tmp_path)), record_shapes=True)
    with prof:
        net(paddle.randn([2, 3]))
    (path,) = tmp_path.iterdir()
    trace = json.loads(path.read_text())
    matmuls = [e for e in trace["traceEvents"] if e.get("name") == "matmul"]
    assert matmuls and matmuls[0]["args"]["input_shapes"] == [[2, 3], [3, 4]]
    loaded = P.load_profiler_result(str(path))
    assert sorted(e.name for e in loaded.events) == sorted(e.name for e in prof.profiler_result.events)
    assert {k: v.calls for k, v in st.op_items(loaded.events).items()} == {
        k: v.calls for k, v in st.op_items(prof.profiler_result.events).items()
    }
    buf = io.StringIO()
    prof.profiler_result = loaded
    with contextlib.redirect_stdout(buf):
        prof.summary()
    assert "Operator Summary" in buf.getvalue()
    with pytest.raises(FileNotFoundError, match="missing.json"):
        P.load_profiler_result(str(tmp_path / "missing.json"))
    (tmp_path / "bad.json").write_text("not json")
    with pytest.raises(ValueError, match="chrome tracing"):
        P.load_profiler_result(str(tmp_path / "bad.json"))


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="record"):
        P.make_scheduler(closed=1, ready=1, record=0)
    with pytest.raises(TypeError, match="closed"):
        P.make_scheduler(closed=1.5, ready=1, record=1)
    with pytest.raises(ValueError, match="end_batch"):
        P.Profiler(scheduler=(3, 2))
    with pytest.raises(TypeError, match="on_trace_ready"):
        P.Profiler(on_trace_ready=3)
    with pytest.raises(TypeError, match="num_samples"):
        P.Profiler(timer_only=True).step(num_samples="8")
    with pytest.warns(UserWarning, match="not supported"):
        P.Profiler(targets=[P.ProfilerTarget.GPU], on_trace_ready=_noop)
    with pytest.raises(TypeError, match="RecordEvent"):
        P.RecordEvent(3)


def test_timer_only_prints_perf_summary_after_warmup(capsys):
    prof = P.Profiler(timer_only=True)
    prof.start()
    for _ in range(12):
        prof.step(num_samples=4)
    prof.stop()
    out = capsys.readouterr().out
    assert "Perf Summary" in out and "batch_cost" in out and "IPS Unit: samples/s" in out
    assert prof.profiler_result is None  # timer_only records no events
