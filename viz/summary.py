"""The summary table: paddle.summary's columns, the Layer hierarchy, and torchinfo's extras.

    print(viz.summary_table(model, input_size=[1, 1, 28, 28]))

Each row is a Layer, indented under its parent as torchinfo draws it; the columns are paddle.summary's (input
shape, output shape, parameters) plus torchinfo's `Trainable` (True, False, Partial) and `Mult-Adds`. The footer
has paddle.summary's totals and memory estimate plus the total of mult-adds.

How the numbers are counted:
- A layer that ran more than once says so; its shapes are those of its first call.
- Param #: the layer's own parameters; '--' for a layer that only holds others (they are counted in its rows).
  A layer folded by `depth` counts everything inside it. Totals count every parameter once.
- Mult-Adds, as torchinfo counts them: a weight or bias value is used once per output position: for a Conv layer
  the batch times the output's spatial size, for Linear every row of the output (all axes but the last), for
  other layers (norms, embeddings) the batch size. Only weights and biases count (by name, as in torchinfo), not
  statistics such as BatchNorm's `_mean` and `_variance`.
- Memory, in MB of 1024 * 1024 bytes as paddle.summary prints it: the inputs; the forward/backward pass (twice
  the outputs of the layers that compute, once kept for backward and once as their gradient); the parameters.
"""

from __future__ import annotations

import os

import numpy as np

from minipaddle.static.files import atomic_write
from viz.layers import LayerRecord, shapes_text, trace_layers
from viz.render import html_page

MB = 1024 * 1024
_COLUMNS = ("Layer (type)", "Input Shape", "Output Shape", "Param #", "Trainable", "Mult-Adds")
_RIGHT = {"Param #", "Mult-Adds"}  # numbers are right-aligned


def summary_table(model, input_size=None, dtypes=None, input=None, depth: int | None = None) -> LayerSummary:
    """The summary table of `model` for one input, with the Layer hierarchy, trainable flags and mult-adds.

    Args:
        model: a paddle.nn.Layer.
        input_size: the input shape (or a list of shapes), as paddle.summary takes it; -1 or None as batch runs 1.
        dtypes: the input dtype(s), default float32.
        input: the input Tensor(s) themselves, instead of input_size.
        depth: show layers down to this depth (1: the model's children), each deeper one counted in its
            ancestor's row. None shows every layer.

    Returns:
        LayerSummary: `print()` it for the table; `.total_params` and `.trainable_params` are paddle.summary's
        numbers; `.save('summary.txt')` (or .html) writes it.

    Example:
        >>> model = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
        >>> print(viz.summary_table(model, input_size=[1, 4]))
    """
    if input_size is None and input is None:
        raise ValueError("summary_table: give input_size (e.g. [1, 3, 32, 32]) or input (Tensors) for the dry run")
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 0):
        raise ValueError(f"summary_table: depth must be a non-negative int or None, got {depth!r}")
    return LayerSummary(trace_layers(model, input_size, dtypes, input), depth)


class LayerSummary:
    """The measured table: `rows` (one dict per shown layer) and the totals, as text (str) or HTML."""

    def __init__(self, root: LayerRecord, depth: int | None) -> None:
        self.root = root
        self.rows = []
        for r in root.walk():
            if depth is not None and r.depth > depth:
                continue
            folded = depth is not None and r.depth == depth
            members = list(r.walk()) if folded else [r]
            params = [p for m in members for p in m.params]
            self.rows.append({
                "name": r.name, "type": r.type, "depth": r.depth, "input_shapes": r.input_shapes,
                "output_shapes": r.output_shapes, "params": sum(p.size for p in params),
                "trainable": _trainable(params), "mult_adds": sum(mult_adds(m) for m in members),
                "holds_only": not params and not r.is_leaf, "calls": r.calls,
            })  # fmt: skip
        everything = list(root.walk())
        params = [p for r in everything for p in r.params]
        self.total_params = sum(p.size for p in params)
        self.trainable_params = sum(p.size for p in params if p.trainable)
        self.non_trainable_params = self.total_params - self.trainable_params
        self.total_mult_adds = sum(mult_adds(r) for r in everything)
        self.input_bytes = _bytes(root.input_shapes, root.input_dtypes)
        self.pass_bytes = 2 * sum(_bytes(*call) for r in everything if r.is_leaf for call in r.outputs_per_call)
        self.param_bytes = sum(p.size * np.dtype(p.dtype.name).itemsize for p in params)

    def to_dict(self) -> dict:
        """The numbers paddle.summary returns: {'total_params': ..., 'trainable_params': ...}."""
        return {"total_params": self.total_params, "trainable_params": self.trainable_params}

    # ---- text ----

    def text(self) -> str:
        cells = [_COLUMNS] + [self._cells(i, row) for i, row in enumerate(self.rows)]
        widths = [max(len(c[k]) for c in cells) for k in range(len(_COLUMNS))]

        def line(values) -> str:
            parts = [
                v.rjust(w) if _COLUMNS[k] in _RIGHT else v.ljust(w) for k, (v, w) in enumerate(zip(values, widths))
            ]
            return "   ".join(parts).rstrip()

        rule = "-" * (sum(widths) + 3 * (len(widths) - 1))
        double = rule.replace("-", "=")
        out = [rule, line(_COLUMNS), double]
        out += [line(c) for c in cells[1:]]
        mb = lambda n: f"{n / MB:.2f}"
        total = self.input_bytes + self.pass_bytes + self.param_bytes
        out += [
            double,
            f"Total params: {self.total_params:,}",
            f"Trainable params: {self.trainable_params:,}",
            f"Non-trainable params: {self.non_trainable_params:,}",
            f"Total mult-adds: {self.total_mult_adds:,}",
            rule,
            f"Input size (MB): {mb(self.input_bytes)}",
            f"Forward/backward pass size (MB): {mb(self.pass_bytes)}",
            f"Params size (MB): {mb(self.param_bytes)}",
            f"Estimated Total Size (MB): {mb(total)}",
            rule,
        ]
        return "\n".join(out) + "\n"

    def _cells(self, i: int, row: dict) -> tuple:
        name = row["type"] if not row["name"] else f"{row['name'].rpartition('.')[2]}: {row['type']}"
        if row["calls"] > 1:
            name += f" (ran ×{row['calls']})"
        ran = row["output_shapes"] is not None
        return (
            self._tree_prefix(i) + name,
            shapes_text(row["input_shapes"]),
            shapes_text(row["output_shapes"]),
            "--" if row["holds_only"] else f"{row['params']:,}",
            row["trainable"],
            "--" if row["holds_only"] or not ran else f"{row['mult_adds']:,}",
        )

    def _tree_prefix(self, i: int) -> str:
        """'│  ├─ ' and friends: the tree lines torchinfo draws before a layer's name."""
        d = self.rows[i]["depth"]
        if d == 0:
            return ""
        parts = []
        for level in range(1, d + 1):
            more = self._has_later_sibling(i, level)
            if level < d:
                parts.append("│  " if more else "   ")
            else:
                parts.append("├─ " if more else "└─ ")
        return "".join(parts)

    def _has_later_sibling(self, i: int, level: int) -> bool:
        """Whether, after row i, a row at `level` comes before the tree climbs above it."""
        for row in self.rows[i + 1 :]:
            if row["depth"] < level:
                return False
            if row["depth"] == level:
                return True
        return False

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        from html import escape

        font = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace"  # the columns need a fixed width
        return f'<pre style="font-family:{font};font-size:12px;line-height:1.25">{escape(self.text())}</pre>'

    def save(self, path) -> str:
        """Write the table to `path`: .txt (the text) or .html (a page with the table); returns path."""
        path = os.fspath(path)
        suffix = os.path.splitext(path)[1].lower()
        if suffix == ".txt":
            data = self.text()
        elif suffix == ".html":
            data = html_page("summary", self._repr_html_())
        else:
            raise ValueError(f"LayerSummary.save: cannot tell the format from {path!r}; use .txt or .html")
        atomic_write(path, data.encode("utf-8"))
        return path


def _trainable(params: list) -> str:
    if not params:
        return "--"
    flags = {bool(p.trainable) for p in params}
    return "Partial" if len(flags) == 2 else str(flags.pop())


def mult_adds(record: LayerRecord) -> int:
    """Multiply-adds of a layer's own weights over all its calls, counted as torchinfo does (module docstring)."""
    used = sum(p.size for name, p in zip(record.param_names, record.params) if "weight" in name or "bias" in name)
    if not used:
        return 0
    total = 0
    for shapes, _ in record.outputs_per_call:
        out = shapes[0] if shapes else []
        if not out:
            continue
        if "Conv" in record.type:
            total += used * out[0] * int(np.prod(out[2:]))
        elif record.type == "Linear":
            total += used * int(np.prod(out[:-1]))
        else:
            total += used * out[0]
    return total


def _bytes(shapes, dtypes) -> int:
    if not shapes:
        return 0
    return sum(int(np.prod(s)) * np.dtype(d.name).itemsize for s, d in zip(shapes, dtypes))
