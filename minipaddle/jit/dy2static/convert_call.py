"""`_jst.Call(f)`: what a call inside converted code calls.

User code is converted when it is called: a plain function of the user's, a method of a user class, or a user
Layer (its `forward`) comes back converted, so control flow on Tensors inside it becomes ops too. minipaddle's
own functions and Layers, builtins, and library code (the standard library, site-packages) run as they are:
they hold no Python control flow on Tensors, and their source may not even exist. Functions marked
`@paddle.jit.not_to_static` run as they are.
"""

from __future__ import annotations

import functools
import inspect
import os
import sysconfig
import types

from minipaddle.jit import logging_utils

CONVERSION_OPTIONS = "_jst_not_to_static"
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # minipaddle/
_LIBRARY_DIRS = tuple(
    os.path.abspath(p) for p in {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
)


IGNORED_MODULES: set = set()  # paddle.jit.ignore_module


def _is_user_code(fn) -> bool:
    module = getattr(fn, "__module__", None) or ""
    if module in IGNORED_MODULES or module.split(".")[0] in IGNORED_MODULES:
        return False
    try:
        path = inspect.getsourcefile(fn) or inspect.getfile(fn)
    except (TypeError, OSError):
        return False
    if path is None:
        return False
    path = os.path.abspath(path)
    if path.startswith(_PACKAGE_DIR):
        return False
    return not any(path.startswith(d) for d in _LIBRARY_DIRS)


def _not_to_static(fn) -> bool:
    return getattr(fn, CONVERSION_OPTIONS, False) or getattr(getattr(fn, "__func__", None), CONVERSION_OPTIONS, False)


def convert_call(fn):
    """The callable to call in place of `fn` in converted code."""
    from minipaddle.jit.ast_transform import convert_to_static
    from minipaddle.jit.program_translator import StaticFunction
    from minipaddle.nn import Layer

    if _not_to_static(fn):
        return fn
    if isinstance(fn, StaticFunction):  # another to_static function: traced into this Program, inline
        return fn._inline_callable()
    if isinstance(fn, Layer):
        from minipaddle.jit.partial_program import guard_layer

        guard_layer(fn)
        forward = type(fn).forward
        if isinstance(forward, StaticFunction) or isinstance(fn.__dict__.get("forward"), StaticFunction):
            return fn  # its forward inlines itself (StaticFunction.__call__ while building)
        if not _is_user_code(forward) or _not_to_static(forward):
            return fn
        return functools.partial(_call_layer, fn, _converted(forward, convert_to_static))
    if isinstance(fn, types.FunctionType):
        if fn.__name__ == "<lambda>" or not _is_user_code(fn):
            return fn
        return _converted(fn, convert_to_static)
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
        if not _is_user_code(fn.__func__):
            return fn
        converted = _converted(fn.__func__, convert_to_static)
        return converted if converted is fn.__func__ else types.MethodType(converted, fn.__self__)
    return fn


def _converted(fn, convert_to_static):
    try:
        converted = convert_to_static(fn)
    except NotImplementedError:
        raise
    except (OSError, TypeError) as e:  # no source (built in a REPL string, a C function): run it as it is
        logging_utils.warn(f"{getattr(fn, '__qualname__', fn)} will be run as it is: {e}")
        return fn
    logging_utils.log(1, f"Convert callable object: convert {fn.__qualname__}.")
    return converted


def _call_layer(layer, converted_forward, *args, **kwargs):
    """`layer(*args)` with its forward converted: the Layer's hooks and scope as usual (Layer.__call__), only the
    forward swapped while it runs."""
    d = layer.__dict__
    had, old = "forward" in d, d.get("forward")
    d["forward"] = types.MethodType(converted_forward, layer)
    try:
        return layer(*args, **kwargs)
    finally:
        if had:
            d["forward"] = old
        else:
            del d["forward"]


def not_to_static(func=None):
    """Mark `func` to run as it is inside converted code (its Python control flow is not converted).

    Example:
        >>> @paddle.jit.not_to_static
        ... def helper(x):
        ...     return x * 2
    """
    if func is None:
        return not_to_static
    target = func.__func__ if isinstance(func, types.MethodType) else func
    setattr(target, CONVERSION_OPTIONS, True)
    return func


__all__ = ["convert_call", "not_to_static"]
