"""How a Tensor prints: exactly Paddle 2.6's format, rebuilt on numpy.

    >>> print(paddle.to_tensor([[1.5, 2.0], [3.0, -4.25]]))
    Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
           [[ 1.50000000,  2.        ],
            [ 3.        , -4.25000000]])

The rules, in the order this file applies them (tests/golden/printing/cases.json holds what real Paddle printed):

1. Summarize: a tensor with more than `threshold` elements prints only the first and last `edgeitems` entries of
   each long dimension, with "..." between them. A 0-d tensor is never summarized.
2. One width for all entries: the longest entry string. Paddle measures it on the edge entries only, even when
   nothing is summarized, so a wide entry in the middle of a 7-element vector sticks out. We keep that quirk.
3. Each entry: floats print `2.` when whole (also `inf.`), otherwise with `precision` decimals; or `1.5e+00` in
   sci_mode. There is no automatic switch to scientific notation: 1e20 prints all its digits, 1e-10 prints
   `0.00000000`. Ints and bools print as Python does; complex numbers as Python's complex repr, `(1+2j)`.
4. Padding: entries are left-aligned to the common width. If any entry is negative, non-negative entries get one
   leading space so the digits line up. An entry already as wide as the width is never padded.
5. Layout: a row wraps after as many entries as fit in `linewidth`; nested dimensions get one more space of
   indent each, and blank lines between blocks of 3-d and higher tensors.

This module works on numpy arrays and names only; Tensor.__repr__ calls `format_tensor(t.numpy(), ...)`.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.state import STATE

_FLOAT_TYPES = (np.float16, np.float32, np.float64)
_TEMPLATE = "{prefix}(shape={shape}, dtype={dtype}, place={place}, stop_gradient={stop_gradient},\n{indent}{data})"


# ---- options --------------------------------------------------------------------------------------------------


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None, linewidth=None) -> None:
    """Change how tensors print from now on (`paddle.set_printoptions`). None leaves an option as it is.

    precision: decimals of a float (default 8). threshold: print "..." above this many elements (1000).
    edgeitems: entries kept at each end of a summarized dimension (3). sci_mode: floats as `1.5e+00` (False).
    linewidth: characters per row before wrapping (80).
    """
    requested = {
        "precision": (precision, int, 0),
        "threshold": (threshold, int, 0),
        "edgeitems": (edgeitems, int, 1),
        "linewidth": (linewidth, int, 1),
        "sci_mode": (sci_mode, bool, None),
    }
    # Check everything before storing anything, so a bad call leaves the options untouched.
    # (Paddle only checks types in static mode and would store precision=1.5, then fail at print time.)
    updates = {}
    for name, (value, kind, minimum) in requested.items():
        if value is None:
            continue
        _check_option(name, value, kind, minimum)
        updates[name] = value
    STATE.print_options.update(updates)


def _check_option(name: str, value, kind: type, minimum) -> None:
    # bool is a subclass of int, but precision=True is surely a mistake.
    wrong_type = not isinstance(value, kind) or (kind is int and isinstance(value, bool))
    if wrong_type:
        raise TypeError(
            f"set_printoptions: '{name}' must be {kind.__name__}, but received {type(value).__name__} ({value!r})."
        )
    if minimum is not None and value < minimum:
        raise ValueError(f"set_printoptions: '{name}' must be >= {minimum}, but received {value}.")


# ---- the whole string -----------------------------------------------------------------------------------------


def format_tensor(
    data: np.ndarray, *, dtype_name: str, stop_gradient: bool, prefix: str = "Tensor", place: str = "Place(cpu)"
) -> str:
    """The string Paddle 2.6 prints for a tensor holding `data` (both `str(t)` and `repr(t)`)."""
    if data is None:  # a Tensor whose memory was never allocated
        return "Tensor(Not initialized)"
    data = np.asarray(data)
    if dtype_name == "bfloat16":  # Paddle prints bfloat16 through float32, like numpy would
        data = data.astype(np.float32)
    indent = len(prefix) + 1  # the data lines up under the "(" after the prefix
    return _TEMPLATE.format(
        prefix=prefix,
        shape=list(data.shape),  # Python list repr: [2, 3]; [] for 0-d
        dtype=dtype_name,
        place=place,
        stop_gradient=stop_gradient,
        indent=" " * indent,
        data=format_data(data, indent),
    )


def format_parameter(data: np.ndarray, *, dtype_name: str, stop_gradient: bool = False) -> str:
    """A Parameter prints a header line, then the ordinary Tensor string (prefix and indent stay "Tensor")."""
    tensor_str = format_tensor(data, dtype_name=dtype_name, stop_gradient=stop_gradient)
    return "Parameter containing:\n" + tensor_str


def format_data(data: np.ndarray, indent: int) -> str:
    """Only the bracketed numbers, starting at column `indent`."""
    opts = STATE.print_options
    summarize = data.ndim > 0 and data.size > opts["threshold"]
    width, signed = _common_width(_edges(data, opts["edgeitems"]))
    return _format_block(data, indent, summarize, width, signed)


# ---- width ----------------------------------------------------------------------------------------------------


def _edges(data: np.ndarray, edgeitems: int) -> np.ndarray:
    """The first and last `edgeitems` entries along every dimension longer than 2 * edgeitems."""
    for axis, size in enumerate(data.shape):
        if size > 2 * edgeitems:
            keep = np.r_[0:edgeitems, size - edgeitems : size]
            data = np.take(data, keep, axis=axis)
    return data


def _common_width(data: np.ndarray) -> tuple[int, bool]:
    """The longest entry string, and whether any entry is negative (then a column is kept for the sign)."""
    width, signed = 0, False
    for item in data.flat:
        width = max(width, len(_format_item(item)))
        signed = signed or _is_negative(item)
    return width, signed


def _is_negative(item) -> bool:
    if isinstance(item, np.complexfloating):  # numpy orders complex numbers by real part, then imaginary part
        return bool(item.real < 0 or (item.real == 0 and item.imag < 0))
    return bool(item < 0)  # False for bools, unsigned ints and NaN


# ---- one entry ------------------------------------------------------------------------------------------------


def _format_item(item) -> str:
    """One entry without padding. `item` is a numpy scalar, so its type says how to print it."""
    if isinstance(item, _FLOAT_TYPES):
        precision = STATE.print_options["precision"]
        if STATE.print_options["sci_mode"]:
            return f"{item:.{precision}e}"
        if np.ceil(item) == item:  # whole numbers print as "2." (inf too: "inf."); NaN fails this test
            return f"{item:.0f}."
        return f"{item:.{precision}f}"
    return f"{item}"  # ints, bools ("True"), complex (Python's repr of the value: "(1+2j)", "0j")


def _pad(item, width: int, signed: bool) -> str:
    """Left-align an entry to `width`; with a sign column, non-negative entries start one space later."""
    text = _format_item(item)
    if len(text) >= width:  # the widest entries are left as they are, even positive ones next to negatives
        return text
    if signed and not _is_negative(item):
        return " " + text.ljust(width - 1)
    return text.ljust(width)


# ---- layout ---------------------------------------------------------------------------------------------------


def _format_block(data: np.ndarray, indent: int, summarize: bool, width: int, signed: bool) -> str:
    """Brackets around rows, recursively: each level one space deeper than the level above."""
    if data.ndim == 0:
        return _pad(data[()], width, signed)
    if data.ndim == 1:
        return _format_row(data, indent, summarize, width, signed)
    children = [
        _format_block(child, indent + 1, summarize, width, signed) if child is not None else "..."
        for child in _kept(data, summarize)
    ]
    # A 2-d tensor puts rows on consecutive lines; each higher dimension adds one blank line between blocks.
    separator = "," + "\n" * (data.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(children) + "]"


def _format_row(row: np.ndarray, indent: int, summarize: bool, width: int, signed: bool) -> str:
    """A 1-d row, wrapped so each line holds as many entries (plus ", ") as fit in linewidth."""
    items = [_pad(x, width, signed) if x is not None else "..." for x in _kept(row, summarize)]
    per_line = max(1, (STATE.print_options["linewidth"] - indent) // (width + 2))
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _kept(data: np.ndarray, summarize: bool) -> list:
    """The entries along the first axis that get printed; None marks where "..." goes."""
    edgeitems = STATE.print_options["edgeitems"]
    if summarize and len(data) > 2 * edgeitems:
        return list(data[:edgeitems]) + [None] + list(data[len(data) - edgeitems :])
    return list(data)
