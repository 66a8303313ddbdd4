"""Text on nodes, written the same way in every view: shapes, dtypes, attributes, and the label layout.

A label is a bold title, then plain lines (shapes and dtypes), then small lines (attributes, notes).
"""

from __future__ import annotations

import numpy as np

import minipaddle as paddle
from viz import dot

MAX_ATTR_CHARS = 32  # a longer attribute value is cut, as pytorchviz's max_attr_chars does


def shape_text(shape) -> str:
    """[2, 3]; -1 (unknown in a Program) is shown as '?'; a 0-d tensor is []."""
    if shape is None:
        return "?"
    return "[" + ", ".join("?" if s is None or s < 0 else str(s) for s in shape) + "]"


def dtype_text(dtype) -> str:
    """'float32' for a paddle dtype, a numpy dtype or a dtype name."""
    if dtype is None:
        return "?"
    name = getattr(dtype, "name", None)
    return name if isinstance(name, str) else str(dtype)


def tensor_text(shape, dtype) -> str:
    return f"{shape_text(shape)} {dtype_text(dtype)}"


def value_text(value) -> str:
    """An attribute value in short: dtypes by name, strings without quotes, long values cut with '...'."""
    if isinstance(value, (np.dtype, paddle.dtype)):
        text = dtype_text(value)
    elif isinstance(value, np.ndarray):
        text = f"array{shape_text(value.shape)} {value.dtype.name}"
    elif isinstance(value, str):
        text = value
    else:
        text = repr(value)
    return text if len(text) <= MAX_ATTR_CHARS else text[: MAX_ATTR_CHARS - 3] + "..."


def attr_lines(attrs: dict, skip=()) -> list:
    """`key=value` for the attributes worth reading: those set to something (None and False are left out)."""
    lines = []
    for key in sorted(attrs):
        value = attrs[key]
        if key in skip or value is None or value is False:
            continue
        lines.append(f"{key}={value_text(value)}")
    return lines


def node_label(title: str, lines=(), small=()) -> dot.Html:
    """A bold title, then `lines`, then `small` lines in a smaller font."""
    parts = [f"<B>{dot.escape(title)}</B>"]
    parts += [dot.escape(line) for line in lines]
    parts += [f'<FONT POINT-SIZE="9">{dot.escape(line)}</FONT>' for line in small]
    return dot.html("<BR/>".join(parts))
