"""`paddle.jit.set_verbosity` and `paddle.jit.set_code_level`: what to_static says while it converts.

The logger is called `Dynamic-to-Static`, as in Paddle; with `also_to_stdout=True` each message is printed too.
The code is printed after the transformer whose level equals the set level (100: after all of them).
"""

from __future__ import annotations

import logging
import os

LOG_ALL = 100  # Paddle's LOG_AllTransformer
_logger = logging.getLogger("Dynamic-to-Static")
if not _logger.handlers:
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s: %(message)s"))
    _logger.addHandler(_handler)
    _logger.setLevel(logging.INFO)
    _logger.propagate = False

_SETTINGS = {
    "verbosity": int(os.environ.get("TRANSLATOR_VERBOSITY", -1)),
    "code_level": int(os.environ.get("TRANSLATOR_CODE_LEVEL", -1)),
    "verbosity_stdout": False,
    "code_stdout": False,
}


def set_verbosity(level: int = 0, also_to_stdout: bool = False) -> None:
    """Log to_static's progress up to `level` (1: each converted function, 2: what is left unconverted, 3: more).

    Example:
        >>> paddle.jit.set_verbosity(1, also_to_stdout=True)
    """
    if not isinstance(level, int):
        raise TypeError(f"set_verbosity: level must be an int, got {type(level).__name__}")
    _SETTINGS["verbosity"], _SETTINGS["verbosity_stdout"] = level, bool(also_to_stdout)


def set_code_level(level: int = LOG_ALL, also_to_stdout: bool = False) -> None:
    """Print the code of each converted function after the transformer of this level (100: the final code).

    Example:
        >>> paddle.jit.set_code_level(100, also_to_stdout=True)   # then call a to_static function
    """
    if not isinstance(level, int):
        raise TypeError(f"set_code_level: level must be an int, got {type(level).__name__}")
    _SETTINGS["code_level"], _SETTINGS["code_stdout"] = level, bool(also_to_stdout)


def _emit(text: str, stdout: bool) -> None:
    _logger.info(text)
    if stdout:
        print("Dynamic-to-Static INFO: " + text)


def log(level: int, message: str) -> None:
    if _SETTINGS["verbosity"] >= level:
        _emit(f"(Level {level}) {message}", _SETTINGS["verbosity_stdout"])


def warn(message: str) -> None:
    """Paddle 2.6 prints warnings only when a verbosity is set."""
    if _SETTINGS["verbosity"] != -1:
        _logger.warning(message)
        if _SETTINGS["verbosity_stdout"]:
            print("Dynamic-to-Static WARNING: " + message)


def log_code(level: int, transformer: str, code: str) -> None:
    if _SETTINGS["code_level"] != level:
        return
    if level == LOG_ALL:
        head = f"After the last level ast transformer: '{transformer}', the transformed code:"
    else:
        head = f"After the level {level} ast transformer: '{transformer}', the transformed code:"
    _emit(f"{head}\n{code}", _SETTINGS["code_stdout"])
