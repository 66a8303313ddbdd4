"""The one palette every viz picture draws with: node kinds, roles, diff marks, the heatmap colormap.

Change a colour here and every view follows. The kinds follow pytorchviz's legend where it has one (grey ops,
blue leaves that want a gradient, orange saved tensors, green outputs), so users of that tool read ours at once.
"""

from __future__ import annotations

FONT = "Helvetica"

GRAPH = {"rankdir": "TB", "fontname": FONT, "fontsize": "12", "nodesep": "0.3", "ranksep": "0.35"}
NODE = {"fontname": FONT, "fontsize": "11", "style": "filled", "penwidth": "1"}
EDGE = {"fontname": FONT, "fontsize": "9", "color": "#555555", "arrowsize": "0.7"}

# ---- node kinds: {graphviz attribute: value} ----------------------------------------------------------------------

OP = {"shape": "box", "style": "rounded,filled", "fillcolor": "#eeeeee", "color": "#888888"}
PARAMETER = {"shape": "box", "fillcolor": "#cfe2f3", "color": "#3d85c6"}
LEAF = {"shape": "box", "fillcolor": "#eaf3fb", "color": "#8fb4d9"}  # a leaf that is not a parameter
SAVED = {"shape": "box", "fillcolor": "#fde2b8", "color": "#e69138", "fontsize": "9"}
OUTPUT = {"shape": "box", "fillcolor": "#b6e3b6", "color": "#38761d", "penwidth": "2"}
FOLDED = {"shape": "box3d", "fillcolor": "#dae8fc", "color": "#6c8ebf"}  # a Layer scope drawn as one box

HIGHLIGHT = {"color": "#1155cc", "penwidth": "3"}  # the node a user picked (the inspector outlines it)

# Layer trees: a Layer holding others, and a Layer that computes (no sublayers).
LAYER = {"shape": "box", "style": "rounded,filled", "fillcolor": "#dae8fc", "color": "#6c8ebf"}
LAYER_LEAF = {"shape": "box", "style": "filled", "fillcolor": "#ffffff", "color": "#6c8ebf"}

# Program views: variables are ellipses, ops boxes; the role of an op sets its colour and border.
VAR = {"shape": "ellipse", "fillcolor": "#ffffff", "color": "#999999", "fontsize": "9"}
DATA_VAR = {"shape": "ellipse", "fillcolor": "#fff2cc", "color": "#d6b656", "fontsize": "9"}
PARAMETER_VAR = {"shape": "ellipse", "fillcolor": "#cfe2f3", "color": "#3d85c6", "fontsize": "9", "penwidth": "1.5"}
PERSISTABLE_VAR = {"shape": "ellipse", "fillcolor": "#e2efda", "color": "#6aa84f", "fontsize": "9"}
GRAD_VAR = {"shape": "ellipse", "style": "dashed,filled", "fillcolor": "#fff5f3", "color": "#cc8877", "fontsize": "9"}
ROLE = {
    "forward": OP,
    "backward": {"shape": "box", "style": "rounded,dashed,filled", "fillcolor": "#fde0dd", "color": "#cc4125"},
    "optimize": {"shape": "box", "style": "rounded,filled", "fillcolor": "#e1d5e7", "color": "#9673a6"},
}

# ---- groups ---------------------------------------------------------------------------------------------------------

SCOPE_CLUSTER = {"style": "rounded,dashed", "color": "#8c8c8c", "fontcolor": "#555555", "fontsize": "10"}
BLOCK_CLUSTER = {"style": "rounded,filled", "fillcolor": "#f7f7f7", "color": "#b0b0b0", "fontsize": "10"}
SUB_BLOCK_EDGE = {"style": "dashed", "color": "#7f7f7f", "fontcolor": "#7f7f7f"}
SAVED_EDGE = {"style": "dotted", "color": "#e69138", "arrowhead": "none"}
PANEL_CLUSTER = {"style": "rounded", "color": "#cccccc", "fontsize": "14"}  # the before / after panels of a diff

# ---- a pass diff: what a transformation removed, added or changed -------------------------------------------------

DIFF = {
    "removed": {"fillcolor": "#f8cecc", "color": "#b85450", "penwidth": "2.5"},
    "added": {"fillcolor": "#d5e8d4", "color": "#5d9c4a", "penwidth": "2.5"},
    "changed": {"fillcolor": "#ffe6cc", "color": "#d79b00", "penwidth": "2.5"},
}

# ---- heatmaps (color_by): a sequential map, light yellow (low) to dark red (high), ColorBrewer's YlOrRd -----------

HEAT_STOPS = ("#ffffcc", "#fed976", "#fd8d3c", "#e31a1c", "#800026")
HEAT_DARK_FROM = 0.7  # above this fraction of the range, labels switch to white text to stay readable


def heat_color(fraction: float) -> str:
    """The colour at `fraction` (0..1) along HEAT_STOPS, linearly interpolated, as '#rrggbb'."""
    f = min(max(float(fraction), 0.0), 1.0) * (len(HEAT_STOPS) - 1)
    i = min(int(f), len(HEAT_STOPS) - 2)
    lo, hi = _rgb(HEAT_STOPS[i]), _rgb(HEAT_STOPS[i + 1])
    t = f - i
    return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(lo, hi))


def _rgb(color: str) -> tuple:
    return tuple(int(color[k : k + 2], 16) for k in (1, 3, 5))


# ---- profiles (viz/profile.py): the phases of a step, in the order they run -------------------------------------

PHASE_COLORS = {"Forward": "#3d85c6", "Backward": "#cc4125", "Optimization": "#9673a6", "Others": "#b7b7b7"}
# ---- distributed: the timeline's phases (viz/timeline.py) and the collectives' buffers (viz/collective.py) ---------

TIMELINE = {
    "forward": "#3d85c6",  # as a parameter / leaf: the forward computation
    "backward": "#cc4125",  # as ROLE['backward']
    "optimizer": "#9673a6",  # as ROLE['optimize']
    "allreduce": "#e69138",  # communication
}
EMPTY_CELL = "#f3f3f3"  # a buffer slot that holds nothing (yet)
