"""`Profiler.summary()`'s tables, in paddle 2.6's layout (paddle/profiler/profiler_statistic.py's `_build_table`).

Device Summary (CPU utilization), Overview Summary (time per event type), Model Summary (ProfileStep, Forward,
Backward, Optimization, Others), Operator Summary (per op: calls, CPU Total / Avg / Max / Min / Ratio(%), with a
row per phase under each op), and UserDefined Summary (RecordEvent blocks), each a table of fixed-width
columns two spaces apart, as Paddle prints them. minipaddle adds a Layer Summary after the Model Summary: per Layer
call path, the time of its forward, with the time of the ops it ran itself. There is no GPU: the GPU columns
read 0.00 as they do in paddle's CPU build; FLOPs are not counted ('-').
"""

from __future__ import annotations

import threading
from enum import Enum

from minipaddle.profiler import statistics as st
from minipaddle.profiler.events import TracerEventType


class SortedKeys(Enum):
    """How the Operator and UserDefined tables are sorted (`Profiler.summary(sorted_by=...)`). The GPU keys are
    accepted and sort by CPU time, as every GPU time is 0 here."""

    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


class SummaryView(Enum):
    """The tables `Profiler.summary(views=...)` can print (paddle 2.6's names; LayerView is minipaddle's)."""

    DeviceView = 0
    OverView = 1
    ModelView = 2
    DistributedView = 3
    KernelView = 4
    OperatorView = 5
    MemoryView = 6
    MemoryManipulationView = 7
    UDFView = 8
    LayerView = 9


TIME_UNITS = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0}
SPACING = 2
_GPU_ZERO = "0.00 / 0.00 / 0.00 / 0.00 / 0.00"


def _sort_key(sorted_by: SortedKeys):
    kind = sorted_by.name[3:]  # Total, Avg, Max, Min
    if kind == "Min":
        return lambda item: item.min, False
    return (lambda item: getattr(item, kind.lower())), True


class _Table:
    """Columns of fixed widths, left-aligned, two spaces apart, with '-' rules: Paddle's add_column."""

    def __init__(self, widths: list[int]) -> None:
        self.widths = widths
        self.row_format = "".join("{:<" + str(w) + "}" + " " * SPACING for w in widths)
        self.rule = "".join("-" * w + " " * SPACING for w in widths)
        self.length = sum(widths) + SPACING * (len(widths) - 1)

    def title(self, text: str) -> str:
        left = self.length - len(text)
        return "-" * (left // 2) + text + "-" * (left - left // 2)

    def row(self, values) -> str:
        return self.row_format.format(*values)


def _time(ns: float, unit: str) -> str:
    return "-" if ns == float("inf") else f"{ns / TIME_UNITS[unit]:.2f}"


def _ratio(part: float, whole: float) -> str:
    return f"{(part / whole if whole else 0.0) * 100:.2f}"


def _stats(item: st.Item, unit: str, whole: float) -> str:
    return " / ".join([_time(item.total, unit), _time(item.avg, unit), _time(item.max, unit),
                       _time(item.min, unit), _ratio(item.total, whole)])  # fmt: skip


def device_summary(result) -> list[str]:
    table = _Table([30, 20])
    lines = [table.title("Device Summary"), table.rule, table.row(["Device", "Utilization (%)"]), table.rule]
    lines.append(table.row(["CPU(Process)", f"{result.process_cpu_utilization() * 100:.2f}"]))
    system = result.extra_info.get("System Cpu Utilization")
    if system is not None:
        lines.append(table.row(["CPU(System)", f"{float(system) * 100:.2f}"]))
    note = ("Note:\nCPU(Process) Utilization = Current process CPU time over all cpu cores / elapsed time, so max "
            "utilization can be reached 100% * number of cpu cores.\nCPU(System) Utilization = All processes CPU time "
            "over all cpu cores(busy time) / (busy time + idle time).")  # fmt: skip
    lines += [table.rule, note, "-" * table.length, "", ""]
    return lines


def overview_summary(events, unit: str) -> list[str]:
    total = st.step_time(events)
    table = _Table([25, 25, 25, 25])
    lines = [table.title("Overview Summary"), f"Time unit: {unit}", table.rule]
    lines += [table.row(["Event Type", "Calls", "CPU Time", "Ratio (%)"]), table.rule]
    rows = sorted(st.type_times(events).items(), key=lambda kv: kv[1][1], reverse=True)
    for i, (kind, (calls, t)) in enumerate(rows):
        lines.append(table.row([("" if i == 0 else "  ") + kind.name, calls, _time(t, unit), _ratio(t, total)]))
    lines += [table.rule, table.row(["", "Calls", "GPU Time", "Ratio (%)"]), table.rule, table.rule]
    lines += ["Note:\nIn this table, We sum up all collected events in terms of event type.\nThe time of events "
              "collected on host are presented as CPU Time, and as GPU Time if on device.\nEvents with different "
              "types may overlap or inclusion, e.g. Operator includes OperatorInner, so the sum of ratios is not "
              "100%.\nThe time of events in the same type with overlap will not calculate twice, and all time is "
              "summed after merged.\n", "-" * table.length, "", ""]  # fmt: skip
    return lines


def _stats_table(title: str, unit: str, rows: list, name_width: int, note=None, flops=False, closed=True) -> list:
    """A table of Name / Calls / CPU stats / GPU stats [/ FLOPs] rows (a str row is a thread title)."""
    cpu_width = max([40] + [len(r[2]) for r in rows if not isinstance(r, str)])
    calls_width = max([6] + [len(str(r[1])) for r in rows if not isinstance(r, str)])
    widths = [name_width, calls_width, cpu_width, 40] + ([10] if flops else [])
    table = _Table(widths)
    headers = ["Name", "Calls", "CPU Total / Avg / Max / Min / Ratio(%)", "GPU Total / Avg / Max / Min / Ratio(%)"]
    lines = [table.title(title), f"Time unit: {unit}", table.rule, table.row(headers + (["FLOPs"] if flops else []))]
    lines.append(table.rule)
    for r in rows:
        lines.append(table.title(r) if isinstance(r, str) else table.row(r))
    if closed:  # (paddle leaves the UserDefined table open at the bottom)
        lines.append(table.rule)
    if note:
        lines += [note, "-" * table.length]
    return lines + ["", ""]


def model_summary(events, unit: str) -> list[str]:
    items = st.phase_items(events)
    if len(items) <= 1:
        return []
    total = st.step_time(events)
    rows, covered = [], 0
    for name, item in items.items():
        rows.append([name if name == "ProfileStep" else f"  {name}", item.calls, _stats(item, unit, total), _GPU_ZERO])
        if name != "ProfileStep":
            covered += item.total
    others = total - covered
    others_cpu = f"{_time(others, unit)} / - / - / - / {_ratio(others, total)}"
    rows.append(["  Others", "-", others_cpu, "0.00 / - / - / - / 0.00"])
    note = ("Note:\nIn this table, GPU time is the sum of all device(GPU) events called in the phase.\nUnlike overview "
            "summary, if two device(GPU) events execute on different streams with overlap time, we sum them directly "
            "here.\n")  # fmt: skip
    return _stats_table("Model Summary", unit, rows, 15, note)


def layer_summary(events, unit: str) -> list[str]:
    items = st.layer_items(events)
    if not items:
        return []
    total = st.step_time(events)
    rows = [["  " * it.depth + it.name, it.calls, _stats(it, unit, total), _GPU_ZERO] for it in items.values()]
    note = ("Note:\nminipaddle's table: the forward of each Layer by its call path (sublayers indented), timed in "
            "Layer.__call__;\nits ratio is over the recorded steps' time. Paddle 2.6 has no such table.\n")  # fmt: skip
    return _stats_table("Layer Summary", unit, rows, max([15] + [len(r[0]) for r in rows]), note)


def _threads(events, thread_sep: bool) -> dict:
    if not thread_sep:
        return {"All threads merged": None}
    ids = sorted({e.thread for e in events})
    main = threading.main_thread().ident
    return {str(t) + (" (MainThread)" if t == main else ""): t for t in ids}


def operator_summary(events, unit: str, sorted_by: SortedKeys, op_detail: bool, thread_sep: bool) -> list[str]:
    if not any(e.type is TracerEventType.Operator for e in events):
        return []
    key, reverse = _sort_key(sorted_by)
    rows = []
    for label, thread in _threads(events, thread_sep).items():
        items = sorted(st.op_items(events, thread).values(), key=key, reverse=reverse)
        op_total = sum(item.total for item in items)
        rows.append(f"Thread: {label}")
        for item in items:
            rows.append([item.name, item.calls, _stats(item, unit, op_total), _GPU_ZERO, "-"])
            if op_detail:
                for sub in item.detail.values():
                    rows.append([f"  {sub.name}"[:52], sub.calls, _stats(sub, unit, item.total), _GPU_ZERO, "-"])
    return _stats_table("Operator Summary", unit, rows, 52, flops=True)


def user_summary(events, unit: str, sorted_by: SortedKeys, thread_sep: bool) -> list[str]:
    if not any(e.type in st.USER_TYPES for e in events):
        return []
    key, reverse = _sort_key(sorted_by)
    total = st.step_time(events)
    rows = []
    for label, thread in _threads(events, thread_sep).items():
        rows.append(f"Thread: {label}")
        for item in sorted(st.user_items(events, thread).values(), key=key, reverse=reverse):
            rows.append([item.name, item.calls, _stats(item, unit, total), _GPU_ZERO])
    width = max(len(r[0]) for r in rows if not isinstance(r, str))
    return _stats_table("UserDefined Summary", unit, rows, width, closed=False)


def build_table(result, sorted_by=SortedKeys.CPUTotal, op_detail=True, thread_sep=False, time_unit="ms", views=None):
    """All the tables (or those in `views`) as one string."""
    if not isinstance(sorted_by, SortedKeys):
        raise TypeError(f"summary: sorted_by must be a SortedKeys, got {type(sorted_by).__name__}")
    if time_unit not in TIME_UNITS:
        raise ValueError(f"summary: time_unit must be one of {list(TIME_UNITS)}, got {time_unit!r}")
    if isinstance(views, SummaryView):
        views = [views]
    if views is not None and not all(isinstance(v, SummaryView) for v in views):
        raise TypeError(f"summary: views must be a SummaryView or a list of them, got {views!r}")

    def wanted(view):
        return views is None or view in views

    events = result.events
    lines = []
    if wanted(SummaryView.DeviceView):
        lines += device_summary(result)
    if st.step_time(events) == 0:
        return "\n".join(lines)
    if wanted(SummaryView.OverView):
        lines += overview_summary(events, time_unit)
    if wanted(SummaryView.ModelView):
        lines += model_summary(events, time_unit)
    if wanted(SummaryView.LayerView):
        lines += layer_summary(events, time_unit)
    if wanted(SummaryView.OperatorView):
        lines += operator_summary(events, time_unit, sorted_by, op_detail, thread_sep)
    if wanted(SummaryView.UDFView):
        lines += user_summary(events, time_unit, sorted_by, thread_sep)
    return "\n".join(lines)
