"""What is inside a tensor, at a glance: its statistics, NaN/Inf counts and histogram (the inspector shows these).

    viz.tensor_stats(t)                    # {'shape': [2, 3], 'dtype': 'float32', 'min': ..., 'nan': 0, ...}
    viz.histogram_svg(t.numpy(), grad)     # side-by-side histograms as SVG text (matplotlib)

The statistics are taken over the finite values; NaN and Inf are counted apart (so one Inf does not hide what
the rest looks like, and the count itself is what you are usually hunting for).
"""

from __future__ import annotations

import io
from html import escape

import numpy as np

ROWS = ("shape", "dtype", "min", "max", "mean", "std", "nan", "inf", "zeros")
BAR_COLORS = ("#3d85c6", "#cc4125")  # the value in blue, its gradient in red


def array_stats(a) -> dict:
    """shape, dtype, min/max/mean/std of the finite values, and how many values are NaN, Inf and zero."""
    a = np.asarray(a)
    real = np.abs(a) if np.iscomplexobj(a) else a.astype(np.float64, copy=False)
    finite = real[np.isfinite(real)]
    stats = {"shape": list(a.shape), "dtype": a.dtype.name, "size": int(a.size)}
    for key, fn in (("min", np.min), ("max", np.max), ("mean", np.mean), ("std", np.std)):
        stats[key] = float(fn(finite)) if finite.size else None
    stats["nan"] = int(np.isnan(real).sum())
    stats["inf"] = int(np.isinf(real).sum())
    stats["zeros"] = int((real == 0).sum())
    return stats


def tensor_stats(t) -> dict:
    """array_stats of a Tensor's value."""
    return array_stats(t.numpy())


def _cell(stats: dict | None, key: str) -> str:
    if stats is None:
        return "—"
    value = stats[key]
    if value is None:
        return "no finite value"
    if key == "shape":
        return "[" + ", ".join(map(str, value)) + "]"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def stats_table_html(columns: dict) -> str:
    """An HTML table with one column per {title: stats or None}; NaN/Inf counts above zero are shown in red."""
    head = "".join(f'<th style="text-align:left;padding:1px 10px">{escape(t)}</th>' for t in columns)
    rows = []
    for key in ROWS:
        cells = []
        for stats in columns.values():
            bad = stats is not None and key in ("nan", "inf") and stats[key] > 0
            color = "color:#cc0000;font-weight:bold;" if bad else ""
            cells.append(f'<td style="{color}padding:1px 10px">{escape(_cell(stats, key))}</td>')
        rows.append(f'<tr><td style="color:#666;padding:1px 6px">{key}</td>{"".join(cells)}</tr>')
    return (
        '<table class="viz-stats" style="font-family:monospace;font-size:12px;border-collapse:collapse">'
        f"<tr><th></th>{head}</tr>{''.join(rows)}</table>"
    )


def histogram_svg(panels: dict, bins: int = 30) -> str:
    """Histograms side by side, one per {title: array or None} (None: an empty panel saying so), as SVG text."""
    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"svg.fonttype": "none", "font.size": 8}):  # text as text: small and crisp
        fig = Figure(figsize=(2.4 * len(panels), 1.7))
        axes = np.atleast_1d(fig.subplots(1, len(panels)))
        for k, (ax, (title, a)) in enumerate(zip(axes, panels.items())):
            ax.set_title(title, fontsize=9)
            ax.tick_params(labelsize=7)
            values = None if a is None else np.asarray(a)
            if values is not None and np.iscomplexobj(values):
                values = np.abs(values)
            finite = None if values is None else values[np.isfinite(values)].astype(np.float64)
            if finite is None or finite.size == 0:
                ax.text(0.5, 0.5, "no gradient" if a is None else "no finite value", ha="center", va="center",
                        transform=ax.transAxes, color="#888888")  # fmt: skip
                ax.set_xticks([])
                ax.set_yticks([])
                continue
            lo, hi = finite.min(), finite.max()
            counts, edges = np.histogram(finite, bins=bins, range=(lo - 0.5, hi + 0.5) if lo == hi else None)
            ax.stairs(counts, edges, fill=True, color=BAR_COLORS[k % len(BAR_COLORS)])
        fig.subplots_adjust(left=0.1, right=0.97, bottom=0.16, top=0.84, wspace=0.3)
        out = io.StringIO()
        fig.savefig(out, format="svg")
    text = out.getvalue()
    return text[text.find("<svg") :]
