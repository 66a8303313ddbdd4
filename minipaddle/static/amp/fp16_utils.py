"""Static AMP's Program rewrites (paddle 2.6's python/paddle/static/amp/fp16_utils.py), on the amp_cast pass."""

from __future__ import annotations

import contextlib

from minipaddle.static.passes.amp_cast import GUARD, amp_cast, rewrite_program
from minipaddle.static.program import Program, default_main_program, name_scope

__all__ = ["fp16_guard", "cast_model_to_fp16", "rewrite_program", "amp_cast"]


@contextlib.contextmanager
def fp16_guard():
    """Mark the ops built inside: with `use_fp16_guard=True` (O2), only they compute in float16.

    Example:
        >>> with paddle.static.amp.fp16_guard():
        ...     y = paddle.static.nn.fc(x, 10)
    """
    with name_scope(prefix=GUARD):
        yield


def cast_model_to_fp16(program=None, amp_lists=None, use_fp16_guard=True, dest_type="float16", level="O2",
                       use_promote=False):  # fmt: skip
    """Rewrite `program` (default: the main Program) in place for pure low precision (O2) or O1 casts.
    Returns the Program (paddle returns the names it cast)."""
    program = default_main_program() if program is None else program
    if not isinstance(program, Program):
        raise TypeError(f"cast_model_to_fp16: program must be a Program, got {type(program).__name__}")
    return rewrite_program(program, amp_lists, dest_type, level, use_fp16_guard, use_promote)
