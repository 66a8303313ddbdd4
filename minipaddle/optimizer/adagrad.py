"""Adagrad: per-element learning rates from the sum of squared gradients."""

from __future__ import annotations

from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.optimizer.optimizer import Optimizer
from minipaddle.tensor.checks import check_number

__all__ = ["Adagrad"]

_MOMENT = get_op("adagrad_moment")
_PARAM = get_op("adagrad_param")


class Adagrad(Optimizer):
    r"""Adagrad (Duchi et al., 2011):

        moment = moment + grad * grad
        param  = param - learning_rate * grad / (sqrt(moment) + epsilon)

    Elements that have seen large gradients take ever smaller steps. The state is `moment` per parameter,
    starting at initial_accumulator_value.

    Args:
        learning_rate: a float or an LRScheduler (required).
        epsilon: keeps the division finite (1e-6).
        parameters: the Tensors to update, or a list of parameter-group dicts.
        weight_decay: a float (L2 coefficient), L1Decay/L2Decay, or None.
        grad_clip: a paddle.nn.ClipGradBy* object, or None.
        name: a prefix for the optimizer's state names.
        initial_accumulator_value: the moment's starting value (0.0).

    Example:
        >>> adagrad = paddle.optimizer.Adagrad(learning_rate=0.1, parameters=linear.parameters())
    """

    def __init__(self, learning_rate, epsilon=1e-06, parameters=None, weight_decay=None, grad_clip=None, name=None,
                 initial_accumulator_value=0.0) -> None:  # fmt: skip
        if learning_rate is None:
            raise ValueError("Adagrad: learning_rate is not set")
        epsilon = float(check_number(epsilon, "Adagrad", "epsilon"))
        initial = float(check_number(initial_accumulator_value, "Adagrad", "initial_accumulator_value"))
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon = epsilon
        self.initial_accumulator_value = initial
        self._default_dict.update(epsilon=epsilon, initial_accumulator_value=initial)

    def _update_param(self, param, grad, lr, options) -> None:
        self._warn_low_precision(param)
        moment = self._add_accumulator("moment", param, fill_value=options["initial_accumulator_value"])
        apply_inplace(_MOMENT, moment, (moment, grad))
        self._write_param(_PARAM, param, (param, grad, moment, lr), {"epsilon": options["epsilon"]}, options)
