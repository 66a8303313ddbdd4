"""paddle.get_flags / paddle.set_flags: Paddle's global switches (FLAGS_*), kept in core/state.py.

minipaddle knows a few of Paddle's public flags (core/state.py, KNOWN_FLAGS), with paddle 2.6's defaults. Only
FLAGS_check_nan_inf changes anything: every op run in dynamic mode (backward included) then checks its outputs and
raises a RuntimeError at the first NaN or Inf, naming the op. The others are kept so that scripts setting them run.
"""

from __future__ import annotations

import numbers

from minipaddle.core.state import KNOWN_FLAGS, STATE, set_flag

__all__ = ["get_flags", "set_flags"]


def get_flags(flags) -> dict:
    """The values of flags, by name.

    Args:
        flags: a flag name ('FLAGS_check_nan_inf') or a list/tuple of names.

    Returns:
        dict: {name: value} for every name asked for.

    Example:
        >>> paddle.get_flags(['FLAGS_check_nan_inf', 'FLAGS_eager_delete_tensor_gb'])
        {'FLAGS_check_nan_inf': False, 'FLAGS_eager_delete_tensor_gb': 0.0}
    """
    if isinstance(flags, str):
        flags = [flags]
    if not isinstance(flags, (list, tuple)):
        raise TypeError(f"get_flags: flags must be a flag name or a list/tuple of names, got {type(flags).__name__}")
    for name in flags:
        _check_known(name, "get_flags")
    return {name: STATE.flags[name] for name in flags}


def set_flags(flags) -> None:
    """Set flags: a dict {name: value}. Every entry is checked first, so a bad one changes nothing.

    Example:
        >>> paddle.set_flags({'FLAGS_check_nan_inf': True})   # raise at the first op that makes a NaN or Inf
        >>> paddle.log(paddle.to_tensor([0.0]))
        RuntimeError: log: output 0 holds 0 NaN and 1 Inf values (FLAGS_check_nan_inf is on)
    """
    if not isinstance(flags, dict):
        raise TypeError(f"set_flags: flags must be a dict of flag names and values, got {type(flags).__name__}")
    values = {name: _as_flag_type(name, value) for name, value in flags.items()}
    for name, value in values.items():
        set_flag(name, value)


def _check_known(name, fn: str) -> None:
    if name not in KNOWN_FLAGS:
        raise ValueError(f"{fn}: unknown flag {name!r}; minipaddle knows {', '.join(KNOWN_FLAGS)}")


def _as_flag_type(name, value):
    """The value as the flag's type (that of its default), as Paddle converts it: a bool flag takes 0 and 1 too."""
    _check_known(name, "set_flags")
    kind = type(KNOWN_FLAGS[name])
    accepted = {
        bool: isinstance(value, numbers.Integral),  # bools are Integral too
        int: isinstance(value, numbers.Integral) and not isinstance(value, bool),
        float: isinstance(value, numbers.Real) and not isinstance(value, bool),
        str: isinstance(value, str),
    }[kind]
    if not accepted:
        raise TypeError(f"set_flags: {name} takes a {kind.__name__}, got {type(value).__name__} ({value!r})")
    return kind(value)
