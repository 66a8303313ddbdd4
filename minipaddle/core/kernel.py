"""Calling an op's numpy kernel: the one place where a kernel's errors are turned into the user's language, and
where FLAGS_check_nan_inf looks at every result.

Used by the door in dynamic mode (core/dispatch.py, core/inplace.py) and by the Executor when it runs a Program
(static/executor.py), so both modes report a failing op, and a NaN or Inf, the same way.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.state import PROCESS, STATE

# The error types a kernel (numpy, mostly) may raise for bad input; each is re-raised as the same built-in type.
_KERNEL_ERRORS = (ValueError, TypeError, IndexError, ArithmeticError, MemoryError)
_PUBLIC_BASES = (IndexError, ValueError, TypeError, MemoryError)

# numpy's and Python's words for a bad input, and what they mean to the user: (words, exception type, reason).
# The reason is said first, in terms of the op's inputs; numpy's own text follows in brackets.
_REASONS = (
    ("could not be broadcast", ValueError, "inputs of shapes {shapes} do not broadcast together"),
    ("maximum allowed", ValueError, "an argument is too large: the result would exceed numpy's array size limit"),
    ("array is too big", ValueError, "an argument is too large: the result would exceed numpy's array size limit"),
    ("negative dimensions", ValueError, "an argument makes a negative size"),
    ("zero-size array to reduction", ValueError, "cannot reduce an empty input (shapes {shapes}): it has no value"),
    ("numpy boolean", TypeError, "inputs of dtypes {dtypes} are not supported"),
    ("did not contain a loop", TypeError, "inputs of dtypes {dtypes} are not supported"),
    ("cannot cast ufunc", TypeError, "inputs of dtypes {dtypes} are not supported"),
    ("out of bounds for array of dimension", ValueError, "an axis is out of range for inputs of shapes {shapes}"),
    ("index out of range", IndexError, "inputs of shapes {shapes} do not have the dimensions the op needs"),
    ("invalid index to scalar", IndexError, "inputs of shapes {shapes} do not have the dimensions the op needs"),
    ("boolean index did not match", ValueError, "inputs of shapes {shapes} do not match each other"),
    ("cannot reshape array", ValueError, "inputs of shapes {shapes} do not match each other"),
    ("arrays used as indices", TypeError, "an argument is too large or not an integer"),
    ("invalid number of fft data points", ValueError, "an input of shapes {shapes} has no points to transform"),
)


def kernel_error(name: str, e: Exception, detail: str = "", arrays=()) -> Exception:
    """The exception to raise for error `e` from op `name`'s kernel, prefixed by the op. Where numpy's text names
    a cause the user can act on (shapes that do not broadcast, a size past numpy's limit, an empty reduction, a
    dtype numpy has no loop for), the message says it in the inputs' terms first. Arithmetic errors (an attribute
    too large for a C integer, a division by a zero size) are bad arguments as far as the user is concerned."""
    if isinstance(e, ArithmeticError):
        reason = "an argument is too large" if isinstance(e, OverflowError) else "an argument is zero or empty"
        return ValueError(f"{name}: {reason} ({e}){detail}")
    text = str(e)
    low = text.lower()
    for words, kind, reason in _REASONS:
        if words in low:
            given = [a for a in arrays if isinstance(a, np.ndarray)]
            shapes = ", ".join(str(list(a.shape)) for a in given) or "[]"
            dtypes = ", ".join(str(a.dtype) for a in given) or "none"
            return kind(f"{name}: {reason.format(shapes=shapes, dtypes=dtypes)}{detail} (inside the kernel: {text})")
    base = next(b for b in _PUBLIC_BASES if isinstance(e, b))
    return base(f"{name}: {e}{detail}")


def arrays_of(inputs: tuple) -> tuple:
    """The numpy arrays of an op's input Tensors (None stays None), what its kernel is called with. Ops with one
    or two inputs, nearly all of them, skip building a list: this runs for every op."""
    n = len(inputs)
    if n == 2:
        x, y = inputs
        if x is not None and y is not None:
            return x._data, y._data
    elif n == 1 and inputs[0] is not None:
        return (inputs[0]._data,)
    return tuple([None if t is None else t._data for t in inputs])


def run_kernel(op, arrays: list, attrs: dict, name: str | None = None):
    """`op.kernel(*arrays, **attrs)` as numpy arrays (a tuple for several outputs). `name` says where in error
    messages (default: the op's name; the Executor adds the Layer the op was built in)."""
    try:
        out = op.kernel(*arrays, **attrs)
    except _KERNEL_ERRORS as e:
        if str(e).startswith(op.name + ":"):  # a kernel that already names itself
            raise
        raise kernel_error(name or op.name, e, arrays=arrays) from e
    if type(out) is tuple:
        for o in out:  # (a plain loop: nearly always every output is already an array, and nothing is built)
            if type(o) is not np.ndarray:
                out = tuple([np.asarray(o) for o in out])
                break
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
        raise kernel_error(f"{op.name}_", e, f" (the result must keep the tensor's shape {shape})", arrays) from e
    if PROCESS.check_nan_inf:  # process-wide, as the flags are: a plain attribute, read on every op
        check_finite(f"{op.name}_", target_data)


def run_kernel_into_pair(op, targets_data: tuple, arrays: list, attrs: dict) -> bool:
    """`op.kernel_into_pair(targets, *arrays, **attrs)`: both results written straight into the targets' storage;
    False (nothing written) when the op cannot for these attrs."""
    try:
        return op.kernel_into_pair(targets_data, *arrays, **attrs)
    except _KERNEL_ERRORS as e:
        raise kernel_error(f"{op.name}_", e, arrays=arrays) from e


def check_finite(name: str, out) -> None:
    """FLAGS_check_nan_inf: refuse an op's result that holds NaN or Inf, as Paddle's check_numerics does."""
    for i, o in enumerate(out if type(out) is tuple else (out,)):
        if o.dtype.kind not in "biu" and not np.isfinite(o).all():  # float, complex and bfloat16 (kind 'V')
            where = f" in Layer {STATE.scope}" if STATE.scope else ""
            raise RuntimeError(
                f"{name}: output {i}{where} holds {int(np.isnan(o).sum())} NaN and {int(np.isinf(o).sum())} Inf "
                "values (FLAGS_check_nan_inf is on)"
            )
