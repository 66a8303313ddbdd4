"""plot_timeline(trace): a Gantt chart of every rank's training steps: forward, backward, each gradient bucket's
all-reduce and the optimizer step, one row per rank, on the same clock.

The trace comes from `paddle.distributed.timeline.record()` (a profiler hook on the op door that times every op,
and DataParallel's reducer timing its buckets), gathered to rank 0 with `rec.gather()`:

    with timeline.record() as rec:
        for x, y in batches: ...                     # forward, backward, opt.step()
    trace = rec.gather()                             # on rank 0: {"world_size": n, "ranks": {rank: [span, ...]}}
    viz.plot_timeline(trace)

Consecutive ops of one phase are drawn as one bar; the buckets' all-reduces sit on a thin lane just under their
rank's computation, so one sees where communication waits for computation and where it overlaps.
"""

from __future__ import annotations

from viz.figure_view import FigureView
from viz.style import TIMELINE

_COMPUTE = ("forward", "backward", "optimizer")


def segments(spans: list) -> list[dict]:
    """Consecutive spans of one compute phase merged into bars: [{"kind", "start", "end", "ops"}].

    Merged by order, not by a time gap: a pause inside one phase (the garbage collector, a busy machine) leaves
    it one bar, and a change of phase always starts a new one."""
    bars: list[dict] = []
    for s in sorted((s for s in spans if s["kind"] in _COMPUTE), key=lambda s: s["start"]):
        last = bars[-1] if bars else None
        if last is not None and last["kind"] == s["kind"]:
            last["end"] = max(last["end"], s["end"])
            last["ops"] += 1
        else:
            bars.append({"kind": s["kind"], "start": s["start"], "end": s["end"], "ops": 1})
    return bars


def _check(trace) -> dict:
    if not isinstance(trace, dict) or "ranks" not in trace:
        raise TypeError(
            "plot_timeline: trace must be what Recorder.gather() returns on rank 0 "
            f"({{'world_size': n, 'ranks': {{rank: [span, ...]}}}}), got {type(trace).__name__}"
        )
    return trace["ranks"]


def plot_timeline(trace, title: str = "what every rank did, when") -> FigureView:
    """A Gantt chart of the ranks' phases and all-reduces (see the module docstring). Returns a FigureView.

    Example:
        >>> viz.plot_timeline(rec.gather()).save("timeline.svg")
    """
    ranks = _check(trace)

    def draw(fig):
        ax = fig.subplots()
        for row, rank in enumerate(sorted(ranks)):
            y = len(ranks) - 1 - row
            for bar in segments(ranks[rank]):
                ax.broken_barh([(bar["start"] * 1e3, (bar["end"] - bar["start"]) * 1e3)], (y + 0.35, 0.5),
                               color=TIMELINE[bar["kind"]])  # fmt: skip
            for s in ranks[rank]:
                if s["kind"] == "allreduce":
                    ax.broken_barh([(s["start"] * 1e3, max((s["end"] - s["start"]) * 1e3, 1e-3))], (y + 0.05, 0.25),
                                   color=TIMELINE["allreduce"], edgecolor="#7f4f00", linewidth=0.5)  # fmt: skip
        ax.set_yticks([len(ranks) - 1 - i + 0.5 for i in range(len(ranks))])
        ax.set_yticklabels([f"rank {r}" for r in sorted(ranks)])
        ax.set_xlabel("time (ms)")
        ax.set_title(title)
        ax.grid(axis="x", alpha=0.3)
        from matplotlib.patches import Patch

        names = {"forward": "forward", "backward": "backward", "optimizer": "optimizer step",
                 "allreduce": "all-reduce (one per bucket)"}  # fmt: skip
        ax.legend(handles=[Patch(color=TIMELINE[k], label=v) for k, v in names.items()], loc="upper center",
                  bbox_to_anchor=(0.5, -0.18), ncol=4, fontsize=8, frameon=False)  # fmt: skip

    return FigureView(draw, (9, 1.2 + 0.9 * len(ranks)), "timeline")


def summary(trace) -> dict:
    """Seconds each rank spent in each phase: {rank: {"forward": s, "backward": s, "optimizer": s, "allreduce": s}}."""
    out = {}
    for rank, spans in _check(trace).items():
        totals = dict.fromkeys((*_COMPUTE, "allreduce"), 0.0)
        for s in spans:
            if s["kind"] in totals:
                totals[s["kind"]] += s["end"] - s["start"]
        out[rank] = totals
    return out
