"""Statistics of the public API (paddle.tensor.stat): var, std, median, numel.

They are compositions of ops (mean, subtract, sum, sqrt; argsort, gather, split), so their gradients come from
the ops' grad rules. (paddle.mean lives with the other reductions in tensor/math.py.)
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_bool, check_tensor, normalize_axes, normalize_axis

__all__ = ["var", "std", "median", "numel"]


def _as_float(x: Tensor) -> Tensor:
    return x if (x.dtype.is_floating or x.dtype.is_complex) else ops.cast(x, dtypes.default_float())


def var(x, axis=None, unbiased=True, keepdim=False, name=None) -> Tensor:
    """The variance over `axis` (None: all axes): the mean squared distance from the mean.

    Args:
        x (Tensor): the input (integers are computed in the default float dtype).
        axis (int|list|None): the axes to reduce. keepdim (bool): keep them as size 1.
        unbiased (bool): divide by n - 1 (Bessel's correction; by 1 when n is 1, as Paddle) instead of n.

    Example:
        >>> paddle.var(paddle.to_tensor([1.0, 2.0, 4.0]))    # 2.3333
    """
    check_tensor(x, "var")
    unbiased = check_bool(unbiased, "var", "unbiased")
    keepdim = check_bool(keepdim, "var", "keepdim")
    x = _as_float(x)
    axes = normalize_axes(axis, x.ndim, "var")
    dims = [x.shape[i] for i in (range(x.ndim) if axes is None else axes)]
    if any(d < 0 for d in dims):
        raise ValueError(f"var: the reduced dimensions must be known, got shape {list(x.shape)} (-1 is unknown)")
    count = int(np.prod(dims))
    if count == 0:
        raise ValueError(f"var: there are no elements to reduce (x has shape {x.shape}, axis {axis})")
    centered = ops.subtract(x, ops.mean(x, axes, True))
    squares = ops.multiply(centered, ops.conj(centered))
    return ops.scale(ops.sum(squares, axes, keepdim), 1.0 / (max(count - 1, 1) if unbiased else count))


def std(x, axis=None, unbiased=True, keepdim=False, name=None) -> Tensor:
    """The standard deviation over `axis`: the square root of paddle.var (same arguments).

    Example:
        >>> paddle.std(paddle.to_tensor([1.0, 2.0, 4.0]), unbiased=False)    # 1.2472
    """
    check_tensor(x, "std")
    return ops.sqrt(var(x, axis, unbiased, keepdim))


def median(x, axis=None, keepdim=False, name=None) -> Tensor:
    """The median along `axis` (None: of all elements). With an even count it is the mean of the two middle
    values, which then share the gradient. Integers give the default float dtype.

    Example:
        >>> paddle.median(paddle.to_tensor([1, 3, 2, 4]))    # 2.5
    """
    check_tensor(x, "median")
    keepdim = check_bool(keepdim, "median", "keepdim")
    if x.size == 0:
        raise ValueError(f"median: x is empty (shape {x.shape}); the median needs at least one element")
    x = _as_float(x)
    out_shape = [1] * x.ndim if keepdim else []
    if axis is None:
        x, axis = ops.reshape(x, (-1,)), 0
    else:
        axis = normalize_axis(axis, x.ndim, "median")
        out_shape = [1 if i == axis else d for i, d in enumerate(x.shape) if keepdim or i != axis]
    n = x.shape[axis]
    if n < 0:
        raise ValueError(f"median: the size of axis {axis} must be known, got shape {list(x.shape)} (-1 is unknown)")
    ordered = ops.gather_along_axis(x, ops.argsort(x, axis, False), axis)
    k = (n - 1) // 2
    middle = ops.split(ordered, (k, 2 - n % 2, n - k - 2 + n % 2), axis)[1]  # one middle value, or two
    return ops.reshape(ops.mean(middle, (axis,), True), tuple(out_shape))


def numel(x, name=None) -> Tensor:
    """The number of elements of x, as an int64 0-d tensor.

    Example:
        >>> paddle.numel(paddle.ones([2, 3]))    # 6
    """
    check_tensor(x, "numel")
    return ops.count_elements(x)  # an op, so it also works on static Variables whose batch size is -1
