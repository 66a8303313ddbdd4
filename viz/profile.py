"""Where a step's time goes, from a paddle.profiler recording: the phases, the ops, the Layers.

    prof = paddle.profiler.Profiler(scheduler=(1, 4), on_trace_ready=lambda p: None)
    ...train, calling prof.step() after each batch...
    viz.plot_profile(prof).save("profile.svg")

Three panels, all in milliseconds per recorded step:
- a step: one bar split into Forward, Backward, Optimization and the rest (data, Python, printing);
- ops: the ops that take longest, each bar split by the phase the op ran in (a matmul runs in both passes);
- Layers: each Layer's forward, sublayers marked with a dot per level under their parent; the darker part is the
  time of the ops the Layer ran itself (the rest is its sublayers and Python).
It reads the profiler's public numbers (minipaddle/profiler/statistics.py) and draws with matplotlib's object API.
"""

from __future__ import annotations

import io
import os

from minipaddle.profiler import statistics as st
from minipaddle.profiler.result import ProfilerResult
from minipaddle.static.files import atomic_write
from viz.render import html_page, svg_element
from viz.style import PHASE_COLORS

_FORMATS = (".svg", ".png", ".pdf", ".html")


def _result_of(profile) -> ProfilerResult:
    result = getattr(profile, "profiler_result", profile)
    if isinstance(result, ProfilerResult):
        return result
    if profile is not None and hasattr(profile, "profiler_result"):
        raise ValueError("plot_profile: this Profiler has recorded nothing yet (run steps in a RECORD state first)")
    raise TypeError(f"plot_profile: expected a Profiler or ProfilerResult, got {type(profile).__name__}")


class ProfileView:
    """The picture of a recording: shows itself in Jupyter; `.save(path)` writes .svg .png .pdf or .html."""

    def __init__(self, result: ProfilerResult, top: int = 12, title: str = "where a step's time goes") -> None:
        self.result = result
        self.top = top
        self.title = title
        events = result.events
        self.steps = max(1, sum(1 for e in st.outermost([e for e in events if e.type.name == "ProfileStep"])))
        self.step_ms = st.step_time(events) / 1e6 / self.steps
        phases = st.phase_items(events)
        self.phases = {k: phases[k].total / 1e6 / self.steps for k in ("Forward", "Backward", "Optimization")
                       if k in phases}  # fmt: skip
        self.phases["Others"] = max(0.0, self.step_ms - sum(self.phases.values()))
        ops = sorted(st.op_items(events).values(), key=lambda item: item.total, reverse=True)[:top]
        self.ops = [(item.name, _by_phase(item, self.steps)) for item in ops]
        self.layers = [("· " * item.depth + item.name, item.total / 1e6 / self.steps, item.self_ops / 1e6 / self.steps)
                       for item in st.layer_items(events).values()][: 2 * top]  # fmt: skip

    def figure(self):
        """The panels as a matplotlib Figure (not attached to pyplot)."""
        from matplotlib.figure import Figure

        rows = max(len(self.ops), len(self.layers), 1)
        fig = Figure(figsize=(13, 1.6 + 0.28 * rows), layout="constrained")
        fig.suptitle(f"{self.title}: {self.step_ms:.2f} ms per step, {self.steps} step(s) recorded")
        grid = fig.add_gridspec(2, 2, height_ratios=[1, max(2, rows / 2)])
        self._draw_step(fig.add_subplot(grid[0, :]))
        self._draw_ops(fig.add_subplot(grid[1, 0]))
        self._draw_layers(fig.add_subplot(grid[1, 1]))
        return fig

    def _draw_step(self, ax) -> None:
        left = 0.0
        for name, ms in self.phases.items():
            ax.barh([0], [ms], left=left, color=PHASE_COLORS[name], label=f"{name} {ms:.2f} ms")
            left += ms
        ax.set_yticks([])
        ax.set_xlabel("ms per step")
        ax.set_title("a step")
        ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)

    def _draw_ops(self, ax) -> None:
        if not self.ops:
            _empty(ax, "no op was recorded")
            return
        names = [name for name, _ in self.ops][::-1]
        left = [0.0] * len(names)
        for phase, color in PHASE_COLORS.items():
            widths = [parts.get(phase, 0.0) for _, parts in self.ops][::-1]
            ax.barh(names, widths, left=left, color=color, label=phase)
            left = [a + b for a, b in zip(left, widths)]
        ax.set_xlabel("ms per step")
        ax.set_title(f"ops (the {len(names)} slowest), by phase")
        ax.tick_params(axis="y", labelsize=8)
        ax.legend(fontsize=8, loc="lower right")

    def _draw_layers(self, ax) -> None:
        if not self.layers:
            _empty(ax, "no Layer was called")
            return
        names = [name for name, _, _ in self.layers][::-1]
        ax.barh(names, [t for _, t, _ in self.layers][::-1], color="#dae8fc", edgecolor="#6c8ebf", label="forward")
        ax.barh(names, [s for _, _, s in self.layers][::-1], color="#6c8ebf", label="its own ops")
        ax.set_xlabel("ms per step")
        ax.set_title("Layers: forward time (dark: the ops the Layer ran itself)")
        ax.tick_params(axis="y", labelsize=8)
        ax.legend(fontsize=8)

    # ---- files ----

    def svg(self) -> str:
        import matplotlib

        with matplotlib.rc_context({"svg.fonttype": "none"}):
            return self._render("svg").decode("utf-8")

    def png(self) -> bytes:
        return self._render("png")

    def _render(self, fmt: str) -> bytes:
        out = io.BytesIO()
        self.figure().savefig(out, format=fmt, dpi=100)
        return out.getvalue()

    def _repr_svg_(self) -> str:
        return self.svg()

    def save(self, path) -> str:
        """Write the picture to `path` (.svg .png .pdf .html, from the suffix); returns path."""
        suffix = os.path.splitext(os.fspath(path))[1].lower()
        if suffix not in _FORMATS:
            raise ValueError(f"ProfileView.save: cannot tell the format from {os.fspath(path)!r}; use {_FORMATS}")
        if suffix == ".html":
            data = html_page(self.title, svg_element(self.svg())).encode("utf-8")
        elif suffix == ".svg":
            data = self.svg().encode("utf-8")
        else:
            data = self._render(suffix[1:])
        atomic_write(os.fspath(path), data)
        return os.fspath(path)

    def __repr__(self) -> str:
        return f"<viz.ProfileView {self.step_ms:.2f} ms/step: {len(self.ops)} ops, {len(self.layers)} layers>"


def _by_phase(item: st.Item, steps: int) -> dict:
    parts: dict = {}
    for sub in item.detail.values():
        phase = sub.name.rsplit(" ", 1)[1].capitalize()
        phase = phase if phase in PHASE_COLORS else "Others"
        parts[phase] = parts.get(phase, 0.0) + sub.total / 1e6 / steps
    return parts


def _empty(ax, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#888888")
    ax.set_axis_off()


def plot_profile(profile, top: int = 12) -> ProfileView:
    """Draw where a recorded step's time goes: phases, the slowest ops, and the Layers.

    Args:
        profile: a paddle.profiler.Profiler that has recorded, or a ProfilerResult (e.g. from
            `paddle.profiler.load_profiler_result(path)`).
        top (int): how many ops to show (the slowest first). Default 12.

    Example:
        >>> viz.plot_profile(prof).save("profile.png")
    """
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise ValueError(f"plot_profile: top must be an int >= 1, got {top!r}")
    return ProfileView(_result_of(profile), top)
