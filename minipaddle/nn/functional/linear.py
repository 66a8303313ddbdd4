"""linear and bilinear: the functional forms of nn.Linear and nn.Bilinear, as compositions of matmul and add."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.checks import check_float_tensor, check_tensor

__all__ = ["linear", "bilinear"]


def linear(x, weight, bias=None, name=None) -> Tensor:
    """x @ weight + bias, with weight of shape [in_features, out_features] (Paddle's layout, not its transpose).

    Example:
        >>> y = F.linear(paddle.ones([4, 3]), paddle.ones([3, 2]), paddle.zeros([2]))   # shape [4, 2]
    """
    check_tensor(x, "linear")
    check_tensor(weight, "linear", "weight")
    if weight.ndim != 2:
        raise ValueError(f"linear: weight must be 2-D [in_features, out_features], got shape {weight.shape}")
    if x.ndim == 0 or x.shape[-1] not in (weight.shape[0], -1):  # (-1: a size a Program knows only when it runs)
        raise ValueError(f"linear: x has shape {x.shape}, whose last dimension must equal weight's first "
                         f"({weight.shape[0]}; weight has shape {weight.shape})")  # fmt: skip
    if x.dtype != weight.dtype and STATE.amp is None:  # (under auto_cast the AMP hook casts both to one dtype)
        raise TypeError(f"linear: x is {x.dtype.name} but weight is {weight.dtype.name}")
    out = ops.matmul(x, weight)
    if bias is None:
        return out
    check_tensor(bias, "linear", "bias")
    return ops.add(out, bias)


def bilinear(x1, x2, weight, bias=None, name=None) -> Tensor:
    """out[n, o] = sum_ij x1[n, i] * weight[o, i, j] * x2[n, j] + bias[0, o].

    Args:
        x1: [N, in1_features]; x2: [N, in2_features]; weight: [out_features, in1_features, in2_features];
        bias: [1, out_features] or None.
    """
    for arg, t in (("x1", x1), ("x2", x2), ("weight", weight)):
        check_float_tensor(t, "bilinear", arg)  # as paddle 2.6: no integer inputs (they would be promoted silently)
    if bias is not None:
        check_float_tensor(bias, "bilinear", "bias")  # a Tensor, as paddle 2.6 requires
    if x1.ndim != 2 or x2.ndim != 2 or weight.ndim != 3:
        raise ValueError(f"bilinear: expected x1 [N, in1], x2 [N, in2] and weight [out, in1, in2], got "
                         f"{x1.shape}, {x2.shape} and {weight.shape}")  # fmt: skip
    n = x1.shape[0]
    if x2.shape[0] != n or weight.shape[1:] != [x1.shape[1], x2.shape[1]]:
        raise ValueError(f"bilinear: shapes do not fit: x1 {x1.shape}, x2 {x2.shape}, weight {weight.shape}")
    if bias is not None and bias.shape != [1, weight.shape[0]]:  # a row vector, as paddle 2.6 requires
        raise ValueError(f"bilinear: bias must be of shape [1, {weight.shape[0]}], got {bias.shape}")
    # [N, 1, 1, in1] @ [out, in1, in2] -> [N, out, 1, in2]; times x2 and summed over in2 -> [N, out]
    left = ops.matmul(ops.reshape(x1, (n, 1, 1, x1.shape[1])), weight)
    out = ops.sum(ops.multiply(left, ops.reshape(x2, (n, 1, 1, x2.shape[1]))), (2, 3))
    return out if bias is None else ops.add(out, bias)
