"""RMSProp: divide the gradient by a running root mean square of recent gradients."""

from __future__ import annotations

from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.optimizer.optimizer import Optimizer
from minipaddle.tensor.checks import check_number

__all__ = ["RMSProp"]

_EMA = get_op("ema")
_EMA_SQUARE = get_op("ema_square")
_MOMENT = get_op("rmsprop_moment")
_PARAM = get_op("rmsprop_param")


class RMSProp(Optimizer):
    r"""RMSProp (Hinton's lecture 6e), with momentum and an optional centered form:

        mean_square = rho * mean_square + (1 - rho) * grad^2
        mean_grad   = rho * mean_grad + (1 - rho) * grad                          (centered only)
        moment      = momentum * moment + learning_rate * grad / sqrt(mean_square - mean_grad^2 + epsilon)
        param       = param - moment

    (without `centered`, mean_grad^2 is left out). The state is momentum, mean_square and mean_grad per parameter.

    Args:
        learning_rate: a float or an LRScheduler (required).
        rho: the averages' decay rate (0.95).
        epsilon: keeps the square root away from zero (1e-6).
        momentum: the moment's decay (0.0: no momentum).
        centered: normalize by the estimated variance instead of the raw second moment.
        parameters: the Tensors to update, or a list of parameter-group dicts.
        weight_decay: a float (L2 coefficient), L1Decay/L2Decay, or None.
        grad_clip: a paddle.nn.ClipGradBy* object, or None.
        name: a prefix for the optimizer's state names.

    Example:
        >>> rmsprop = paddle.optimizer.RMSProp(learning_rate=0.01, parameters=linear.parameters())
    """

    def __init__(self, learning_rate, rho=0.95, epsilon=1e-06, momentum=0.0, centered=False, parameters=None,
                 weight_decay=None, grad_clip=None, name=None) -> None:  # fmt: skip
        for value, arg in (
            (learning_rate, "learning_rate"),
            (rho, "rho"),
            (epsilon, "epsilon"),
            (momentum, "momentum"),
        ):
            if value is None:
                raise ValueError(f"RMSProp: {arg} is not set")
        rho, epsilon, momentum = (float(check_number(v, "RMSProp", n)) for v, n in ((rho, "rho"), (epsilon, "epsilon"),
                                                                                  (momentum, "momentum")))  # fmt: skip
        for value, arg in ((epsilon, "epsilon"), (momentum, "momentum"), (rho, "rho")):
            if value < 0:
                raise ValueError(f"RMSProp: {arg} must be >= 0, got {value}")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._rho, self._epsilon, self._momentum, self._centered = rho, epsilon, momentum, bool(centered)
        self._default_dict.update(rho=rho, epsilon=epsilon, momentum=momentum, centered=self._centered)

    def _update_param(self, param, grad, lr, options) -> None:
        self._warn_low_precision(param)
        rho = options["rho"]
        moment = self._add_accumulator("momentum", param)
        mean_square = self._add_accumulator("mean_square", param)
        mean_grad = self._add_accumulator("mean_grad", param)
        apply_inplace(_EMA_SQUARE, mean_square, (mean_square, grad), {"decay": rho})
        if options["centered"]:
            apply_inplace(_EMA, mean_grad, (mean_grad, grad), {"decay": rho})
        centered_mean = mean_grad if options["centered"] else None
        attrs = {"momentum": options["momentum"], "epsilon": options["epsilon"]}
        apply_inplace(_MOMENT, moment, (moment, grad, mean_square, centered_mean, lr), attrs)
        self._write_param(_PARAM, param, (param, moment), {}, options)
