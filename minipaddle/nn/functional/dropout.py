"""Dropout in its forms: dropout (elementwise, or shared along chosen axes), dropout2d/3d (whole channels)
and alpha_dropout (for SELU networks). Masks are drawn from the generator `paddle.seed` sets, through the random ops."""

from __future__ import annotations

import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.nn import static_hooks
from minipaddle.tensor.checks import check_tensor

__all__ = ["dropout", "dropout2d", "dropout3d", "alpha_dropout"]


def _check_p(p, fn: str) -> float:
    if not isinstance(p, numbers.Real) or isinstance(p, bool):
        raise TypeError(f"{fn}: p must be a number, got {type(p).__name__}")
    if not 0 <= p <= 1:
        raise ValueError(f"{fn}: p must be between 0 and 1, got {p}")
    return float(p)


def _keep_mask(x: Tensor, axes, p: float) -> Tensor:
    """True where a value is kept (probability 1 - p), False where it is dropped. With `axes`, one draw per
    position along those axes, shared along the others. The mask's shape comes from x when the op runs, so
    it also works in a Program whose batch size is -1."""
    keep = ops.full_like(x, 1.0 - p, np.dtype(np.float32))
    shared = tuple(i for i in range(x.ndim) if axes is not None and i not in axes)
    if shared:
        keep = ops.max(keep, shared, keepdim=True)
    return ops.cast(ops.bernoulli(keep), np.bool_)


def dropout(x, p=0.5, axis=None, training=True, mode="upscale_in_train", name=None) -> Tensor:
    """Zero each value with probability p while training.

    Args:
        p: the probability of dropping a value.
        axis: None drops values independently; an int or list of ints draws one mask over those axes and
            shares it along the others (so whole rows or channels drop together).
        training: False returns x (or x * (1 - p) in 'downscale_in_infer' mode).
        mode: 'upscale_in_train' (default): kept values are divided by 1 - p while training, so nothing changes
            at inference. 'downscale_in_infer': training keeps values as they are, inference multiplies by 1 - p.

    Example:
        >>> paddle.seed(1)
        >>> y = F.dropout(paddle.ones([2, 4]), p=0.5)   # values are 0 or 2
    """
    check_tensor(x, "dropout")
    p = _check_p(p, "dropout")
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise ValueError(f"dropout: mode must be 'upscale_in_train' or 'downscale_in_infer', got {mode!r}")
    if p == 0:
        return x
    if not x.dtype.is_floating:
        raise TypeError(f"dropout: x must be a float tensor, got {x.dtype.name}")
    if axis is not None:  # checked as paddle does, after p == 0 returns x
        items = axis if isinstance(axis, (list, tuple)) else [axis]
        if not all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in items):
            raise TypeError(f"dropout: axis must be an int or a list of ints, got {axis!r}")
    if training and STATE.static_mode and static_hooks.needs_switch(training):  # decided when the Program runs
        return static_hooks.train_or_eval(lambda t: dropout(x, p, axis, t, mode))
    if not training:
        return x if mode == "upscale_in_train" else ops.scale(x, 1.0 - p)
    axes = None
    if axis is not None:
        axes = [int(a) for a in (axis if isinstance(axis, (list, tuple)) else [axis])]
        if not axes or min(axes) < 0 or max(axes) >= x.ndim:
            raise ValueError(f"dropout: axis must be in [0, {x.ndim}) for x of shape {x.shape}, got {axis}")
    # p = 1 drops all: x * 0, as paddle 2.6.2 (its dropout op in a Program). But a Program's dropout along axes
    # with downscale_in_infer is, in paddle, the ops of p < 1 below with a mask of zeros (with upscale_in_train
    # paddle divides by 1 - p = 0 and cannot build it: here it is x * 0, written as paddle's dropout op).
    if p == 1 and not (STATE.static_mode and axes is not None and mode == "downscale_in_infer"):
        return ops.scale(x, 0.0)
    scale = 1.0 / (1.0 - p) if mode == "upscale_in_train" else 1.0
    return ops.dropout(x, _keep_mask(x, axes, p), scale)


def _channel_dropout(x, p, training, data_format, fn: str, ndim: int, formats: tuple) -> Tensor:
    check_tensor(x, fn)
    if x.ndim != ndim:
        raise ValueError(f"{fn}: x must be {ndim}-D, got shape {x.shape}")
    if data_format not in formats:
        raise ValueError(f"{fn}: data_format must be {' or '.join(formats)}, got {data_format!r}")
    channel_axis = 1 if data_format == formats[0] else ndim - 1
    return dropout(x, p, axis=[0, channel_axis], training=training)


def dropout2d(x, p=0.5, training=True, data_format="NCHW", name=None) -> Tensor:
    """Drop whole channels of a [N, C, H, W] tensor (each channel of each sample with probability p)."""
    return _channel_dropout(x, p, training, data_format, "dropout2d", 4, ("NCHW", "NHWC"))


def dropout3d(x, p=0.5, training=True, data_format="NCDHW", name=None) -> Tensor:
    """Drop whole channels of a [N, C, D, H, W] tensor."""
    return _channel_dropout(x, p, training, data_format, "dropout3d", 5, ("NCDHW", "NDHWC"))


def alpha_dropout(x, p=0.5, training=True, name=None) -> Tensor:
    """Dropout that keeps SELU's mean 0 and variance 1: dropped values become SELU's negative saturation
    value, then an affine map a * y + b restores the statistics."""
    check_tensor(x, "alpha_dropout")
    p = _check_p(p, "alpha_dropout")
    if not training:
        return x
    if p == 1:
        return ops.scale(x, 0.0)
    alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
    a = ((1 - p) * (1 + p * alpha_p**2)) ** -0.5
    b = -a * alpha_p * p
    keep = _keep_mask(x, None, p)
    dropped_value = ops.scale(ops.cast(keep, x.dtype), -alpha_p, alpha_p)  # 0 where kept, alpha_p where dropped
    return ops.scale(ops.add(ops.dropout(x, keep, 1.0), dropped_value), a, b)
