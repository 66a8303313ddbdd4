"""Making tensors (paddle.tensor.creation): to_tensor, zeros, ones, full, empty and their *_like forms, arange,
linspace, logspace, eye, meshgrid, the diagonal and triangle makers diag, diag_embed, tril, triu, and
tril_indices, triu_indices."""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Place, Tensor
from minipaddle.tensor.checks import (
    INT64_MAX,
    MAX_ELEMENTS,
    PreconditionNotMetError,
    _int_arg,
    _int_scalar,
    check_dtype,
    check_int,
    check_number,
    check_shape,
    check_size,
    check_tensor,
    normalize_axis,
)
from minipaddle.tensor.runtime_creation import any_runtime, runtime_arange, runtime_eye, runtime_linspace
from minipaddle.tensor.runtime_shape import runtime_shape

__all__ = [
    "to_tensor",
    "full",
    "zeros",
    "ones",
    "full_like",
    "zeros_like",
    "ones_like",
    "empty",
    "empty_like",
    "arange",
    "linspace",
    "eye",
    "meshgrid",
    "diag",
    "diag_embed",
    "tril",
    "triu",
    "tril_indices",
    "triu_indices",
    "logspace",
]


def _infer_array(data, exact: bool = False) -> np.ndarray:
    """Python data as a numpy array with Paddle's dtype inference (numpy arrays keep their dtype).

    exact=True (a dtype will be given): Python numbers stay at full precision, so that
    to_tensor([0.3], dtype='float64') holds 0.3, not 0.3 rounded to float32 first."""
    if isinstance(data, Tensor):
        return data._data.copy()
    if isinstance(data, (np.ndarray, np.generic)):
        return np.array(data)
    if isinstance(data, (list, tuple)):
        data = [_infer_array(d) if isinstance(d, Tensor) else d for d in data]  # lists of Tensors
        try:
            arr = np.array(data)
        except ValueError:
            raise ValueError("to_tensor: the nested list is ragged (sub-lists of different lengths)") from None
        if arr.dtype == object:
            raise ValueError("to_tensor: the nested list is ragged or holds non-numbers")
    elif isinstance(data, (numbers.Number, bool)):
        arr = np.array(data)
    else:
        raise TypeError(
            f"to_tensor: data must be a scalar, list, tuple, numpy.ndarray or Tensor, got {type(data).__name__}"
        )
    if arr.dtype.kind in "US":
        raise TypeError(f"to_tensor: strings cannot become a tensor (got {data!r})")
    if exact:
        return arr
    # Python floats become the default dtype, ints int64, complex numbers complex64 (complex128 under float64).
    if arr.dtype == np.float64:
        arr = arr.astype(dtypes.default_float().np)
    elif arr.dtype.kind in "iu":
        arr = arr.astype(np.int64)
    elif arr.dtype == np.complex128:
        arr = arr.astype(dtypes.to_dtype(complex).np)
    return arr


def to_tensor(data, dtype=None, place=None, stop_gradient: bool = True) -> Tensor:
    """Create a Tensor from a Python number, (nested) list or tuple, numpy array or Tensor.

    Args:
        data: the values. Python floats become `paddle.get_default_dtype()` (float32), ints int64, bools bool;
            a numpy array keeps its dtype.
        dtype: the dtype to cast to (a `paddle.float32`-style dtype or a string such as 'float32').
        place: accepted for compatibility; minipaddle always runs on the CPU.
        stop_gradient: True (the default) means no gradient is computed for this tensor.

    Example:
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    """
    _check_place(place, "to_tensor")
    arr = _infer_array(data, exact=dtype is not None)
    if arr.dtype.kind in "OUSV" and arr.dtype.name != "bfloat16":  # objects, strings, raw bytes: no Tensor holds them
        raise TypeError(f"to_tensor: data must hold numbers or bools, got a numpy array of dtype {arr.dtype} "
                        f"(from {type(data).__name__})")  # fmt: skip
    if dtype is not None:
        arr = arr.astype(check_dtype(dtype, "to_tensor").np, copy=False)
    return Tensor(arr, stop_gradient=bool(stop_gradient))


def _check_place(place, fn: str) -> None:
    if place is None or isinstance(place, Place):
        if place is not None and place.kind != "cpu":
            raise RuntimeError(f"{fn}: minipaddle runs on the CPU only, got place {place}")
        return
    if isinstance(place, str) and place.lower().startswith("cpu"):
        return
    raise ValueError(
        f"{fn}: minipaddle runs on the CPU only; place must be None, 'cpu' or paddle.CPUPlace(), got {place!r}"
    )


def _dtype_or(dtype, default, fn: str) -> np.dtype:
    return check_dtype(default if dtype is None else dtype, fn).np


def _fill_value(value, fn: str):
    """A fill value: a number, a bool or a one-element Tensor (None would silently fill with NaN)."""
    if isinstance(value, Tensor):
        return value.item()
    if not isinstance(value, (numbers.Number, np.bool_)):
        raise TypeError(
            f"{fn}: fill_value must be a number, a bool or a one-element Tensor, got {type(value).__name__}"
        )
    return value


def _filled(shape, fill_value, dtype, fn: str) -> Tensor:
    at_run_time = runtime_shape(shape, fn)
    if at_run_time is not None:  # sizes the Program computes (a batch-agnostic converted model): an op reads them
        template, sizes = at_run_time
        check_size(tuple(0 if d is None else d for d in template), fn)
        d = np.dtype(_dtype_or(dtype, STATE.default_dtype, fn)).name
        return ops.full_with_shape(sizes, template, _fill_value(fill_value, fn), d)
    shape = check_size(check_shape(shape, fn), fn)
    return Tensor(np.full(shape, _fill_value(fill_value, fn), dtype=_dtype_or(dtype, STATE.default_dtype, fn)))


def full(shape, fill_value, dtype=None, name=None) -> Tensor:
    """A tensor of `shape` filled with `fill_value`, of the default dtype (float32) unless `dtype` is given."""
    return _filled(shape, fill_value, dtype, "full")


def zeros(shape, dtype=None, name=None) -> Tensor:
    """A tensor of `shape` filled with 0 (float32 unless `dtype` says otherwise)."""
    return _filled(shape, 0, dtype, "zeros")


def ones(shape, dtype=None, name=None) -> Tensor:
    """A tensor of `shape` filled with 1 (float32 unless `dtype` says otherwise)."""
    return _filled(shape, 1, dtype, "ones")


def full_like(x, fill_value, dtype=None, name=None) -> Tensor:
    """A tensor shaped like `x`, filled with `fill_value`, of x's dtype unless `dtype` is given."""
    check_tensor(x, "full_like")
    fill_value = _fill_value(fill_value, "full_like")
    return ops.full_like(x, fill_value, None if dtype is None else check_dtype(dtype, "full_like").np)


def zeros_like(x, dtype=None, name=None) -> Tensor:
    return full_like(x, 0, dtype)


def ones_like(x, dtype=None, name=None) -> Tensor:
    return full_like(x, 1, dtype)


def empty(shape, dtype=None, name=None) -> Tensor:
    """A tensor of `shape` whose values are whatever the memory held (not initialized), float32 by default.

    Example:
        >>> paddle.empty([2, 3]).shape    # [2, 3]
    """
    if runtime_shape(shape, "empty") is not None:  # sizes the Program computes: zeros (an op reads the sizes)
        return _filled(shape, 0, dtype, "empty")
    shape = check_size(check_shape(shape, "empty"), "empty")
    return Tensor(np.empty(shape, dtype=_dtype_or(dtype, STATE.default_dtype, "empty")))


def empty_like(x, dtype=None, name=None) -> Tensor:
    """An uninitialized tensor of x's shape, and of x's dtype unless `dtype` is given."""
    check_tensor(x, "empty_like")
    return Tensor(np.empty(tuple(x.shape), dtype=x.dtype.np if dtype is None else check_dtype(dtype, "empty_like").np))


def create_tensor(dtype, name=None, persistable=False) -> Tensor:
    """An empty tensor (no elements) of `dtype`, to be filled later, e.g. by paddle.assign(x, output=t).

    Paddle binds it as a Tensor method too, where the tensor itself lands in `dtype` and is refused.
    """
    t = Tensor(np.empty((0,), dtype=check_dtype(dtype, "create_tensor").np))
    if name is not None:
        t.name = name
    t.persistable = bool(persistable)
    return t


def _scalar(v, fn: str, arg: str):
    """A number given as a Python number or a one-element Tensor."""
    return check_number(v, fn, arg)


def arange(start=0, end=None, step=1, dtype=None, name=None) -> Tensor:
    """start, start + step, ... up to but excluding end; with one argument, 0 ... start - 1.

    The dtype is int64 when every argument is an integer, else the default float dtype (float32), unless given.

    Example:
        >>> paddle.arange(5)               # [0, 1, 2, 3, 4] int64
        >>> paddle.arange(1, 2, 0.25)      # [1., 1.25, 1.5, 1.75] float32
    """
    if any_runtime(start, end, step):  # bounds a Program computes: read when it runs
        start, end = (0, start) if end is None else (start, end)
        return runtime_arange(start, end, step, None if dtype is None else check_dtype(dtype, "arange"))
    start, step = _scalar(start, "arange", "start"), _scalar(step, "arange", "step")
    start, end = (0, start) if end is None else (start, _scalar(end, "arange", "end"))
    if step == 0:
        raise ValueError("arange: step must not be 0")
    if any(isinstance(v, int) and abs(v) > INT64_MAX for v in (start, end, step)):  # (paddle 2.6's are int64)
        raise ValueError(f"arange: start, end and step must be within int64's range, got {start}, {end}, {step}")
    if (end - start) * step < 0:
        raise ValueError(
            f"arange: step {step} points away from end: start={start}, end={end} (use a negative step to count down)"
        )
    if dtype is None:
        whole = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (start, end, step))
        d = dtypes.int64 if whole else dtypes.default_float()
    else:
        d = check_dtype(dtype, "arange")
    return ops.arange(start, end, step, d.np)


def linspace(start, stop, num, dtype=None, name=None) -> Tensor:
    """num evenly spaced values from start to stop, both ends included (float32 unless `dtype` is given).

    Example:
        >>> paddle.linspace(0, 1, 5)    # [0., 0.25, 0.5, 0.75, 1.]
    """
    if any_runtime(start, stop, num):  # values a Program computes: read when it runs
        return runtime_linspace(start, stop, num, _dtype_or(dtype, STATE.default_dtype, "linspace"))
    start, stop = _scalar(start, "linspace", "start"), _scalar(stop, "linspace", "stop")
    num = _scalar(num, "linspace", "num")
    if isinstance(num, bool) or not isinstance(num, (int, np.integer)) or num <= 0:
        raise ValueError(f"linspace: num must be a positive int, got {num!r}")
    return ops.linspace(start, stop, int(num), _dtype_or(dtype, STATE.default_dtype, "linspace"))


def _count(v, fn: str, arg: str) -> int:
    v = v.item() if isinstance(v, Tensor) else v
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
        raise TypeError(f"{fn}: {arg} must be a non-negative int, got {v!r}")
    return int(v)


def eye(num_rows, num_columns=None, dtype=None, name=None) -> Tensor:
    """An identity matrix: ones on the main diagonal of num_rows x num_columns (default square), float32.

    Example:
        >>> paddle.eye(2, 3, dtype='int32')    # [[1, 0, 0], [0, 1, 0]]
    """
    if any_runtime(num_rows, num_columns):  # sizes a Program computes: read when it runs
        cols = num_rows if num_columns is None else num_columns
        return runtime_eye(num_rows, cols, _dtype_or(dtype, STATE.default_dtype, "eye"))
    rows = _count(num_rows, "eye", "num_rows")
    cols = rows if num_columns is None else _count(num_columns, "eye", "num_columns")
    return ops.eye(rows, cols, _dtype_or(dtype, STATE.default_dtype, "eye"))


def meshgrid(*args, **kwargs) -> list:
    """Coordinate grids from 1-D tensors ('ij' indexing): output k varies along axis k and repeats elsewhere.

    Takes the tensors as arguments or as one list. Example:
        >>> xs, ys = paddle.meshgrid(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 2, 3]))    # both [2, 3]
    """
    if kwargs.keys() - {"name"}:
        raise TypeError(f"meshgrid: unexpected keyword arguments {sorted(kwargs.keys() - {'name'})}")
    tensors = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    if not tensors:
        raise ValueError("meshgrid: give at least one 1-D Tensor")
    for i, t in enumerate(tensors):
        check_tensor(t, "meshgrid", f"args[{i}]")
        if t.ndim > 1:
            raise ValueError(f"meshgrid: every input must be 0-D or 1-D, args[{i}] has shape {t.shape}")
    d = tensors[0].dtype
    for t in tensors[1:]:
        d = dtypes.promote_types(d, t.dtype)
    sizes = tuple(max(t.size, 1) if t.ndim == 0 else t.shape[0] for t in tensors)
    grids = []
    for k, t in enumerate(tensors):
        t = t if t.dtype is d else ops.cast(t, d)
        along_k = tuple(sizes[k] if i == k else 1 for i in range(len(sizes)))
        grids.append(ops.expand(ops.reshape(t, along_k), sizes))
    return grids


def diag(x, offset=0, padding_value=0, name=None) -> Tensor:
    """A vector's square diagonal matrix, or a matrix's diagonal as a vector.

    Args:
        x (Tensor): 1-D (or 0-D): the diagonal to place; 2-D: the matrix to read.
        offset (int): which diagonal: 0 the main one, > 0 above it, < 0 below it.
        padding_value (number): the value off the diagonal, when building a matrix.

    Example:
        >>> paddle.diag(paddle.to_tensor([1, 2]), offset=1)    # [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    """
    check_tensor(x, "diag")
    offset = _offset(offset, "diag")
    if x.ndim == 2:
        return ops.extract_diagonal(x, offset, 0, 1)
    if x.ndim > 2:
        raise ValueError(f"diag: x must be 0-D, 1-D or 2-D, got shape {x.shape}")
    if x.ndim == 0:
        x = ops.reshape(x, (1,))
    out = ops.diag_embed(x, offset, 0, 1)
    padding_value = check_number(padding_value, "diag", "padding_value")
    if padding_value == 0:
        return out
    # Off the diagonal: padding_value * (1 - mask), where mask marks the diagonal.
    mask = ops.diag_embed(ops.full_like(x, 1), offset, 0, 1)
    return ops.add(out, ops.scale(mask, -padding_value, padding_value))


def _offset(offset, fn: str) -> int:
    if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)):
        raise TypeError(f"{fn}: offset must be an int, got {type(offset).__name__}")
    return int(offset)


def diag_embed(input, offset=0, dim1=-2, dim2=-1) -> Tensor:  # noqa: A002 (Paddle's name)
    """Put the last axis of `input` on a diagonal of new matrices, which occupy dimensions (dim1, dim2) of the
    result (one more dimension than input); everything off that diagonal is 0.

    Example:
        >>> paddle.diag_embed(paddle.to_tensor([[1., 2.], [3., 4.]])).shape    # [2, 2, 2]
    """
    check_tensor(input, "diag_embed", "input")
    if input.ndim < 1:
        raise ValueError("diag_embed: input needs at least 1 dimension, got a 0-d tensor")
    d1 = normalize_axis(dim1, input.ndim + 1, "diag_embed")
    d2 = normalize_axis(dim2, input.ndim + 1, "diag_embed")
    if d1 == d2:
        raise ValueError(f"diag_embed: dim1 and dim2 must be different dimensions, both are {d1}")
    return ops.diag_embed(input, _offset(offset, "diag_embed"), d1, d2)


def _triangle(op_fn, fn: str, which: str):
    def public(x, diagonal=0, name=None) -> Tensor:
        check_tensor(x, fn)
        if x.ndim < 2:
            raise ValueError(f"{fn}: x needs at least 2 dimensions (matrices), got shape {x.shape}")
        return op_fn(x, _offset(diagonal, fn))

    public.__name__ = public.__qualname__ = fn
    public.__doc__ = f"""The {which} triangle of x's matrices (its last two axes), with the rest set to 0.

    Args:
        x (Tensor): at least 2-D. diagonal (int): the border diagonal: 0 the main one, > 0 above, < 0 below.

    Example:
        >>> paddle.{fn}(paddle.ones([3, 3]), diagonal=-1)
    """
    return public


tril = _triangle(ops.tril, "tril", "lower")
triu = _triangle(ops.triu, "triu", "upper")


def _tri_indices(row, col, offset, dtype, lower: bool, fn: str) -> Tensor:
    row = _int_arg(row, fn, "row")
    col = row if col is None else _int_arg(col, fn, "col")
    offset = check_int(offset, fn, "offset")
    # paddle 2.6 refuses a negative size when it allocates (PreconditionNotMet), except tril_indices' row, which
    # gives no rows; sizes beyond int64 it cannot even pass
    row = check_int(row, fn, "row")
    for arg, v in (("row", row), ("col", col)):
        if v > MAX_ELEMENTS or (v < 0 and not (lower and arg == "row")):
            raise PreconditionNotMetError(f"{fn}: {arg} must be an int in [0, {MAX_ELEMENTS}], got {v}")
    d = check_dtype(dtype, fn)
    if d not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{fn}: dtype must be int32 or int64, got {d.name}")
    return ops.tri_indices(row, col, offset, lower, d.np)


def tril_indices(row, col, offset=0, dtype="int64") -> Tensor:
    """The coordinates of the lower triangle of a row x col matrix (diagonal moved by `offset`), as [2, n]:
    row indices, then column indices.

    Example:
        >>> paddle.tril_indices(2, 2)    # [[0, 1, 1], [0, 0, 1]]
    """
    return _tri_indices(row, col, offset, dtype, True, "tril_indices")


def triu_indices(row, col=None, offset=0, dtype="int64") -> Tensor:
    """The coordinates of the upper triangle of a row x col matrix (col defaults to row), as [2, n].

    Example:
        >>> paddle.triu_indices(2)    # [[0, 0, 1], [0, 1, 1]]
    """
    return _tri_indices(row, col, offset, dtype, False, "triu_indices")


def logspace(start, stop, num, base=10.0, dtype=None, name=None) -> Tensor:
    """num values base ** e with the exponents e evenly spaced from start to stop (both included).

    Args:
        start, stop, base (float|Tensor): cast to `dtype` first (integer dtypes truncate them).
        num (int|Tensor): how many values, > 0. dtype: int32, int64, float32 or float64 (default: the
            default float dtype).

    Example:
        >>> paddle.logspace(0, 2, 3)    # [1., 10., 100.]
    """
    d = dtypes.default_float() if dtype is None else check_dtype(dtype, "logspace")
    if d not in (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64):
        raise TypeError(f"logspace: dtype must be int32, int64, float32 or float64, got {d.name}")
    start, stop, base = (float(check_number(v, "logspace", a)) for v, a in ((start, "start"), (stop, "stop"),
                                                                            (base, "base")))  # fmt: skip
    num = num.item() if isinstance(num, Tensor) else num
    if isinstance(num, (float, np.floating)) and float(num).is_integer():
        num = int(num)
    num = _int_scalar(num, "logspace", "num")
    if num <= 0:
        raise ValueError(f"logspace: num must be > 0, got {num}")
    return ops.logspace(start, stop, num, base, d.np)
