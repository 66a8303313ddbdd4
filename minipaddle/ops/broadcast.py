"""`unbroadcast`: the one place that reduces a broadcast gradient back to its input's shape (as in HIPS autograd).

When `x` of shape [3, 1] meets `y` of shape [4] in `x + y`, both are broadcast to [3, 4]. The gradient that
arrives has shape [3, 4]; x's share is the sum over the axes x was stretched along.
"""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.tensor import Tensor

__all__ = ["unbroadcast"]  # the raw op functions; ops/__init__.py gathers them


def unbroadcast(g: Tensor, shape) -> Tensor:
    """Sum `g` over the axes that broadcasting added or stretched, so it gets `shape`."""
    shape = tuple(shape)
    if g._data.shape == shape:
        return g
    lead = g._data.ndim - len(shape)  # axes broadcasting put in front
    stretched = tuple(lead + i for i, d in enumerate(shape) if d == 1 and g._data.shape[lead + i] != 1)
    return ops.reshape(ops.sum(g, tuple(range(lead)) + stretched), shape)
