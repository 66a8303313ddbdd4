"""Momentum: SGD with a velocity, optionally Nesterov's."""

from __future__ import annotations

from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.optimizer.optimizer import Optimizer
from minipaddle.regularizer import L2Decay
from minipaddle.tensor.checks import check_number

__all__ = ["Momentum"]

_VELOCITY = get_op("momentum_velocity")
_PARAM = get_op("momentum_param")


class Momentum(Optimizer):
    r"""Momentum SGD (Nesterov's when use_nesterov=True):

        g        = rescale_grad * grad + l2_coeff * param
        velocity = momentum * velocity + g
        param    = param - learning_rate * velocity                     (plain)
        param    = param - learning_rate * (g + momentum * velocity)    (Nesterov)

    L2 weight decay (a float weight_decay or L2Decay) is folded into g as above, as Paddle's kernel does, so it
    is not multiplied by rescale_grad; an L1Decay is added to the gradient before, like in the other optimizers.
    The velocity is the accumulator `<param name>_velocity_<n>`.

    Args:
        learning_rate: a float or an LRScheduler (default 0.001).
        momentum: the velocity's decay (default 0.9).
        parameters: the Tensors to update, or a list of parameter-group dicts.
        use_nesterov: use Nesterov momentum.
        weight_decay: a float (L2 coefficient), L1Decay/L2Decay, or None.
        grad_clip: a paddle.nn.ClipGradBy* object, or None.
        multi_precision: keep a float32 copy of float16 parameters and update that.
        rescale_grad: multiply the gradient by this first (e.g. 1 / batch_size).
        use_multi_tensor: Paddle's fused multi-tensor kernel; the results are the same, so it changes nothing here.
        name: a prefix for the optimizer's state names.

    Example:
        >>> momentum = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=linear.parameters())
    """

    def __init__(self, learning_rate=0.001, momentum=0.9, parameters=None, use_nesterov=False, weight_decay=None,
                 grad_clip=None, multi_precision=False, rescale_grad=1.0, use_multi_tensor=False,
                 name=None) -> None:  # fmt: skip
        if learning_rate is None:
            raise ValueError("Momentum: learning_rate is not set")
        if momentum is None:
            raise ValueError("Momentum: momentum is not set")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._momentum = float(check_number(momentum, "Momentum", "momentum"))
        self._use_nesterov = bool(use_nesterov)
        self._rescale_grad = float(check_number(rescale_grad, "Momentum", "rescale_grad"))
        self._multi_precision = bool(multi_precision)
        self._use_multi_tensor = bool(use_multi_tensor)
        self._default_dict.update(momentum=self._momentum, use_nesterov=self._use_nesterov,
                                  rescale_grad=self._rescale_grad)  # fmt: skip

    def _regularized_grad(self, param, grad, regularizer):
        if isinstance(regularizer, L2Decay):  # folded into the velocity update instead
            return grad
        return super()._regularized_grad(param, grad, regularizer)

    def _update_param(self, param, grad, lr, options) -> None:
        velocity = self._add_accumulator("velocity", param)
        reg = options["regularizer"]
        attrs = {
            "mu": options["momentum"],
            "rescale_grad": options["rescale_grad"],
            "l2_coeff": reg.coeff if isinstance(reg, L2Decay) else 0.0,
        }
        apply_inplace(_VELOCITY, velocity, (velocity, grad, param), attrs)
        attrs = {**attrs, "use_nesterov": options["use_nesterov"]}
        self._write_param(_PARAM, param, (param, grad, velocity, lr), attrs, options)
