"""What a saved state dict holds, as a tree of its names: `features.0.weight` sits under `features` > `0`.

    sd = paddle.load("model.pdparams")
    print(viz.state_dict_text(sd))          # an indented tree: names, shapes, dtypes, value counts
    viz.draw_state_dict(sd)                 # the same tree as a picture (left to right)

This is what `python -m viz layer model.pdparams` shows. Keys are split at dots and nested dicts are followed, so
a Layer's state_dict and an optimizer's (with its LR_Scheduler entry) both read as trees. Every inner node counts
the tensors and values below it.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

import minipaddle as paddle
from viz import dot, labels, style
from viz.render import View


class _Entry:
    """One name in the tree: maybe a value, maybe children, or both (a key 'a' beside 'a.b')."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.value = None
        self.has_value = False
        self.children: dict[str, _Entry] = {}

    def child(self, name: str) -> _Entry:
        return self.children.setdefault(name, _Entry(name))

    def tensors(self) -> list:
        """Every array-like value at or under this entry."""
        own = [self.value] if self.has_value and _is_array(self.value) else []
        return own + [t for c in self.children.values() for t in c.tensors()]


def _is_array(value) -> bool:
    return isinstance(value, (np.ndarray, paddle.Tensor))


def build_tree(state) -> _Entry:
    """The tree of a state dict (nested dicts, lists and tuples are followed; keys are split at dots)."""
    if not isinstance(state, (Mapping, list, tuple)):
        got = type(state).__name__
        raise TypeError(f"state dict: expected a dict (what paddle.load returns for a state_dict), got {got}")
    root = _Entry("")

    def add(entry: _Entry, value) -> None:
        items = value.items() if isinstance(value, Mapping) else enumerate(value)
        for key, v in items:
            node = entry
            for part in str(key).split("."):
                node = node.child(part)
            if isinstance(v, (Mapping, list, tuple)) and not _is_array(v):
                add(node, v)
            else:
                node.value, node.has_value = v, True

    add(root, state)
    return root


def _value_text(value) -> str:
    """'[4, 8] float32, 32 values' for an array; a short repr for anything else (an epoch number, a string)."""
    if _is_array(value):
        size = int(np.prod(value.shape))
        return f"{labels.tensor_text(value.shape, value.dtype)}, {size:,} value{'s' if size != 1 else ''}"
    return labels.value_text(value)


def _totals(entry: _Entry) -> str:
    arrays = entry.tensors()
    values = sum(int(np.prod(a.shape)) for a in arrays)
    nbytes = sum(int(np.prod(a.shape)) * np.dtype(labels.dtype_text(a.dtype)).itemsize for a in arrays)
    return f"{len(arrays)} tensor{'s' if len(arrays) != 1 else ''}, {values:,} values, {_bytes_text(nbytes)}"


def _bytes_text(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def state_dict_text(state, title: str = "state dict") -> str:
    """An indented tree of the names in `state`, with each tensor's shape, dtype and number of values, and the
    totals of every group.

    Example:
        >>> print(viz.state_dict_text(model.state_dict()))
        state dict: 4 tensors, 58 values, 232 B
        ├─ 0  (2 tensors, 40 values, 160 B)
        │  ├─ weight  [4, 8] float32, 32 values
        │  └─ bias    [8] float32, 8 values
        ...
    """
    root = build_tree(state)
    lines = [f"{title}: {_totals(root)}"]

    def walk(entry: _Entry, prefix: str) -> None:
        kids = list(entry.children.values())
        width = max((len(c.name) for c in kids if not c.children), default=0)  # values line up among siblings
        for k, child in enumerate(kids):
            last = k == len(kids) - 1
            branch, more = ("└─ ", "   ") if last else ("├─ ", "│  ")
            if child.children:
                own = f"  = {_value_text(child.value)}" if child.has_value else ""
                lines.append(f"{prefix}{branch}{child.name}{own}  ({_totals(child)})")
                walk(child, prefix + more)
            else:
                lines.append(f"{prefix}{branch}{child.name.ljust(width)}  {_value_text(child.value)}")

    walk(root, "")
    return "\n".join(lines)


def draw_state_dict(state, title: str = "state dict") -> View:
    """The tree of `state`'s names as a picture, left to right: groups (with their totals) and tensors (blue)."""
    root = build_tree(state)
    g = dot.Digraph("state_dict", graph={**style.GRAPH, "rankdir": "LR", "ranksep": "0.25"}, node=style.NODE,
                    edge=style.EDGE)  # fmt: skip
    g.node("t0", labels.node_label(title, [_totals(root)]), **style.FOLDED)
    counter = [1]

    def walk(entry: _Entry, parent_id: str) -> None:
        for child in entry.children.values():
            nid = f"t{counter[0]}"
            counter[0] += 1
            own = [_value_text(child.value)] if child.has_value else []
            if child.children:
                g.node(nid, labels.node_label(child.name, own, [_totals(child)]), **style.FOLDED)
            else:
                g.node(nid, labels.node_label(child.name, own), **(style.PARAMETER if _is_array(child.value) else
                                                                   style.LEAF))  # fmt: skip
            g.edge(parent_id, nid)
            walk(child, nid)

    walk(root, "t0")
    return View(g.source(), title=title)
