"""paddle.nn.utils.clip_grad_norm_ / clip_grad_value_: clip the `.grad` of parameters in place, right after
backward (unlike paddle.nn.ClipGradBy*, which an optimizer applies to the gradients it uses)."""

from __future__ import annotations

import math

from minipaddle import ops
from minipaddle.core.state import in_dynamic_mode, no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.linalg import norm
from minipaddle.tensor.checks import check_bool, check_number
from minipaddle.tensor.creation import to_tensor

__all__ = ["clip_grad_norm_", "clip_grad_value_"]

_NORM_TYPES = (math.inf, 0, 1, 2)


def _parameter_list(parameters, fn: str) -> list:
    if not in_dynamic_mode():
        raise RuntimeError(f"{fn}: this API can only run in dynamic mode")
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False) -> Tensor:
    """Scale the gradients of `parameters` in place so that their joint norm (the norm of all of them as one
    vector) is at most `max_norm`: each grad is multiplied by min(1, max_norm / (total_norm + 1e-6)).

    Args:
        parameters (Tensor|list[Tensor]): the tensors whose `.grad` to clip (those without one are skipped).
        max_norm (float): the largest allowed norm.
        norm_type (float): 2, 1, 0 (counts nonzeros) or inf. Default 2.
        error_if_nonfinite (bool): raise a RuntimeError when the total norm is nan or inf. Default False.

    Returns:
        Tensor: the total norm before clipping (0-d); 0.0 when no parameter has a gradient.

    Example:
        >>> loss.backward()
        >>> paddle.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    """
    fn = "clip_grad_norm_"
    parameters = _parameter_list(parameters, fn)
    if norm_type not in _NORM_TYPES:
        raise ValueError(f"{fn}: norm_type must be one of [inf, 0, 1, 2], got {norm_type!r}")
    max_norm, norm_type = float(check_number(max_norm, fn, "max_norm")), float(norm_type)
    check_bool(error_if_nonfinite, fn, "error_if_nonfinite")
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return to_tensor(0.0)
    with no_grad():
        if norm_type == math.inf:
            norms = [ops.max(ops.abs(g)) for g in grads]
            total = norms[0] if len(norms) == 1 else ops.max(ops.stack(norms, 0))
        else:
            total = norm(ops.stack([norm(g.detach(), norm_type) for g in grads], 0), norm_type)
        if error_if_nonfinite and not bool(ops.isfinite(total).item()):
            raise RuntimeError(
                f"{fn}: the total norm of {norm_type} order of the gradients from `parameters` is non-finite, so it "
                "cannot be clipped. To scale the gradients by the non-finite norm anyway, set error_if_nonfinite=False"
            )
        coef = ops.minimum(ops.divide(ops.full_like(total, max_norm), ops.scale(total, 1.0, 1e-6)),
                           ops.full_like(total, 1.0))  # fmt: skip
        for p in parameters:
            if p.grad is not None:
                p.grad = ops.multiply(p.grad, ops.cast(coef, p.grad.dtype.np))
    return total


def clip_grad_value_(parameters, clip_value) -> None:
    """Clip every gradient element of `parameters` into [-clip_value, clip_value], in place.

    Args:
        parameters (Tensor|list[Tensor]): the tensors whose `.grad` to clip (those without one are skipped).
        clip_value (float): the bound, >= 0.

    Example:
        >>> loss.backward()
        >>> paddle.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.5)
    """
    fn = "clip_grad_value_"
    parameters = _parameter_list(parameters, fn)
    clip_value = float(check_number(clip_value, fn, "clip_value"))
    if clip_value < 0:
        raise ValueError(f"{fn}: clip_value must be >= 0 (the bounds are [-clip_value, clip_value]), got {clip_value}")
    with no_grad():
        for p in parameters:
            if p.grad is not None:
                p.grad.clip_(min=-clip_value, max=clip_value)
