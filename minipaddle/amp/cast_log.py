"""The AMP cast log: what auto_cast decided for each op (a public introspection API, DESIGN.md; viz reads it).

    with paddle.amp.cast_log() as log:
        with paddle.amp.auto_cast():
            loss = model(x).mean()
    for r in log:
        print(r.op, r.paddle_op, r.dtype, r.input_dtypes, r.casts, r.output_dtypes)

One CastRecord per op that ran (or was built into a Program) under an enabled auto_cast; ops that AMP never
touches ('keep' ops) and ops with no floating input are recorded too, with `dtype=None`, so the log is the whole
forward pass in order.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from dataclasses import dataclass, field

from minipaddle.ops.amp_lists import black_list, white_list

__all__ = ["CastRecord", "CastLog", "cast_log", "is_amp_cast", "list_of_op"]


@dataclass
class CastRecord:
    """One op under auto_cast.

    Attributes:
        op: minipaddle's op name (OpDef.name); paddle_op: Paddle's name for it (what the lists say).
        list: 'white', 'black', 'unsupported' or 'gray' (neither list: the promote rule decided), for this level;
            'keep' for ops AMP never casts (cast, optimizer updates).
        dtype: the dtype the op was asked to compute in ('float16', 'bfloat16', 'float32'), None if not decided.
        input_dtypes: the inputs' dtypes as they came (None for an absent input).
        casts: (input index, from dtype, to dtype) for every cast AMP inserted before the op.
        output_dtypes: the outputs' dtypes.
        scope: the Layer path the op ran under ('' outside any Layer); level: 'O1', 'O2' or 'OD'.
    """

    op: str
    paddle_op: str
    list: str
    dtype: str | None
    input_dtypes: tuple
    casts: list = field(default_factory=list)
    output_dtypes: tuple = ()
    scope: str = ""
    level: str = ""


class CastLog(list):
    """A list of CastRecords with a printable table (`print(log.table())`)."""

    def table(self) -> str:
        rows = [("op", "paddle op", "list", "dtype", "inputs", "casts", "outputs")]
        for r in self:
            casts = ", ".join(f"{i}:{a}->{b}" for i, a, b in r.casts) or "-"
            rows.append((r.op, r.paddle_op, r.list, r.dtype or "-", ",".join(str(d) for d in r.input_dtypes),
                         casts, ",".join(r.output_dtypes)))  # fmt: skip
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows)


AMP_CAST_NODES: weakref.WeakSet = weakref.WeakSet()  # the GradNodes of the casts auto_cast inserted


def is_amp_cast(node) -> bool:
    """Whether an autograd GradNode is a cast that auto_cast inserted (rather than one the user wrote)."""
    return node in AMP_CAST_NODES


def list_of_op(paddle_op: str, level: str = "O1", dtype: str = "float16") -> str:
    """'white', 'black' or 'gray': which of paddle 2.6's default lists holds the Paddle op at this level and dtype.

    Example:
        >>> paddle.amp.list_of_op('matmul_v2')
        'white'
    """
    if level == "O0":
        return "gray"
    if paddle_op in white_list()[dtype][level]:
        return "white"
    return "black" if paddle_op in black_list()[dtype][level] else "gray"


class _Logs(threading.local):
    def __init__(self) -> None:
        self.active: list[CastLog] = []


LOGS = _Logs()  # this thread's open cast logs (the AMP hook appends to each)


@contextlib.contextmanager
def cast_log():
    """Record a CastRecord for every op run under auto_cast inside the block; yields the CastLog (a list).

    Example:
        >>> with paddle.amp.cast_log() as log, paddle.amp.auto_cast():
        ...     y = paddle.matmul(x, w)
        >>> log[0].dtype
        'float16'
    """
    log = CastLog()
    LOGS.active.append(log)
    try:
        yield log
    finally:
        LOGS.active.remove(log)
