"""Activation functions (paddle.nn.functional).

The common ones are ops of their own (minipaddle/ops/activation.py, ops/nn_activation.py); the rest are short
compositions of ops, written here the way their formulas read. The `_` forms (relu_, elu_, softmax_, tanh_)
change x in place.
"""

from __future__ import annotations

import math

from minipaddle import ops
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.core.state import no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import (
    check_bool,
    check_dtype,
    check_float,
    check_float_tensor,
    check_in_range,
    check_inexact_tensor,
    check_min_rank,
    check_number,
    check_tensor,
    normalize_axis,
)
from minipaddle.tensor.math import tanh  # paddle.nn.functional.tanh is paddle.tanh

__all__ = [
    "relu",
    "relu_",
    "relu6",
    "leaky_relu",
    "leaky_relu_",
    "prelu",
    "rrelu",
    "elu",
    "elu_",
    "selu",
    "celu",
    "gelu",
    "sigmoid",
    "log_sigmoid",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hardtanh_",
    "hardshrink",
    "softshrink",
    "tanhshrink",
    "thresholded_relu",
    "thresholded_relu_",
    "softplus",
    "softsign",
    "swish",
    "silu",
    "mish",
    "maxout",
    "glu",
    "softmax",
    "softmax_",
    "log_softmax",
    "gumbel_softmax",
    "tanh",
    "tanh_",
]


def _zeros(x: Tensor) -> Tensor:
    return ops.full_like(x, 0)


# ---- the rectifier family ------------------------------------------------------------------------------------


def relu(x, name=None) -> Tensor:
    """max(x, 0), elementwise.

    Example:
        >>> F.relu(paddle.to_tensor([-1.0, 2.0]))   # [0., 2.]
    """
    check_tensor(x, "relu")
    return ops.relu(x)


def relu_(x, name=None) -> Tensor:
    """relu, in place."""
    check_tensor(x, "relu_")
    return apply_inplace(get_op("relu"), x, (x,))


def relu6(x, name=None) -> Tensor:
    """min(max(x, 0), 6)."""
    return ops.clip(check_float_tensor(x, "relu6"), 0.0, 6.0)


def leaky_relu(x, negative_slope=0.01, name=None) -> Tensor:
    """x for x > 0, negative_slope * x otherwise."""
    check_float_tensor(x, "leaky_relu")
    return ops.leaky_relu(x, float(check_number(negative_slope, "leaky_relu", "negative_slope")))


def leaky_relu_(x, negative_slope=0.01, name=None) -> Tensor:
    """leaky_relu, in place."""
    negative_slope = check_float(negative_slope, "leaky_relu_", "negative_slope")
    check_float_tensor(x, "leaky_relu_")
    return apply_inplace(get_op("leaky_relu"), x, (x,), {"alpha": float(negative_slope)})


def prelu(x, weight, data_format="NCHW", name=None) -> Tensor:
    """leaky_relu with a learned slope: one for all channels (weight of shape [1]) or one per channel ([C]).

    Args:
        x: a tensor with the channels on axis 1 ('NC', 'NCL', 'NCHW', 'NCDHW') or last ('NLC', 'NHWC', 'NDHWC').
        weight: the slopes, a 1-D tensor of size 1 or C.
    """
    check_float_tensor(x, "prelu")
    check_tensor(weight, "prelu", "weight")
    if weight.ndim != 1:
        raise ValueError(f"prelu: weight must be 1-D, got shape {weight.shape}")
    channels_last = data_format in ("NLC", "NHWC", "NDHWC")
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError(f"prelu: data_format must be NC, NCL, NCHW, NCDHW, NLC, NHWC or NDHWC, got {data_format!r}")
    slope = weight
    if weight.shape[0] != 1:
        axis = x.ndim - 1 if channels_last else 1
        if x.ndim < 2 or x.shape[axis] != weight.shape[0]:
            raise ValueError(f"prelu: weight has {weight.shape[0]} slopes but x (shape {x.shape}, {data_format}) "
                             "has a different number of channels")  # fmt: skip
        slope = ops.reshape(weight, tuple(weight.shape[0] if i == axis else 1 for i in range(x.ndim)))
    return ops.where(ops.greater_than(x, 0.0), x, ops.multiply(ops.cast(slope, x.dtype), x))


def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None) -> Tensor:
    """Randomized leaky relu: while training each negative value gets its own slope drawn from U(lower, upper);
    at inference the slope is (lower + upper) / 2."""
    check_float_tensor(x, "rrelu")
    if not isinstance(lower, float) or not isinstance(upper, float):
        raise TypeError(f"rrelu: lower and upper must be floats, got {lower!r} and {upper!r}")
    check_in_range(lower, "rrelu", "lower", 0, 1)
    check_in_range(upper, "rrelu", "upper", lower, 1)  # a NaN upper too, as paddle 2.6's infer-meta
    if not training:
        return ops.leaky_relu(x, (lower + upper) / 2)
    slopes = ops.uniform(tuple(x.shape), x.dtype.np, lower, upper)
    return ops.where(ops.greater_equal(x, 0.0), x, ops.multiply(slopes, x))


def elu(x, alpha=1.0, name=None) -> Tensor:
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""
    return ops.elu(check_float_tensor(x, "elu"), float(check_number(alpha, "elu", "alpha")))


def elu_(x, alpha=1.0, name=None) -> Tensor:
    """elu, in place."""
    alpha = check_float(alpha, "elu_", "alpha")
    check_float_tensor(x, "elu_")
    return apply_inplace(get_op("elu"), x, (x,), {"alpha": float(alpha)})


def selu(x, scale=1.0507009873554805, alpha=1.6732632423543772, name=None) -> Tensor:
    """scale * elu(x, alpha): with the default constants, activations keep mean 0 and variance 1."""
    scale = check_float(scale, "selu", "scale")
    alpha = check_float(alpha, "selu", "alpha")
    check_float_tensor(x, "selu")
    if scale <= 1.0:
        raise ValueError(f"selu: scale must be greater than 1.0, got {scale}")
    if alpha < 0:
        raise ValueError(f"selu: alpha must be no less than 0, got {alpha}")
    return ops.scale(ops.elu(x, float(alpha)), float(scale))


def celu(x, alpha=1.0, name=None) -> Tensor:
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), which is alpha * elu(x / alpha)."""
    alpha = check_float(alpha, "celu", "alpha")
    check_float_tensor(x, "celu")
    if alpha == 0:
        raise ZeroDivisionError("celu: alpha cannot be 0")
    return ops.scale(ops.elu(ops.scale(x, 1.0 / alpha), 1.0), float(alpha))


def gelu(x, approximate=False, name=None) -> Tensor:
    """x * Phi(x), with Phi the standard normal CDF; approximate=True uses the tanh formula
    0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    check_float_tensor(x, "gelu")
    if approximate is not None:  # paddle 2.6 refuses anything but a bool (None counts as False there)
        check_bool(approximate, "gelu", "approximate")
    if not approximate:
        cdf = ops.scale(ops.erf(ops.scale(x, 1.0 / math.sqrt(2.0))), 0.5, 0.5)  # Phi(x) = (1 + erf(x/sqrt 2)) / 2
        return ops.multiply(x, cdf)
    inner = ops.scale(ops.add(x, ops.scale(ops.pow(x, 3), 0.044715)), math.sqrt(2.0 / math.pi))
    return ops.multiply(x, ops.scale(ops.tanh(inner), 0.5, 0.5))


def thresholded_relu(x, threshold=1.0, name=None) -> Tensor:
    """x where x > threshold, else 0."""
    threshold = check_float(threshold, "thresholded_relu", "threshold")
    check_float_tensor(x, "thresholded_relu")
    return ops.where(ops.greater_than(x, float(threshold)), x, _zeros(x))


# ---- sigmoid family ----------------------------------------------------------------------------------------------


def sigmoid(x, name=None) -> Tensor:
    """1 / (1 + exp(-x)), elementwise."""
    check_tensor(x, "sigmoid")
    return ops.sigmoid(x)


def log_sigmoid(x, name=None) -> Tensor:
    """log(sigmoid(x)) = -softplus(-x), computed without overflow. x is float or complex, as in paddle 2.6."""
    check_inexact_tensor(x, "log_sigmoid")
    return ops.neg(ops.softplus(ops.neg(x), 1.0, 20.0))


def hardsigmoid(x, slope=0.1666667, offset=0.5, name=None) -> Tensor:
    """clip(slope * x + offset, 0, 1): a piecewise-linear sigmoid."""
    slope = check_float(slope, "hardsigmoid", "slope")
    offset = check_float(offset, "hardsigmoid", "offset")
    return ops.hardsigmoid(check_float_tensor(x, "hardsigmoid"), float(slope), float(offset))


def hardswish(x, name=None) -> Tensor:
    """x * relu6(x + 3) / 6. x is float or complex, as in paddle 2.6."""
    return ops.hardswish(check_inexact_tensor(x, "hardswish"))


def swish(x, name=None) -> Tensor:
    """x * sigmoid(x)."""
    check_float_tensor(x, "swish")
    return ops.multiply(x, ops.sigmoid(x))


def silu(x, name=None) -> Tensor:
    """x * sigmoid(x) (the same function as swish). x is float or complex, as in paddle 2.6."""
    check_inexact_tensor(x, "silu")
    return ops.multiply(x, ops.sigmoid(x))


def mish(x, name=None) -> Tensor:
    """x * tanh(softplus(x))."""
    check_float_tensor(x, "mish")
    return ops.multiply(x, ops.tanh(ops.softplus(x, 1.0, 20.0)))


def softplus(x, beta=1, threshold=20, name=None) -> Tensor:
    """log(1 + exp(beta * x)) / beta, and x where beta * x > threshold. x is float or complex, as in paddle 2.6."""
    beta = check_float(beta, "softplus", "beta")
    threshold = check_float(threshold, "softplus", "threshold")
    check_inexact_tensor(x, "softplus")
    return ops.softplus(x, float(beta), float(threshold))


def softsign(x, name=None) -> Tensor:
    """x / (1 + |x|). x is float or complex, as in paddle 2.6."""
    check_inexact_tensor(x, "softsign")
    return ops.divide(x, ops.scale(ops.abs(x), 1.0, 1.0))


# ---- tanh family and shrinkage ------------------------------------------------------------------------------


def tanh_(x, name=None) -> Tensor:
    """tanh, in place."""
    check_tensor(x, "tanh_")
    return apply_inplace(get_op("tanh"), x, (x,))


def hardtanh(x, min=-1.0, max=1.0, name=None) -> Tensor:  # noqa: A002 (Paddle's names)
    """x clipped to [min, max]."""
    min = check_float(min, "hardtanh", "min")
    max = check_float(max, "hardtanh", "max")
    return ops.clip(check_float_tensor(x, "hardtanh"), float(min), float(max))


def hardtanh_(x, min=-1.0, max=1.0, name=None) -> Tensor:  # noqa: A002 (Paddle's names)
    """hardtanh, in place."""
    min = check_float(min, "hardtanh_", "min")
    max = check_float(max, "hardtanh_", "max")
    check_float_tensor(x, "hardtanh_")
    return apply_inplace(get_op("clip"), x, (x,), {"min": float(min), "max": float(max)})


def tanhshrink(x, name=None) -> Tensor:
    """x - tanh(x)."""
    check_float_tensor(x, "tanhshrink")
    return ops.subtract(x, ops.tanh(x))


def thresholded_relu_(x, threshold=1.0, name=None) -> Tensor:
    """thresholded_relu, in place."""
    return apply_inplace(get_op("assign"), x, (thresholded_relu(x, threshold),))


def hardshrink(x, threshold=0.5, name=None) -> Tensor:
    """x where |x| > threshold, else 0."""
    threshold = check_float(threshold, "hardshrink", "threshold")
    check_float_tensor(x, "hardshrink")
    return ops.where(ops.greater_than(ops.abs(x), float(threshold)), x, _zeros(x))


def softshrink(x, threshold=0.5, name=None) -> Tensor:
    """x - threshold above threshold, x + threshold below -threshold, 0 between."""
    threshold = check_float(threshold, "softshrink", "threshold")
    check_float_tensor(x, "softshrink")
    if threshold < 0:
        raise ValueError(f"softshrink: threshold must be no less than 0, got {threshold}")
    t = float(threshold)
    shrunk_low = ops.where(ops.less_than(x, -t), ops.scale(x, 1.0, t), _zeros(x))
    return ops.where(ops.greater_than(x, t), ops.scale(x, 1.0, -t), shrunk_low)


# ---- over groups of values -------------------------------------------------------------------------------------


def maxout(x, groups, axis=1, name=None) -> Tensor:
    """The maximum over each group of `groups` consecutive channels: [N, C, H, W] -> [N, C / groups, H, W].

    Args:
        axis: the channel axis, 1 (NCHW) or -1/3 (NHWC).
    """
    check_float_tensor(x, "maxout")
    if axis not in (1, -1, 3):
        raise ValueError(f"maxout: axis must be 1, -1 or 3, got {axis}")
    if x.ndim != 4:
        raise ValueError(f"maxout: x must be 4-D, got shape {x.shape}")
    axis = axis % 4
    channels = x.shape[axis]
    if not isinstance(groups, int) or groups <= 0 or channels % groups:
        raise ValueError(f"maxout: the channel count ({channels}) must be divisible by groups ({groups})")
    shape = x.shape[:axis] + [channels // groups, groups] + x.shape[axis + 1 :]
    return ops.max(ops.reshape(x, tuple(shape)), (axis + 1,))


def glu(x, axis=-1, name=None) -> Tensor:
    """Gated linear unit: split x in two halves a, b along `axis`; a * sigmoid(b)."""
    check_float_tensor(x, "glu")
    check_min_rank(x, 1, "glu")  # a 0-D tensor has no axis to split in two
    axis = normalize_axis(axis, x.ndim, "glu")
    if x.shape[axis] % 2:
        raise ValueError(f"glu: the size of axis {axis} ({x.shape[axis]}) must be even")
    a, b = ops.split(x, (x.shape[axis] // 2,) * 2, axis)
    return ops.multiply(a, ops.sigmoid(b))


def _softmax_input(x, axis, dtype, fn: str):
    check_tensor(x, fn)
    if dtype is not None:
        x = ops.cast(x, check_dtype(dtype, fn))
    if not (x.dtype.is_floating):
        raise TypeError(f"{fn}: x must be a float tensor, got {x.dtype.name}")
    return x, normalize_axis(axis, x.ndim, fn)


def softmax(x, axis=-1, dtype=None, name=None) -> Tensor:
    """exp(x) / sum(exp(x)) along `axis` (computed stably, shifting by the max)."""
    x, axis = _softmax_input(x, axis, dtype, "softmax")
    return ops.softmax(x, axis)


def softmax_(x, axis=-1, dtype=None, name=None) -> Tensor:
    """softmax, in place."""
    check_tensor(x, "softmax_")
    axis = normalize_axis(axis, x.ndim, "softmax_")
    return apply_inplace(get_op("softmax"), x, (x,), {"axis": axis})


def log_softmax(x, axis=-1, dtype=None, name=None) -> Tensor:
    """log(softmax(x)) along `axis`, computed without forming softmax."""
    x, axis = _softmax_input(x, axis, dtype, "log_softmax")
    return ops.log_softmax(x, axis)


def gumbel_softmax(x, temperature=1.0, hard=False, axis=-1, name=None) -> Tensor:
    """softmax((x + g) / temperature) with Gumbel noise g = -log(-log(u)), u ~ U(0, 1): a differentiable sample
    from the categorical distribution softmax(x). hard=True returns one-hot vectors whose gradient is the soft
    sample's (the straight-through estimator)."""
    x, axis = _softmax_input(x, axis, None, "gumbel_softmax")
    if temperature <= 0:
        raise ValueError(f"gumbel_softmax: temperature must be positive, got {temperature}")
    u = ops.uniform(tuple(x.shape), x.dtype.np, 0.0, 1.0)
    noise = ops.neg(ops.log(ops.neg(ops.log(ops.clip(u, 1e-20, None)))))
    soft = ops.softmax(ops.scale(ops.add(x, noise), 1.0 / temperature), axis)
    if not hard:
        return soft
    hard_sample = ops.cast(ops.equal(soft, ops.max(soft, (axis,), keepdim=True)), soft.dtype)
    with no_grad():
        shift = ops.subtract(hard_sample, soft)
    return ops.add(soft, shift)  # the values of hard_sample, the gradient of soft
