"""Shape arguments holding Tensors whose values the Program has not computed yet (static mode, to_static).

In a batch-agnostic model converted by to_static, `x.shape[0]` is a Tensor (`paddle.shape(x)[0]`) when x's batch
size is -1, so `paddle.zeros([x.shape[0], 8])` gets a list with a Tensor in it. As Paddle 2.6's creation and
shape functions do in static mode, such a shape becomes inputs of the op (ops/runtime_shape.py), read when the
Program runs. `runtime_shape` splits the argument into the template those ops take (an int where the size is
known now, None where it comes from a Tensor) and the size Tensors.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor

__all__ = ["runtime_shape", "has_no_value"]


def has_no_value(d) -> bool:
    """A static Variable: a Tensor of a Program being built, whose value exists only when the Program runs (the
    Tensors a Program holds as constants, e.g. `paddle.shape` of a fully known shape, are plain Tensors)."""
    return STATE.static_mode and isinstance(d, Tensor) and type(d) is not Tensor


def _check_size_tensor(t: Tensor, fn: str, whole: bool) -> None:
    if not t.dtype.is_integer:
        raise TypeError(f"{fn}: a size given as a Tensor must be int32 or int64, got {t.dtype.name}")
    if whole and (t.ndim != 1 or t.shape[0] < 0):
        raise ValueError(f"{fn}: a shape given as one Tensor must be 1-D with a known length, got shape {t.shape}")
    if not whole and t.shape not in ([], [1]):
        raise ValueError(f"{fn}: each size given as a Tensor must hold one value (shape [] or [1]), got {t.shape}")


def runtime_shape(shape, fn: str) -> tuple[tuple, list] | None:
    """(template, size Tensors) when `shape` is, or holds, a Tensor whose value is known only when the Program
    runs; None otherwise (the caller reads the shape as ints). Known elements are checked to be ints here; what
    each function allows (-1, 0) it checks itself on the template."""
    if has_no_value(shape):
        _check_size_tensor(shape, fn, whole=True)
        return (None,) * shape.shape[0], [shape]
    if not isinstance(shape, (list, tuple)) or not any(has_no_value(d) for d in shape):
        return None
    template, sizes = [], []
    for d in shape:
        if has_no_value(d):
            _check_size_tensor(d, fn, whole=False)
            template.append(None)
            sizes.append(d)
            continue
        if isinstance(d, Tensor) and d.size == 1:
            d = d.item()
        if not isinstance(d, (int, np.integer)) or isinstance(d, bool):
            raise TypeError(f"{fn}: shape must contain ints or int Tensors, got {type(d).__name__} in {list(shape)}")
        template.append(int(d))
    return tuple(template), sizes
