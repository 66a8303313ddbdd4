"""A finished recording, and its file: the chrome tracing JSON that chrome://tracing and Perfetto open.

`ProfilerResult` holds the events of one recording span and a few facts about the run (`extra_info`). Its file
is the Trace Event Format (a "traceEvents" list of complete events, ph "X", times in microseconds), with paddle's
fields: `cat` is the event type, `args` carries the Layer path and phase. `load_profiler_result` reads such a file
back (minipaddle's own or paddle 2.6's chrome trace), so `summary` and `viz.plot_profile` work on a saved run.
Paddle's other export, protobuf (`format='pb'`), is not written here.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading

from minipaddle.profiler.events import Event, Recorder, TracerEventType

_PADDLE_DURATION = re.compile(r"\[[0-9.]+ [mun]?s\]$")  # paddle writes "matmul dygraph[116.382 us]" as a name


class ProfilerResult:
    """The events of one recording, with `extra_info` (process, threads, CPU utilization).

    Attributes:
        events (list[Event]): every recorded event, in the order they ended.
        extra_info (dict): str -> str facts about the run.
    """

    def __init__(self, events: list, extra_info: dict, wall_start_ns: int = 0, start_ns: int = 0) -> None:
        self.events = events
        self.extra_info = extra_info
        self.wall_start_ns = wall_start_ns  # the clock time of perf_counter's `start_ns`: places the trace in time
        self.start_ns = start_ns

    @classmethod
    def from_recorder(cls, recorder: Recorder) -> ProfilerResult:
        wall = max(recorder.stopped - recorder.started, 1)
        info = {
            str(os.getpid()): threading.current_thread().name,
            "Process Cpu Utilization": f"{(recorder.cpu_stopped - recorder.cpu_started) / wall:.6f}",
        }
        before, after = recorder.system_started, recorder.system_stopped
        if before is not None and after is not None and after[1] > before[1]:
            info["System Cpu Utilization"] = f"{(after[0] - before[0]) / (after[1] - before[1]):.6f}"
        return cls(list(recorder.events), info, recorder.wall_started, recorder.started)

    def get_data(self) -> list:
        """The recorded events (paddle returns its C++ node trees here)."""
        return self.events

    def get_extra_info(self) -> dict:
        return self.extra_info

    def process_cpu_utilization(self) -> float:
        return float(self.extra_info.get("Process Cpu Utilization", 0.0))

    def save(self, path: str, format: str = "json") -> None:
        """Write the trace to `path` ('json': chrome tracing)."""
        if format != "json":
            raise ValueError(
                f"ProfilerResult.save: format must be 'json' (chrome tracing); got {format!r} (minipaddle does not "
                "write paddle's protobuf profile)"
            )
        text = json.dumps(self.chrome_trace())
        tmp = f"{path}.tmp{os.getpid()}"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)

    def chrome_trace(self) -> dict:
        """The trace as a dict in the Trace Event Format."""
        pid = os.getpid()
        trace = [{"name": "process_name", "ph": "M", "pid": pid, "args": {"name": f"minipaddle {pid}"}}]
        for tid in sorted({e.thread for e in self.events}):
            trace.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": str(tid)}})
        for e in sorted(self.events, key=lambda e: (e.start, -e.end)):
            args = {"start_time": f"{(e.start - self.start_ns) / 1e3:.3f} us",
                    "end_time": f"{(e.end - self.start_ns) / 1e3:.3f} us"}  # fmt: skip
            if e.layer:
                args["layer"] = e.layer
            if e.phase:
                args["phase"] = e.phase
            args.update(e.args)
            ts = (self.wall_start_ns + e.start - self.start_ns) / 1e3
            trace.append({
                "name": e.name, "pid": pid, "tid": e.thread, "ph": "X", "cat": e.type.name,
                "cname": "thread_state_runnable", "ts": ts, "dur": e.duration / 1e3, "args": args,
            })  # fmt: skip
        return {"displayTimeUnit": "ms", "schemaVersion": "1.0.2", "span_indx": "0", "traceEvents": trace,
                "ExtraInfo": self.extra_info}  # fmt: skip


def load_profiler_result(filename: str) -> ProfilerResult:
    """Read a profile written by `Profiler.export` / `export_chrome_tracing` (chrome tracing JSON).

    Args:
        filename (str): the file's path.

    Returns:
        ProfilerResult: the events, for `summary` or `viz.plot_profile`.
    """
    if not os.path.isfile(filename):
        raise FileNotFoundError(f"load_profiler_result: no file at {filename!r}")
    try:
        with open(filename) as f:
            data = json.load(f)
    except (ValueError, UnicodeDecodeError) as err:
        raise ValueError(
            f"load_profiler_result: {filename!r} is not a chrome tracing JSON file (minipaddle reads the traces "
            f"that export_chrome_tracing writes, not paddle's protobuf profiles): {err}"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("traceEvents"), list):
        raise ValueError(f"load_profiler_result: {filename!r} has no 'traceEvents' list")
    events = []
    kinds = TracerEventType.__members__
    for raw in data["traceEvents"]:
        if not isinstance(raw, dict) or raw.get("ph") != "X" or raw.get("cat") not in kinds:
            continue
        start = round(float(raw["ts"]) * 1e3)
        args = raw.get("args") or {}
        extra = {k: v for k, v in args.items() if k in ("input_shapes", "input_dtypes")}
        name = _PADDLE_DURATION.sub("", str(raw.get("name", "")))
        events.append(Event(name, kinds[raw["cat"]], start, start + round(float(raw["dur"]) * 1e3),
                            raw.get("tid"), args.get("layer", ""), args.get("phase", ""), extra))  # fmt: skip
    info = data.get("ExtraInfo") if isinstance(data.get("ExtraInfo"), dict) else {}
    first = min((e.start for e in events), default=0)
    return ProfilerResult(events, {str(k): str(v) for k, v in info.items()}, first, first)


def default_worker_name() -> str:
    """Paddle's file-name prefix: host_<hostname>pid_<pid>."""
    return f"host_{socket.gethostname()}pid_{os.getpid()}"
