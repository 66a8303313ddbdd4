"""Adamax: Adam with the infinity norm in place of the second moment."""

from __future__ import annotations

from minipaddle.core.inplace import apply_inplace
from minipaddle.core.op import get_op
from minipaddle.optimizer.adam import check_betas, moments_dtype
from minipaddle.optimizer.optimizer import Optimizer

__all__ = ["Adamax"]

_EMA = get_op("ema")
_INF_NORM = get_op("adamax_inf_norm")
_PARAM = get_op("adamax_param")


class Adamax(Optimizer):
    r"""Adamax (section 7 of the Adam paper):

        moment   = beta1 * moment + (1 - beta1) * grad
        inf_norm = max(beta2 * inf_norm + epsilon, |grad|)
        param    = param - learning_rate / (1 - beta1^t) * moment / inf_norm

    The state is moment, inf_norm and beta1_pow_acc (beta1^t) per parameter.

    Args:
        learning_rate: a float or an LRScheduler (default 0.001).
        beta1, beta2: decay rates (0.9, 0.999), in [0, 1).
        epsilon: keeps inf_norm away from zero (1e-8).
        parameters: the Tensors to update, or a list of parameter-group dicts.
        weight_decay: a float (L2 coefficient), L1Decay/L2Decay, or None.
        grad_clip: a paddle.nn.ClipGradBy* object, or None.
        name: a prefix for the optimizer's state names.

    Example:
        >>> adamax = paddle.optimizer.Adamax(learning_rate=0.01, parameters=linear.parameters())
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, parameters=None,
                 weight_decay=None, grad_clip=None, name=None) -> None:  # fmt: skip
        if learning_rate is None:
            raise ValueError("Adamax: learning_rate is not set")
        beta1, beta2, epsilon = check_betas("Adamax", beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._default_dict.update(beta1=beta1, beta2=beta2, epsilon=epsilon)

    def _update_param(self, param, grad, lr, options) -> None:
        self._warn_low_precision(param)
        beta1 = options["beta1"]
        moment = self._add_accumulator("moment", param, dtype=moments_dtype(param))
        inf_norm = self._add_accumulator("inf_norm", param, dtype=moments_dtype(param))
        beta1_pow = self._add_accumulator("beta1_pow_acc", param, fill_value=beta1, shape=[1])
        apply_inplace(_EMA, moment, (moment, grad), {"decay": beta1})
        apply_inplace(_INF_NORM, inf_norm, (inf_norm, grad), {"beta2": options["beta2"], "epsilon": options["epsilon"]})
        self._write_param(_PARAM, param, (param, moment, inf_norm, lr, beta1_pow), {}, options)
        self._scale_in_place(beta1_pow, beta1)
