"""standardize: the one op behind batch_norm, layer_norm, instance_norm and group_norm.

Each of those normalizations subtracts a mean and divides by a standard deviation computed over some axes, then
applies a per-channel scale and shift. Only the axes differ (batch and spatial axes for batch norm, the trailing
axes for layer norm, spatial axes for instance norm, groups of channels for group norm), so one op computes

    xhat = (x - mean) / sqrt(var + epsilon),   mean and var (biased) over `axes`, kept as size-1 dimensions

and returns (xhat, mean, var); the public functions add the affine part and, for batch norm, update the running
statistics from mean and var. Its gradient is the classic closed form, written with minipaddle ops so that it can
itself be differentiated.
"""

from __future__ import annotations

import math

import numpy as np

from minipaddle import ops
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.tensor import Tensor

__all__ = ["standardize"]  # the raw op functions; ops/__init__.py gathers them


@register
class Standardize(OpDef):
    name = "standardize"
    saves_inputs = False  # the gradient needs only xhat and var, which are outputs
    saves_outputs = True

    def kernel(self, x, axes, epsilon):
        mean = np.mean(x, axis=axes, keepdims=True)
        centered = x - mean
        var = np.mean(centered * centered, axis=axes, keepdims=True)
        xhat = centered / np.sqrt(var + np.asarray(epsilon, dtype=x.dtype))
        return xhat.astype(x.dtype), mean.astype(x.dtype), var.astype(x.dtype)

    def grad(self, node, g, g_mean, g_var):
        xhat, var = node.output(0), node.output(2)
        axes, epsilon = node.attrs["axes"], node.attrs["epsilon"]
        count = math.prod(node.out_shapes[0][a] for a in axes)
        inv_std = ops.rsqrt(ops.scale(var, 1.0, epsilon))
        # d xhat: inv_std * (g - mean(g) - xhat * mean(g * xhat)), means over `axes`
        mean_g = ops.mean(g, axes, keepdim=True)
        mean_gx = ops.mean(ops.multiply(g, xhat), axes, keepdim=True)
        dx = ops.multiply(inv_std, ops.subtract(ops.subtract(g, mean_g), ops.multiply(xhat, mean_gx)))
        # d mean / dx = 1 / count; d var / dx = 2 (x - mean) / count, with x - mean = xhat / inv_std
        dx = ops.add(dx, ops.scale(g_mean, 1.0 / count))
        centered = ops.divide(xhat, inv_std)
        dx = ops.add(dx, ops.multiply(ops.scale(g_var, 2.0 / count), centered))
        return (dx,)

    def infer_meta(self, x: Meta, axes, epsilon) -> tuple:
        stats = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
        return x, Meta(stats, x.dtype), Meta(stats, x.dtype)


def standardize(x: Tensor, axes: tuple, epsilon: float) -> tuple:
    """(xhat, mean, var) of x over `axes` (a tuple of non-negative ints); mean and var keep size-1 axes."""
    return apply(Standardize, (x,), {"axes": tuple(axes), "epsilon": float(epsilon)})
