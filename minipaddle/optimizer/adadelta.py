"""Adadelta: step sizes from the ratio of past update and gradient magnitudes."""

from __future__ import annotations

from minipaddle import ops
from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.optimizer.optimizer import Optimizer
from minipaddle.tensor.checks import check_number

__all__ = ["Adadelta"]

_EMA_SQUARE = get_op("ema_square")
_SGD = get_op("sgd")


class Adadelta(Optimizer):
    r"""Adadelta (Zeiler, 2012), with paddle 2.6's learning rate on top:

        avg_squared_grad   = rho * avg_squared_grad + (1 - rho) * grad^2
        direction          = sqrt(avg_squared_update + epsilon) / sqrt(avg_squared_grad + epsilon) * grad
        param              = param - learning_rate * direction
        avg_squared_update = rho * avg_squared_update + (1 - rho) * direction^2

    The state is `_avg_squared_grad` and `_avg_squared_update` per parameter (Paddle's names, underscore included).

    Args:
        learning_rate: a float or an LRScheduler (default 0.001).
        epsilon: keeps the square roots away from zero (1e-6).
        rho: the averages' decay rate (0.95).
        parameters: the Tensors to update, or a list of parameter-group dicts.
        weight_decay: a float (L2 coefficient), L1Decay/L2Decay, or None.
        grad_clip: a paddle.nn.ClipGradBy* object, or None.
        name: a prefix for the optimizer's state names.

    Example:
        >>> adadelta = paddle.optimizer.Adadelta(learning_rate=1.0, parameters=linear.parameters())
    """

    def __init__(self, learning_rate=0.001, epsilon=1e-06, rho=0.95, parameters=None, weight_decay=None,
                 grad_clip=None, name=None) -> None:  # fmt: skip
        for value, arg in ((learning_rate, "learning_rate"), (epsilon, "epsilon"), (rho, "rho")):
            if value is None:
                raise ValueError(f"Adadelta: {arg} is not set")
        epsilon = float(check_number(epsilon, "Adadelta", "epsilon"))
        rho = float(check_number(rho, "Adadelta", "rho"))
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon, self._rho = epsilon, rho
        self._default_dict.update(epsilon=epsilon, rho=rho)

    def _update_param(self, param, grad, lr, options) -> None:
        self._warn_low_precision(param)
        rho = options["rho"]
        avg_grad = self._add_accumulator("_avg_squared_grad", param)
        avg_update = self._add_accumulator("_avg_squared_update", param)
        apply_inplace(_EMA_SQUARE, avg_grad, (avg_grad, grad), {"decay": rho})
        direction = ops.adadelta_direction(grad, avg_grad, avg_update, options["epsilon"])
        self._write_param(_SGD, param, (param, direction, lr), {}, options)
        apply_inplace(_EMA_SQUARE, avg_update, (avg_update, direction), {"decay": rho})
