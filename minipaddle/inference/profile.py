"""Config.enable_profile(): every op a predictor runs timed through the op door's hook list, and paddle's report.

The timer is an OpHook of the "run" phase (the Executor's), installed on the running thread only while the
predictor runs, so a predictor without the profile pays nothing and a profiled one times exactly its own ops.
Paddle's predictor prints its legacy profiler's report when it is destroyed; the table here has that report's
layout (header, place, time unit, one `thread0::op` row per op type with Calls, Total, Min., Max., Ave., Ratio.,
sorted by total time). The CPU wheel of paddle 2.6.2 prints nothing at all (run here: enable_profile, three runs,
`del predictor`), so the layout follows paddle's profiler_helper.h, not a recording.
"""

from __future__ import annotations

from minipaddle.profiler.op_timer import OpClock

__all__ = ["OpStats", "ProfileHook", "profile_report"]


class OpStats:
    """Calls and times (ns) of one op type."""

    __slots__ = ("calls", "total", "min", "max")

    def __init__(self) -> None:
        self.calls, self.total, self.min, self.max = 0, 0, None, 0

    def add(self, ns: int) -> None:
        self.calls += 1
        self.total += ns
        self.min = ns if self.min is None else min(self.min, ns)
        self.max = max(self.max, ns)


class ProfileHook(OpClock):
    """Times each op the Executor runs (phase "run") into `stats`: op type -> OpStats."""

    phases = ("run",)

    def __init__(self, stats: dict) -> None:
        super().__init__()
        self.stats = stats

    def timed(self, op, inputs, start, end):
        entry = self.stats.get(op.name)
        if entry is None:
            entry = self.stats[op.name] = OpStats()
        entry.add(end - start)


def profile_report(stats: dict, place: str = "CPU") -> str:
    """Paddle's profiling report for `stats` (op type -> OpStats), times in ms, by total time."""
    ms = 1e-6
    total = sum(s.total for s in stats.values()) or 1
    rows = sorted(stats.items(), key=lambda kv: -kv[1].total)
    width = max([len("Event")] + [len(f"thread0::{op}") for op in stats]) + 2
    head = f"{'Event':<{width}}" + "".join(f"{c:<12}" for c in ("Calls", "Total", "Min.", "Max.", "Ave.", "Ratio."))
    lines = [
        "",
        "------------------------->     Profiling Report     <-------------------------",
        "",
        f"Place: {place}",
        "Time unit: ms",
        "Sorted by total time in descending order in the same thread",
        "",
        head.rstrip(),
    ]
    for op, s in rows:
        cells = (s.calls, f"{s.total * ms:.6g}", f"{(s.min or 0) * ms:.6g}", f"{s.max * ms:.6g}",
                 f"{s.total / s.calls * ms:.6g}", f"{s.total / total:.6f}")  # fmt: skip
        lines.append((f"{'thread0::' + op:<{width}}" + "".join(f"{str(c):<12}" for c in cells)).rstrip())
    return "\n".join(lines) + "\n"
