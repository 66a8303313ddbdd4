"""Max unpooling: the partial inverse of max pooling, over the spatial axes of x [N, C, *spatial] (1, 2 or 3).

max_unpool(x, indices) makes an [N, C, *output_size] array of zeros and writes each value of x at the place its
index names: the flat index (h*W + w, or d*H*W + h*W + w) within its own (n, c) plane, which is exactly the mask
max_pool returns. Where two indices name the same place, the later one (in x's memory order) wins, as in Paddle's
sequential loop.

Its gradient reads the output gradient back at the indices: the gather that max_pool_grad_grad already is (in
ops/pool.py; its own gradient, max_pool_grad, scatters back, so double backward works too). Like Paddle, every
input element gets the gradient at its index, even one whose value a duplicate overwrote. indices get none.
"""

from __future__ import annotations

import math

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["max_unpool"]  # the raw op function; ops/__init__.py gathers it


@register
class MaxUnpool(OpDef):
    """out = max_unpool(x, indices): x's values scattered into zero planes of output_size at their indices."""

    name = "max_unpool"

    def kernel(self, x, indices, output_size):
        rows = x.shape[0] * x.shape[1]  # one row per (n, c) plane
        plane = math.prod(output_size)
        index = indices.reshape(rows, -1).astype(np.int64)
        if index.size and (index.min() < 0 or index.max() >= plane):
            raise ValueError(
                f"max_unpool: every index must be in [0, {plane}), the flat position within an output plane of size "
                f"{list(output_size)}; got indices in [{index.min()}, {index.max()}]"
            )
        target = (index + np.arange(rows)[:, None] * plane).ravel()  # the flat position in the whole output
        # Which element of x each place receives: the last one naming it. (A plain `out[target] = x` would do the
        # same in practice, but numpy promises no order for repeated indices in one assignment.)
        winner = np.full(rows * plane, -1, dtype=np.int64)
        np.maximum.at(winner, target, np.arange(target.size))
        written = winner >= 0
        out = np.zeros(rows * plane, dtype=x.dtype)
        out[written] = x.reshape(-1)[winner[written]]
        return out.reshape(*x.shape[:2], *output_size)

    def grad(self, node, g):
        return (ops.max_pool_grad_grad(g, node.inputs[1]), None)

    def infer_meta(self, x: Meta, indices: Meta, output_size):
        return Meta((*x.shape[:2], *output_size), x.dtype)


def max_unpool(x: Tensor, indices: Tensor, output_size) -> Tensor:
    """output_size: the spatial sizes of the output, one per spatial axis of x."""
    return apply(MaxUnpool, (x, indices), {"output_size": tuple(int(s) for s in output_size)})
