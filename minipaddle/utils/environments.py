"""paddle.utils.environments: environment variables read and written with a type (string, boolean, integer),
and a guard that sets one for a `with` block and puts the old value back, as paddle 2.6's.

A value or default of the wrong type raises ValueTypeError: a TypeError (the right type for it), and also an
AssertionError, which is what paddle 2.6 raises there (bare asserts), so code catching that still catches it.
"""

from __future__ import annotations

import os
from typing import Generic, TypeVar

__all__ = [
    "EnvironmentVariable",
    "StringEnvironmentVariable",
    "BooleanEnvironmentVariable",
    "IntegerEnvironmentVariable",
    "EnvironmentVariableGuard",
]

T = TypeVar("T")


class ValueTypeError(TypeError, AssertionError):
    """A default or value of the wrong type for its variable."""


def _require(ok: bool, where: str, what: str, value) -> None:
    if not ok:
        raise ValueTypeError(f"{where}: {what}, got {type(value).__name__} {value!r}")


class EnvironmentVariable(Generic[T]):
    """One environment variable `name` with a `default` used while it is unset; subclasses read and write it as
    their type."""

    name: str
    default: T

    def __init__(self, name: str, default: T) -> None:
        _require(isinstance(name, str), type(self).__name__, "name must be a string", name)
        self.name = name
        self.default = default

    def get(self) -> T:
        raise NotImplementedError(f"{type(self).__name__}.get: a subclass of EnvironmentVariable reads its type")

    def set(self, value: T) -> None:
        raise NotImplementedError(f"{type(self).__name__}.set: a subclass of EnvironmentVariable writes its type")

    def delete(self) -> None:
        """Unset the variable (KeyError if it is not set, as paddle's `del os.environ[name]`)."""
        del os.environ[self.name]

    def __repr__(self) -> str:
        return f"Env({self.name}={self.get()!r})"


class StringEnvironmentVariable(EnvironmentVariable[str]):
    def __init__(self, name: str, default: str) -> None:
        super().__init__(name, default)
        _require(isinstance(default, str), "StringEnvironmentVariable", "default must be a string", default)

    def get(self) -> str:
        return os.getenv(self.name, self.default)

    def set(self, value: str) -> None:
        _require(isinstance(value, str), "StringEnvironmentVariable.set", "value must be a string", value)
        os.environ[self.name] = value


class BooleanEnvironmentVariable(EnvironmentVariable[bool]):
    """True when the variable is one of BOOLEAN_IS_SET (any case); anything else set is False."""

    BOOLEAN_IS_SET = ("y", "yes", "t", "true", "on", "1")

    def __init__(self, name: str, default: bool) -> None:
        super().__init__(name, default)
        _require(isinstance(default, bool), "BooleanEnvironmentVariable", "default must be a boolean", default)

    def get(self) -> bool:
        return os.getenv(self.name, str(self.default)).lower() in self.BOOLEAN_IS_SET

    def set(self, value: bool) -> None:
        _require(isinstance(value, bool), "BooleanEnvironmentVariable.set", "value must be a boolean", value)
        os.environ[self.name] = str(value).lower()


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class IntegerEnvironmentVariable(EnvironmentVariable[int]):
    """The variable as an int; a set value that is not an integer reads as the default (as paddle's)."""

    def __init__(self, name: str, default: int) -> None:
        super().__init__(name, default)
        _require(_is_int(default), "IntegerEnvironmentVariable", "default must be an integer", default)

    def get(self) -> int:
        try:
            return int(os.getenv(self.name, str(self.default)))
        except ValueError:
            return self.default

    def set(self, value: int) -> None:
        _require(_is_int(value), "IntegerEnvironmentVariable.set", "value must be an integer", value)
        os.environ[self.name] = str(value)


class EnvironmentVariableGuard(Generic[T]):
    """Sets `variable` to `value` when made (not on entering, as paddle's) and back to its old value on leaving
    the `with` block. The old value is what get() answered, so an unset variable comes back set to its default,
    as in paddle."""

    variable: EnvironmentVariable[T]
    original_value: T

    def __init__(self, variable: EnvironmentVariable[T], value: T) -> None:
        _require(isinstance(variable, EnvironmentVariable), "EnvironmentVariableGuard",
                 "variable must be an EnvironmentVariable", variable)  # fmt: skip
        self.variable = variable
        self.original_value = variable.get()
        self.variable.set(value)

    def __enter__(self) -> EnvironmentVariableGuard:
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        self.variable.set(self.original_value)
