"""Calling an op's numpy kernel: the one place where a kernel's errors are turned into the user's language, and
where FLAGS_check_nan_inf looks at every result.

Used by the door in dynamic mode (core/dispatch.py, core/inplace.py) and by the Executor when it runs a Program
(static/executor.py), so both modes report a failing op, and a NaN or Inf, the same way.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.state import PROCESS, STATE

# The error types a kernel (numpy, mostly) may raise for bad input; each is re-raised as the same built-in type.
_KERNEL_ERRORS = (ValueError, TypeError, IndexError, ZeroDivisionError, FloatingPointError, MemoryError)
_PUBLIC_BASES = (IndexError, ValueError, TypeError, ArithmeticError, MemoryError)


def kernel_error(name: str, e: Exception, detail: str = "") -> Exception:
    """The exception to raise for error `e` from op `name`'s kernel: the same built-in type, prefixed by the op."""
    base = next(b for b in _PUBLIC_BASES if isinstance(e, b))
    return base(f"{name}: {e}{detail}")


def run_kernel(op, arrays: list, attrs: dict, name: str | None = None):
    """`op.kernel(*arrays, **attrs)` as numpy arrays (a tuple for several outputs). `name` says where in error
    messages (default: the op's name; the Executor adds the Layer the op was built in)."""
    try:
        out = op.kernel(*arrays, **attrs)
    except _KERNEL_ERRORS as e:
        if str(e).startswith(op.name + ":"):  # a kernel that already names itself
            raise
        raise kernel_error(name or op.name, e) from e
    if type(out) is tuple:
        out = tuple(o if type(o) is np.ndarray else np.asarray(o) for o in out)
    elif type(out) is not np.ndarray:
        out = np.asarray(out)
    if PROCESS.check_nan_inf:  # process-wide, as the flags are: a plain attribute, read on every op
        check_finite(name or op.name, out)
    return out


def run_kernel_into(op, target_data: np.ndarray, arrays: list, attrs: dict) -> None:
    """`op.kernel_into(target, *arrays, **attrs)`: the result written straight into the target's storage."""
    try:
        op.kernel_into(target_data, *arrays, **attrs)
    except _KERNEL_ERRORS as e:
        shape = list(target_data.shape)
        raise kernel_error(f"{op.name}_", e, f" (the result must keep the tensor's shape {shape})") from e
    if PROCESS.check_nan_inf:  # process-wide, as the flags are: a plain attribute, read on every op
        check_finite(f"{op.name}_", target_data)


def check_finite(name: str, out) -> None:
    """FLAGS_check_nan_inf: refuse an op's result that holds NaN or Inf, as Paddle's check_numerics does."""
    for i, o in enumerate(out if type(out) is tuple else (out,)):
        if o.dtype.kind not in "biu" and not np.isfinite(o).all():  # float, complex and bfloat16 (kind 'V')
            where = f" in Layer {STATE.scope}" if STATE.scope else ""
            raise RuntimeError(
                f"{name}: output {i}{where} holds {int(np.isnan(o).sum())} NaN and {int(np.isinf(o).sum())} Inf "
                "values (FLAGS_check_nan_inf is on)"
            )
