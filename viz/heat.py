"""Heatmaps over a drawing: numbers per node (grad norms, time, quantization error) mapped to fill colours.

The range is taken from the finite values; a value of nan or inf is still shown in its node's label, drawn in its
own colour, and left out of the range (it is often the very thing the user is hunting for).
"""

from __future__ import annotations

import math
import numbers

from viz import dot, style

NON_FINITE = "#d9d2e9"


class Heat:
    """Maps numbers to colours along style.HEAT_STOPS, from the smallest finite value to the largest."""

    def __init__(self, values, title: str = "value") -> None:
        for v in values:
            check_value(v)
        finite = [float(v) for v in values if math.isfinite(v)]
        self.low = min(finite) if finite else 0.0
        self.high = max(finite) if finite else 0.0
        self.title = title

    def fraction(self, value: float) -> float:
        if self.high == self.low:
            return 0.5
        return (float(value) - self.low) / (self.high - self.low)

    def node_attrs(self, value: float) -> dict:
        """Graphviz attributes that fill a node with the colour of `value`."""
        if not math.isfinite(value):
            return {"fillcolor": NON_FINITE}
        f = self.fraction(value)
        attrs = {"fillcolor": style.heat_color(f)}
        if f > style.HEAT_DARK_FROM:
            attrs["fontcolor"] = "#ffffff"
        return attrs

    def legend(self) -> dot.Html:
        """A colour bar: the title, one cell per colour stop, the lowest and highest value under its ends."""
        n = len(style.HEAT_STOPS)
        cells = "".join(f'<TD BGCOLOR="{c}" WIDTH="18"> </TD>' for c in style.HEAT_STOPS)
        half = n // 2
        return dot.html(
            '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2">'
            f'<TR><TD COLSPAN="{n}"><B>{dot.escape(self.title)}</B></TD></TR>'
            f"<TR>{cells}</TR>"
            f'<TR><TD COLSPAN="{half}" ALIGN="LEFT">{format_value(self.low)}</TD>'
            f'<TD COLSPAN="{n - half}" ALIGN="RIGHT">{format_value(self.high)}</TD></TR></TABLE>'
        )


def check_value(v) -> None:
    """A TypeError unless `v` is a real number (a bool is not: it is almost always a mistake here)."""
    if not isinstance(v, numbers.Real) or isinstance(v, bool):
        raise TypeError(f"color_by: values must be real numbers, got {type(v).__name__} {v!r}")


def format_value(v: float) -> str:
    return f"{float(v):.4g}"
