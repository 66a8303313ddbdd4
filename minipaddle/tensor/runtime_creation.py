"""paddle.arange / linspace / eye and the random creators (rand, uniform, randn, standard_normal, normal, randint)
given sizes or bounds that a Program computes (a Tensor without a value: static mode, to_static), e.g.
`paddle.arange(paddle.shape(x)[0])` in a batch-agnostic model. They become ops/runtime_source.py's op, which
reads them when the Program runs; the public functions call these only when such a Tensor is among their
arguments, and check everything known now here.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.runtime_shape import has_no_value, runtime_shape

__all__ = ["any_runtime", "runtime_arange", "runtime_linspace", "runtime_eye", "runtime_draw"]


def any_runtime(*values) -> bool:
    return any(has_no_value(v) for v in values)


def _one_value(v: Tensor, fn: str, arg: str, integer: bool) -> None:
    if integer and not v.dtype.is_integer:
        raise TypeError(f"{fn}: {arg} given as a Tensor must be int32 or int64, got {v.dtype.name}")
    if v.shape not in ([], [1]):
        raise ValueError(f"{fn}: {arg} given as a Tensor must hold one value (shape [] or [1]), got {v.shape}")


def _split(values: dict, fn: str, integer: bool = False) -> tuple[dict, dict]:
    """(attributes known now, {name: Tensor} read at run time)."""
    known, later = {}, {}
    for name, v in values.items():
        if has_no_value(v):
            _one_value(v, fn, name, integer)
            later[name] = v
        else:
            known[name] = v.item() if isinstance(v, Tensor) else v
    return known, later


def runtime_arange(start, end, step, dtype) -> Tensor:
    """arange with a bound or step a Tensor: int64 when every bound is an int or integer Tensor (as paddle 2.6)."""
    if dtype is None:
        ints = all(v.dtype.is_integer if isinstance(v, Tensor) else isinstance(v, (int, np.integer))
                   for v in (start, end, step))  # fmt: skip
        d = dtypes.int64 if ints else dtypes.default_float()
    else:
        d = dtypes.to_dtype(dtype)
    known, later = _split({"start": start, "end": end, "step": step}, "arange")
    if known.get("step", 1) == 0:
        raise ValueError("arange: step must not be 0")
    return ops.runtime_source("arange", {**known, "dtype": d.np}, (-1,), scalars=later)


def runtime_linspace(start, stop, num, dtype) -> Tensor:
    known, later = _split({"start": start, "stop": stop}, "linspace")
    n_known, n_later = _split({"num": num}, "linspace", integer=True)
    out = (n_known["num"],) if n_known else (-1,)
    return ops.runtime_source("linspace", {**known, **n_known, "dtype": dtype}, out, scalars={**later, **n_later})


def runtime_eye(num_rows, num_columns, dtype) -> Tensor:
    known, later = _split({"num_rows": num_rows, "num_columns": num_columns}, "eye", integer=True)
    out = tuple(known.get(n, -1) for n in ("num_rows", "num_columns"))
    return ops.runtime_source("eye", {**known, "dtype": dtype}, out, scalars=later)


def runtime_draw(source: str, shape, fn: str, attrs: dict) -> Tensor | None:
    """Random op `source` of a shape holding Tensors read at run time; None when the shape is known now."""
    runtime = runtime_shape(shape, fn)
    if runtime is None:
        return None
    template, sizes = runtime
    if any(t is not None and t < 0 for t in template):
        raise ValueError(f"{fn}: dimensions must be >= 0, got {list(template)}")
    out = tuple(-1 if t is None else t for t in template)
    return ops.runtime_source(source, {**attrs, "shape": template}, out, sizes, sized="shape")
