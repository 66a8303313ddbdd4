"""Broadcasting in gradients, in one place (as in HIPS autograd).

`unbroadcast`: when `x` of shape [3, 1] meets `y` of shape [4] in `x + y`, both are broadcast to [3, 4]. The
gradient that arrives has shape [3, 4]; x's share is the sum over the axes x was stretched along.

`broadcast_like(g, x)`: the way back from a reduction: g broadcast to x's shape. It takes x itself as an input
(its values are not read) so that in static mode, where x's batch size is -1 until the Program runs, the size
is taken from x at run time.
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["unbroadcast", "broadcast_like"]  # the raw op functions; ops/__init__.py gathers them


def unbroadcast(g: Tensor, shape) -> Tensor:
    """Sum `g` over the axes that broadcasting added or stretched, so it gets `shape`."""
    shape = tuple(shape)
    # (a static Variable's shape has -1 where the size is known only at run time; a plain Tensor's is its array's)
    g_shape = g._data.shape if type(g) is Tensor else tuple(g.shape)
    if g_shape == shape:
        return g
    lead = len(g_shape) - len(shape)  # axes broadcasting put in front
    stretched = tuple(lead + i for i, d in enumerate(shape) if d == 1 and g_shape[lead + i] != 1)
    if not stretched:  # only leading axes: summing them away leaves exactly `shape`
        return ops.sum(g, tuple(range(lead)))
    return ops.reshape(ops.sum(g, tuple(range(lead)) + stretched), shape)


@register
class BroadcastLike(OpDef):
    """g broadcast to the shape of `like` (a copy, so the result is writable)."""

    name = "broadcast_like"
    saves_inputs = False

    def kernel(self, g, like):
        out = np.empty(like.shape, dtype=g.dtype)
        out[...] = g
        return out

    def grad(self, node, gg):
        return ops.unbroadcast(gg, node.inputs[0].shape), None

    def infer_meta(self, g: Meta, like: Meta) -> Meta:
        return Meta(like.shape, g.dtype)


def broadcast_like(g: Tensor, like: Tensor) -> Tensor:
    return apply(BroadcastLike, (g, like))
