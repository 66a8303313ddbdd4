"""paddle.amp.auto_cast (= amp_guard): run the ops inside a block in mixed precision.

Paddle 2.6 turns AMP off on a CPU (auto_cast warns and does nothing). minipaddle applies paddle 2.6's GPU rules on
the CPU instead, with numpy's float16 and ml_dtypes' bfloat16, so the casts and their numerics can be seen
without a GPU. The settings of the innermost block live in the per-thread slot STATE.amp; one hook on the op door
(cast_hook.py) reads them for every op.
"""

from __future__ import annotations

import contextlib
import threading

from minipaddle.amp.cast_hook import AutoCastHook
from minipaddle.amp.composite import CompositeOp
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE, add_op_hook
from minipaddle.ops.amp_lists import LEVELS, update_list

__all__ = ["auto_cast", "amp_guard", "AmpSettings", "amp_state"]


class AmpSettings:
    """The settings of an auto_cast block: level, dtype (a DType), the white and black sets (Paddle op names,
    custom lists applied) and use_promote."""

    __slots__ = ("enable", "level", "dtype", "white", "black", "use_promote")

    def __init__(self, enable: bool, level: str, dtype, white: set, black: set, use_promote: bool) -> None:
        self.enable, self.level, self.dtype = enable, level, dtype
        self.white, self.black, self.use_promote = white, black, use_promote

    def composite(self, paddle_op: str, inputs: tuple) -> CompositeOp:
        """A block computing Paddle op `paddle_op` from several ops (composite.py): it casts `inputs` as the
        rule says for that one op, and ops inside are not cast again."""
        return CompositeOp(self, paddle_op, inputs)

    def __repr__(self) -> str:
        return f"AmpSettings(level={self.level!r}, dtype={self.dtype.name!r}, use_promote={self.use_promote})"


class _LastDtype(threading.local):
    """The dtype of this thread's last auto_cast (paddle's `amp_global_state().amp_dtype`: set on entry and not
    restored; GradScaler.scale reads it)."""

    def __init__(self) -> None:
        self.dtype = "float32"


_LAST = _LastDtype()


def last_amp_dtype() -> str:
    """The dtype named by this thread's most recent auto_cast ('float32' before any)."""
    return _LAST.dtype


def amp_state() -> AmpSettings | None:
    """The settings of the innermost auto_cast block of this thread, or None outside any."""
    return STATE.amp


def _check_settings(enable, level, dtype, use_promote, fn: str) -> tuple:
    if not isinstance(level, str):
        raise TypeError(f"{fn}: level must be a str ('O0', 'OD', 'O1' or 'O2'), got {type(level).__name__}")
    level = level.upper()
    if level not in LEVELS:
        raise ValueError("level should be O0, OD, O1 or O2.")
    if not isinstance(dtype, str):
        raise TypeError(f"{fn}: dtype must be a str ('float16' or 'bfloat16'), got {type(dtype).__name__}")
    dtype = dtype.lower()
    if enable and dtype not in ("float16", "bfloat16"):
        raise ValueError("If enable amp, dtype should be 'float16' or 'bfloat16'.")
    return bool(enable), level, dtype, bool(use_promote)


@contextlib.contextmanager
def amp_guard(enable=True, custom_white_list=None, custom_black_list=None, level="O1", dtype="float16",
              use_promote=True):  # fmt: skip
    """The same as `auto_cast` (its older name)."""
    enable, level, dtype, use_promote = _check_settings(enable, level, dtype, use_promote, "amp_guard")
    _LAST.dtype = dtype
    if not enable:
        level = "O0"
    white, black = update_list(custom_white_list, custom_black_list, level, dtype if enable else "float16")
    low = dtypes.to_dtype(dtype) if enable else dtypes.float32
    settings = AmpSettings(enable, level, low, white, black, use_promote)
    prev = STATE.amp
    handle = None  # one AutoCastHook per thread, put on by the outermost block; inner blocks change STATE.amp only
    if not any(isinstance(h, AutoCastHook) for h in STATE.hooks):
        handle = add_op_hook(AutoCastHook())
    STATE.amp = settings
    try:
        yield
    finally:
        STATE.amp = prev
        if handle is not None:
            handle.remove()


def auto_cast(enable=True, custom_white_list=None, custom_black_list=None, level="O1", dtype="float16",
              use_promote=True):  # fmt: skip
    """Run the ops inside the block in mixed precision (a context manager).

    Each op computes in the dtype paddle 2.6's rules pick: ops on the white list (matmul_v2, conv2d, ...) in the
    low dtype, ops on the black list (exp, softmax, reductions, losses, ...) in float32, the others as their
    inputs are (float32 if any input is float32). Lists name ops by Paddle's names (`paddle.amp.white_list()`).

    Unlike paddle 2.6, which turns AMP off on a CPU, minipaddle applies the GPU rules on the CPU: that is what lets
    you watch mixed precision without a GPU (`paddle.amp.cast_log()` shows every decision).

    Args:
        enable (bool): turn AMP on (default True); False runs the block in float32 (level O0).
        custom_white_list (set|list, optional): Paddle op names to run in the low dtype as well.
        custom_black_list (set|list, optional): Paddle op names to keep in float32. An op in both lists is a
            ValueError.
        level (str): 'O1' (mixed: the lists decide), 'O2' (almost everything in the low dtype: only the ops
            without low-precision kernels stay float32), 'OD' (only the white list in the low dtype), 'O0' (off).
        dtype (str): 'float16' (default) or 'bfloat16'.
        use_promote (bool): under O2, let an op with a float32 input compute in float32 (default True).

    Example:
        >>> linear = paddle.nn.Linear(4, 3)
        >>> with paddle.amp.auto_cast():
        ...     y = paddle.matmul(paddle.rand([2, 4]), linear.weight)
        >>> y.dtype
        paddle.float16
    """
    return amp_guard(enable, custom_white_list, custom_black_list, level, dtype, use_promote)
