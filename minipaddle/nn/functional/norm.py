"""Normalizations (paddle.nn.functional): batch_norm, layer_norm, instance_norm, group_norm,
local_response_norm and normalize.

batch/layer/instance/group norm all go through one op, `standardize` (minipaddle/ops/nn_norm.py), over different
axes; the per-channel scale and shift are added here. batch_norm in training also updates the running mean and
variance in place, as Paddle does:  running = momentum * running + (1 - momentum) * batch statistic, with the
biased batch variance.

Low precision (float16, bfloat16) is computed as Paddle's fused kernels do: the statistics and the affine part in
float32 (exact from the low dtype), the output rounded once to x's dtype. Under auto_cast each function is one
Paddle op (batch_norm, layer_norm, group_norm, instance_norm) with that op's AMP rule, not a string of small ops
each promoted on its own: see minipaddle/amp/composite.py.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core import dtype as dtypes
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import STATE, no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.nn import static_hooks
from minipaddle.nn.functional.distance import p_norm
from minipaddle.tensor.checks import (
    PreconditionNotMetError,
    check_bool,
    check_float,
    check_float_tensor,
    check_int,
    check_min_rank,
    check_nonnegative,
    check_not_empty,
    check_tensor,
    normalize_axis,
)

__all__ = ["batch_norm", "layer_norm", "instance_norm", "group_norm", "local_response_norm", "normalize"]

_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


class _NoAmp:
    """Outside auto_cast: a stand-in for the CompositeOp of minipaddle/amp/composite.py, inputs untouched."""

    __slots__ = ("inputs",)

    def __init__(self, inputs: tuple) -> None:
        self.inputs = inputs

    def __enter__(self) -> _NoAmp:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def result(self, y):
        return y


def _as_paddle_op(paddle_op: str, inputs: tuple):
    """Run the block as Paddle's one op `paddle_op` for auto_cast (STATE.amp, set by minipaddle.amp, which this
    floor does not import): `with _as_paddle_op(...) as op:`, read the cast inputs from `op.inputs`."""
    settings = STATE.amp
    if settings is not None and settings.level != "O0":
        return settings.composite(paddle_op, inputs)
    if STATE.static_mode:  # marks the ops as one Paddle op, for the static AMP rewrite (static/op_groups.py)
        return static_hooks.paddle_op_group(paddle_op, inputs)
    return _NoAmp(inputs)


def _working(x: Tensor) -> Tensor:
    """x in the dtype the normalization computes in: float32 for float16/bfloat16 (float32 statistics, as Paddle's
    kernels accumulate), x itself otherwise."""
    return ops.cast(x, dtypes.float32) if x.dtype in (dtypes.float16, dtypes.bfloat16) else x


def _rounded(y: Tensor, dtype) -> Tensor:
    """The output in x's dtype: a float32 result of a low-precision x rounded once."""
    return y if y.dtype is dtype else ops.cast(y, dtype)


def _channel_axis(x: Tensor, data_format: str, fn: str) -> int:
    if data_format not in _FORMATS:
        raise ValueError(f"{fn}: data_format must be one of {', '.join(_FORMATS)}, got {data_format!r}")
    return 1 if data_format[1] == "C" else x.ndim - 1


def _check_per_channel(t, x: Tensor, axis: int, fn: str, arg: str) -> None:
    """A per-channel argument must be None or a Tensor with one value per channel of x."""
    if t is None:
        return
    check_tensor(t, fn, arg)
    if t.size != x.shape[axis]:
        raise ValueError(f"{fn}: {arg} has shape {t.shape} but x has {x.shape[axis]} channels (shape {x.shape})")


def _per_channel(t, x: Tensor, axis: int, fn: str, arg: str):
    """A [C] tensor reshaped to broadcast along x's channel axis (None stays None)."""
    if t is None:
        return None
    _check_per_channel(t, x, axis, fn, arg)
    return ops.reshape(ops.cast(t, x.dtype), tuple(x.shape[axis] if i == axis else 1 for i in range(x.ndim)))


def _affine(y: Tensor, weight, bias) -> Tensor:
    if weight is not None:
        y = ops.multiply(y, weight)
    if bias is not None:
        y = ops.add(y, bias)
    return y


def _update_running(running: Tensor, batch: Tensor, momentum: float) -> None:
    """running = momentum * running + (1 - momentum) * batch, in place, outside the graph.

    Paddle keeps momentum as a float32 attribute (0.9 becomes 0.8999999762); so does this, to stay bit-close."""
    momentum = float(np.float32(momentum))
    with no_grad():
        batch = ops.cast(ops.reshape(batch, tuple(running.shape)), running.dtype)
        new = ops.add(ops.scale(running, momentum), ops.scale(batch, 1.0 - momentum))
        apply_inplace(get_op("assign"), running, (new,))


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.9, epsilon=1e-05,
               data_format="NCHW", use_global_stats=None, name=None) -> Tensor:  # fmt: skip
    """Normalize each channel with the batch's statistics (training) or the running ones (inference).

    Args:
        x: [N, C, ...] ('NC', 'NCL', 'NCHW', 'NCDHW') or channels last ('NLC', 'NHWC', 'NDHWC').
        running_mean, running_var: [C] tensors, updated in place when batch statistics are used.
        weight, bias: the per-channel scale and shift ([C]), or None.
        training: use the batch's statistics (and update the running ones).
        momentum: how much of the old running statistic is kept per update (0.9).
        use_global_stats: force the running statistics (True) or the batch's (False); None follows `training`.

    Example:
        >>> y = F.batch_norm(x, bn._mean, bn._variance, bn.weight, bn.bias, training=True)
    """
    epsilon = check_nonnegative(epsilon, "batch_norm", "epsilon")
    momentum = check_float(momentum, "batch_norm", "momentum")
    check_float_tensor(x, "batch_norm")
    if x.ndim < 2:
        raise ValueError(f"batch_norm: x must have at least 2 dimensions, got shape {x.shape}")
    axis = _channel_axis(x, data_format, "batch_norm")
    check_tensor(running_mean, "batch_norm", "running_mean")
    check_tensor(running_var, "batch_norm", "running_var")
    _check_per_channel(weight, x, axis, "batch_norm", "weight")  # argument checks before any work
    _check_per_channel(bias, x, axis, "batch_norm", "bias")
    if use_global_stats is not None:
        use_global_stats = check_bool(use_global_stats, "batch_norm", "use_global_stats")
    if training and use_global_stats is None and STATE.static_mode and static_hooks.needs_switch(training):
        with _as_paddle_op("batch_norm", (x, running_mean, running_var, weight, bias)) as op:  # the switch is the op
            args = op.inputs
            y = static_hooks.train_or_eval(lambda t: batch_norm(*args, t, momentum, epsilon, data_format))
            return op.result(y)
    if use_global_stats is None:
        use_global_stats = not training
    with _as_paddle_op("batch_norm", (x, running_mean, running_var, weight, bias)) as op:
        x = op.inputs[0]
        xw = _working(x)
        w = _per_channel(op.inputs[3], xw, axis, "batch_norm", "weight")
        b = _per_channel(op.inputs[4], xw, axis, "batch_norm", "bias")
        if use_global_stats:
            mean = _per_channel(running_mean, xw, axis, "batch_norm", "running_mean")
            var = _per_channel(running_var, xw, axis, "batch_norm", "running_var")
            y = ops.multiply(ops.subtract(xw, mean), ops.rsqrt(ops.scale(var, 1.0, float(epsilon))))
            return op.result(_rounded(_affine(y, w, b), x.dtype))
        axes = tuple(i for i in range(x.ndim) if i != axis)
        y, mean, var = ops.standardize(xw, axes, epsilon)
        _update_running(running_mean, mean, momentum)
        _update_running(running_var, var, momentum)
        return op.result(_rounded(_affine(y, w, b), x.dtype))


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None) -> Tensor:
    """Normalize over the trailing axes given by normalized_shape (each sample on its own), then scale and shift.

    Args:
        normalized_shape: an int or list: the sizes of x's last axes to normalize over.
        weight, bias: tensors with prod(normalized_shape) elements, or None.

    Example:
        >>> F.layer_norm(paddle.rand([2, 3, 4]), [4])
    """
    check_float_tensor(x, "layer_norm")
    # a negative epsilon makes NaN from a flat row, an infinite one zeros from every row
    if not isinstance(epsilon, numbers.Real) or not 0 <= epsilon < math.inf:
        raise ValueError(f"layer_norm: epsilon must be a finite number >= 0, got {epsilon!r}")
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = [int(normalized_shape)]
    elif isinstance(normalized_shape, (list, tuple)):
        normalized_shape = list(normalized_shape)
    else:
        raise ValueError("layer_norm: normalized_shape should be an int, or a list or tuple of ints")
    k = len(normalized_shape)
    if k == 0:  # (paddle 2.6: begin_norm_axis must be less than x's rank)
        raise ValueError("layer_norm: normalized_shape must name at least one axis, got []")
    if x.ndim < k or x.shape[x.ndim - k :] != normalized_shape:
        raise ValueError(f"layer_norm: normalized_shape is {normalized_shape}, expected x with shape "
                         f"[*, {str(normalized_shape)[1:]}, but got shape {x.shape}")  # fmt: skip
    for t, arg in ((weight, "weight"), (bias, "bias")):
        if t is not None:
            check_tensor(t, "layer_norm", arg)
    shape = tuple(normalized_shape)
    with _as_paddle_op("layer_norm", (x, weight, bias)) as op:
        x, weight, bias = op.inputs
        xw = _working(x)
        y = ops.standardize(xw, tuple(range(x.ndim - k, x.ndim)), epsilon)[0]
        w = None if weight is None else ops.reshape(ops.cast(weight, xw.dtype), shape)
        b = None if bias is None else ops.reshape(ops.cast(bias, xw.dtype), shape)
        return op.result(_rounded(_affine(y, w, b), x.dtype))


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.9, eps=1e-05, data_format="NCHW", name=None) -> Tensor:  # fmt: skip
    """Normalize each channel of each sample over its spatial axes, then scale and shift per channel.

    As in paddle 2.6's dynamic mode, the statistics always come from the input: running_mean, running_var,
    use_input_stats and momentum are accepted but not used.
    """
    check_float_tensor(x, "instance_norm")
    eps = check_nonnegative(eps, "instance_norm", "eps")
    check_not_empty(x, "instance_norm", error=PreconditionNotMetError)  # paddle 2.6 checks this first
    if x.ndim < 3:
        raise ValueError(f"instance_norm: x must have at least 3 dimensions [N, C, ...], got shape {x.shape}")
    axis = _channel_axis(x, data_format, "instance_norm")
    axes = tuple(i for i in range(1, x.ndim) if i != axis)
    _check_per_channel(weight, x, axis, "instance_norm", "weight")  # argument checks before any work
    _check_per_channel(bias, x, axis, "instance_norm", "bias")
    with _as_paddle_op("instance_norm", (x, weight, bias)) as op:
        x, weight, bias = op.inputs
        xw = _working(x)
        y = ops.standardize(xw, axes, eps)[0]
        w = _per_channel(weight, xw, axis, "instance_norm", "weight")
        return op.result(_rounded(_affine(y, w, _per_channel(bias, xw, axis, "instance_norm", "bias")), x.dtype))


def group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format="NCHW", name=None) -> Tensor:
    """Split the channels into num_groups groups and normalize each group of each sample, then scale and shift
    per channel (what nn.GroupNorm computes)."""
    check_min_rank(check_float_tensor(x, "group_norm"), 2, "group_norm")
    epsilon = check_nonnegative(epsilon, "group_norm", "epsilon")
    if data_format not in ("NCHW", "NHWC", "NCL", "NLC", "NCDHW", "NDHWC"):
        raise ValueError(f"group_norm: unsupported data layout {data_format!r}")
    axis = 1 if data_format[1] == "C" else x.ndim - 1
    channels = x.shape[axis]
    if not isinstance(num_groups, int) or num_groups <= 0 or channels % num_groups:
        raise ValueError(f"group_norm: the channel count ({channels}) must be divisible by num_groups ({num_groups})")
    _check_per_channel(weight, x, axis, "group_norm", "weight")  # argument checks before any work
    _check_per_channel(bias, x, axis, "group_norm", "bias")
    with _as_paddle_op("group_norm", (x, weight, bias)) as op:
        x, weight, bias = op.inputs
        xw = _working(x)
        moved = xw if axis == 1 else ops.transpose(xw, (0, axis) + tuple(range(1, axis)))
        grouped = ops.reshape(moved, (0, num_groups, -1))  # 0 copies the batch size (-1 while building a Program)
        y = ops.reshape(ops.standardize(grouped, (2,), epsilon)[0], (0, *moved.shape[1:]))
        if axis != 1:
            y = ops.transpose(y, (0,) + tuple(range(2, x.ndim)) + (1,))
        w = _per_channel(weight, xw, axis, "group_norm", "weight")
        return op.result(_rounded(_affine(y, w, _per_channel(bias, xw, axis, "group_norm", "bias")), x.dtype))


def local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1.0, data_format="NCHW", name=None) -> Tensor:
    """x / (k + alpha / size * sum of x^2 over `size` neighbouring channels) ^ beta (AlexNet's LRN).

    The window around channel c covers channels c - size//2 .. c + (size-1)//2; channels beyond the edges
    count as zeros.
    """
    alpha = check_float(alpha, "local_response_norm", "alpha")
    beta = check_float(beta, "local_response_norm", "beta")
    k = check_nonnegative(k, "local_response_norm", "k")
    size = check_int(size, "local_response_norm", "size", 1)  # k + alpha * (a sum of squares) is raised to -beta
    check_float_tensor(x, "local_response_norm")
    if data_format not in ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC"):
        raise ValueError(f"local_response_norm: data_format should be in one of [NCL, NCHW, NCDHW, NLC, NHWC, "
                         f"NDHWC], but got {data_format}")  # fmt: skip
    if x.ndim < 3:
        raise ValueError(f"local_response_norm: expected 3D or higher dimensionality input, but got {x.ndim} dims")
    axis = 1 if data_format[1] == "C" else x.ndim - 1
    channels = x.shape[axis]
    square = ops.multiply(x, x)
    before, after = size // 2, (size - 1) // 2
    zeros = [
        Tensor(np.zeros([n if i == axis else d for i, d in enumerate(x.shape)], x.dtype.np)) for n in (before, after)
    ]
    padded = ops.concat([zeros[0], square, zeros[1]], axis)  # channels beyond the edges count as zeros
    window = None
    for start in range(size):  # a sum of `size` shifted copies: the loop is over the window, not the elements
        part = ops.getitem(padded, (slice(None),) * axis + (slice(start, start + channels),))
        window = part if window is None else ops.add(window, part)
    div = ops.pow(ops.scale(window, alpha / size, float(k)), float(beta))
    return ops.divide(x, div)


def normalize(x, p=2, axis=1, epsilon=1e-12, name=None) -> Tensor:
    """x / max(|x|_p, epsilon) along `axis`: rows (by default) scaled to unit p-norm.

    Example:
        >>> F.normalize(paddle.to_tensor([[3.0, 4.0]]))   # [[0.6, 0.8]]
    """
    p = check_float(p, "normalize", "p")
    check_float_tensor(x, "normalize")
    if x.ndim == 1 and axis not in (0, -1):
        raise ValueError(f"normalize: axis must be 0 or -1 when x is a 1-D tensor, but received axis = {axis}")
    axis = normalize_axis(axis, x.ndim, "normalize")
    norm = p_norm(x, float(p), axis, True)
    return ops.divide(x, ops.maximum(norm, check_nonnegative(epsilon, "normalize", "epsilon")))
