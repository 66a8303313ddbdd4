"""`x[:n]` where a slice bound is a Tensor whose value the Program has not computed yet (static mode, to_static).

`getitem` splits such an index in two: the slices with run-time bounds become one `runtime_slice` op
(ops/runtime_slice.py, which keeps every axis), and what is left of the index (ints, None, Ellipsis, constant
slices, masks) applies to its result with those slices replaced by `:`, so each part keeps its meaning.

A Tensor bound that has its value (dynamic mode) is read as the Program reads it when it runs
(`read_tensor_bounds`, ops/runtime_slice.tensor_bound_slice: paddle 2.6.2's reading going backward), so converted
code slices as the dynamic code does; an int bound keeps Python's reading.
"""

from __future__ import annotations

import builtins

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.ops.runtime_slice import FROM_INPUT, tensor_bound_slice
from minipaddle.tensor.runtime_shape import has_no_value

__all__ = ["read_tensor_bounds", "split_runtime_slices"]


def _width(part) -> int:
    """How many axes of x an index part covers."""
    if part is None or part is Ellipsis:
        return 0
    is_mask = isinstance(part, (np.ndarray, Tensor)) and str(part.dtype).endswith("bool")
    return part.ndim if is_mask and part.ndim else 1


def _bound(b, fn: str, bounds: list):
    if not has_no_value(b):
        if isinstance(b, Tensor):
            b = b.item()
        if b is not None and (not isinstance(b, (int, np.integer)) or isinstance(b, bool)):
            raise TypeError(f"{fn}: slice start, stop and step must be ints or None, got {type(b).__name__}")
        return None if b is None else int(b)
    if not b.dtype.is_integer or b.size not in (1, -1) or b.ndim > 1:
        raise TypeError(
            f"{fn}: a slice bound given as a Tensor must hold one int, got {b.dtype.name} of shape {b.shape}"
        )
    bounds.append(b)
    return FROM_INPUT


def _int_span(i: int) -> tuple:
    """An int index as the span of one element (-1 is -1:None: -1:0 would be empty)."""
    return (i, i + 1 if i != -1 else None, None)


def split_runtime_slices(index, ndim: int, fn: str, slices_too: bool = False):
    """None when no slice bound of `index` is a Tensor without a value; else (axes, spans, bounds, rest, ints):
    the runtime_slice arguments, the index left to apply to its result, and the axes indexed by an int. With
    `slices_too` (a write, `x[1:n, 2:4] = v` or `x[:n, 0] = v`: one op over all its parts), constant slices join
    the spans as well, and each int i as the span i:i+1 (its axis listed in `ints`, kept with size 1)."""
    parts = list(index) if isinstance(index, tuple) else [index]
    if not any(isinstance(p, builtins.slice) and any(has_no_value(b) for b in (p.start, p.stop, p.step))
               for p in parts):  # fmt: skip
        return None
    ellipsis_at = next((i for i, p in enumerate(parts) if p is Ellipsis), None)
    covered = sum(_width(p) for p in parts)
    axes, spans, bounds, rest, ints = [], [], [], [], []
    axis = 0
    for i, part in enumerate(parts):
        if i == ellipsis_at:
            axis += max(ndim - covered, 0)
        at_run_time = isinstance(part, builtins.slice) and any(has_no_value(b) for b in (part.start, part.stop,
                                                                                          part.step))  # fmt: skip
        if at_run_time or (slices_too and isinstance(part, builtins.slice) and part != builtins.slice(None)):
            spans.append(tuple(_bound(b, fn, bounds) for b in (part.start, part.stop, part.step)))
            axes.append(axis)
            part = builtins.slice(None)
        elif slices_too and isinstance(part, (int, np.integer)) and not isinstance(part, bool):
            spans.append(_int_span(int(part)))
            axes.append(axis)
            ints.append(axis)
            part = builtins.slice(None)
        rest.append(part)
        axis += _width(part)
    if axis > ndim and ellipsis_at is None:
        raise IndexError(f"{fn}: too many indices for a tensor of {ndim} dimensions")
    return axes, spans, bounds, tuple(rest), ints


def _has_tensor_bound(part) -> bool:
    return isinstance(part, builtins.slice) and any(isinstance(b, Tensor) for b in (part.start, part.stop, part.step))


def read_tensor_bounds(index, shape, fn: str, writing: bool = False):
    """`index` with each slice that has a Tensor bound (holding its value) made a slice of ints, read as a Program
    reads it when it runs (tensor_bound_slice); any other index is returned as it is."""
    parts = list(index) if isinstance(index, tuple) else [index]
    if not any(_has_tensor_bound(p) for p in parts):
        return index
    ellipsis_at = next((i for i, p in enumerate(parts) if p is Ellipsis), None)
    covered = sum(_width(p) for p in parts)
    axis = 0
    for i, part in enumerate(parts):
        if i == ellipsis_at:
            axis += max(len(shape) - covered, 0)
        if _has_tensor_bound(part) and axis < len(shape):
            span = [_bound(b, fn, []) for b in (part.start, part.stop, part.step)]
            given = tuple(isinstance(b, Tensor) for b in (part.start, part.stop, part.step))
            if span[2] == 0:
                raise ValueError(f"{fn}: the slice step must not be 0")
            parts[i] = tensor_bound_slice(*span, int(shape[axis]), given, writing, fn)
        axis += _width(part)
    return tuple(parts) if isinstance(index, tuple) else parts[0]
