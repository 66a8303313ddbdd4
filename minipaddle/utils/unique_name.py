"""paddle.utils.unique_name: the names Paddle gives tensors, layers and parameters ('fc_0', 'fc_1', ...).

The counters live in minipaddle's state (core/state.py); these are Paddle's names for reading and resetting them.
"""

from __future__ import annotations

import contextlib

from minipaddle.core.state import name_guard
from minipaddle.core.state import unique_name as _next_name

__all__ = ["generate", "guard"]


def generate(key: str) -> str:
    """The next unique name for `key`: 'fc_0', then 'fc_1', ...

    Example:
        >>> paddle.utils.unique_name.generate("fc")
        'fc_0'
    """
    if not isinstance(key, str):
        raise TypeError(f"unique_name.generate: key must be a str, got {type(key).__name__}")
    return _next_name(key)


@contextlib.contextmanager
def guard(new_generator=None):
    """Count names afresh inside the block, and go back to the old counts after it (so two models built in two
    guards get the same parameter names).

    Args:
        new_generator: None, or a prefix string put before every name generated inside (as Paddle's: with
            guard("x_"), "fc_0" is "x_fc_0"). (Paddle also takes a generator object; minipaddle keeps its counters
            in one place and does not.)

    Example:
        >>> with paddle.utils.unique_name.guard():
        ...     paddle.utils.unique_name.generate("fc")
        'fc_0'
    """
    if new_generator is not None and not isinstance(new_generator, str):
        raise ValueError(
            f"unique_name.guard: minipaddle supports new_generator=None (fresh counters) or a prefix str, "
            f"got {type(new_generator).__name__}"
        )
    with name_guard(new_generator or ""):
        yield
