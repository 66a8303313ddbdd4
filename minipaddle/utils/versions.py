"""Version and dependency helpers: require_version, try_import, deprecated."""

from __future__ import annotations

import importlib
import re

__all__ = ["PADDLE_VERSION", "deprecated", "require_version", "try_import"]

# The PaddlePaddle release whose API and behaviour minipaddle follows (its reference for every check).
PADDLE_VERSION = "2.6.2"

_VERSION_FORMAT = r"\d+(\.\d+){0,3}"


def _check_format(value: str, arg: str) -> None:
    if re.fullmatch(_VERSION_FORMAT, value) is None:
        raise ValueError(
            f"require_version: {arg} must be in the format '\\d+(\\.\\d+){{0,3}}', like '1.5.2.0', got {value!r}"
        )


def _as_four(version: str) -> list[int]:
    parts = [int(p) for p in version.split(".")]
    return parts + [0] * (4 - len(parts))


def require_version(min_version: str, max_version: str | None = None) -> None:
    """Check that the PaddlePaddle version is in [min_version, max_version]; raise if it is not.

    minipaddle follows PaddlePaddle 2.6.2, so that is the version compared (missing parts count as 0, so
    '2.6' <= 2.6.2 <= '2.6.2').

    Args:
        min_version (str): the lowest version accepted, like '1.4.0'.
        max_version (str, optional): the highest version accepted; None accepts any version >= min_version.

    Raises:
        TypeError: min_version is not a str, or max_version is neither a str nor None.
        ValueError: a version is not like '2.6.0' (up to four dot-separated numbers).
        RuntimeError: the version is outside the range (Paddle raises a bare Exception with the same text).

    Example:
        >>> paddle.utils.require_version("2.0.0")
        >>> paddle.utils.require_version(min_version="2.0", max_version="2.6.2")
    """
    if not isinstance(min_version, str):
        raise TypeError(f"require_version: min_version must be a str, got {type(min_version).__name__}")
    if not isinstance(max_version, (str, type(None))):
        raise TypeError(f"require_version: max_version must be a str or None, got {type(max_version).__name__}")
    _check_format(min_version, "min_version")
    if max_version is not None:
        _check_format(max_version, "max_version")
    installed = _as_four(PADDLE_VERSION)
    if max_version is not None:
        if not _as_four(min_version) <= installed <= _as_four(max_version):
            raise RuntimeError(
                f"VersionError: PaddlePaddle version in [{min_version}, {max_version}] required, but minipaddle "
                f"follows PaddlePaddle {PADDLE_VERSION}."
            )
    elif installed < _as_four(min_version):
        raise RuntimeError(
            f"VersionError: PaddlePaddle version {min_version} or higher is required, but minipaddle follows "
            f"PaddlePaddle {PADDLE_VERSION}."
        )


def try_import(module_name: str, err_msg: str | None = None):
    """Import a module by name and return it; on failure raise an ImportError that says what to install.

    Args:
        module_name (str): such as 'cv2' or 'scipy.signal'.
        err_msg (str, optional): the message of the ImportError, in place of the default one.

    Example:
        >>> np = paddle.utils.try_import("numpy")
    """
    if not isinstance(module_name, str):
        raise TypeError(f"try_import: module_name must be a str, got {type(module_name).__name__}")
    install_name = "opencv-python" if module_name == "cv2" else module_name.split(".")[0]
    try:
        return importlib.import_module(module_name)
    except ImportError as e:
        if err_msg is None:
            err_msg = (
                f"Failed importing {module_name}. This likely means that some paddle modules require additional "
                f"dependencies that have to be manually installed (usually with `pip install {install_name}`). "
            )
        raise ImportError(err_msg) from e


def deprecated(update_to: str = "", since: str = "", reason: str = "", level: int = 0):
    """Mark a function or class as deprecated: `@paddle.utils.deprecated(update_to="paddle.new_api", since="2.5")`.

    Paddle 2.6 has its deprecation warnings switched off: the decorator returns the function unchanged, whatever
    the arguments. minipaddle does the same, so code decorated with it behaves as it does in Paddle 2.6.

    Args:
        update_to (str): the API to use instead. since (str): the version it was deprecated in.
        reason (str): why. level (int): 0, 1 or 2 (how loud; unused in Paddle 2.6).

    Returns:
        A decorator that returns what it decorates.
    """

    def decorator(func):
        return func

    return decorator
