"""Running sums along an axis: cumsum. Its gradient is the running sum taken from the other end."""

from __future__ import annotations

import numpy as np

from minipaddle.core.dispatch import apply
from minipaddle.core.op import register
from minipaddle.core.tensor import Tensor
from minipaddle.ops.kinds import UnaryOp

__all__ = ["cumsum"]  # the raw op functions; ops/__init__.py gathers them


@register
class Cumsum(UnaryOp):
    """out[i] = x[0] + ... + x[i] along `axis` (or x[i] + ... + x[n-1] with reverse=True). dtype is kept."""

    name = "cumsum"
    amp = "black"
    saves_inputs = False

    def kernel(self, x, axis, reverse=False):
        if reverse:
            return np.flip(np.cumsum(np.flip(x, axis), axis=axis, dtype=x.dtype), axis)
        return np.cumsum(x, axis=axis, dtype=x.dtype)

    def grad(self, node, g):
        # Each x[j] appears in out[j], out[j+1], ...: its gradient sums g from j to the end.
        return (cumsum(g, node.attrs["axis"], not node.attrs["reverse"]),)


def cumsum(x: Tensor, axis: int, reverse: bool = False) -> Tensor:
    return apply(Cumsum, (x,), {"axis": axis, "reverse": reverse})
