"""Lamb: Adam's direction with a per-tensor trust ratio, for large-batch training."""

from __future__ import annotations

from minipaddle.core.op import get_op
from minipaddle.optimizer.adam import check_betas, update_moments
from minipaddle.optimizer.optimizer import Optimizer
from minipaddle.tensor.checks import check_number

__all__ = ["Lamb"]

_PARAM = get_op("lamb_param")


class Lamb(Optimizer):
    r"""LAMB (You et al., "Large Batch Optimization for Deep Learning: Training BERT in 76 minutes"):

        moment1 = beta1 * moment1 + (1 - beta1) * grad
        moment2 = beta2 * moment2 + (1 - beta2) * grad^2
        r       = (moment1 / (1 - beta1^t)) / (sqrt(moment2 / (1 - beta2^t)) + epsilon) + lamb_weight_decay * param
        param   = param - learning_rate * (||param|| / ||r||) * r

    The trust ratio ||param|| / ||r|| is 1 when either norm is 0, and for parameters without weight decay
    unless always_adapt. The state is moment1, moment2, beta1_pow_acc and beta2_pow_acc per parameter.

    Args:
        learning_rate: a float or an LRScheduler (default 0.001).
        lamb_weight_decay: the decay coefficient inside r (0.01).
        beta1, beta2, epsilon: as in Adam (0.9, 0.999, 1e-6).
        parameters: the Tensors to update, or a list of parameter-group dicts.
        grad_clip: a paddle.nn.ClipGradBy* object, or None.
        exclude_from_weight_decay_fn: a function param -> bool; True means no decay for that parameter.
        multi_precision: keep a float32 copy of float16 parameters and update that.
        always_adapt: apply the trust ratio to parameters without weight decay too.
        name: a prefix for the optimizer's state names.

    Example:
        >>> lamb = paddle.optimizer.Lamb(learning_rate=0.002, parameters=linear.parameters(), lamb_weight_decay=0.01)
    """

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999, epsilon=1e-06,
                 parameters=None, grad_clip=None, exclude_from_weight_decay_fn=None, multi_precision=False,
                 always_adapt=False, name=None) -> None:  # fmt: skip
        if learning_rate is None:
            raise ValueError("Lamb: learning_rate is not set")
        beta1, beta2, epsilon = check_betas("Lamb", beta1, beta2, epsilon)
        decay = float(check_number(lamb_weight_decay, "Lamb", "lamb_weight_decay"))
        if exclude_from_weight_decay_fn is not None and not callable(exclude_from_weight_decay_fn):
            raise TypeError(f"Lamb: exclude_from_weight_decay_fn must be a function or None, "
                            f"got {type(exclude_from_weight_decay_fn).__name__}")  # fmt: skip
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lamb_weight_decay = decay
        self._exclude_from_weight_decay_fn = exclude_from_weight_decay_fn
        self._multi_precision = bool(multi_precision)
        self.always_adapt = bool(always_adapt)
        self._default_dict.update(beta1=beta1, beta2=beta2, epsilon=epsilon, lamb_weight_decay=decay,
                                  exclude_from_weight_decay_fn=exclude_from_weight_decay_fn)  # fmt: skip

    def _update_param(self, param, grad, lr, options) -> None:
        beta1, beta2 = options["beta1"], options["beta2"]
        exclude = options["exclude_from_weight_decay_fn"]
        decay = 0.0 if exclude is not None and exclude(options["param"]) else options["lamb_weight_decay"]
        moment1, moment2, beta1_pow, beta2_pow = update_moments(self, param, grad, beta1, beta2)
        attrs = {"epsilon": options["epsilon"], "weight_decay": decay, "always_adapt": self.always_adapt}
        self._write_param(_PARAM, param, (param, moment1, moment2, lr, beta1_pow, beta2_pow), attrs, options)
        self._scale_in_place(beta1_pow, beta1)
        self._scale_in_place(beta2_pow, beta2)
